// ir/loops.h: the loop orders around the block. LoopOrder::balanced (untiled walks of outputs
// past the last-level cache) builds the nest from the block outwards, continuing the shorter of
// the input's and the output's contiguous runs; kernels walked that way move every element as
// the reference does, whole and in parts.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <numeric>

#include "ir/canonical.h"
#include "ir/loops.h"
#include "ir/lower.h"
#include "ir/plan.h"
#include "ir/stream.h"
#include "ir/tiling.h"
#include "ir/verify.h"
#include "tests/ir/parts_check.h"
#include "tests/ir/random_problem.h"

using namespace gentt;

namespace {

// The loops' notes, innermost first.
std::vector<std::string> inside_out(const std::vector<LoopDim>& loops) {
  std::vector<std::string> what;
  for (auto l = loops.rbegin(); l != loops.rend(); ++l) what.push_back(l->what);
  return what;
}

}  // namespace

TEST_CASE("loops: balanced order continues the shorter run, output order on ties", "[loops]") {
  // 15^6 float64 axes (3,2,4,1,5,0), blocks of 8 x 8 (axes 0 and 5). Output order walks axis 1
  // (the output's next axis) around the block's two chunk loops, reading 15 new rows of 120
  // bytes per 1800 contiguous output bytes; balanced puts axis 4 (the input's next axis) there.
  const Plan ttlg = make_plan(canonicalize(8, {15, 15, 15, 15, 15, 15}, {3, 2, 4, 1, 5, 0}), 8);
  const auto output = inside_out(make_block_loops(ttlg, LoopOrder::output).loops);
  const auto balanced = inside_out(make_block_loops(ttlg, LoopOrder::balanced).loops);
  REQUIRE(output.size() == 6);
  REQUIRE(balanced.size() == 6);
  CHECK_THAT(output[0], Catch::StartsWith("axis 0 in chunks"));
  CHECK_THAT(output[1], Catch::StartsWith("axis 5 in chunks"));
  CHECK(output[2] == "axis 1");
  CHECK(output[3] == "axis 4");
  // Block: runs of 8 and 8 (tie: the output's chunk loop, then the input's); then the input
  // run is 15 elements against the output's 225: axis 4; then 225 each (tie): axis 1.
  CHECK_THAT(balanced[0], Catch::StartsWith("axis 0 in chunks"));
  CHECK_THAT(balanced[1], Catch::StartsWith("axis 5 in chunks"));
  CHECK(balanced[2] == "axis 4");
  CHECK(balanced[3] == "axis 1");
  CHECK(balanced[4] == "axis 3");
  CHECK(balanced[5] == "axis 2");

  // A kept axis of 120 bytes (canonical (15, 225, 15, 15, 15) axes (3, 0, 2, 1, 4)): rows
  // copied whole; the next loop continues the input (axis 3), not the output (axis 1). Rows of
  // 2312 bytes (17^6 axes (3,2,0,1,4,5), canonical (17, 17, 17, 17, 289)) continue the output.
  const Plan short_rows = make_plan(canonicalize(8, {15, 15, 15, 15, 15, 15}, {4, 0, 3, 1, 2, 5}), 8);
  const auto kept = inside_out(make_block_loops(short_rows, LoopOrder::balanced).loops);
  CHECK_THAT(kept[0], Catch::StartsWith("axis 4 in chunks"));
  CHECK(kept[1] == "axis 3");
  const Plan long_rows = make_plan(canonicalize(8, {17, 17, 17, 17, 17, 17}, {3, 2, 0, 1, 4, 5}), 8);
  CHECK(inside_out(make_block_loops(long_rows, LoopOrder::balanced).loops)[1] ==
        inside_out(make_block_loops(long_rows, LoopOrder::output).loops)[1]);

  // A one-element tensor: its loop of extent 1 covers nothing new (it crashed: no axis was open).
  const Plan one = make_plan(canonicalize(4, {1, 1}, {1, 0}), 16);
  CHECK(make_block_loops(one, LoopOrder::balanced).loops.size() ==
        make_block_loops(one, LoopOrder::output).loops.size());

  // A 2-D transpose: the runs stay equal, so balanced is output order.
  const Plan square = make_plan(canonicalize(4, {4096, 4096}, {1, 0}), 16);
  CHECK(inside_out(make_block_loops(square, LoopOrder::balanced).loops) ==
        inside_out(make_block_loops(square, LoopOrder::output).loops));
}

