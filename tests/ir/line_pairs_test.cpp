// ir/line_pairs.h: which streaming walks pair their output lines, the nests a pairing makes, and
// paired kernels move every element exactly as the reference does, whole and in parts.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <random>
#include <tuple>

#include "ir/canonical.h"
#include "ir/line_pairs.h"
#include "ir/loops.h"
#include "ir/lower.h"
#include "ir/pipeline.h"
#include "ir/plan.h"
#include "ir/tiling.h"
#include "ir/verify.h"
#include "tests/ir/parts_check.h"

using namespace gentt;

TEST_CASE("line pairs: the output's next loop two blocks at a time, innermost; the odd block after", "[line_pairs]") {
  // A float32 2-D transpose in input order: row chunks outermost (the output's next loop), then 300
  // column chunks: 300 blocks between two blocks that write neighbouring lines.
  BlockLoops walk;
  walk.loops = {LoopDim{5, 16 * 4800, 16, -1, "rows"}, LoopDim{300, 16, 16 * 80, 0, "columns"}};
  const LinePairing p = pair_output_lines(walk, 4, true, kSmallBlockBytes);
  REQUIRE(p.paired);
  REQUIRE(p.regions.size() == 2);
  const auto& first = p.regions[0];
  CHECK(first.in_offset == 0);
  CHECK(first.out_offset == 0);
  REQUIRE(first.loops.size() == 3);
  CHECK(first.loops[0].count == 2);
  CHECK(first.loops[0].in_stride == 2 * 16 * 4800);
  CHECK(first.loops[0].out_stride == 32);
  CHECK(first.loops[1].tail_bit == 0);  // the other loops as they were
  CHECK(first.loops[2].count == 2);
  CHECK(first.loops[2].in_stride == 16 * 4800);
  CHECK(first.loops[2].out_stride == 16);
  CHECK(first.loops[2].tail_bit == -1);
  const auto& rest = p.regions[1];
  CHECK(rest.in_offset == 4 * 16 * 4800);
  CHECK(rest.out_offset == 4 * 16);
  REQUIRE(rest.loops.size() == 2);
  CHECK(rest.loops[0].count == 1);
  CHECK(first.iterations() + rest.iterations() == 5 * 300);
  CHECK_THAT(p.reason, Catch::Contains("2 blocks at a time"));

  // An even count: one nest. A tail chunk stays out of the pairs.
  walk.loops[0].count = 6;
  CHECK(pair_output_lines(walk, 4, true, kSmallBlockBytes).regions.size() == 1);
  walk.loops[0].tail_bit = 1;
  const LinePairing tail = pair_output_lines(walk, 4, true, kSmallBlockBytes);
  REQUIRE(tail.regions.size() == 2);
  CHECK(tail.regions[0].loops[0].count == 2);
  CHECK(tail.regions[1].loops[0].count == 2);
  CHECK(tail.regions[1].loops[0].tail_bit == 1);

  // Not paired: blocks that are not whole lines or read more than 1 KiB, fewer than
  // kPairMinGapBlocks blocks between, the loop innermost already or not continuing the block's
  // rows, one block to pair.
  CHECK_FALSE(pair_output_lines(walk, 4, false, kSmallBlockBytes).paired);
  CHECK_FALSE(pair_output_lines(walk, 4, true, kSmallBlockBytes + 1).paired);
  BlockLoops near = walk;
  near.loops[1].count = kPairMinGapBlocks - 1;
  CHECK_FALSE(pair_output_lines(near, 4, true, kSmallBlockBytes).paired);
  near.loops.push_back(LoopDim{2, 16 * 80 * 255, 17, -1, "inner"});  // 255 x 2 blocks between: paired
  CHECK(pair_output_lines(near, 4, true, kSmallBlockBytes).paired);
  BlockLoops out_order;
  out_order.loops = {walk.loops[1], walk.loops[0]};
  CHECK_FALSE(pair_output_lines(out_order, 4, true, kSmallBlockBytes).paired);
  CHECK_FALSE(pair_output_lines(walk, 8, true, kSmallBlockBytes).paired);
  walk.loops[0] = LoopDim{2, 16 * 4800, 16, 1, "rows"};
  CHECK_FALSE(pair_output_lines(walk, 4, true, kSmallBlockBytes).paired);
}

