// ir/stream.h: when a kernel streams its stores, and what the streaming variant looks like.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gentt/reference.h"
#include "ir/canonical.h"
#include "ir/error.h"
#include "ir/interpret.h"
#include "ir/loops.h"
#include "ir/lower.h"
#include "ir/pipeline.h"
#include "ir/plan.h"
#include "ir/stream.h"
#include "ir/verify.h"
#include "tests/ir/random_problem.h"

using namespace gentt;

namespace {

Problem avx512_problem(int64_t elem_bytes, std::vector<int64_t> shape, std::vector<int> perm,
                       StoreMode stores = StoreMode::automatic, Isa isa = Isa::avx512) {
  Problem p;
  p.name = "k";
  p.dtype = Dtype{"bytes" + std::to_string(elem_bytes), elem_bytes};
  p.shape = std::move(shape);
  p.perm = std::move(perm);
  p.target = Target{isa, isa == Isa::avx512 ? 512 : isa == Isa::avx2 ? 256 : isa == Isa::neon ? 128 : 0};
  p.stores = stores;
  return p;
}

std::string stores_reason(const Plan& plan) {
  for (const auto& r : plan.reasons)
    if (r.starts_with("stores:")) return r;
  return "";
}

}  // namespace

TEST_CASE("stores: auto streams large outputs with whole-vector stores only", "[stream]") {
  std::vector<int64_t> all2(24, 2);
  std::vector<int> reversed(24);
  for (int a = 0; a < 24; ++a) reversed[a] = 23 - a;
  const Lowered big = run_pipeline(avx512_problem(4, all2, reversed));  // 64 MiB
  REQUIRE(big.stream_kernel);
  CHECK(big.stream_kernel->name == "k_stream");
  CHECK_THAT(stores_reason(big.plan), Catch::StartsWith("stores: streaming when `out` is 64-byte aligned"));

  const Lowered small = run_pipeline(avx512_problem(4, {2048, 1024}, {1, 0}));  // 8 MiB: stays in L3
  CHECK_FALSE(small.stream_kernel);
  CHECK_THAT(stores_reason(small.plan), Catch::Contains("below the 16 MiB"));
  CHECK(run_pipeline(avx512_problem(4, {2048, 2048}, {1, 0})).stream_kernel);  // 16 MiB
  CHECK(run_pipeline(avx512_problem(4, {512, 512}, {1, 0}, StoreMode::streaming)).stream_kernel);
  CHECK_FALSE(run_pipeline(avx512_problem(4, all2, reversed, StoreMode::cached)).stream_kernel);

  // 4095 x 4097: output rows of 4095 floats do not start on lines.
  const Lowered odd = run_pipeline(avx512_problem(4, {4095, 4097}, {1, 0}, StoreMode::streaming));
  CHECK_FALSE(odd.stream_kernel);
  CHECK_THAT(stores_reason(odd.plan), Catch::Contains("do not start on 64-byte lines"));
  // 3-byte elements: 16 lanes are 48 bytes, not a line.
  const Lowered bytes3 = run_pipeline(avx512_problem(3, {4096, 4096}, {1, 0}));
  CHECK_FALSE(bytes3.stream_kernel);
  CHECK_THAT(stores_reason(bytes3.plan), Catch::Contains("not a whole 64-byte vector"));
  // AVX2: 32-byte vectors, two streaming stores per line, only where the walk writes both halves
  // of a line at once: 16^6 float64 blocks of 4 x 4 take the next output bit as a register bit,
  // so each block stores whole lines; the all-size-2 float32 walk in input order would not.
  const Lowered avx2 = run_pipeline(avx512_problem(8, {16, 16, 16, 16, 16, 16}, {0, 3, 5, 2, 4, 1},
                                                   StoreMode::automatic, Isa::avx2));
  REQUIRE(avx2.stream_kernel);
  CHECK_THAT(stores_reason(avx2.plan), Catch::Contains("32-byte stores (two per line)"));
  CHECK(halves_apart(*avx2.stream_kernel).empty());
  // float32 blocks of 8 x 8 store half lines: walked in bands (ir/band.h) consecutive blocks write
  // each line's two halves (355x384x384 axes (0,2,1))...
  const Lowered banded = run_pipeline(avx512_problem(4, {355, 384, 384}, {0, 2, 1}, StoreMode::automatic, Isa::avx2));
  REQUIRE(banded.stream_kernel);
  CHECK(banded.stream_kernel->banded);
  CHECK(halves_apart(*banded.stream_kernel).empty());
  // ... and where no band is (input rows of 256 bytes: 355x384x64) the streaming variant's block
  // takes the next output bit (16 registers) where the output axis' extent allows (384 = 24 x 16)...
  const Lowered wide = run_pipeline(avx512_problem(4, {355, 384, 64}, {0, 2, 1}, StoreMode::automatic, Isa::avx2));
  REQUIRE(wide.stream_kernel);
  CHECK_THAT(stores_reason(wide.plan), Catch::Contains("block has 16 registers (one more output bit)"));
  CHECK(halves_apart(*wide.stream_kernel).empty());
  CHECK(wide.kernel.programs.front().ops.size() < wide.stream_kernel->programs.front().ops.size());
  // ... and stays cached where it does not (392 = 24.5 x 16), its walk writing halves far apart.
  const Lowered apart = run_pipeline(avx512_problem(4, {64, 392, 256}, {0, 2, 1}, StoreMode::streaming, Isa::avx2));
  CHECK_FALSE(apart.stream_kernel);
  CHECK_THAT(stores_reason(apart.plan), Catch::Contains("halves of a line would be written far apart"));
  // Lines whose second halves the next block writes: at most kMaxOpenHalfLines of them per block
  // (16 lanes of 2 bytes, a line is 32 elements; the innermost loop steps the output by 16).
  for (const int64_t rows : {kMaxOpenHalfLines, kMaxOpenHalfLines + 1}) {
    std::vector<int64_t> firsts;
    for (int64_t r = 0; r < rows; ++r) firsts.push_back(r * 1024);
    const std::vector<LoopRegion> nests = {
        LoopRegion{0, 0, {LoopDim{4, 1024, 1024 * rows, -1, "outer"}, LoopDim{8, 16 * 1024, 16, -1, "inner"}}}};
    CHECK(halves_apart(firsts, 16, nests).empty() == (rows <= kMaxOpenHalfLines));
  }
  // A tiled uint16 transpose (blocks of 16 rows of half lines, input rows of 32 KiB: the streaming
  // walk keeps the tiles) leaves 16 lines half written per block: cached. (The cached kernel
  // itself assembles its lines, ir/assembly.h; its tiled walk is lower()'s.)
  const Lowered open = run_pipeline(avx512_problem(2, {512, 16381}, {1, 0}, StoreMode::streaming, Isa::avx2));
  CHECK(lower(open.plan, "k").tiled);
  CHECK_FALSE(open.stream_kernel);
  CHECK_THAT(stores_reason(open.plan), Catch::Contains("16 lines half written for the next block"));
  // AVX2 moves one-element registers (17-32-byte elements) with memcpy: no streaming.
  CHECK_FALSE(run_pipeline(avx512_problem(32, {64, 64, 64}, {2, 1, 0}, StoreMode::streaming, Isa::avx2)).stream_kernel);
  // Other ISAs: auto never streams; asking for it is an error naming the field.
  CHECK_FALSE(run_pipeline(avx512_problem(4, all2, reversed, StoreMode::automatic, Isa::neon)).stream_kernel);
  CHECK_THROWS_AS(run_pipeline(avx512_problem(4, {8, 8}, {1, 0}, StoreMode::streaming, Isa::neon)), UserError);
}