TEST_CASE("loops: a streaming variant walks from the block outwards where input order writes the output's next "
          "axis outermost", "[loops]") {
  // Full reversal: in input order the loop over the output's next axis is the outermost.
  CHECK(streaming_order(make_plan(canonicalize(8, {16, 16, 16, 16, 16, 16}, {5, 4, 3, 2, 1, 0}), 8)) ==
        LoopOrder::balanced_streaming);
  CHECK(streaming_order(make_plan(canonicalize(8, {16, 16, 16, 16, 16, 16}, {4, 1, 2, 5, 3, 0}), 8)) ==
        LoopOrder::balanced_streaming);
  // Input order walks axis 1 (the output's next axis) inside axis 0: input order.
  CHECK(streaming_order(make_plan(canonicalize(4, {75, 96, 75, 96}, {3, 0, 2, 1}), 16)) == LoopOrder::input);
  // All-size-2 tensors (every loop two iterations): input order, reversed or not.
  const std::vector<int64_t> twos(24, 2);
  std::vector<int> reverse(24);
  for (int a = 0; a < 24; ++a) reverse[a] = 23 - a;
  CHECK(streaming_order(make_plan(canonicalize(4, twos, reverse), 16)) == LoopOrder::input);
  CHECK(streaming_order(make_plan(canonicalize(4, twos, {23, 20, 5, 2, 22, 7, 13, 6, 21, 14, 12, 15, 4, 16, 17, 9,
                                                         10, 3, 18, 0, 1, 19, 11, 8}),
                                  16)) == LoopOrder::input);
  const Plan reversed = make_plan(canonicalize(8, {16, 16, 16, 16, 16, 16}, {5, 4, 3, 2, 1, 0}), 8);
  const Kernel k = lower(reversed, "k", LowerOptions{.streaming = true});
  CHECK_THAT(k.order, Catch::StartsWith("from the block outwards, reads first"));
  CHECK(lower(reversed, "k").order == "from the block outwards");
}

TEST_CASE("loops: a streaming walk from the block outwards reads at most 16 rows at once where rows read on within "
          "64 KiB",
          "[loops]") {
  // TTC's (32,15,15,15,15,32) float32 reversed, blocks of 16 x 16 (axes 0 and 5). Alternating,
  // the walk took the second chunk of the output rows (axis 0) right after the input rows' two
  // chunks: 32 rows read at once, each for 128 bytes at a time. Now each of 16 rows is read on
  // over axes 4 and 3 (28800 bytes) first; axis 2 would make the run 432000 bytes, past the
  // 64 KiB budget, so the output's chunk loop comes next. Those 32 rows are read on over axis 2
  // (kMaxOpenRows: the output's next axis, 1, would make them 480), then axis 1.
  const Plan ttc = make_plan(canonicalize(4, {32, 15, 15, 15, 15, 32}, {5, 4, 3, 2, 1, 0}), 16);
  const auto streaming = inside_out(make_block_loops(ttc, LoopOrder::balanced_streaming).loops);
  REQUIRE(streaming.size() == 6);
  CHECK_THAT(streaming[0], Catch::StartsWith("axis 5 in chunks"));
  CHECK(streaming[1] == "axis 4");
  CHECK(streaming[2] == "axis 3");
  CHECK_THAT(streaming[3], Catch::StartsWith("axis 0 in chunks"));
  CHECK(streaming[4] == "axis 2");
  CHECK(streaming[5] == "axis 1");
  // The cached walk (LoopOrder::balanced) keeps alternating: both chunk loops innermost.
  const auto cached = inside_out(make_block_loops(ttc, LoopOrder::balanced).loops);
  CHECK_THAT(cached[0], Catch::StartsWith("axis 0 in chunks"));
  CHECK_THAT(cached[1], Catch::StartsWith("axis 5 in chunks"));

  // 16^6 float64 (5,2,3,4,1,0), blocks of 8 x 8: two chunks of the output row make 16 rows, so
  // the walk still reads those 16 rows on for 512 KiB (a run budget alone took the output's
  // next axis there and ran 0.37x).
  const Plan rows16 = make_plan(canonicalize(8, {16, 16, 16, 16, 16, 16}, {5, 2, 3, 4, 1, 0}), 8);
  const auto wide = inside_out(make_block_loops(rows16, LoopOrder::balanced_streaming).loops);
  REQUIRE(wide.size() == 4);
  CHECK_THAT(wide[1], Catch::StartsWith("axis 0 in chunks"));
  CHECK(wide[2] == "axis 2");

  const Kernel k = lower(ttc, "k", LowerOptions{.streaming = true});
  CHECK(k.read_rows_limited);
  CHECK(k.order == std::string("from the block outwards, reads first, ") + kReadRowsLimitText);
  verify_kernel(k);
  CHECK_FALSE(make_block_loops(rows16, LoopOrder::balanced_streaming).read_rows_limited);

  // A small tensor of the same kind (axis 3 keeps each row's run at 640 bytes): the limit
  // fires, and the kernel moves every element as the reference does, whole and in parts.
  std::mt19937_64 rng(77);
  const std::vector<int64_t> shape = {32, 3, 3, 5, 32};
  const std::vector<int> perm = {4, 3, 2, 1, 0};
  const Kernel small = lower(make_plan(canonicalize(4, shape, perm), 16), "k", LowerOptions{.streaming = true});
  CHECK(small.read_rows_limited);
  verify_kernel(small);
  REQUIRE(test::parts_match_reference(small, rng, 4, shape, perm));

  // Blocks of bytes read 64 rows themselves: the 16-row limit leaves them alone, but the output
  // row's other 3 chunks would make 256 rows: the input's next axis first (kMaxOpenRows).
  const Plan bytes = make_plan(canonicalize(1, {256, 64, 64, 256}, {3, 2, 1, 0}), 64);
  const auto byte_walk = inside_out(make_block_loops(bytes, LoopOrder::balanced_streaming).loops);
  CHECK(make_block_loops(bytes, LoopOrder::balanced_streaming).read_rows_limited);
  CHECK_THAT(byte_walk[0], Catch::StartsWith("axis 3 in chunks"));
  CHECK(byte_walk[1] == "axis 2");
}

