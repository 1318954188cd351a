// ir/staging.h: the loop level whose iterations write contiguous tiles of the output, and the
// runs of input each tile reads.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <set>

#include "ir/canonical.h"
#include "ir/loops.h"
#include "ir/pipeline.h"
#include "ir/plan.h"
#include "ir/staging.h"
#include "tests/ir/random_problem.h"

using namespace gentt;

namespace {

// The output offsets of the elements whose index along each axis a is below extent[a].
std::set<int64_t> out_offsets(const Plan& plan, const std::vector<int64_t>& extent) {
  const int d = plan.problem.rank();
  std::set<int64_t> out;
  std::vector<int64_t> idx(d, 0);
  for (;;) {
    int64_t o = 0;
    for (int a = 0; a < d; ++a) o += idx[a] * plan.out_strides[a];
    out.insert(o);
    int a = d - 1;
    for (; a >= 0; --a) {
      if (++idx[a] < extent[a]) break;
      idx[a] = 0;
    }
    if (a < 0) return out;
  }
}

}  // namespace

TEST_CASE("staging: 15^6 float64 tiles of 27000 bytes, none where a block axis is far out", "[staging]") {
  // Canonical (225, 15, 15, 15, 15) axes (0, 2, 4, 1, 3), blocks of 8 x 8 over axes 3 and 4:
  // the three innermost loops (axis 1 and the two chunk loops) write the output's axes 3, 1, 4
  // whole: 3375 contiguous elements.
  const Plan plan = make_plan(canonicalize(8, {15, 15, 15, 15, 15, 15}, {0, 1, 3, 5, 2, 4}), 8);
  const BlockLoops loops = make_block_loops(plan, LoopOrder::balanced);
  std::string why;
  const auto stage = plan_staging(plan, loops.loops, &why);
  REQUIRE(stage);
  CHECK(stage->level == static_cast<int>(loops.loops.size()) - 3);
  CHECK(stage->tile_elements == 3375);
  CHECK(stage->tile_iterations == 60);
  CHECK_THAT(stage->reason, Catch::Contains("27000 bytes"));

  // Axes (1,5,4,2,3,0): the block's input row (axis 4 of canonical (15, 15, 225, 15, 15)) is the
  // output's fourth axis: a tile holding whole blocks spans 15^5 elements.
  const Plan far = make_plan(canonicalize(8, {15, 15, 15, 15, 15, 15}, {1, 5, 4, 2, 3, 0}), 8);
  CHECK_FALSE(plan_staging(far, make_block_loops(far, LoopOrder::balanced).loops, &why));
  CHECK_THAT(why, Catch::Contains("contiguous range"));
}

