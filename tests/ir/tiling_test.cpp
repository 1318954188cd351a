// ir/tiling.h: which loops are cut into cache tiles, and tiled kernels (cached and streaming
// variants) move every element exactly as the reference does, whole and in parts.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <tuple>

#include "gentt/reference.h"
#include "ir/canonical.h"
#include "ir/interpret.h"
#include "ir/lower.h"
#include "ir/pipeline.h"
#include "ir/plan.h"
#include "ir/stream.h"
#include "ir/tiling.h"
#include "ir/verify.h"
#include "tests/ir/parts_check.h"
#include "tests/ir/random_problem.h"

using namespace gentt;

TEST_CASE("tiling: a large 2-D transpose walks 32 x 32-block tiles; small outputs are not tiled", "[tiling]") {
  const Plan big = make_plan(canonicalize(4, {4096, 4096}, {1, 0}), 16);
  const Kernel k = lower(big, "k");
  REQUIRE(k.tiled);
  CHECK_THAT(k.tiling, Catch::StartsWith("loops: tiles of 32 x 32 blocks"));
  REQUIRE(k.loops.size() == 4);
  CHECK(k.loops[2].count == 32);
  CHECK(k.loops[3].count == 32);
  CHECK(k.iterations() == 256 * 256);
  verify_kernel(k);

  const Kernel small = lower(make_plan(canonicalize(4, {512, 512}, {1, 0}), 16), "k");
  CHECK_FALSE(small.tiled);
  CHECK_THAT(small.tiling, Catch::Contains("fits the caches"));

  // A loop count with no divisor near the tile (7248 / 16 = 453 = 3 x 151): full tiles of 30
  // blocks (15 x 30 = 450) and the remainders (3 blocks) in three more nests.
  const Kernel prime = lower(make_plan(canonicalize(4, {7248, 7248}, {1, 0}), 16), "k");
  REQUIRE(prime.tiled);
  CHECK_THAT(prime.tiling, Catch::StartsWith("loops: tiles of 30 x 30 blocks") && Catch::Contains("3 more loop nest"));
  REQUIRE(prime.regions.size() == 4);
  CHECK(prime.iterations() == 453 * 453);
  CHECK(prime.regions[1].out_offset == 450 * 16);
  verify_kernel(prime);

  // Loops with tails (4095 x 4097): the tail chunk stays in a remainder nest.
  const Kernel odd = lower(make_plan(canonicalize(4, {4095, 4097}, {1, 0}), 16), "k");
  REQUIRE(odd.tiled);
  CHECK(odd.regions.size() >= 2);
  for (const auto& L : odd.loops) CHECK(L.tail_bit < 0);
  verify_kernel(odd);
}

TEST_CASE("tiling: explain and the streaming variant say when the loops are tiled", "[tiling]") {
  Problem p;
  p.name = "k";
  p.dtype = Dtype{"uint8", 1};
  p.shape = {4096, 4099};
  p.perm = {1, 0};
  p.target = Target{Isa::avx512, 512};
  // Blocks of 64 rows (split into 32 registers of two half rows: 2 KiB): the cached walk is tiled,
  // the streaming variant walks bands (ir/band.h). (The cached kernel itself assembles its output
  // lines in chunks of the same loops, ir/assembly.h: its tiled walk is lower()'s.)
  const Lowered l = run_pipeline(p);
  const Kernel cached = lower(l.plan, "k", LowerOptions{.avx512_target = true});
  REQUIRE(cached.tiled);
  CHECK_THAT(cached.tiling, Catch::StartsWith("loops: tiles of"));
  REQUIRE(l.stream_kernel);
  CHECK(l.stream_kernel->tiled);
  CHECK(l.stream_kernel->banded);
  bool stream_said = false;
  for (const auto& r : l.plan.reasons)
    stream_said |= r.starts_with("stores: streaming") && r.find("the loops walk bands of") != std::string::npos;
  CHECK(stream_said);
}

