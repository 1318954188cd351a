// gentt::permute / plan_permute against the NumPy model: random shapes of every class, every
// element size, contiguous and strided views, threads, guard pages, errors, the plan cache and
// registered kernels.
#include <catch2/catch.hpp>

#include <gentt/cpu.h>
#include <gentt/permute.h>
#include <gentt/reference.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <initializer_list>
#include <random>
#include <thread>

#include "tests/runtime/guarded_buffer.h"
#include "tests/runtime/permute_test_util.h"

namespace {

using gentt::test::GuardedBuffer;
using gentt::test::Perm;
using gentt::test::Shape;

Shape permuted(const Shape& shape, const Perm& perm) {
  Shape out(shape.size());
  for (size_t k = 0; k < perm.size(); ++k) out[k] = shape[perm[k]];
  return out;
}

// The NumPy definition on strided views: out_view[j] = in_view[i], i[perm[k]] = j[k].
void model_strided(const std::byte* in, std::byte* out, std::int64_t e, const Shape& shape, const Perm& perm,
                   const Shape& is, const Shape& os) {
  const size_t rank = shape.size();
  const Shape out_shape = permuted(shape, perm);
  std::vector<std::int64_t> j(rank, 0);
  const std::int64_t n = gentt::test::element_count(shape);
  for (std::int64_t t = 0; t < n; ++t) {
    std::int64_t io = 0, oo = 0;
    for (size_t k = 0; k < rank; ++k) {
      io += j[k] * is[perm[k]];
      oo += j[k] * os[k];
    }
    std::memcpy(out + oo * e, in + io * e, static_cast<size_t>(e));
    for (size_t k = rank; k-- > 0;) {
      if (++j[k] < out_shape[k]) break;
      j[k] = 0;
    }
  }
}

struct Case {
  Shape shape;
  Perm perm;
  std::int64_t elem = 4;
};

std::string describe(const Case& c) {
  return "elem " + std::to_string(c.elem) + " shape " + gentt::test::to_string(c.shape) + " perm " +
         gentt::test::to_string(c.perm);
}

// The descriptor of contiguous case c on `isa` with `threads`.
gentt::PermuteDesc desc_of(const Case& c, const std::string& isa, int threads = 1) {
  gentt::PermuteDesc d;
  d.elem_bytes = c.elem;
  d.shape = c.shape;
  d.perm = c.perm;
  d.isa = isa;
  d.threads = threads;
  return d;
}

// Runs one contiguous case through plan_permute on `isa` with each thread count of `threads`,
// with guard pages on both sides of both tensors (the output once at the end of its pages, once
// page-aligned), against reference_permute: one input and one reference output for all thread
// counts (random bytes and the reference were most of the large cases' time).
void check_contiguous(const Case& c, const std::string& isa, std::initializer_list<int> threads,
                      std::mt19937_64& rng) {
  const std::int64_t n = gentt::test::element_count(c.shape);
  const auto bytes = static_cast<size_t>(n * c.elem);
  GuardedBuffer in(bytes);
  const auto data = gentt::test::random_bytes(rng, bytes);
  std::memcpy(in.data(), data.data(), bytes);
  std::vector<std::byte> expected(bytes);
  gentt::reference_permute(data.data(), expected.data(), static_cast<size_t>(c.elem), c.shape, c.perm);
  for (const int t : threads) {
    const gentt::PermutePlan plan = gentt::plan_permute(desc_of(c, isa, t));
    INFO(describe(c) << " isa " << isa << " threads " << t << "\n" << plan.describe());
    for (auto align : {GuardedBuffer::Align::end, GuardedBuffer::Align::start}) {
      GuardedBuffer out(bytes, align);
      plan.execute(in.data(), out.data());
      const std::span<const std::byte> got(out.data(), bytes);
      INFO(gentt::test::first_difference(expected, got, static_cast<size_t>(c.elem), permuted(c.shape, c.perm)));
      REQUIRE(std::memcmp(expected.data(), out.data(), bytes) == 0);
    }
    // Parts, last first (execute_part): disjoint, covering, any order.
    const int nparts = 1 + static_cast<int>(rng() % 7);
    GuardedBuffer parts_out(bytes);
    for (int p = nparts - 1; p >= 0; --p) plan.execute_part(in.data(), parts_out.data(), p, nparts);
    INFO("execute_part in " << nparts << " parts");
    REQUIRE(std::memcmp(expected.data(), parts_out.data(), bytes) == 0);
  }
}
void check_contiguous(const Case& c, const std::string& isa, int threads, std::mt19937_64& rng) {
  check_contiguous(c, isa, {threads}, rng);
}

// What plan_permute chose for a contiguous case on `isa` (PermutePlan::describe).
std::string plan_text(const Case& c, const std::string& isa) { return gentt::plan_permute(desc_of(c, isa)).describe(); }

Case random_case(std::mt19937_64& rng, std::int64_t max_elements) {
  static const std::int64_t sizes[] = {1, 2, 4, 8, 4, 2, 1, 16, 3, 5, 6, 12, 24, 32, 64, 100};
  Case c;
  c.elem = sizes[rng() % std::size(sizes)];
  const size_t rank = rng() % 9;
  const std::int64_t max_extent = rank <= 2 ? 300 : rank <= 4 ? 40 : 9;
  c.shape = gentt::test::random_shape(rng, rank, max_extent, max_elements);
  c.perm = gentt::test::random_permutation(rng, rank);
  return c;
}

}  // namespace

TEST_CASE("permute: random contiguous problems of every class match the reference", "[permute]") {
  std::mt19937_64 rng(20261123);
  for (int i = 0; i < 400; ++i) {
    const Case c = random_case(rng, 1 << 16);
    check_contiguous(c, "auto", 1, rng);
    if (i % 4 == 0) check_contiguous(c, "scalar", 1, rng);
    if (i % 4 == 1 && gentt::cpu_supports("avx2")) check_contiguous(c, "avx2", 1, rng);
  }
}

TEST_CASE("permute: AVX-512 without VBMI (avx512skx) moves bytes with word permutes", "[permute]") {
  if (!gentt::cpu_supports("avx512skx")) {
    WARN("this CPU lacks AVX-512 F/BW/VL: the avx512skx engine is not checked here");
    return;
  }
  // Byte-unit elements (1, 3, 5, 7 bytes) on the F/BW/VL engine, whose 1-byte shuffles are two
  // vpermt2w and two vpshufb; 2-byte ones for its other units. Where the CPU has VBMI, "avx512"
  // takes the VBMI engine (vpermt2b) for the same plans: both must agree with the reference.
  std::mt19937_64 rng(1313);
  int skx = 0, vbmi = 0;
  static const std::int64_t sizes[] = {1, 3, 5, 7, 1, 2};
  for (int i = 0; i < 80; ++i) {
    Case c = random_case(rng, 1 << 15);
    c.elem = sizes[rng() % std::size(sizes)];
    for (const char* isa : {"avx512skx", "avx512"}) {
      const std::string text = plan_text(c, isa);
      // Block plans say "engine: avx512skx, ..." and "avx512 (no VBMI)" on the F/BW/VL engine,
      // "engine: avx512, ..." on the VBMI one.
      if (std::string(isa) == "avx512skx") CHECK(text.find("engine: avx512,") == std::string::npos);
      skx += text.find("avx512 (no VBMI)") != std::string::npos;
      vbmi += text.find("engine: avx512,") != std::string::npos;
      check_contiguous(c, isa, 1 + i % 2, rng);
    }
  }
  CHECK(skx >= 20);
  if (gentt::cpu_supports("avx512")) CHECK(vbmi >= 20);
}

TEST_CASE("permute: AVX2 moves bytes and 16-bit elements with byte shuffles", "[permute]") {
  if (!gentt::cpu_supports("avx2")) {
    WARN("this CPU lacks AVX2: the AVX2 engine's byte shuffles are not checked here");
    return;
  }
  // 1-, 2- and odd-byte elements: passes in 1-byte units (vpshufb of both sources and of their
  // swapped lanes), tails of any byte count, lean 16-register bodies for 16-bit elements.
  std::mt19937_64 rng(2611240);
  static const std::int64_t sizes[] = {1, 2, 1, 3, 2, 5, 6, 7};
  int avx2 = 0;
  for (int i = 0; i < 120; ++i) {
    Case c = random_case(rng, 1 << 15);
    c.elem = sizes[i % std::size(sizes)];
    const std::string text = plan_text(c, "avx2");
    avx2 += text.find("engine: avx2") != std::string::npos &&
            (text.find("1-byte units") != std::string::npos || text.find("1-byte lanes") != std::string::npos);
    check_contiguous(c, "avx2", 1 + i % 2, rng);
  }
  CHECK(avx2 >= 40);
  // Named shapes: uint8 and uint16 transposes (full blocks, lane-crossing passes), RGB planar to
  // interleaved, odd extents, and a 34 MiB uint8 transpose whose cached walk is tiled and which
  // has no streaming variant: its block reads 1 KiB, so a streaming walk would not be tiled
  // (ir/tiling.h), and untiled it would write the two halves of a line far apart. (Streamed in
  // the tiles, the generated kernel ran at 0.80x of this cached walk.)
  const std::vector<Case> cases = {
      {{256, 320}, {1, 0}, 1},     {{3, 224, 224}, {1, 2, 0}, 1}, {{224, 224, 3}, {2, 0, 1}, 1},
      {{33, 65, 17}, {2, 0, 1}, 2}, {{64, 64, 64}, {2, 1, 0}, 2},  {{31, 29, 3}, {1, 0, 2}, 1},
      {{16, 16, 16, 16}, {3, 1, 0, 2}, 2}, {{6144, 5800}, {1, 0}, 1}, {{100, 300, 3}, {2, 0, 1}, 1},
  };
  // RGB interleaved to planar: its lane-crossing byte pass gathers each output dword from one
  // 16-byte lane (two in-lane vpshufb, an or, one vpermd: kGatherBytes).
  CHECK(plan_text(Case{{224, 224, 3}, {2, 0, 1}, 1}, "avx2").find("1-byte units gathered into dwords") !=
        std::string::npos);
  for (const Case& c : cases) {
    const std::string text = plan_text(c, "avx2");
    INFO(text);
    CHECK(text.find("engine: avx2") != std::string::npos);
    if (c.shape[0] == 6144) {
      // Tiled, or assembled from the split problem (6144 x 5800 divide: ir/assembly.h).
      CHECK((text.find("loops: tiles of") != std::string::npos || text.find("assembled: canonical") != std::string::npos));
      CHECK(text.find("stores: cached (the two 32-byte halves") != std::string::npos);
    }
    check_contiguous(c, "avx2", {1, 2}, rng);
  }
  // A kept 3-element axis among the register bits (seed 002's uint16 reversal, small): the
  // padded registers move nothing, so the full program is affine over the others and runs the
  // lean body; its output rows of 9 elements take AVX2's overlapping partial stores. Then
  // kept runs of 1..15 odd-sized elements: partial stores of every byte count.
  const Case seed002{{3, 4, 8, 5, 3}, {3, 2, 1, 0, 4}, 2};
  const std::string text = plan_text(seed002, "avx2");
  INFO(text);
  CHECK(text.find("(lean") != std::string::npos);
  check_contiguous(seed002, "avx2", {1, 2}, rng);
  for (std::int64_t kept = 1; kept <= 15; ++kept)
    for (std::int64_t elem : {1, 2, 3}) check_contiguous(Case{{7, 9, kept}, {1, 0, 2}, elem}, "avx2", 1, rng);
}