TEST_CASE("staging: kept rows of 512 bytes and more are streamed straight across, not staged", "[staging]") {
  auto problem = [](std::vector<int64_t> shape, std::vector<int> perm, StoreMode stores) {
    Problem p;
    p.name = "k";
    p.dtype = Dtype{"float64", 8};
    p.shape = std::move(shape);
    p.perm = std::move(perm);
    p.target = Target{Isa::avx512, 512};
    p.stores = stores;
    return p;
  };
  auto reason = [](const Lowered& l) {
    for (const auto& r : l.plan.reasons)
      if (r.find("staged") != std::string::npos || r.starts_with("rows streamed")) return r;
    return std::string();
  };
  // 17^6 float64 (3,2,0,1,4,5): canonical (289, 17, 17, 289) with rows of 2312 bytes kept.
  CHECK(kept_row_bytes(make_plan(canonicalize(8, {17, 17, 17, 17, 17, 17}, {3, 2, 0, 1, 4, 5}), 8)) == 2312);
  CHECK(kept_row_bytes(make_plan(canonicalize(8, {15, 15, 15, 15, 15, 15}, {0, 1, 3, 5, 2, 4}), 8)) == 0);
  // The rows themselves are the tiles: copied from the input, no buffer (Kernel::stage_rows).
  const Lowered long_rows = run_pipeline(problem({17, 17, 17, 17, 17, 17}, {3, 2, 0, 1, 4, 5}, StoreMode::automatic));
  CHECK(long_rows.kernel.stage_rows);
  CHECK(long_rows.kernel.stage_level == static_cast<int>(long_rows.kernel.loops.size()) - 1);
  CHECK(long_rows.kernel.stage_tile_elements == 289);
  CHECK(long_rows.kernel.stage_tile_iterations == 37);  // 36 chunks of 8 and the tail of 1
  CHECK_THAT(reason(long_rows), Catch::StartsWith("rows streamed: each row of 2312 bytes"));
  const Lowered asked = run_pipeline(problem({17, 17, 17, 17, 17, 17}, {3, 2, 0, 1, 4, 5}, StoreMode::streaming));
  CHECK(asked.kernel.stage_rows);
  const Lowered cached = run_pipeline(problem({17, 17, 17, 17, 17, 17}, {3, 2, 0, 1, 4, 5}, StoreMode::cached));
  CHECK(cached.kernel.stage_level < 0);
  // A block with register bits of one other axis copies a group of rows a tile: (6, 5, 130)
  // (1, 0, 2) float32, 2 rows of axis 0 (neighbours in the output) a block.
  std::string why;
  const Plan two = make_plan(canonicalize(4, {6, 5, 130}, {1, 0, 2}), 16);
  const auto pair = plan_row_streaming(two, make_block_loops(two, LoopOrder::output).loops, &why);
  REQUIRE(pair);
  CHECK(pair->row_group == 2);
  CHECK(pair->row_group_rest == 0);
  CHECK(pair->row_group_in == 5 * 130);
  CHECK(pair->row_group_out == 130);
  CHECK(pair->row_group_loop == 1);  // loops: axis 1, axis 0's chunks, the row's chunks
  CHECK_THAT(pair->reason, Catch::Contains("2 rows of axis 0 a tile (the block's, neighbours in the output)"));
  // Groups with a partial last chunk (make_plan's kept_row_groups): 8 rows, then 3.
  const Plan groups = make_plan(canonicalize(4, {11, 3, 130}, {1, 0, 2}), 16, kMinRegisterBits, 0, true);
  const auto eight = plan_row_streaming(groups, make_block_loops(groups, LoopOrder::output).loops, &why);
  REQUIRE(eight);
  CHECK(eight->row_group == 8);
  CHECK(eight->row_group_rest == 3);
  CHECK_THAT(eight->reason, Catch::Contains("; 3 in the last)"));
  // Register bits of two axes beside the row (axis 0's and axis 1's) are not a group.
  const Plan two_axes = make_plan(canonicalize(4, {4, 2, 130}, {1, 0, 2}), 16);
  CHECK_FALSE(plan_row_streaming(two_axes, make_block_loops(two_axes, LoopOrder::output).loops, &why));
  CHECK_THAT(why, Catch::Contains("more than a chunk of the kept row and a group of rows"));
  const Plan one = make_plan(canonicalize(4, {7, 3, 130}, {1, 0, 2}), 16);
  CHECK(plan_row_streaming(one, make_block_loops(one, LoopOrder::output).loops, &why));
  CHECK_FALSE(plan_row_streaming(one, make_block_loops(one, LoopOrder::output).loops, &why, 1024));
  CHECK_THAT(why, Catch::Contains("no kept row of 1024 bytes or more"));
  // Rows of 136 bytes (17^6 (2,4,1,3,0,5)) stage: tiles of 17 rows.
  const Lowered short_rows = run_pipeline(problem({17, 17, 17, 17, 17, 17}, {2, 4, 1, 3, 0, 5}, StoreMode::automatic));
  CHECK(short_rows.kernel.stage_tile_elements == 289);
}