TEST_CASE("line pairs: the generated streaming variant of a 2-D transpose of long rows pairs untiled", "[line_pairs]") {
  Problem p;
  p.name = "k";
  p.dtype = Dtype{"float32", 4};
  p.shape = {2032, 8192};  // 32 KiB input rows, 64 MiB: the cached walk is tiled
  p.perm = {1, 0};
  p.target = Target{Isa::avx512, 512};
  const Lowered l = run_pipeline(p);
  REQUIRE(l.stream_kernel);
  CHECK_FALSE(l.stream_kernel->tiled);
  CHECK(l.stream_kernel->left_tiles);
  CHECK_THAT(l.stream_kernel->paired_lines, Catch::Contains("2 blocks at a time"));
  CHECK(l.stream_kernel->regions.size() == 2);  // 127 row chunks: 63 pairs, then one more
  CHECK(l.stream_kernel->unroll == 1);
  verify_kernel(*l.stream_kernel);
  bool said = false;
  for (const auto& r : l.plan.reasons)
    said |= r.starts_with("stores: streaming") && r.find(kStreamPairedReason) != std::string::npos &&
            r.find("written back to back") != std::string::npos;
  CHECK(said);
  // AVX2: its block of 8 x 8 registers would keep the tiles (half lines); the block of one more
  // register bit stores whole lines (16 registers) and pairs them.
  p.target = Target{Isa::avx2, 256};
  const Lowered a = run_pipeline(p);
  REQUIRE(a.stream_kernel);
  CHECK_FALSE(a.stream_kernel->tiled);
  CHECK_THAT(a.stream_kernel->paired_lines, Catch::Contains("2 blocks at a time"));
  CHECK(a.stream_kernel->programs.front().ops.size() > 0);
  verify_kernel(*a.stream_kernel);
  bool wide = false;
  for (const auto& r : a.plan.reasons) wide |= r.find("block has 16 registers (one more output bit)") != std::string::npos;
  CHECK(wide);
}

TEST_CASE("line pairs: random paired kernels match the reference, whole and in parts", "[line_pairs][property]") {
  std::mt19937_64 rng(1729);
  int paired = 0, with_rest = 0;
  for (int c = 0; c < 12; ++c) {
    // Line blocks (float32, float64, complex128) whose rows are more than 256 lines, an odd or even
    // number of row chunks, a tail chunk or none, an outer axis.
    static const int64_t sizes[] = {4, 8, 16};
    const int64_t elem_bytes = sizes[c % 3];
    const int lanes = static_cast<int>(64 / elem_bytes);
    const int64_t row = kPairMinGapBlocks * lanes + lanes * (1 + static_cast<int64_t>(rng() % 8)) +
                        (c % 2 ? static_cast<int64_t>(rng() % lanes) : 0);
    const int64_t rows = lanes * (2 + static_cast<int64_t>(rng() % 3)) + static_cast<int64_t>(rng() % lanes);
    std::vector<int64_t> shape = {1 + static_cast<int64_t>(rng() % 2), rows, row};
    std::vector<int> perm = c % 4 < 2 ? std::vector<int>{0, 2, 1} : std::vector<int>{2, 0, 1};
    const Plan plan = make_plan(canonicalize(elem_bytes, shape, perm), lanes);
    const Kernel k = lower(plan, "k", LowerOptions{.streaming = true, .avx512_target = true});
    INFO(fmt::format("case {}: elem_bytes {} shape ({}) perm ({}): {}", c, elem_bytes, fmt::join(shape, ","),
                     fmt::join(perm, ","), k.paired_lines));
    if (k.paired_lines.empty()) continue;
    ++paired;
    with_rest += k.regions.size() > 1;
    verify_kernel(k);
    REQUIRE(test::parts_match_reference(k, rng, elem_bytes, shape, perm));
  }
  CHECK(paired >= 8);
  CHECK(with_rest >= 3);
}