TEST_CASE("permute: AVX2 and AVX-512 run plain lane exchanges in fixed forms", "[permute]") {
  // Transposes of 1-, 2-, 4- and 8-byte elements: every butterfly pass is the plain exchange of
  // one byte-lane bit (32-, 16-, 8-, 4-, 2- and 1-byte lanes), run as permute2x128 / vshufi64x2,
  // a masked vpermq, unpack, a masked vpshufd, or a shift and a blend; with tails (lean masks)
  // and a float64 plan whose lean body prefetches.
  std::mt19937_64 rng(2611241);
  const std::vector<Case> cases = {
      {{64, 96}, {1, 0}, 8},   {{128, 64}, {1, 0}, 4},       {{64, 64, 64}, {2, 1, 0}, 2},
      {{256, 320}, {1, 0}, 1}, {{37, 70, 5}, {1, 0, 2}, 4},  {{33, 65, 17}, {2, 0, 1}, 8},
      {{16, 16, 16, 16, 16}, {4, 3, 0, 1, 2}, 8},
      // Lean bodies in fixed forms (LeanBody's Fixed): runs of full blocks 4 (complex128, 2
      // registers), 2 (float64, 4 registers) and 1 at a time, whole runs of the two innermost
      // loops in one call, tails on one or both rows, parts that end inside runs.
      {{40, 36, 12}, {2, 1, 0}, 16},
      {{17, 17, 17, 17}, {2, 0, 3, 1}, 8},
      {{9, 33, 14, 11}, {3, 1, 0, 2}, 8},
      {{64, 48, 32}, {2, 0, 1}, 2},
      {{24, 20, 40}, {1, 2, 0}, 4},
      // Whole iterations of the third-innermost loop in one call (no tails in the three
      // innermost loops), parts that end inside them.
      {{8, 8, 8, 8, 8, 8}, {4, 1, 2, 5, 3, 0}, 8},
      {{16, 8, 16, 8, 16}, {3, 1, 4, 2, 0}, 8},
      // Padded rows (5 of 8 lanes, 9 of 16): lanes no output reads are don't-cares, and the
      // passes are still plain exchanges (SimdProgram::plain_lane_bit).
      {{13, 11, 9, 7, 5}, {4, 3, 2, 1, 0}, 8},
      {{33, 65, 17, 9}, {3, 1, 0, 2}, 4},
  };
  for (const char* isa : {"avx2", "avx512", "avx512skx"}) {
    if (!gentt::cpu_supports(isa)) {
      WARN("this CPU cannot run " << isa << ": that engine's fixed butterfly forms are not checked here");
      continue;
    }
    int fixed = 0;
    for (const Case& c : cases) {
      const std::string text = plan_text(c, isa);
      INFO(isa << ": " << text);
      CHECK(text.find(std::string("engine: ") + (std::string(isa) == "avx2" ? "avx2" : "avx512")) != std::string::npos);
      // (Byte blocks on AVX-512 split their rows: the split-row engine's fixed exchanges.)
      if (c.shape.size() <= 3 && c.perm[0] == static_cast<int>(c.shape.size()) - 1)
        CHECK((text.find("plain exchange of") != std::string::npos ||
               text.find("split-row byte blocks: 32 registers of two 32-byte runs, 5 fixed exchanges") != std::string::npos));
      fixed += text.find("full blocks in fixed forms") != std::string::npos;
      // Padded rows with short innermost runs that end in a tail: fixed forms on every engine
      // (AVX2 once kept the plain lean body for them).
      if (c.shape.size() >= 4 && (c.shape[0] == 13 || c.shape[0] == 33))
        CHECK(text.find("full blocks in fixed forms") != std::string::npos);
      check_contiguous(c, isa, {1, 2, 3}, rng);
    }
    INFO(isa);
    CHECK(fixed >= 6);
  }
}