TEST_CASE("staging: short kept rows off their lines, unstaged or prefetched, take blocks of one row chunk", "[staging]") {
  auto lowered = [](Dtype dtype, std::vector<int64_t> shape, std::vector<int> perm, StoreMode stores) {
    Problem p;
    p.name = "k";
    p.dtype = dtype;
    p.shape = std::move(shape);
    p.perm = std::move(perm);
    p.target = Target{Isa::avx512, 512};
    p.stores = stores;
    return run_pipeline(p);
  };
  auto said = [](const Lowered& l) {
    for (const auto& r : l.plan.reasons)
      if (r.starts_with("short kept rows off their lines")) return true;
    return false;
  };
  // uint16 (96,64,14,165) (2,0,1,3), 40 MiB, rows of 330 bytes: neither variant's walk stages a
  // tile; the one-chunk blocks' walk takes row tiles (tile_rows_for_staging).
  const Lowered rows = lowered(Dtype{"uint16", 2}, {96, 64, 14, 165}, {2, 0, 1, 3}, StoreMode::automatic);
  CHECK(rows.plan.block_axes.size() == 1);
  CHECK(rows.kernel.stage_row_tiles);
  CHECK(said(rows));
  // float32 (45,54,45,99) (1,2,0,3): one-chunk blocks stage (tiles of 45 rows), each row
  // prefetching the next rows' bytes (ir/prefetch.h's choose_row_prefetch): taken.
  const Lowered staged = lowered(Dtype{"float32", 4}, {45, 54, 45, 99}, {1, 2, 0, 3}, StoreMode::automatic);
  CHECK(staged.plan.block_axes.size() == 1);
  CHECK(staged.kernel.stage_level >= 0);
  CHECK(staged.kernel.prefetch_window == 512);
  CHECK(said(staged));
  // float32 (64,103,87,23) (2,0,1,3): its blocks keep their register bits (one-chunk blocks lost
  // there, 0.40 -> 0.22 of the best copy).
  const Lowered kept = lowered(Dtype{"float32", 4}, {64, 103, 87, 23}, {2, 0, 1, 3}, StoreMode::automatic);
  CHECK(kept.plan.block_axes.size() == 2);
  CHECK_FALSE(said(kept));
  // In cache, or cached stores asked for: the block as before.
  CHECK_FALSE(said(lowered(Dtype{"uint16", 2}, {6, 64, 14, 165}, {2, 0, 1, 3}, StoreMode::automatic)));
  CHECK_FALSE(said(lowered(Dtype{"uint16", 2}, {96, 64, 14, 165}, {2, 0, 1, 3}, StoreMode::cached)));
}

TEST_CASE("staging: random plans' tiles are contiguous output ranges", "[staging][property]") {
  std::mt19937_64 rng(2611);
  int staged = 0;
  for (int c = 0; c < 600; ++c) {
    const test::RandomProblem p = test::random_problem(rng, 6, 6000);
    const Canonical canon = canonicalize(p.elem_bytes, p.shape, p.perm);
    const int lanes = static_cast<int>(
        std::bit_floor(static_cast<uint64_t>(std::max<int64_t>(1, 64 / p.elem_bytes))));
    const Plan plan = make_plan(canon, lanes);
    for (LoopOrder order : {LoopOrder::output, LoopOrder::balanced}) {
      const BlockLoops loops = make_block_loops(plan, order);
      std::string why;
      const auto stage = plan_staging(plan, loops.loops, &why, 1, int64_t{1} << 40);
      if (!stage) continue;
      ++staged;
      INFO(fmt::format("case {}: elem_bytes {} shape ({}) perm ({}), level {}", c, p.elem_bytes,
                       fmt::join(p.shape, ","), fmt::join(p.perm, ","), stage->level));
      // The loops below the level, with the block, cover whole axes; each tile is the same number
      // of iterations.
      int64_t iterations = 1;
      std::vector<bool> covered(canon.rank(), false);
      for (const auto& b : plan.block_axes) covered[b.axis] = b.chunk >= b.extent;
      for (size_t l = stage->level; l < loops.loops.size(); ++l) {
        iterations *= loops.loops[l].count;
        covered[loops.loops[l].axis] = true;
      }
      for (const auto& b : plan.block_axes) REQUIRE(covered[b.axis]);
      CHECK(iterations == stage->tile_iterations);
      for (int l = 0; l < stage->level; ++l) REQUIRE(loops.loops[l].tail_bit < 0);
      // Tile 0's elements (the covered axes whole, the others at 0): output offsets exactly
      // [0, tile_elements).
      std::vector<int64_t> extent(canon.rank(), 1);
      for (int a = 0; a < canon.rank(); ++a)
        if (covered[a]) extent[a] = canon.shape[a];
      const std::set<int64_t> out = out_offsets(plan, extent);
      REQUIRE(static_cast<int64_t>(out.size()) == stage->tile_elements);
      CHECK(*out.begin() == 0);
      CHECK(*out.rbegin() == stage->tile_elements - 1);
    }
  }
  CHECK(staged > 200);
}