TEST_CASE("loops: a streaming walk reads at most 64 rows at once, however long each row's run", "[loops]") {
  // Seed 002's uint16 (6,7,3,4,5,0,1,2), canonical (768, 6144, 60) reversed, blocks of 32 x 32
  // (axes 0 and 2): the output row's 24 chunks of 32 went inside the loop over axis 1, so 768
  // input rows of 120 bytes were read at once (0.22 of the best copy). Now the walk reads the
  // block's 32 rows on over axis 1 (737 KB each) before it takes the output row's next chunk.
  const Plan seed = make_plan(canonicalize(2, {768, 6144, 60}, {2, 1, 0}), 32);
  const BlockLoops walk = make_block_loops(seed, LoopOrder::balanced_streaming);
  const auto loops = inside_out(walk.loops);
  REQUIRE(loops.size() == 3);
  CHECK_THAT(loops[0], Catch::StartsWith("axis 2 in chunks"));
  CHECK(loops[1] == "axis 1");
  CHECK_THAT(loops[2], Catch::StartsWith("axis 0 in chunks"));
  CHECK(walk.read_rows_limited);
  // That is input order's nest, and the streaming variant says so.
  CHECK(streaming_order(seed) == LoopOrder::input);
  // Blocks of 16 rows (float32) whose input run passes 64 KiB: the same walk.
  const Plan f32 = make_plan(canonicalize(4, {768, 6144, 60}, {2, 1, 0}), 16);
  const auto f32_loops = inside_out(make_block_loops(f32, LoopOrder::balanced_streaming).loops);
  REQUIRE(f32_loops.size() == 3);
  CHECK_THAT(f32_loops[0], Catch::StartsWith("axis 2 in chunks of 16"));
  CHECK(f32_loops[1] == "axis 1");
  CHECK_THAT(f32_loops[2], Catch::StartsWith("axis 0 in chunks of 16"));

  // A small problem of the same kind: the kernel moves every element as the reference does,
  // whole and in parts.
  std::mt19937_64 rng(78);
  const std::vector<int64_t> shape = {128, 40, 60};
  const std::vector<int> perm = {2, 1, 0};
  const Plan small_plan = make_plan(canonicalize(2, shape, perm), 32);
  CHECK(make_block_loops(small_plan, LoopOrder::balanced_streaming).read_rows_limited);
  const Kernel small = lower(small_plan, "k", LowerOptions{.streaming = true});
  verify_kernel(small);
  REQUIRE(test::parts_match_reference(small, rng, 2, shape, perm));
}

TEST_CASE("loops: lowering takes the balanced order only for untiled outputs past the last-level cache",
          "[loops]") {
  const Plan big = make_plan(canonicalize(8, {15, 15, 15, 15, 15, 15}, {3, 2, 4, 1, 5, 0}), 8);  // 87 MiB
  const Kernel k = lower(big, "k");
  CHECK_FALSE(k.tiled);
  CHECK_THAT(k.tiling, Catch::Contains("loops ordered from the block outwards"));
  CHECK(k.loops.back().what.starts_with("axis 0 in chunks"));
  CHECK(k.loops[k.loops.size() - 3].what == "axis 4");
  verify_kernel(k);

  // 16 MiB, loops too short for tiles: input and output together fill a 32 MiB last-level
  // cache, so balanced (kBalancedMinBytes).
  const Kernel mid = lower(make_plan(canonicalize(4, {128, 64, 33, 16}, {3, 2, 1, 0}), 16), "k");
  CHECK_FALSE(mid.tiled);
  CHECK_THAT(mid.tiling, Catch::Contains("from the block outwards"));
  verify_kernel(mid);

  // 4 MiB: large enough for tiles, but it stays in the last-level cache: output order.
  const Kernel small = lower(make_plan(canonicalize(16, {64, 64, 64}, {2, 1, 0}), 4), "k");
  CHECK_THAT(small.tiling, !Catch::Contains("from the block outwards"));
  // Tiled walks keep their tiles.
  const Kernel tiled = lower(make_plan(canonicalize(4, {4096, 4096}, {1, 0}), 16), "k");
  CHECK(tiled.tiled);
  CHECK_THAT(tiled.tiling, !Catch::Contains("from the block outwards"));
}