TEST_CASE("permute: all-size-2 tensors up to rank 16", "[permute]") {
  std::mt19937_64 rng(7);
  // Most of their SIMD plans with 16 registers or fewer have register offsets outside the lean
  // body's affine rule: the lean body adds them from per-bit steps (LeanBody's Tab; AVX2 up to 8
  // registers in the plain body and 16 in the fixed forms, AVX-512 16 in both). The last 30
  // have one axis of 3 or 5 (tail and padded programs in those bodies too). Plans whose passes
  // are not all the fixed lane exchanges run the plain Tab body (index vectors in registers).
  const char* const isas[] = {"avx2", "avx512", "avx512skx"};
  int tabled[3] = {}, plain_tabled[3] = {};
  for (int i = 0; i < 90; ++i) {
    Case c;
    const size_t rank = 1 + rng() % 16;
    c.shape.assign(rank, 2);
    if (i >= 60) c.shape[rng() % rank] = 3 + 2 * (rng() % 2);
    c.perm = gentt::test::random_permutation(rng, rank);
    c.elem = std::int64_t{1} << (rng() % 4);
    check_contiguous(c, "auto", 1, rng);
    for (int k = 0; k < 3; ++k) {
      if (!gentt::cpu_supports(isas[k])) continue;
      const std::string text = plan_text(c, isas[k]);
      const bool tab = text.find("register offsets from per-bit steps") != std::string::npos;
      tabled[k] += tab;
      plain_tabled[k] += tab && text.find("fixed forms") == std::string::npos;
      check_contiguous(c, isas[k], {1, 2}, rng);
    }
  }
  for (int k = 1; k < 3; ++k) {
    if (!gentt::cpu_supports(isas[k])) {
      WARN("this CPU cannot run " << isas[k] << ": its Tab bodies are not checked here");
      continue;
    }
    INFO(isas[k] << ": tabled " << tabled[k] << ", of them plain " << plain_tabled[k]);
    CHECK(tabled[k] >= 10);
    CHECK(plain_tabled[k] >= 5);
    // Blocks of 16 registers (two groups of 8) in the fixed forms' Tab body: float32 2^10 (4 KiB,
    // 4 blocks) and 2^14; in the plain one (a general 2-byte pass): uint16 2^14.
    const std::vector<Case> wide = {
        {{2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, 4},
        {std::vector<std::int64_t>(14, 2), {6, 13, 1, 12, 0, 10, 7, 9, 2, 11, 8, 3, 5, 4}, 4},
        {std::vector<std::int64_t>(14, 2), {0, 7, 2, 10, 3, 13, 6, 9, 12, 5, 11, 8, 4, 1}, 2},
    };
    for (const Case& c : wide) {
      const std::string text = plan_text(c, isas[k]);
      INFO(text);
      CHECK(text.find("16 registers") != std::string::npos);
      CHECK(text.find(c.elem == 4 ? "(lean; full blocks in fixed forms; register offsets from per-bit steps)"
                                  : "(lean; register offsets from per-bit steps)") != std::string::npos);
      check_contiguous(c, isas[k], {1, 2}, rng);
    }
  }
  if (gentt::cpu_supports("avx2")) {
    INFO("avx2: tabled " << tabled[0] << ", of them plain " << plain_tabled[0]);
    CHECK(tabled[0] >= 10);
    CHECK(plain_tabled[0] >= 10);
    // The plain Tab body from kPlainTabMinBlocks (8) blocks: 16 float32 blocks take it, one block
    // (64 elements) keeps the generic body.
    const std::string large = plan_text({{2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, {3, 5, 6, 2, 0, 4, 9, 7, 1, 8}, 4}, "avx2");
    CHECK(large.find("(lean; register offsets from per-bit steps)") != std::string::npos);
    const std::string small = plan_text({{2, 2, 2, 2, 2, 2}, {2, 1, 5, 3, 0, 4}, 4}, "avx2");
    CHECK(small.find("(lean") == std::string::npos);
    check_contiguous({{2, 2, 2, 2, 2, 2}, {2, 1, 5, 3, 0, 4}, 4}, "avx2", 1, rng);
    // 16-bit elements: blocks of 16 registers, in the fixed forms' Tab body (two groups of 8).
    const std::vector<Case> wide = {
        {{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, {11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, 2},
        {{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, {2, 11, 8, 15, 12, 4, 1, 7, 13, 5, 14, 0, 3, 10, 9, 6}, 2},
    };
    for (const Case& c : wide) {
      const std::string text = plan_text(c, "avx2");
      INFO(text);
      CHECK(text.find("16 registers") != std::string::npos);
      CHECK(text.find("full blocks in fixed forms; register offsets from per-bit steps") != std::string::npos);
      check_contiguous(c, "avx2", {1, 2}, rng);
    }
  }
}

TEST_CASE("permute: odd extents, short axes moved across, matrices", "[permute]") {
  std::mt19937_64 rng(11);
  const std::vector<Case> cases = {
      {{3, 224, 224}, {1, 2, 0}, 1},   {{224, 224, 3}, {2, 0, 1}, 4},   {{511, 513}, {1, 0}, 4},
      {{7, 9, 5, 11, 13}, {4, 3, 2, 1, 0}, 8}, {{64, 33}, {1, 0}, 2},   {{1000, 3}, {1, 0}, 1},
      {{5, 1, 7, 1}, {3, 2, 1, 0}, 4}, {{1}, {0}, 4},                   {{}, {}, 16},
      {{4096}, {0}, 4},                {{12, 32, 8, 2}, {3, 0, 1, 2}, 2},  {{17, 17, 17}, {2, 0, 1}, 16},
      // float32 rows of 20, 24 and 28 bytes (AVX2: the second half by one vpermd) and 4-float
      // tails (one 16-byte store).
      {{3, 224, 224}, {1, 2, 0}, 4},   {{5, 64, 48}, {1, 2, 0}, 4},     {{6, 40, 40}, {1, 2, 0}, 4},
      {{7, 32, 33}, {1, 2, 0}, 4},     {{6, 10, 12, 14, 8}, {1, 4, 0, 3, 2}, 4},
  };
  for (const Case& c : cases)
    for (const char* isa : {"auto", "scalar", "avx2"})
      if (gentt::cpu_supports(isa) || std::string(isa) == "auto") check_contiguous(c, isa, 1, rng);
}

TEST_CASE("permute: tail blocks as the full block's shuffles with their own masks (lean engine)", "[permute]") {
  // Tail-heavy shapes: 7 of 8 lanes (15), 1 of 8 (17, element moves), tails on the input and the
  // output row together, the last block's missing rows past the end of the input (guard page).
  std::mt19937_64 rng(1523);
  const std::vector<Case> cases = {
      {{15, 15, 15}, {2, 1, 0}, 8},     {{15, 15, 15, 15}, {3, 2, 1, 0}, 8}, {{17, 17, 17, 17}, {2, 0, 3, 1}, 8},
      {{15, 15, 15, 15}, {2, 0, 3, 1}, 8}, {{9, 7, 13}, {2, 1, 0}, 4},     {{31, 33, 5}, {1, 2, 0}, 4},
      {{23, 19}, {1, 0}, 16},           {{30, 29}, {1, 0}, 2},             {{13, 14, 15}, {2, 0, 1}, 6},
  };
  int lean = 0;
  for (const Case& c : cases)
    for (const char* isa : {"auto", "avx2"}) {
      if (!gentt::cpu_supports(isa) && std::string(isa) != "auto") continue;
      lean += plan_text(c, isa).find("(lean") != std::string::npos;
      check_contiguous(c, isa, {1, 2}, rng);
    }
  if (gentt::cpu_supports("avx2")) CHECK(lean >= 4);
}

TEST_CASE("permute: AVX-512 runs padded blocks straight-line and the fixed forms with a last pass from index vectors", "[permute]") {
  // Padded rows (uniform programs: every register moves the same lanes) whose registers lie
  // inside the input run LeanBody::uniform_affine_run: whole loads at affine addresses, the
  // registers the program skips (padding) zero and unstored; the others, and the runs whose
  // padded registers reach past the input, masked_runs. Plans whose passes are the fixed lane
  // exchanges but for the last (LeanBody's HeldLast: a padded row's last pass also closes its
  // gaps) run the fixed forms with that pass from index vectors. Random shapes (seeded) that take
  // the HeldLast body, HWC <-> CHW, odd extents; guard pages, 1-3 threads, parts inside runs.
  std::mt19937_64 rng(2811261);
  const std::vector<Case> cases = {
      {{7, 9, 5, 11, 13}, {4, 3, 2, 1, 0}, 4}, {{6, 10, 12, 14, 9}, {1, 4, 0, 3, 2}, 4},
      {{224, 224, 3}, {2, 0, 1}, 1},           {{224, 224, 3}, {2, 0, 1}, 4},
      {{100, 300, 3}, {2, 0, 1}, 1},           {{8, 64, 64, 3}, {0, 3, 1, 2}, 4},
      {{5, 49, 16}, {1, 2, 0}, 2},             {{4, 40, 65}, {1, 2, 0}, 4},
      {{2, 6, 6, 8, 48}, {2, 3, 0, 4, 1}, 4},  {{6, 64, 12}, {2, 1, 0}, 4},
      {{32, 5, 53, 2}, {0, 2, 1, 3}, 2},       {{5, 50, 28, 20}, {3, 2, 1, 0}, 4},
      {{8, 41, 8, 34}, {1, 0, 3, 2}, 2},       {{10, 18, 6, 28, 6}, {3, 4, 1, 0, 2}, 4},
      {{7, 24, 3, 11}, {3, 2, 1, 0}, 4},       {{12, 2, 5, 61, 15}, {4, 1, 3, 0, 2}, 4},
      {{16, 15, 3, 32}, {1, 2, 3, 0}, 1},      {{5, 24, 64, 13}, {1, 2, 3, 0}, 1},
      {{6, 5, 14, 64, 7}, {1, 3, 4, 2, 0}, 4}, {{12, 3, 3, 35, 35}, {2, 0, 3, 4, 1}, 8},
  };
  for (const char* isa : {"avx512", "avx512skx"}) {
    if (!gentt::cpu_supports(isa)) {
      WARN("this CPU cannot run " << isa << ": its padded blocks and HeldLast bodies are not checked here");
      continue;
    }
    int held_last = 0;
    for (const Case& c : cases) {
      const std::string text = plan_text(c, isa);
      INFO(isa << ": " << text);
      held_last += text.find("full blocks in fixed forms but the last pass") != std::string::npos;
      check_contiguous(c, isa, {1, 2, 3}, rng);
    }
    INFO(isa);
    CHECK(held_last >= 12);
  }
}

TEST_CASE("permute: AVX-512 runs programs whose registers move different lanes under their own masks", "[permute]") {
  // Programs that are not uniform (their registers load or store different lanes: output rows
  // of 7 elements paired in registers but for the fifth row, stores of 56, 56 and 28 bytes) and
  // are not all whole vectors run LeanBody::masked_runs on AVX-512: each register under its own
  // mask, whole loads where the run's registers lie inside the input, masked ones for the runs
  // and blocks that reach past it (guard page after the input), and the uniform programs' runs
  // that reach past it too. Random in-cache shapes (seeded) whose tail or full programs are such,
  // bytes among them (VBMI and the word-permute form); `out` on and off a line, 1-3 threads, parts.
  std::mt19937_64 rng(2811282);
  const std::vector<Case> cases = {
      {{11, 13, 7, 9, 5}, {1, 3, 0, 4, 2}, 4}, {{23, 7, 5, 20, 5}, {3, 0, 1, 4, 2}, 4},
      {{17, 9, 21, 26}, {1, 0, 3, 2}, 1},      {{37, 5, 27, 29}, {1, 3, 0, 2}, 1},
      {{37, 11, 10, 12}, {0, 3, 1, 2}, 1},     {{10, 18, 25, 4}, {0, 3, 2, 1}, 4},
      {{17, 20, 12, 37}, {2, 0, 3, 1}, 2},     {{15, 15, 27, 10}, {0, 3, 1, 2}, 8},
      {{33, 28, 7, 13}, {3, 2, 1, 0}, 4},      {{13, 17, 19}, {2, 0, 1}, 4},
      {{33, 45, 21}, {1, 2, 0}, 4},            {{64, 80, 6}, {2, 0, 1}, 4},
  };
  for (const char* isa : {"avx512", "avx512skx"}) {
    if (!gentt::cpu_supports(isa)) {
      WARN("this CPU cannot run " << isa << ": its masked runs are not checked here");
      continue;
    }
    for (const Case& c : cases)
      check_contiguous(c, isa, {1, 3}, rng);
  }
}

TEST_CASE("permute: plain lean bodies run whole runs of full blocks (run_full without fixed forms)", "[permute]") {
  // Plans whose passes are not all plain lane exchanges (a dword or byte pass among them) with
  // whole-vector blocks: their full blocks go through LeanBody::run_full, three loops at a time
  // (6,40,4,32), streamed where out is on a line (1048576,4: 16 MiB), in parts and threads.
  std::mt19937_64 rng(3161);
  const std::vector<Case> cases = {
      {{64, 32, 32, 4}, {0, 3, 1, 2}, 4}, {{6, 40, 4, 32}, {1, 0, 3, 2}, 4}, {{96, 96, 4}, {2, 0, 1}, 4},
      {{3, 100, 96, 4}, {0, 3, 1, 2}, 4}, {{4, 160, 160}, {1, 2, 0}, 1},   {{6, 64, 80}, {1, 2, 0}, 2},
      {{1048576, 4}, {1, 0}, 4},
  };
  int plain = 0;
  for (const Case& c : cases)
    for (const char* isa : {"auto", "avx2"}) {
      if (!gentt::cpu_supports(isa) && std::string(isa) != "auto") continue;
      const std::string text = plan_text(c, isa);
      plain += std::string(isa) == "avx2" && text.find("(lean)") != std::string::npos;
      check_contiguous(c, isa, {1, 2}, rng);
    }
  if (gentt::cpu_supports("avx2")) CHECK(plain >= 5);
}

TEST_CASE("permute: large outputs (streaming variant) and threads", "[permute]") {
  std::mt19937_64 rng(3);
  const std::vector<Case> cases = {
      {{4096, 2050}, {1, 0}, 4},          // 32 MiB: tiles with remainders; AVX-512 streams untiled
      {{1024, 1100}, {1, 0}, 4},          // 4.3 MiB: tiles with remainders (AVX2; AVX-512 from 8 MiB: untiled)
      {{64, 64, 300}, {2, 1, 0}, 4},      // rows not on lines: cached variant
      {{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, {19, 3, 5, 0, 1, 2, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}, 4},
      {{300, 200, 30}, {2, 0, 1}, 2},
      {{2048, 1024}, {1, 0}, 4},          // 8 MiB: tiled loops (32x32 blocks)
      {{1024, 3, 1024}, {2, 1, 0}, 2},    // 6 MiB of 16-bit elements
      {{2048, 2049}, {1, 0}, 8},          // 32 MiB with 1-of-8 tails: lean streaming plan
      // 25 MiB of 16-bit elements, (238336, 55) transposed: streamed tail blocks of 23 of 32 lanes
      // in batches (whole-vector loads but for the tensor's last block, run_whole)
      {{224, 19, 56, 55}, {3, 0, 1, 2}, 2},
  };
  for (const Case& c : cases) check_contiguous(c, "auto", {1, 2, 3, 0}, rng);
  // 50 MiB of odd extents: loops too short for tiles, walked from the block outwards
  // (LoopOrder::balanced), with tail blocks on every block axis.
  {
    const Case odd{{15, 15, 15, 15, 15, 17}, {3, 2, 4, 1, 5, 0}, 4};
    const std::string text = plan_text(odd, "auto");
    INFO(text);
    if (text.find("engine: scalar") == std::string::npos)
      CHECK((text.find("loops ordered from the block outwards") != std::string::npos ||
             text.find("output lines assembled") != std::string::npos));
    check_contiguous(odd, "auto", 2, rng);  // two parts (one part walks the same nest)
  }
  // Staged output (ir/staging.h): 36 MiB whose rows are not on lines (no streaming variant); the
  // inner loops write contiguous tiles of 13500 bytes, assembled in a buffer and streamed out.
  // Whole tiles and the partial ones at the ends of parts (threads, execute_part), out on a line
  // and off it, on each SIMD engine.
  {
    const Case staged{{12, 15, 15, 15, 15, 15}, {0, 1, 3, 5, 2, 4}, 4};
    for (const char* isa : {"auto", "avx2"}) {
      if (!gentt::cpu_supports(isa) && std::string(isa) != "auto") continue;
      const std::string text = plan_text(staged, isa);
      INFO(text);
      if (text.find("engine: scalar") == std::string::npos)
        CHECK((text.find("staged: output tiles of 13500 bytes") != std::string::npos ||
               text.find("output lines assembled") != std::string::npos));
      // The SIMD engines' staged blocks prefetch the next tile's input (plan_permute's staged_prefetch).
      if (text.find("staged: output tiles") != std::string::npos)
        CHECK((text.find("the next tile's input prefetched") != std::string::npos) ==
              (text.find("engine: avx512") != std::string::npos || text.find("engine: avx2") != std::string::npos));
      check_contiguous(staged, isa, {1, 3}, rng);
    }
  }
  // Output lines assembled across tiles (ir/assembly.h, AVX-512 and AVX2 engines): 34 MiB whose output
  // rows of 136 bytes are off the lines; each tile reads 39304 contiguous input bytes and writes
  // 136 bytes to each of 289 streams, which the chain loop (51 iterations) continues. And 87 MiB
  // in tiles of 15 x 2 x 2 blocks (27000 input bytes) whose loop above the tail runs steps 1800
  // and 2040 bytes: the tile walk batches the tail runs over it all the same
  // (PrepareOptions::cached_tile). And 45 MiB whose 4 KiB tiles would write 289 streams: AVX-512
  // takes the generated kernels' 2312-byte tiles of 17 streams (kRuntimeAssemblyMaxStreams). Whole
  // tiles, the partial ones at the ends of parts (threads, execute_part), out on a line and off it.
  {
    const Case chained{{3, 17, 17, 17, 17, 17}, {2, 5, 4, 0, 1, 3}, 8};
    const Case batched{{15, 15, 15, 15, 15, 15}, {0, 1, 3, 5, 2, 4}, 8};
    const Case few_streams{{4, 17, 17, 17, 17, 17}, {2, 0, 5, 3, 1, 4}, 8};
    for (const Case* c : {&chained, &batched, &few_streams})
      for (const char* isa : {"auto", "avx2"}) {
        if (!gentt::cpu_supports(isa) && std::string(isa) != "auto") continue;
        const std::string text = plan_text(*c, isa);
        INFO(text);
        if (gentt::cpu_supports("avx2") && c != &few_streams)
          CHECK(text.find("output lines assembled across tiles: ") != std::string::npos);
        if (c == &few_streams && std::string(isa) == "auto" && gentt::cpu_supports("avx512"))
          CHECK(text.find("each tile reads 2312 input bytes (contiguous) (axes 5,4) and writes a piece of 136 "
                          "bytes to each of 17 output streams") != std::string::npos);
        check_contiguous(*c, isa, {1, 3}, rng);
      }
  }
  // Whole output rows chained along the output's next axis (ir/assembly.h,
  // plan_row_chain_assembly): a 3-D reversal of 16.8 MB, rows of 604 bytes, 64 streams a tile,
  // the input's tail chunk in a second nest; threads, parts, out on a line and off it.
  // The engines' best ISA and AVX2 where this CPU runs them: `walk` in the plan (where the CPU has
  // AVX2 at least), the results checked with threads and parts.
  const auto check_simd = [&](const Case& c, const std::string& walk) {
    for (const char* isa : {"auto", "avx2"}) {
      if (!gentt::cpu_supports(isa) && std::string(isa) != "auto") continue;
      const std::string text = plan_text(c, isa);
      INFO(text);
      if (gentt::cpu_supports("avx2")) CHECK(text.find(walk) != std::string::npos);
      check_contiguous(c, isa, {1, 2}, rng);
    }
  };
  check_simd({{151, 200, 139}, {2, 1, 0}, 4},
             "output lines assembled across tiles of whole output rows (axis 0, 604 bytes)");
  // A short kept row (3 uint16, padded to 4 lanes in the block) in an assembled walk: 17 MB, each
  // tile 100 input rows of 120 bytes, pieces of 600 bytes (off the lines) to 20 streams; threads,
  // parts, out on a line and off it.
  {
    const Case kept3{{12, 100, 120, 20, 3}, {3, 0, 2, 1, 4}, 2};
    const std::string text = plan_text(kept3, "auto");
    INFO(text);
    if (gentt::cpu_supports("avx512"))
      CHECK(text.find("writes a piece of 600 bytes to each of 20 output streams") != std::string::npos);
    check_contiguous(kept3, "auto", {1, 2}, rng);
    // And split (plan_split_assembly): a 17.6 MB 2-D transpose of 3 x uint16 elements, 2100 as
    // 12 x 175 and 1400 as 35 x 40, pieces of 240 bytes to 175 streams; AVX-512 and AVX2.
    check_simd({{1400, 2100, 3}, {1, 0, 2}, 2}, "canonical axis 1 (2100) as 12 x 175, axis 0 (1400) as 35 x 40 split");
    // A short output row that is not kept (3 x uint16 interleaved from planes), 19.7 MB: 1600 as
    // 5 x 320 and 2048 as 64 x 32, pieces of 192 bytes to 320 streams; AVX-512 and AVX2.
    check_simd({{3, 2048, 1600}, {2, 1, 0}, 2}, "canonical axis 2 (1600) as 5 x 320, axis 1 (2048) as 64 x 32 split");
    // Short input rows lengthened after that first split (plan_longer_rows): seed 002's uint16
    // (6,5,4,0,1,2,3,7) at 17.7 MB, 1536 as 8 x 192, then the axis that continues the rows of 120
    // bytes (16) as 2 x 8: tiles of 192 rows of 960 bytes to 160 streams; AVX-512 and AVX2.
    check_simd({{6, 4, 4, 16, 24, 16, 20, 3}, {6, 5, 4, 0, 1, 2, 3, 7}, 2},
               "canonical axis 0 (1536) as 8 x 192, then axis 3 (16) as 2 x 8 split (input rows of 120 bytes -> 960)");
    // A streamed walk (AVX-512; AVX2 keeps this one cached) whose runs of a full and a tail block
    // (rows of 60 uint16 in chunks of 32) are batched (engine/walk.h, kTailBatchMaxInputBytes):
    // seed 002's (6,7,3,4,5,0,1,2) at 23.6 MB, the loop above the runs (737 KB an iteration) in
    // batches of 136 runs.
    {
      const Case streamed{{1, 4, 8, 16, 24, 16, 20, 3}, {6, 7, 3, 4, 5, 0, 1, 2}, 2};
      if (gentt::cpu_supports("avx512"))
        CHECK_THAT(plan_text(streamed, "auto"),
                   Catch::Contains("stores: streaming when out is 64-byte aligned (loops in input order)"));
      check_contiguous(streamed, "auto", {1, 2}, rng);
      if (gentt::cpu_supports("avx2")) check_contiguous(streamed, "avx2", 1, rng);
    }
  }
  // Bytes on AVX-512 split their rows (32 registers of two half rows: the split-row engine) where
  // the split pads alike (18 MB, rows of 7800 bytes off their lines, tails along both axes), and
  // take blocks of 32 lanes where it pads much more (19 MB reversed: 34 of 64 lanes; 32-lane blocks
  // of 32, a tail of 2).
  // Whole and in parts, on VBMI and without.
  {
    const Case bytes{{1300, 6, 76, 31}, {3, 2, 0, 1}, 1};
    const Case padded{{34, 800, 700}, {2, 1, 0}, 1};
    if (gentt::cpu_supports("avx512")) {
      const std::string text = plan_text(bytes, "auto");
      INFO(text);
      CHECK(text.find("split-row byte blocks: 32 registers of two 32-byte runs") != std::string::npos);
      CHECK_THAT(plan_text(padded, "auto"), Catch::Contains("engine: avx512, 32 lanes of 1 bytes, 32 registers"));
    }
    // Split rows whose output row's top lane bit is an axis padded below it (17 of each half's
    // 32 lanes): each register's halves go to two output runs (ProgramTables::split_stores),
    // with a tail along the split pair's axis (17 = 8 pairs and one); 7.1 MB.
    const Case halves{{17, 17, 17, 5, 17, 17}, {4, 1, 2, 5, 3, 0}, 1};
    if (gentt::cpu_supports("avx512"))
      CHECK_THAT(plan_text(halves, "auto"), Catch::Contains("each register's halves stored to two output runs"));
    for (const Case* c : {&bytes, &padded, &halves}) {
      check_contiguous(*c, "auto", {1, 2}, rng);
      if (gentt::cpu_supports("avx512skx")) check_contiguous(*c, "avx512skx", 1, rng);
    }
  }
  // A 2-D transpose of 16 KiB rows, 17 MB: AVX-512's streaming walk takes bands of 32 row chunks
  // (ir/band.h), 2 bands and one more in a second nest, a tail chunk of columns in a third; so
  // does AVX2's; out on a line (streamed) and off it, threads and parts.
  {
    const Case long_rows{{1040, 4100}, {1, 0}, 4};
    const std::string text = plan_text(long_rows, "auto");
    INFO(text);
    // Bands where they pay (gentt::cpu_bands_pay: AMD's CPUs, or GENTT_BANDS=1), else the walk
    // without them; the suite runs these cases both ways (tests/runtime/CMakeLists.txt).
    if (gentt::cpu_supports("avx512"))
      CHECK((text.find("streaming when out is 64-byte aligned (loops: bands of 32 blocks") != std::string::npos) ==
            gentt::cpu_bands_pay());
    check_contiguous(long_rows, "auto", {1, 2}, rng);
    if (gentt::cpu_supports("avx2")) {
      CHECK((plan_text(long_rows, "avx2").find("streaming when out is 64-byte aligned (loops: bands of") !=
             std::string::npos) == gentt::cpu_bands_pay());
      check_contiguous(long_rows, "avx2", {1, 2}, rng);
    }
    // An out off its line by whole elements streams the rest of each row (shifted_out.h): the
    // head of every row and the body planned apart; by 2 bytes (not whole float32 elements) the
    // cached walk. Whole and in parts; the bytes around out untouched.
    if (gentt::cpu_supports("avx512")) CHECK(text.find("out off its line: ") != std::string::npos);
    const auto bytes = static_cast<size_t>(gentt::test::element_count(long_rows.shape) * long_rows.elem);
    const auto data = gentt::test::random_bytes(rng, bytes);
    std::vector<std::byte> expected(bytes);
    gentt::reference_permute(data.data(), expected.data(), 4, long_rows.shape, long_rows.perm);
    GuardedBuffer in(bytes);
    std::memcpy(in.data(), data.data(), bytes);
    for (const int threads : {1, 2}) {
      const gentt::PermutePlan plan = gentt::plan_permute(desc_of(long_rows, "auto", threads));
      for (const std::size_t offset : {4, 16, 60, 2}) {
        INFO("out " << offset << " bytes into a line, threads " << threads);
        GuardedBuffer out(bytes + 128, GuardedBuffer::Align::start);
        for (const int parts : {1, 3}) {
          std::memset(out.data(), 0xEE, bytes + 128);
          if (parts == 1) plan.execute(in.data(), out.data() + offset);
          for (int p = parts - 1; parts > 1 && p >= 0; --p) plan.execute_part(in.data(), out.data() + offset, p, parts);
          REQUIRE(std::memcmp(expected.data(), out.data() + offset, bytes) == 0);
          const auto untouched = [](const std::byte* b, std::size_t n) {
            return std::all_of(b, b + n, [](std::byte x) { return x == std::byte{0xEE}; });
          };
          CHECK(untouched(out.data(), offset));
          CHECK(untouched(out.data() + offset + bytes, 128 - offset));
        }
      }
    }
  }
  // A kept axis of 120-byte rows whose input neighbour (axis 4, canonical axis 3) output order
  // would reach only after 1.2 MB of output (ir/row_order.h): the cached walk (the generated
  // kernels' balanced order, ir/loops.h) takes it first.
  {
    const Case rows{{10, 10, 10, 10, 10, 15}, {4, 0, 3, 1, 2, 5}, 8};
    const std::string text = plan_text(rows, "auto");
    INFO(text);
    CHECK(text.find("(axis 0, axis 2, axis 1, axis 3, outermost first)") != std::string::npos);
    check_contiguous(rows, "auto", {1, 2}, rng);
  }
  // Kept rows of 136 bytes (most of their lines shared with neighbouring rows), 42 MB: staged in
  // tiles of 16 rows (the innermost output axis), whole tiles and the partial ones at the ends of
  // parts, out on a line and off it, on each SIMD engine.
  {
    const Case rows{{16, 12, 15, 12, 9, 17}, {2, 4, 1, 3, 0, 5}, 8};
    for (const char* isa : {"auto", "avx2"}) {
      if (!gentt::cpu_supports(isa) && std::string(isa) != "auto") continue;
      const std::string text = plan_text(rows, isa);
      INFO(text);
      if (text.find("engine: scalar") == std::string::npos && text.find("portable") == std::string::npos)
        CHECK(text.find("staged: output tiles of 2176 bytes") != std::string::npos);
      check_contiguous(rows, isa, {1, 3}, rng);
    }
  }
  // All-size-2 tensors of 16 MiB in AVX-512's Tab bodies (register offsets from per-bit steps),
  // streaming: float32 blocks of 16 registers in the fixed forms, float64 of 8 in the plain body.
  const std::vector<Case> tabled_large = {
      {std::vector<std::int64_t>(22, 2), {5, 17, 20, 15, 7, 14, 21, 19, 6, 18, 13, 16, 8, 0, 9, 11, 3, 2, 1, 12, 4, 10}, 4},
      {std::vector<std::int64_t>(21, 2), {8, 12, 9, 6, 3, 5, 20, 13, 17, 0, 1, 10, 11, 7, 4, 16, 2, 14, 18, 15, 19}, 8},
  };
  for (const char* isa : {"avx512", "avx512skx"}) {
    if (!gentt::cpu_supports(isa)) continue;
    for (const Case& c : tabled_large) {
      const std::string text = plan_text(c, isa);
      INFO(text);
      CHECK(text.find("register offsets from per-bit steps") != std::string::npos);
      CHECK(text.find("stores: streaming") != std::string::npos);
      check_contiguous(c, isa, {1, 2}, rng);
    }
  }
  // AVX2's streaming variant (two 32-byte streaming stores per line), tiled and in input order,
  // out on a line and off it (check_contiguous), where the CPU has AVX2.
  if (!gentt::cpu_supports("avx2")) return;
  // float64 rows of 16640 bytes: the streaming walk takes bands (with remainders, ir/band.h), each
  // line's two halves from consecutive 4x4 blocks.
  {
    const Case tiled{{2048, 2080}, {1, 0}, 8};
    const std::string text = plan_text(tiled, "avx2");
    INFO(text);
    CHECK((text.find("streaming when out is 64-byte aligned (loops: bands of") != std::string::npos) ==
          gentt::cpu_bands_pay());
    check_contiguous(tiled, "avx2", {1, 2}, rng);
  }
  const std::vector<Case> avx2_cases = {
      {{4096, 2050}, {1, 0}, 4},                               // tiled cached walk; streams untiled (wide block)
      {{16, 64, 64, 64}, {3, 0, 2, 1}, 8},                     // 32 MiB, untiled: input order
      {{355, 384, 64}, {0, 2, 1}, 4},  // float32 8 x 8 blocks store half lines: a 16-register streaming block
      {{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, {22, 3, 5, 0, 1, 2, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}, 4},
      // All-size-2 tensors of 16 MiB whose register offsets are per-bit steps (LeanBody's Tab):
      // float32 blocks of 16 registers in the fixed forms and of 8 in the plain body, float64
      // blocks of 8 in the plain body (one pass) and the fixed forms; each line's halves paired.
      {std::vector<std::int64_t>(22, 2), {5, 17, 20, 15, 7, 14, 21, 19, 6, 18, 13, 16, 8, 0, 9, 11, 3, 2, 1, 12, 4, 10}, 4},
      {std::vector<std::int64_t>(22, 2), {3, 5, 14, 15, 10, 9, 11, 16, 13, 17, 6, 4, 2, 8, 0, 21, 19, 12, 1, 18, 20, 7}, 4},
      {std::vector<std::int64_t>(21, 2), {8, 12, 9, 6, 3, 5, 20, 13, 17, 0, 1, 10, 11, 7, 4, 16, 2, 14, 18, 15, 19}, 8},
      {std::vector<std::int64_t>(21, 2), {8, 19, 14, 13, 10, 16, 0, 7, 9, 17, 18, 20, 2, 4, 12, 6, 1, 15, 3, 5, 11}, 8},
  };
  for (const Case& c : avx2_cases) {
    const std::string text = plan_text(c, "avx2");
    INFO(text);
    CHECK(text.find("stores: streaming") != std::string::npos);
    if (c.elem == 4 && c.shape.size() == 3) CHECK(text.find("its block has 16 registers") != std::string::npos);
    check_contiguous(c, "avx2", {1, 2}, rng);
  }
}

TEST_CASE("permute: large 2-D transposes are tiled", "[permute]") {
  gentt::PermuteDesc d;
  d.dtype = "float32";
  d.shape = {2048, 1024};
  d.perm = {1, 0};
  const std::string text = gentt::plan_permute(d).describe();
  INFO(text);
  if (gentt::cpu_supports("avx512skx") || gentt::cpu_supports("avx2")) CHECK(text.find("loops: tiles of") != std::string::npos);
  d.shape = {4096, 2048};  // 32 MiB: past the last-level cache, streaming stores on AVX-512
  const std::string big = gentt::plan_permute(d).describe();
  INFO(big);
  if (gentt::cpu_supports("avx512skx")) CHECK(big.find("stores: streaming") != std::string::npos);
}

TEST_CASE("permute: describe lists the block engine's loop nest", "[permute]") {
  gentt::PermuteDesc d;
  d.dtype = "float64";
  d.shape = {17, 17, 17, 17};
  d.perm = {2, 3, 1, 0};
  const std::string text = gentt::plan_permute(d).describe();
  INFO(text);
  if (gentt::cpu_supports("avx512skx") || gentt::cpu_supports("avx2")) {
    CHECK(text.find("  loop: count 17,") != std::string::npos);
    CHECK(text.find(", tail bit 0  (axis") != std::string::npos);
  }
}

TEST_CASE("permute: kept innermost axes move whole rows (row engine)", "[permute]") {
  std::mt19937_64 rng(2611);
  int rows = 0;
  for (int i = 0; i < 160; ++i) {
    // The last axis (and sometimes the one before it) stays innermost: rows of 1-3000 elements.
    static const std::int64_t sizes[] = {1, 2, 4, 8, 16, 3, 6, 12};
    Case c;
    c.elem = sizes[rng() % std::size(sizes)];
    const size_t rank = 1 + rng() % 5;
    const std::int64_t row = 1 + static_cast<std::int64_t>(rng() % (i % 3 == 0 ? 3000 : 200));
    c.shape = gentt::test::random_shape(rng, rank - 1, rank <= 3 ? 40 : 9, std::max<std::int64_t>(1, (1 << 17) / row));
    c.shape.push_back(row);
    const size_t kept = rank >= 3 && rng() % 3 == 0 ? 2 : 1;
    c.perm = gentt::test::random_permutation(rng, rank - kept);
    for (size_t k = rank - kept; k < rank; ++k) c.perm.push_back(static_cast<int>(k));
    rows += plan_text(c, "auto").find("row engine") != std::string::npos;
    check_contiguous(c, "auto", 1 + static_cast<int>(i % 3), rng);
    if (i % 4 == 0) check_contiguous(c, "scalar", 1, rng);
    if (i % 4 == 1 && gentt::cpu_supports("avx2")) check_contiguous(c, "avx2", 2, rng);
  }
  CHECK(rows >= 60);
  // Rows of one to four vectors (the engine's RowShortCopy: the last vector ends at the row's
  // end, overlapping the one before it), every count and the lengths around each vector
  // boundary, AVX-512 (64-byte vectors) and AVX2 (32), under guard pages; rows under
  // kRowMinBytes (64) take the block engines.
  for (const std::int64_t row :
       {32, 33, 47, 63, 64, 65, 96, 100, 127, 128, 129, 150, 191, 192, 193, 230, 255, 256, 257}) {
    const Case c{{5, 7, row}, {1, 0, 2}, 1};
    for (const char* isa : {"avx512skx", "avx2"}) {
      if (!gentt::cpu_supports(isa)) continue;
      const std::int64_t vec = std::string(isa) == "avx2" ? 32 : 64;
      if (row >= 64 && row <= 4 * vec)
        CHECK_THAT(plan_text(c, isa),
                   Catch::Contains("each row " + std::to_string((row + vec - 1) / vec) + " vector load(s)"));
      check_contiguous(c, isa, {1, 2}, rng);
    }
  }
  // Rows long enough to be walked in pieces, and outputs large enough to stream (check_contiguous
  // writes `out` both on a page and ending at one, so rows start off their lines).
  struct Large {
    Case c;
    int threads;
    bool avx2;  // also on the AVX2 engine (2 threads)
  };
  const std::vector<Large> large = {
      {{{3, 2, 50000}, {1, 0, 2}, 4}, 3, true},          // rows of 195 KiB: pieces, on threads
      {{{1 << 23}, {0}, 4}, 2, false},                   // a 32 MiB copy: pieces on threads, streaming
      {{{700, 40, 75}, {1, 0, 2}, 4}, 1, true},          // 8 MiB: rows of 300 bytes, cached
      {{{63, 33, 17, 129}, {2, 1, 0, 3}, 8}, 1, false},  // 35 MiB, rows of 1032 bytes: streaming off the lines
      {{{61, 40, 60, 64}, {2, 1, 0, 3}, 4}, 2, true},    // 37 MiB, rows of 256 bytes: groups of 8 streamed line by line, a last group of 5
      {{{4, 15, 15, 15, 12, 15}, {2, 0, 3, 4, 1, 5}, 8}, 2, true},  // 19 MiB, rows of 120 bytes: staged, a loop cut
      {{{3, 1024, 48, 60}, {2, 1, 0, 3}, 2}, 2, true},  // 17 MiB, rows of 120 bytes: staged in row tiles
  };
  if (gentt::cpu_supports("avx512skx")) {
    CHECK_THAT(plan_text(large[5].c, "avx512skx"),
               Catch::Contains("staged: output tiles of 16200 bytes") && Catch::Contains("cut in chunks of 9"));
    // Tiles of 4 x 3 rows (12 runs of input), the loop over the input's next axis above them.
    CHECK_THAT(plan_text(large[6].c, "avx512skx"),
               Catch::Contains("staged: output tiles of 1440 bytes") &&
                   Catch::Contains("row tiles: 12 rows of 120 bytes (12 runs of input) a tile, the loop over axis 2") &&
                   Catch::Contains("loops: in row tiles (axis 1 in tiles of 4, axis 2, axis 1 within a tile, axis 0"));
  }
  for (const auto& [c, threads, avx2] : large) {
    check_contiguous(c, "auto", threads, rng);
    if (avx2 && gentt::cpu_supports("avx2")) check_contiguous(c, "avx2", 2, rng);
  }
  // Rows of 120 bytes (40 MiB, planned only): most of their lines are shared with neighbouring
  // rows, so no streaming plan (its rows' own lines streamed next to cached shared ones ran at
  // 0.2-0.8 of the cached plan); where the walk stages no tile, row tiles (12 of 24 rows of the
  // output's next axis a tile).
  gentt::PermuteDesc d;
  d.elem_bytes = 8;
  d.shape = {24, 24, 24, 24, 15};
  d.perm = {3, 2, 1, 0, 4};
  for (const char* isa : {"avx512skx", "avx2"}) {
    if (!gentt::cpu_supports(isa)) continue;
    d.isa = isa;
    CHECK_THAT(gentt::plan_permute(d).describe(),
               Catch::Contains("stores: cached; staged: output tiles of 1440 bytes") && Catch::Contains("row tiles: 12 rows"));
  }
  if (gentt::cpu_supports("avx2")) {
    d.isa = "avx2";
    d.shape = {24, 24, 24, 24, 16};  // rows of two whole lines
    CHECK_THAT(gentt::plan_permute(d).describe(), Catch::Contains("stores: streaming for each row's whole lines"));
  }
}

TEST_CASE("permute: the AVX-512 row engine prefetches the next steps of short rows far apart", "[permute]") {
  if (!gentt::cpu_supports("avx512skx")) {
    WARN("this CPU lacks AVX-512 F/BW/VL: the AVX-512 row engine's prefetch is not checked here");
    return;
  }
  std::mt19937_64 rng(2811);
  // Rows of 136, 130 and 256 bytes whose innermost loop jumps 40 KiB-1 MiB and whose next loop
  // continues them (runtime/engine/row_copy_isa.h: row_prefetch_ahead); 4.4-37 MiB, the cached
  // walks and the streaming one (groups of rows, 37 MiB).
  const std::vector<Case> far = {
      {{120, 300, 17}, {1, 0, 2}, 8},
      {{10, 10, 10, 10, 10, 17}, {3, 1, 4, 2, 0, 5}, 8},
      {{70, 500, 130}, {1, 0, 2}, 1},
      {{8, 28, 28, 48, 32}, {1, 3, 2, 0, 4}, 4},
  };
  for (const Case& c : far) {
    const std::string text = plan_text(c, "avx512");
    INFO(text);
    CHECK(text.find("row engine") != std::string::npos);
    CHECK(text.find("each row prefetching") != std::string::npos);
    check_contiguous(c, "avx512", {1, 2}, rng);
  }
  // In cache the prefetches only cost: none below 4 MiB.
  const Case near{{70, 50, 130}, {1, 0, 2}, 1};
  const std::string text = plan_text(near, "avx512");
  INFO(text);
  CHECK(text.find("row engine") != std::string::npos);
  CHECK(text.find("prefetching") == std::string::npos);
  check_contiguous(near, "avx512", 1, rng);
}

TEST_CASE("permute: describe() names the streaming walk's row limit where it shaped the loops", "[permute]") {
  // TTC's (32,15,15,15,15,32) float32 reversed (198 MiB; planning allocates nothing): the walk
  // from the block outwards reads 16 rows on before the output rows' next chunk (ir/loops.h).
  gentt::PermuteDesc d;
  d.dtype = "float32";
  d.shape = {32, 15, 15, 15, 15, 32};
  d.perm = {5, 4, 3, 2, 1, 0};
  if (!gentt::cpu_supports("avx512")) {
    WARN("skipped: this CPU has no AVX-512");
    return;
  }
  d.isa = "avx512";
  const std::string text = gentt::plan_permute(d).describe();
  CHECK_THAT(text, Catch::Contains("loops from the block outwards, reads first, at most 16 input rows read at once"));
  // 16^6 float64 (5,2,3,4,1,0): its 16 rows are read on already; no note.
  d.dtype = "float64";
  d.shape = {16, 16, 16, 16, 16, 16};
  d.perm = {5, 2, 3, 4, 1, 0};
  CHECK_THAT(gentt::plan_permute(d).describe(), !Catch::Contains("at most 16 input rows"));
}

TEST_CASE("permute: describe() says which walks leave the cache tiles (ir/tiling.h)", "[permute]") {
  if (!gentt::cpu_supports("avx512")) {
    WARN("skipped: this CPU has no AVX-512");
    return;
  }
  gentt::PermuteDesc d;
  d.dtype = "float32";
  d.perm = {1, 0};
  d.isa = "avx512";
  // 4 MiB of float32: whole-line blocks of 1 KiB stay untiled below 8 MiB (output order).
  d.shape = {1024, 1024};
  CHECK_THAT(gentt::plan_permute(d).describe(), Catch::Contains("loops: no tiling (a block of whole-line registers"));
  // 64 MiB: the cached walk is tiled, the streaming one walks bands (rows of 255 lines, ir/band.h);
  // 32 MiB of rows of 128 lines, whose bands would crowd the cache sets, reads in input order
  // (unpaired: ir/line_pairs.h). (The cached walk assembles its lines in chunks of the tiled
  // loops: ir/assembly.h.)
  d.shape = {4112, 4080};
  CHECK((gentt::plan_permute(d).describe().find("streaming when out is 64-byte aligned (loops: bands of 64 blocks") !=
         std::string::npos) == gentt::cpu_bands_pay());
  d.shape = {4112, 2048};
  std::string text = gentt::plan_permute(d).describe();
  CHECK((text.find("loops: tiles of") != std::string::npos || text.find("output lines assembled") != std::string::npos));
  CHECK_THAT(text, Catch::Contains(std::string("loops in input order, not tiled: ") + "its block reads at most 1 KiB of input and its innermost loop"));
  // Input rows of 32 KiB: the streaming walk leaves the tiles and pairs its output lines
  // (ir/line_pairs.h); AVX2 with its block of one more register bit (whole lines).
  d.shape = {2048, 8192};
  CHECK_THAT(gentt::plan_permute(d).describe(),
             Catch::Contains("not tiled: its block reads at most 1 KiB of input, and it pairs its output lines"));
  d.isa = "avx2";
  text = gentt::plan_permute(d).describe();
  CHECK_THAT(text, Catch::Contains("not tiled: its block reads at most 1 KiB of input, and it pairs its output lines"));
  CHECK_THAT(text, Catch::Contains("its block has 16 registers (one more output bit)"));
  d.isa = "avx512";
  // uint16 (blocks of 2 KiB): tiled from 4 MiB.
  d.dtype = "uint16";
  d.shape = {2048, 1024};
  CHECK_THAT(gentt::plan_permute(d).describe(), Catch::Contains("loops: tiles of"));
}

TEST_CASE("permute: strided views (sub-tensors, negative strides, padded outputs)", "[permute]") {
  std::mt19937_64 rng(99);
  for (int i = 0; i < 200; ++i) {
    Case c = random_case(rng, 1 << 13);
    const size_t rank = c.shape.size();
    // The input: a view into a parent with padded axes, some reversed, sometimes broadcast.
    Shape parent(rank), is(rank);
    std::int64_t stride = 1 + static_cast<std::int64_t>(rng() % 2);  // sometimes every other element
    for (size_t a = rank; a-- > 0;) {
      parent[a] = c.shape[a] + static_cast<std::int64_t>(rng() % 3);
      is[a] = stride;
      stride *= parent[a];
    }
    std::int64_t in_lo = 0;
    for (size_t a = 0; a < rank; ++a)
      if (rng() % 5 == 0) {  // reversed axis
        in_lo -= (c.shape[a] - 1) * is[a];
        is[a] = -is[a];
      } else if (c.shape[a] > 1 && rng() % 11 == 0) {
        is[a] = 0;  // broadcast
      }
    // The output: C order of a padded output, so rows are separated, some axes reversed
    // (negative steps in the walk, tail programs' stores below their block's base).
    const Shape out_shape = permuted(c.shape, c.perm);
    Shape os(rank);
    std::int64_t ostride = 1;
    for (size_t k = rank; k-- > 0;) {
      os[k] = ostride;
      ostride *= out_shape[k] + static_cast<std::int64_t>(rng() % 2);
    }
    std::int64_t out_lo = 0;
    for (size_t k = 0; k < rank; ++k)
      if (rng() % 5 == 0) {
        out_lo -= (out_shape[k] - 1) * os[k];
        os[k] = -os[k];
      }
    const auto in_bytes = static_cast<size_t>(stride * c.elem), out_bytes = static_cast<size_t>(ostride * c.elem);
    gentt::PermuteDesc d = desc_of(c, "auto", 1 + static_cast<int>(rng() % 2));
    d.in_strides = is;
    d.out_strides = os;
    const gentt::PermutePlan plan = gentt::plan_permute(d);
    INFO(describe(c) << " in_strides " << gentt::test::to_string(is) << " out_strides "
                     << gentt::test::to_string(os) << "\n" << plan.describe());
    GuardedBuffer in(in_bytes, GuardedBuffer::Align::start);
    const auto data = gentt::test::random_bytes(rng, in_bytes);
    std::memcpy(in.data(), data.data(), in_bytes);
    const std::byte* in_base = in.data() + (-in_lo) * c.elem;
    GuardedBuffer out(out_bytes);
    std::vector<std::byte> expected(out_bytes, std::byte{0});
    model_strided(in_base, expected.data() + (-out_lo) * c.elem, c.elem, c.shape, c.perm, is, os);
    plan.execute(in_base, out.data() + (-out_lo) * c.elem);
    REQUIRE(std::memcmp(expected.data(), out.data(), out_bytes) == 0);
  }
}

TEST_CASE("permute: invalid arguments throw gentt::Error naming the argument and write nothing", "[permute]") {
  auto error_of = [](const gentt::PermuteDesc& d) -> std::string {
    try {
      (void)gentt::plan_permute(d);
    } catch (const gentt::Error& e) {
      return e.argument();
    }
    return "(no error)";
  };
  gentt::PermuteDesc ok;
  ok.dtype = "float32";
  ok.shape = {4, 5};
  ok.perm = {1, 0};
  CHECK(error_of(ok) == "(no error)");
  auto with = [&](auto change) {
    gentt::PermuteDesc d = ok;
    change(d);
    return error_of(d);
  };
  CHECK(with([](auto& d) { d.perm = {0, 0}; }) == "perm");
  CHECK(with([](auto& d) { d.perm = {0, 2}; }) == "perm[1]");
  CHECK(with([](auto& d) { d.perm = {0}; }) == "perm");
  CHECK(with([](auto& d) { d.shape = {4, 0}; }) == "shape[1]");
  CHECK(with([](auto& d) { d.shape = {4, -3}; }) == "shape[1]");
  CHECK(with([](auto& d) { d.shape = {1ll << 40, 1ll << 30}; }) == "shape");
  CHECK(with([](auto& d) { d.dtype = "float31"; }) == "dtype");
  CHECK(with([](auto& d) { d.elem_bytes = 8; }) == "elem_bytes");
  CHECK(with([](auto& d) { d.dtype = ""; d.elem_bytes = 5000; }) == "elem_bytes");
  CHECK(with([](auto& d) { d.in_strides = {1}; }) == "in_strides");
  CHECK(with([](auto& d) { d.out_strides = {1, 1}; }) == "out_strides");
  CHECK(with([](auto& d) { d.in_strides = {1ll << 62, 1ll << 62}; }) == "in_strides");
  // Output strides whose inner axes together span past an outer step: 4 * 1 - 3 * 1 - 1 * 1 = 0
  // (found by tests/fuzz/runtime_fuzz.cpp; each inner axis alone fits under the step of 4).
  CHECK(with([](auto& d) { d.shape = {3, 2, 19}; d.perm = {2, 1, 0}; d.out_strides = {4, -3, -1}; }) == "out_strides");
  CHECK(with([](auto& d) { d.shape = {3, 2, 19}; d.perm = {2, 1, 0}; d.out_strides = {6, -3, -1}; }) == "(no error)");
  // A stride of INT64_MIN: its offsets overflow (reported as such, before the overlap rule, whose
  // magnitude of it would be undefined).
  {
    gentt::PermuteDesc d = ok;
    d.shape = {3, 3};
    d.out_strides = {std::numeric_limits<std::int64_t>::min(), 1};
    CHECK_THROWS_WITH(gentt::plan_permute(d), Catch::Contains("out_strides") && Catch::Contains("overflow"));
  }
  CHECK(with([](auto& d) { d.threads = -1; }) == "threads");
  CHECK(with([](auto& d) { d.isa = "mmx"; }) == "isa");
  CHECK(with([](auto& d) { d.shape.assign(65, 1); d.perm.resize(65); for (int i = 0; i < 65; ++i) d.perm[i] = i; }) ==
        "shape");

  // Overlapping buffers: nothing written.
  const gentt::PermutePlan plan = gentt::plan_permute(ok);
  std::vector<float> buf(40, 1.0f);
  try {
    plan.execute(buf.data(), buf.data() + 10);
    FAIL("no error for overlapping buffers");
  } catch (const gentt::Error& e) {
    CHECK(e.argument() == "out");
  }
  for (float v : buf) CHECK(v == 1.0f);
  CHECK_THROWS_AS(plan.execute(nullptr, buf.data()), gentt::Error);
  CHECK_THROWS_AS(plan.execute_part(buf.data(), buf.data() + 20, 2, 2), gentt::Error);
  CHECK_THROWS_AS(plan.execute_part(buf.data(), buf.data() + 20, 0, 0), gentt::Error);
  CHECK_THROWS_AS(gentt::PermutePlan().execute(buf.data(), buf.data() + 20), gentt::Error);
}

TEST_CASE("permute: the cached entry point is safe from several threads at once", "[permute]") {
  std::atomic<int> failures{0};
  std::vector<std::thread> users;
  for (int t = 0; t < 4; ++t)
    users.emplace_back([t, &failures] {
      std::mt19937_64 rng(static_cast<unsigned>(100 + t));
      for (int i = 0; i < 40; ++i) {
        gentt::PermuteDesc d;
        d.elem_bytes = 4;
        d.shape = {37 + i % 3, 64, 9};
        d.perm = {2, 0, 1};
        d.threads = 1 + i % 3;
        const auto n = static_cast<size_t>(gentt::test::element_count(d.shape) * 4);
        const auto in = gentt::test::random_bytes(rng, n);
        std::vector<std::byte> out(n), expected(n);
        gentt::reference_permute(in.data(), expected.data(), 4, d.shape, d.perm);
        gentt::permute(in.data(), out.data(), d);
        if (out != expected) ++failures;
      }
    });
  for (auto& u : users) u.join();
  CHECK(failures == 0);
}

namespace {
// A hand-written "generated" kernel for uint16 shape (2, 3) perm (1, 0), to test the registry.
int registered_calls = 0;
extern "C" void test_kernel_2x3(const void* in, void* out) {
  ++registered_calls;
  gentt::reference_permute(in, out, 2, std::vector<std::int64_t>{2, 3}, std::vector<int>{1, 0});
}
const long long kShape[] = {2, 3};
const int kPerm[] = {1, 0};
const gentt_kernel_info kInfo = {GENTT_KERNEL_INFO_VERSION, "test_kernel_2x3", "scalar", 0, 2, 2, kShape, kPerm,
                                 test_kernel_2x3, nullptr, 0, ""};
}  // namespace

TEST_CASE("permute: a registered generated kernel is used for exactly its problem", "[permute]") {
  gentt::register_kernel(&kInfo);
  gentt::PermuteDesc d;
  d.dtype = "uint16";
  d.shape = {2, 3};
  d.perm = {1, 0};
  const auto plan = gentt::plan_permute(d);
  CHECK(plan.isa() == "registered:test_kernel_2x3");
  const std::uint16_t in[6] = {1, 2, 3, 4, 5, 6};
  std::uint16_t out[6] = {};
  plan.execute(in, out);
  CHECK(registered_calls == 1);
  CHECK(out[0] == 1);
  CHECK(out[1] == 4);
  CHECK(out[5] == 6);
  d.shape = {3, 2};  // another problem: not the registered kernel
  CHECK(gentt::plan_permute(d).isa() != "registered:test_kernel_2x3");
  gentt_kernel_info bad = kInfo;
  bad.version = 99;
  CHECK_THROWS_AS(gentt::register_kernel(&bad), gentt::Error);
}

TEST_CASE("permute: short axes moved innermost interleave their planes (interleave engine)", "[permute]") {
  // Planar to interleaved (engine/interleave.h): C = 3, 5, 6, 7 and 9-15 planes of N elements of
  // 1, 2, 4 and 8 bytes, N past four vectors with a tail of any length, batch axes before and
  // after in the output, threads and parts, guard pages on both sides; past 16 MiB, C = 5.
  std::mt19937_64 rng(20261130);
  const bool avx512 = gentt::cpu_supports("avx512");
  int interleaved = 0;
  for (int i = 0; i < 60; ++i) {
    static const std::int64_t sizes[] = {1, 2, 4, 8};
    static const std::int64_t channels[] = {3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15};
    Case c;
    c.elem = sizes[rng() % 4];
    std::int64_t ch = channels[rng() % std::size(channels)];
    while (ch * c.elem >= 64) ch = channels[rng() % 4];
    const std::int64_t v = 64 / c.elem, pixels = 4 * v + static_cast<std::int64_t>(rng() % (3 * v));
    const std::int64_t batch = 1 + static_cast<std::int64_t>(rng() % 3), outer = 1 + static_cast<std::int64_t>(rng() % 4);
    // (outer, ch, pixels) -> (outer, pixels, ch), with a batch axis first in the input moved
    // second in the output half the time.
    c.shape = {batch, outer, ch, pixels};
    c.perm = rng() % 2 ? Perm{0, 1, 3, 2} : Perm{1, 0, 3, 2};
    const std::string text = plan_text(c, "auto");
    INFO(text);
    if (avx512) {
      // Outputs in cache take it for C = 3 only (its C x C permutes cost more than the block
      // engines' shuffles there); tests/runtime/interleave_test.cpp runs every C on the engine.
      CHECK((text.find("interleave engine") != std::string::npos) == (ch == 3));
      interleaved += ch == 3 ? 1 : 0;
    }
    check_contiguous(c, "auto", {1, 2}, rng);
    // AVX2's engine (in-lane byte shuffles) on the C = 3 ones.
    if (ch == 3 && gentt::cpu_supports("avx2")) {
      CHECK(plan_text(c, "avx2").find("avx2 interleave engine") != std::string::npos);
      check_contiguous(c, "avx2", 1, rng);
    }
  }
  if (avx512) CHECK(interleaved >= 5);
  // Large outputs stream their rows' whole vectors where a row starts on a line: 16.8 MB, rows of
  // 8.4 MB that are not whole lines (the second row starts off its line: cached stores there).
  const Case large{{2, 3, 700001}, {0, 2, 1}, 4};
  if (avx512) CHECK(plan_text(large, "auto").find("streaming (whole vectors)") != std::string::npos);
  check_contiguous(large, "auto", {1, 2}, rng);
  const Case five{{5, 850000}, {1, 0}, 4};
  if (avx512) CHECK(plan_text(five, "auto").find("interleave engine: 5 planes") != std::string::npos);
  check_contiguous(five, "auto", 2, rng);
  if (gentt::cpu_supports("avx2")) check_contiguous(large, "avx2", 2, rng);
  // Powers of two (no padding in the block), a 16-lane channel axis, rows shorter than four
  // vectors and (in cache) C = 5 keep the block engines.
  for (const Case& other : {Case{{4, 1000}, {1, 0}, 4}, Case{{16, 1000}, {1, 0}, 2}, Case{{3, 40}, {1, 0}, 4},
                           Case{{5, 1000}, {1, 0}, 4}})
    CHECK(plan_text(other, "auto").find("interleave") == std::string::npos);
  // Strided views: planes and rows padded in the input, rows padded in the output.
  for (int i = 0; i < 8; ++i) {
    const std::int64_t e = std::int64_t{1} << (rng() % 4), ch = 3, pixels = 300 + static_cast<std::int64_t>(rng() % 100);
    const Case c{{3, ch, pixels}, {0, 2, 1}, e};
    const std::int64_t plane = pixels + static_cast<std::int64_t>(rng() % 9);
    const Shape is{ch * plane + 7, plane, 1}, os{pixels * ch + 5, ch, 1};
    gentt::PermuteDesc d = desc_of(c, "auto", 1);
    d.in_strides = is;
    d.out_strides = os;
    const gentt::PermutePlan plan = gentt::plan_permute(d);
    INFO(describe(c) << "\n" << plan.describe());
    if (avx512) CHECK(plan.describe().find("interleave engine") != std::string::npos);
    const auto in_bytes = static_cast<size_t>(3 * is[0] * e), out_bytes = static_cast<size_t>(3 * os[0] * e);
    GuardedBuffer in(in_bytes, GuardedBuffer::Align::start), out(out_bytes);
    const auto data = gentt::test::random_bytes(rng, in_bytes);
    std::memcpy(in.data(), data.data(), in_bytes);
    std::vector<std::byte> expected(out_bytes, std::byte{0});
    model_strided(data.data(), expected.data(), e, c.shape, c.perm, is, os);
    std::memset(out.data(), 0, out_bytes);
    plan.execute(in.data(), out.data());
    REQUIRE(std::memcmp(expected.data(), out.data(), out_bytes) == 0);
  }
}

// The suite runs this case with GENTT_BANDS=0 and =1 as well (tests/runtime/CMakeLists.txt):
// band tiles (ir/band.h) and the walk without them, whichever this CPU takes by default.
TEST_CASE("permute: band walks and the walks without them (gentt::cpu_bands_pay)", "[permute][bands]") {
  std::mt19937_64 rng(20261202);
  // Outputs of 16 MiB and more (streaming): float32 and float64 rows of 16 KiB, tails in both block
  // axes; bytes (AVX-512's split rows).
  const std::vector<Case> cases = {{{1040, 4100}, {1, 0}, 4}, {{1032, 2060}, {1, 0}, 8}, {{4160, 4100}, {1, 0}, 1}};
  for (const Case& c : cases) {
    for (const std::string isa : {"avx512", "avx2"}) {
      if (!gentt::cpu_supports(isa)) continue;
      const std::string text = plan_text(c, isa);
      INFO(describe(c) << " isa " << isa << "\n" << text);
      if (isa == "avx512") CHECK(text.find("stores: streaming") != std::string::npos);  // AVX2's byte halves: none
      if (!gentt::cpu_bands_pay()) CHECK(text.find("loops: bands of") == std::string::npos);
      check_contiguous(c, isa, {1, 2}, rng);
    }
  }
  // The float32 case takes the band where bands pay.
  if (gentt::cpu_supports("avx512") && gentt::cpu_bands_pay())
    CHECK_THAT(plan_text(cases.front(), "avx512"), Catch::Contains("(loops: bands of 32 blocks"));
}