namespace {

// The (input, output) base offsets of every flat iteration of `loops`, in order.
std::vector<std::pair<int64_t, int64_t>> walk(const std::vector<LoopDim>& loops) {
  std::vector<std::pair<int64_t, int64_t>> out;
  std::vector<int64_t> idx(loops.size(), 0);
  for (;;) {
    int64_t i = 0, o = 0;
    for (size_t l = 0; l < loops.size(); ++l) {
      i += idx[l] * loops[l].in_stride;
      o += idx[l] * loops[l].out_stride;
    }
    out.emplace_back(i, o);
    int l = static_cast<int>(loops.size()) - 1;
    for (; l >= 0; --l) {
      if (++idx[l] < loops[l].count) break;
      idx[l] = 0;
    }
    if (l < 0) return out;
  }
}

}  // namespace

TEST_CASE("staging: a loop that takes the tile past the window is cut at a divisor", "[staging]") {
  // 15^6 float64 (2,0,3,4,1,5): canonical (15, 15, 15, 225, 15) perm (2,0,3,1,4), rows of 120
  // bytes kept. Balanced loops: axis 1 innermost writes 1800 contiguous bytes, the loop over axis
  // 3 (the output's next axis) makes that 405 KB.
  const Plan plan = make_plan(canonicalize(8, {15, 15, 15, 15, 15, 15}, {2, 0, 3, 4, 1, 5}), 8);
  const BlockLoops loops = make_block_loops(plan, LoopOrder::balanced);
  std::string why;
  REQUIRE_FALSE(plan_staging(plan, loops.loops, &why));
  const std::optional<StageCut> cut = split_for_staging(plan, loops.loops);
  REQUIRE(cut);
  CHECK(cut->chunk == 9);  // 9 x 1800 bytes: the largest tile of at most 16 KiB
  CHECK(cut->loops.size() == loops.loops.size() + 1);
  CHECK(cut->loops[cut->level].count == 25);
  CHECK(cut->loops[cut->level + 1].count == 9);
  CHECK_THAT(cut->note, Catch::Contains("cut in chunks of 9"));
  CHECK(walk(cut->loops) == walk(loops.loops));
  const std::optional<StagePlan> stage = plan_staging(plan, cut->loops, &why);
  REQUIRE(stage);
  CHECK(stage->level == cut->level + 1);
  CHECK(stage->tile_elements == 2025);
  CHECK(stage->in_runs == 15);
  // Staging needs no cut, or the rows are too long, or no divisor fits: no cut.
  const Plan staged = make_plan(canonicalize(8, {15, 15, 15, 15, 15, 15}, {0, 1, 3, 5, 2, 4}), 8);
  CHECK_FALSE(split_for_staging(staged, make_block_loops(staged, LoopOrder::balanced).loops));
  // Rows of 320 bytes, 5 of them below the loop to cut (1600 bytes): cut only where asked.
  const Plan long_rows = make_plan(canonicalize(8, {15, 5, 15, 15, 15, 40}, {2, 0, 3, 4, 1, 5}), 8);
  CHECK_FALSE(split_for_staging(long_rows, make_block_loops(long_rows, LoopOrder::balanced).loops));
  CHECK(split_for_staging(long_rows, make_block_loops(long_rows, LoopOrder::balanced).loops, kStageMinTileBytes,
                          kStageCutMaxTileBytes, 0));
  const Plan prime = make_plan(canonicalize(8, {15, 15, 15, 227, 15}, {2, 0, 3, 1, 4}), 8);
  CHECK_FALSE(split_for_staging(prime, make_block_loops(prime, LoopOrder::balanced).loops));

  // The generated kernel stages with the cut: the kernel's loops are the cut ones.
  Problem p;
  p.name = "k";
  p.dtype = Dtype{"float64", 8};
  p.shape = {15, 15, 15, 15, 15, 15};
  p.perm = {2, 0, 3, 4, 1, 5};
  p.target = Target{Isa::avx512, 512};
  const Lowered l = run_pipeline(p);
  CHECK(l.kernel.stage_tile_elements == 2025);
  CHECK(l.kernel.loops.size() == loops.loops.size() + 1);
  CHECK(std::any_of(l.plan.reasons.begin(), l.plan.reasons.end(),
                    [](const std::string& r) { return r.find("cut in chunks of 9 for the tile") != std::string::npos; }));
}