TEST_CASE("tiling: streaming variants whose blocks read at most 1 KiB, or 32 rows, are not tiled", "[tiling]") {
  CHECK_FALSE(stream_keeps_tiles(kSmallBlockBytes, kStreamUntiledMaxRunBytes, false));
  CHECK(stream_keeps_tiles(kRowBlockBytes + 1, kStreamUntiledMaxRunBytes, false));
  // Blocks of 32 rows of a line leave the tiles at any run length.
  CHECK_FALSE(stream_keeps_tiles(kRowBlockBytes, kStreamUntiledMaxRunBytes * 4, false));
  CHECK_FALSE(stream_keeps_tiles(kSmallBlockBytes + 1, kStreamUntiledMaxRunBytes + 1, false));
  CHECK(stream_keeps_tiles(kSmallBlockBytes, kStreamUntiledMaxRunBytes + 1, false));
  // Long runs leave the tiles where the walk pairs its output lines (ir/line_pairs.h).
  CHECK_FALSE(stream_keeps_tiles(kSmallBlockBytes, kStreamUntiledMaxRunBytes + 1, true));
  Problem p;
  p.name = "k";
  p.dtype = Dtype{"float32", 4};
  p.perm = {1, 0};
  for (const Target& target : {Target{Isa::avx512, 512}, Target{Isa::avx2, 256}}) {
    p.target = target;
    INFO(isa_name(target.isa));
    // Input rows of 255 and 127 lines: the cached walk is tiled, the streaming one walks bands
    // (ir/band.h; AVX2 with its own 8 x 8 block, each line's halves from consecutive blocks).
    p.shape = {4112, target.isa == Isa::avx2 ? 2032 : 4096 - 16};
    const Lowered banded = run_pipeline(p);
    REQUIRE(lower(banded.plan, "k", LowerOptions{.avx512_target = target.isa == Isa::avx512}).tiled);
    REQUIRE(banded.stream_kernel);
    CHECK(banded.stream_kernel->tiled);
    CHECK(banded.stream_kernel->banded);
    CHECK_THAT(banded.stream_kernel->tiling, Catch::StartsWith(target.isa == Isa::avx2 ? "loops: bands of 128 blocks"
                                                                                      : "loops: bands of 64 blocks"));
    if (target.isa == Isa::avx512) {
      // 16 rows of 64 bytes, input rows of 2048 floats (128 blocks), whose bands would crowd eight
      // sets of the model cache: the streaming walk reads in input order, two loops (from 256
      // blocks on it pairs them: ir/line_pairs.h).
      p.shape = {4112, 2048};
      const Lowered l = run_pipeline(p);
      REQUIRE(lower(l.plan, "k", LowerOptions{.avx512_target = true}).tiled);
      REQUIRE(l.stream_kernel);
      CHECK_FALSE(l.stream_kernel->tiled);
      CHECK(l.stream_kernel->regions.empty());
      REQUIRE(l.stream_kernel->loops.size() == 2);
      CHECK(std::llabs(l.stream_kernel->loops[1].in_stride) < std::llabs(l.stream_kernel->loops[0].in_stride));
      CHECK_THAT(l.stream_kernel->tiling, Catch::Contains(kStreamUntiledReason));
      bool said = false;
      for (const auto& r : l.plan.reasons)
        said |= r.starts_with("stores: streaming") && r.find("not in the cached walk's tiles") != std::string::npos;
      CHECK(said);
    }
    // Input rows of 32 KiB: the streaming walk leaves the tiles and pairs its output lines
    // (ir/line_pairs.h; on AVX2 with its block of whole lines).
    Problem wide = p;
    wide.shape = {2048, 8192};
    const Lowered w = run_pipeline(wide);
    REQUIRE(w.stream_kernel);
    CHECK_FALSE(w.stream_kernel->tiled);
    CHECK_FALSE(w.stream_kernel->paired_lines.empty());
  }
  // AVX-512 blocks of 32 uint16 rows (2 KiB) read in input order at any run length (input rows of
  // 32 KiB here, whose bands would crowd two sets of the model cache), unpaired; rows of 45 KiB
  // walk bands.
  Problem u16 = p;
  u16.dtype = Dtype{"uint16", 2};
  u16.shape = {4096, 23040};
  u16.target = Target{Isa::avx512, 512};
  const Lowered ub = run_pipeline(u16);
  REQUIRE(ub.stream_kernel);
  CHECK_THAT(ub.stream_kernel->tiling, Catch::StartsWith("loops: bands of 16 blocks"));
  u16.shape = {4096, 16384};
  const Lowered u = run_pipeline(u16);
  REQUIRE(u.stream_kernel);
  CHECK_FALSE(u.stream_kernel->tiled);
  CHECK(u.stream_kernel->paired_lines.empty());
  CHECK_THAT(u.stream_kernel->tiling, Catch::Contains(kStreamUntiledReason));
  // Small problems tiled on request (tile_min_bytes 1): the untiled streaming walk moves every
  // element as the reference does, whole and in parts.
  std::mt19937_64 rng(909);
  const std::vector<std::tuple<int64_t, std::vector<int64_t>, std::vector<int>>> small = {
      {4, {2, 16 * 40, 16 * 36}, {0, 2, 1}}, {8, {8 * 48, 3, 8 * 34}, {2, 1, 0}}, {16, {4 * 40, 4 * 33}, {1, 0}}};
  for (const auto& [elem_bytes, shape, perm] : small) {
    const int lanes = static_cast<int>(64 / elem_bytes);
    const Plan plan = make_plan(canonicalize(elem_bytes, shape, perm), lanes);
    INFO(fmt::format("elem_bytes {} shape ({}) perm ({})", elem_bytes, fmt::join(shape, ","), fmt::join(perm, ",")));
    REQUIRE(lower(plan, "k", LowerOptions{.tile_min_bytes = 1}).tiled);
    const Kernel k = lower(plan, "k", LowerOptions{.streaming = true, .tile_min_bytes = 1});
    CHECK_FALSE(k.tiled);
    verify_kernel(k);
    REQUIRE(test::parts_match_reference(k, rng, elem_bytes, shape, perm));
  }
}