TEST_CASE("the streaming variant: input-order (or balanced) loops, whole aligned streaming stores, same result",
          "[stream][property]") {
  // AVX-512 (64-byte vectors, one line) and AVX2 (32-byte vectors, half a line).
  const int64_t vector_bytes = GENERATE(64, 32);
  std::mt19937_64 rng(4242 + vector_bytes);
  int streamed_kernels = 0;
  for (int c = 0; c < 1500; ++c) {
    auto p = test::random_problem(rng, 10, 20000);
    static const int64_t sizes[] = {1, 2, 4, 8, 16};
    p.elem_bytes = sizes[rng() % 5];
    const int lanes = static_cast<int>(vector_bytes / p.elem_bytes);
    const Plan plan = make_plan(canonicalize(p.elem_bytes, p.shape, p.perm), lanes);
    const Kernel cached = lower(plan, "k");
    if (!choose_streaming(cached, StoreMode::streaming, true, vector_bytes).stream) continue;
    const Kernel k = lower(plan, "k_stream", LowerOptions{.streaming = true});
    verify_kernel(k);
    ++streamed_kernels;
    INFO(fmt::format("{}-byte vectors, case {}: elem_bytes {} shape ({}) perm ({})", vector_bytes, c, p.elem_bytes,
                     fmt::join(p.shape, ","), fmt::join(p.perm, ",")));
    // Input order, or from the block outwards where input order walks the output's next axis
    // outermost (ir/loops.h's streaming_order; tests/ir/loops_test.cpp).
    if (streaming_order(plan) == LoopOrder::input)
      for (size_t d = 1; d < k.loops.size(); ++d) CHECK(k.loops[d - 1].in_stride >= k.loops[d].in_stride);
    else
      CHECK(k.order.starts_with("from the block outwards, reads first"));  // (+ the row limit's note)
    int streams = 0;
    for (const auto& prog : k.programs)
      for (const auto& op : prog.ops)
        if (op.stream) {
          ++streams;
          CHECK(op.kind == OpKind::store);
          CHECK(op.count == lanes);
          CHECK(op.offset % lanes == 0);
        }
    CHECK(streams > 0);
    const int64_t n = std::accumulate(p.shape.begin(), p.shape.end(), int64_t{1}, std::multiplies<>());
    const auto in = test::random_bytes(rng, n * p.elem_bytes);
    std::vector<unsigned char> want(in.size()), got(in.size(), 0xEE);
    reference_permute(in.data(), want.data(), p.elem_bytes, p.shape, p.perm);
    const int parts = 1 + static_cast<int>(rng() % 4);
    for (int part = 0; part < parts; ++part) interpret_part(k, in.data(), got.data(), part, parts);
    REQUIRE(got == want);
  }
  CHECK(streamed_kernels >= 100);
}

TEST_CASE("the verifier rejects streaming stores that cannot land on whole lines", "[stream][verify]") {
  Kernel k = lower(make_plan(canonicalize(4, {64, 64}, {1, 0}), 16), "k", LowerOptions{.streaming = true});
  verify_kernel(k);
  Kernel partial = k;
  for (auto& op : partial.programs.front().ops)
    if (op.kind == OpKind::store) {
      op.count = 8;
      break;
    }
  CHECK_THROWS_WITH(verify_kernel(partial), Catch::Contains("not a whole vector at a lane-aligned offset"));
  Kernel strided = k;
  strided.loops.front().out_stride += 1;
  CHECK_THROWS_AS(verify_kernel(strided), InternalError);
}