TEST_CASE("staging: cut loops walk the same iterations, their tiles contiguous output ranges",
          "[staging][property]") {
  std::mt19937_64 rng(2911);
  int cuts = 0;
  for (int c = 0; c < 6000; ++c) {
    const test::RandomProblem p = test::random_problem(rng, 6, 6000);
    const Canonical canon = canonicalize(p.elem_bytes, p.shape, p.perm);
    const int lanes = static_cast<int>(
        std::bit_floor(static_cast<uint64_t>(std::max<int64_t>(1, 64 / p.elem_bytes))));
    const Plan plan = make_plan(canon, lanes);
    const int64_t min_tile = int64_t{32} << (rng() % 6), max_tile = 4 * min_tile;
    for (LoopOrder order : {LoopOrder::output, LoopOrder::balanced}) {
      const BlockLoops loops = make_block_loops(plan, order);
      const std::optional<StageCut> cut = split_for_staging(plan, loops.loops, min_tile, max_tile, 0);
      if (!cut) continue;
      ++cuts;
      INFO(fmt::format("case {}: elem_bytes {} shape ({}) perm ({}), cut level {} chunk {}", c, p.elem_bytes,
                       fmt::join(p.shape, ","), fmt::join(p.perm, ","), cut->level, cut->chunk));
      REQUIRE(walk(cut->loops) == walk(loops.loops));
      const std::optional<StagePlan> stage = plan_staging(plan, cut->loops, nullptr, min_tile, max_tile);
      REQUIRE(stage);
      REQUIRE(stage->level == cut->level + 1);
      const int64_t bytes = stage->tile_elements * canon.elem_bytes;
      CHECK(bytes >= min_tile);
      CHECK(bytes <= max_tile);
      // Tile 0: the axes the loops below the level and the block cover whole, the cut axis
      // from 0 to the chunk, the others at 0: output offsets exactly [0, tile_elements).
      std::vector<int64_t> extent(canon.rank(), 1);
      for (const auto& b : plan.block_axes) extent[b.axis] = b.extent;
      for (size_t l = stage->level + 1; l < cut->loops.size(); ++l) extent[cut->loops[l].axis] = canon.shape[cut->loops[l].axis];
      extent[cut->loops[stage->level].axis] = cut->chunk;
      const std::set<int64_t> out = out_offsets(plan, extent);
      REQUIRE(static_cast<int64_t>(out.size()) == stage->tile_elements);
      CHECK(*out.begin() == 0);
      CHECK(*out.rbegin() == stage->tile_elements - 1);
    }
  }
  CHECK(cuts > 25);
}

TEST_CASE("staging: short kept rows that stage no tile walk row tiles", "[staging]") {
  // Seed 002's uint16 (4,5,1,2,3,0,6,7): canonical (3, 4096, 384, 60) perm (2,1,0,3), rows of 120
  // bytes. Blocks of one row chunk; the balanced walk (axis 1, axis 0, axis 2, the row) writes no
  // contiguous range of 1 KiB or more below a loop.
  const Canonical canon = canonicalize(2, {3, 32, 8, 16, 24, 16, 20, 3}, {4, 5, 1, 2, 3, 0, 6, 7});
  const Plan plan = make_plan(canon, 32, 0);
  REQUIRE(plan.block_axes.size() == 1);
  const BlockLoops loops = make_block_loops(plan, LoopOrder::balanced);
  REQUIRE_FALSE(plan_staging(plan, loops.loops, nullptr, kRowTileMinBytes, kStageMaxTileBytes, kStageMaxKeptRowBytes));
  REQUIRE_FALSE(split_for_staging(plan, loops.loops));
  const std::optional<RowTiles> tiles = tile_rows_for_staging(plan, loops.loops);
  REQUIRE(tiles);
  // Tiles of 4 x 3 rows (12 runs, 1440 bytes; 8 x 3 would read 24), the input's next axis (2)
  // above them, the tiles of axis 1 outermost.
  std::vector<std::string> whats;
  for (const LoopDim& l : tiles->loops) whats.push_back(l.what);
  CHECK(whats == std::vector<std::string>{"axis 1 in tiles of 4", "axis 2", "axis 1 within a tile", "axis 0",
                                          "axis 3 in chunks of 32 (last: 28)"});
  CHECK(tiles->stage.level == 2);
  CHECK(tiles->stage.tile_elements == 720);
  CHECK(tiles->stage.in_runs == 12);
  CHECK_THAT(tiles->note, Catch::Contains("12 rows of 120 bytes (12 runs of input) a tile"));
  // The same iterations in another order.
  std::vector<std::pair<int64_t, int64_t>> a = walk(loops.loops), b = walk(tiles->loops);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  CHECK(a == b);

  // Rows of whole lines, or of 512 bytes and more, or blocks of more than the row: none.
  const Plan lines = make_plan(canonicalize(2, {3, 4096, 384, 64}, {2, 1, 0, 3}), 32, 0);
  CHECK_FALSE(tile_rows_for_staging(lines, make_block_loops(lines, LoopOrder::balanced).loops));
  const Plan long_rows = make_plan(canonicalize(2, {3, 4096, 384, 260}, {2, 1, 0, 3}), 32, 0);
  CHECK_FALSE(tile_rows_for_staging(long_rows, make_block_loops(long_rows, LoopOrder::balanced).loops));
  const Plan wide = make_plan(canon, 32);
  if (wide.block_axes.size() > 1) CHECK_FALSE(tile_rows_for_staging(wide, make_block_loops(wide, LoopOrder::balanced).loops));

  // The generated kernel stages in those tiles.
  Problem p;
  p.name = "k";
  p.dtype = Dtype{"uint16", 2};
  p.shape = {3, 32, 8, 16, 24, 16, 20, 3};
  p.perm = {4, 5, 1, 2, 3, 0, 6, 7};
  p.target = Target{Isa::avx512, 512};
  const Lowered l = run_pipeline(p);
  CHECK(l.kernel.stage_row_tiles);
  CHECK(l.kernel.stage_tile_elements == 720);
  CHECK(std::any_of(l.plan.reasons.begin(), l.plan.reasons.end(),
                    [](const std::string& r) { return r.find("(row tiles: 12 rows of 120 bytes") != std::string::npos; }));
}