TEST_CASE("tiling: AVX-512 blocks of whole-line registers that read at most 1 KiB are tiled from 8 MiB", "[tiling]") {
  CHECK(tile_min_bytes_for(kTileMinBytes, true, kSmallBlockBytes) == kLineBlockTileMinBytes);
  CHECK(tile_min_bytes_for(kTileMinBytes, true, kSmallBlockBytes + 1) == kTileMinBytes);
  CHECK(tile_min_bytes_for(kTileMinBytes, false, 256) == kTileMinBytes);
  CHECK(tile_min_bytes_for(1, false, 256) == 1);
  Problem p;
  p.name = "k";
  p.dtype = Dtype{"float32", 4};
  p.shape = {1024, 1024};
  p.perm = {1, 0};
  p.target = Target{Isa::avx512, 512};
  const Lowered small = run_pipeline(p);  // 4 MiB: output order
  CHECK_FALSE(small.kernel.tiled);
  CHECK(small.kernel.tiling == kLineBlockUntiledReason);
  CHECK(std::find(small.plan.reasons.begin(), small.plan.reasons.end(), kLineBlockUntiledReason) !=
        small.plan.reasons.end());
  p.shape = {1500, 1500};  // 8.6 MiB: tiled
  CHECK(run_pipeline(p).kernel.tiled);
  p.shape = {1024, 1024};
  p.target = Target{Isa::avx2, 256};  // half-line registers: tiled from 4 MiB
  CHECK(run_pipeline(p).kernel.tiled);
  p.target = Target{Isa::avx512, 256};  // ymm blocks: the same
  CHECK(run_pipeline(p).kernel.tiled);
  p.target = Target{Isa::avx512, 512};
  p.dtype = Dtype{"uint16", 2};  // blocks of 2 KiB
  p.shape = {2048, 1024};
  CHECK(run_pipeline(p).kernel.tiled);
}

TEST_CASE("tiling: random tiled kernels match the reference, whole and in parts", "[tiling][property]") {
  std::mt19937_64 rng(808);
  int tiled = 0, with_regions = 0, untiled_streams = 0;
  for (int c = 0; c < 24; ++c) {
    // Two axes of 32-64 blocks and an outer axis, all element sizes: the smallest tensors that
    // take tiles of at least 16 x 16 blocks.
    static const int64_t sizes[] = {1, 2, 4, 8, 3, 16};
    const int64_t elem_bytes = sizes[c % 6];
    const int lanes = static_cast<int>(std::bit_floor(static_cast<uint64_t>(std::max<int64_t>(1, 64 / elem_bytes))));
    // Every other case is off the tiles (remainder nests) and off the lanes (tail chunks).
    const int64_t off = c % 4 < 2 ? 0 : 1 + static_cast<int64_t>(rng() % (lanes * 20));
    std::vector<int64_t> shape = {1 + static_cast<int64_t>(rng() % 3),
                                  lanes * 16 * (2 + static_cast<int64_t>(rng() % 3)) + off,
                                  lanes * 16 * (2 + static_cast<int64_t>(rng() % 2)) + off / 2};
    std::vector<int> perm = {0, 1, 2};
    do std::shuffle(perm.begin(), perm.end(), rng);
    while (perm[2] == 2);
    const Plan plan = make_plan(canonicalize(elem_bytes, shape, perm), lanes);
    LowerOptions options{.streaming = (c % 2) == 1, .tile_min_bytes = 1};
    const Kernel cached = lower(plan, "k", LowerOptions{.tile_min_bytes = 1});
    if (options.streaming && !choose_streaming(cached, StoreMode::streaming, true, 64).stream) options.streaming = false;
    const Kernel k = lower(plan, "k", options);
    INFO(fmt::format("case {}: elem_bytes {} shape ({}) perm ({}) streaming {}: {}", c, elem_bytes, fmt::join(shape, ","),
                     fmt::join(perm, ","), options.streaming, k.tiling));
    // Streaming variants of tiled walks whose blocks read at most 1 KiB are untiled
    // (stream_keeps_tiles): checked too.
    const bool untiled_stream = options.streaming && cached.tiled && !k.tiled;
    untiled_streams += untiled_stream;
    if (!k.tiled && !untiled_stream) continue;
    tiled += k.tiled;
    with_regions += k.regions.size() > 1;
    verify_kernel(k);
    REQUIRE(test::parts_match_reference(k, rng, elem_bytes, shape, perm));
  }
  CHECK(tiled >= 12);
  CHECK(with_regions >= 6);
  CHECK(untiled_streams >= 2);
}