TEST_CASE("loops: random kernels in balanced order match the reference, whole and in parts", "[loops][property]") {
  std::mt19937_64 rng(1517);
  int reordered = 0, streaming_balanced = 0, read_rows_limited = 0;
  for (int c = 0; c < 800; ++c) {
    const test::RandomProblem p = test::random_problem(rng, 6, 6000);
    const Canonical canon = canonicalize(p.elem_bytes, p.shape, p.perm);
    const int lanes = static_cast<int>(
        std::bit_floor(static_cast<uint64_t>(std::max<int64_t>(1, 64 / p.elem_bytes))));
    const Plan plan = make_plan(canon, lanes);
    const Kernel k = lower(plan, "k", LowerOptions{.tile_min_bytes = 1, .balanced_min_bytes = 1});
    INFO(fmt::format("case {}: elem_bytes {} shape ({}) perm ({}): {}", c, p.elem_bytes, fmt::join(p.shape, ","),
                     fmt::join(p.perm, ","), k.tiling));
    if (k.tiled) continue;
    const Kernel output = lower(plan, "k", LowerOptions{.tile_min_bytes = 0});
    bool differs = output.loops.size() != k.loops.size();
    for (size_t d = 0; !differs && d < k.loops.size(); ++d) differs = output.loops[d].what != k.loops[d].what;
    reordered += differs;
    verify_kernel(k);
    REQUIRE(test::parts_match_reference(k, rng, p.elem_bytes, p.shape, p.perm));
    // The streaming variant, where the plan has one (its order: streaming_order).
    if (!choose_streaming(output, StoreMode::streaming, true, 64).stream) continue;
    const Kernel s = lower(plan, "k", LowerOptions{.streaming = true, .tile_min_bytes = 0});
    streaming_balanced += streaming_order(plan) == LoopOrder::balanced_streaming;
    verify_kernel(s);
    REQUIRE(test::parts_match_reference(s, rng, p.elem_bytes, p.shape, p.perm));
  }
  // (Kept short rows of these small tensors keep output order: their next rows come back within
  // kRowReuseBytes. 34 of the 800 differ.)
  CHECK(reordered >= 30);
  // Full reversals whose output rows are whole vectors (the first input axis a multiple of the
  // lanes): streaming variants, most of them walked from the block outwards.
  for (int c = 0; c < 40; ++c) {
    const int64_t elem_bytes = c % 2 ? 8 : 4, lanes = 64 / elem_bytes;
    std::vector<int64_t> shape = {lanes * (1 + static_cast<int64_t>(rng() % 3))};
    const int rank = 3 + static_cast<int>(rng() % 3);
    for (int a = 1; a < rank; ++a) shape.push_back(2 + static_cast<int64_t>(rng() % 8));
    std::vector<int> perm(shape.size());
    std::iota(perm.rbegin(), perm.rend(), 0);
    const Plan plan = make_plan(canonicalize(elem_bytes, shape, perm), static_cast<int>(lanes));
    INFO(fmt::format("reversal {}: elem_bytes {} shape ({})", c, elem_bytes, fmt::join(shape, ",")));
    REQUIRE(choose_streaming(lower(plan, "k"), StoreMode::streaming, true, 64).stream);
    const Kernel s = lower(plan, "k", LowerOptions{.streaming = true, .tile_min_bytes = 0});
    streaming_balanced += streaming_order(plan) == LoopOrder::balanced_streaming;
    read_rows_limited += s.read_rows_limited;
    verify_kernel(s);
    REQUIRE(test::parts_match_reference(s, rng, elem_bytes, shape, perm));
  }
  // Reversals whose output rows span 2-3 blocks (float32: 16 rows each, float64: 8): the walk
  // reads at most 16 rows at once.
  CHECK(read_rows_limited >= 1);
  // (Where the limited walk is the input order's nest, streaming_order says input order; 16
  // kernels of this test still take the balanced walk.)
  CHECK(streaming_balanced >= 12);
}