TEST_CASE("staging: row tiles walk the same iterations, each tile a contiguous output range of few runs",
          "[staging][property]") {
  std::mt19937_64 rng(3121);
  int tiled = 0;
  for (int c = 0; c < 6000; ++c) {
    test::RandomProblem p = test::random_problem(rng, 5, 20000);
    // Keep the last axis (rows of 5-255 elements).
    p.shape.push_back(5 + static_cast<int64_t>(rng() % 251));
    p.perm.push_back(static_cast<int>(p.shape.size()) - 1);
    const Canonical canon = canonicalize(p.elem_bytes, p.shape, p.perm);
    const int lanes = static_cast<int>(
        std::bit_floor(static_cast<uint64_t>(std::max<int64_t>(1, 64 / p.elem_bytes))));
    const Plan plan = make_plan(canon, lanes, 0);
    const BlockLoops loops = make_block_loops(plan, LoopOrder::balanced);
    const std::optional<RowTiles> tiles = tile_rows_for_staging(plan, loops.loops);
    if (!tiles) continue;
    ++tiled;
    INFO(fmt::format("case {}: elem_bytes {} shape ({}) perm ({}): {}", c, p.elem_bytes, fmt::join(p.shape, ","),
                     fmt::join(p.perm, ","), tiles->note));
    std::vector<std::pair<int64_t, int64_t>> a = walk(loops.loops), b = walk(tiles->loops);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    REQUIRE(a == b);
    const int64_t bytes = tiles->stage.tile_elements * canon.elem_bytes;
    CHECK(bytes >= kRowTileMinBytes);
    CHECK(bytes <= kRowTileMaxBytes);
    CHECK(tiles->stage.in_runs <= kRowTileMaxRuns);
    // Tile 0's output offsets: exactly [0, tile_elements).
    const int kept = canon.rank() - 1;
    std::vector<LoopDim> inner;
    for (size_t l = tiles->stage.level; l < tiles->loops.size(); ++l)
      if (tiles->loops[l].axis != kept) inner.push_back(tiles->loops[l]);
    std::set<int64_t> out;
    for (const auto& [i, o] : walk(inner))
      for (int64_t e = 0; e < canon.shape[kept]; ++e) out.insert(o + e);
    REQUIRE(static_cast<int64_t>(out.size()) == tiles->stage.tile_elements);
    CHECK(*out.begin() == 0);
    CHECK(*out.rbegin() == tiles->stage.tile_elements - 1);
  }
  CHECK(tiled > 25);
}
