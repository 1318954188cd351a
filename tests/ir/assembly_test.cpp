// ir/assembly.h: the assembled walk (tiles of the input's innermost axes, a chain loop above
// them), the buffer's strides and the streams that send each tile's pieces out.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <map>

#include "ir/assembly.h"
#include "ir/block_space.h"
#include "ir/canonical.h"
#include "ir/pipeline.h"
#include "ir/plan.h"
#include "ir/stream.h"
#include "tests/ir/random_problem.h"

using namespace gentt;

namespace {

int lanes_of(int64_t elem_bytes) {
  return static_cast<int>(std::bit_floor(static_cast<uint64_t>(std::max<int64_t>(1, 64 / elem_bytes))));
}

// Every element a tile writes, placed through the buffer and through `out`: each must land in
// one stream's piece at the same position both ways, every position of every piece exactly once,
// and the tile must read only its input region.
void check_tile(const Plan& plan, const AssemblyPlan& a) {
  const BlockSpace real(plan), virt(a.tile_plan);
  const std::vector<LoopDim> tile(a.walk.loops.begin() + a.level, a.walk.loops.end());
  REQUIRE(tile.size() == a.tile_walk.loops.size());
  const int64_t streams = static_cast<int64_t>(a.stream_out.size());
  std::map<int64_t, int64_t> by_buf;  // stream_buf -> stream
  for (int64_t s = 0; s < streams; ++s) {
    by_buf[a.stream_buf[s]] = s;
    CHECK((a.stream_buf[s] - a.stream_out[s]) % (kLineBytes / plan.problem.elem_bytes) == 0);
    CHECK(a.stream_buf[s] + a.piece <= a.buffer_elements);
  }
  REQUIRE(static_cast<int64_t>(by_buf.size()) == streams);
  std::vector<int> hits(static_cast<size_t>(streams * a.piece), 0);
  std::vector<int64_t> idx(tile.size(), 0);
  for (int64_t it = 0; it < a.tile_iterations; ++it) {
    int64_t rbase = 0, vbase = 0, ibase = 0;
    int mask = 0;
    for (size_t d = 0; d < tile.size(); ++d) {
      rbase += idx[d] * tile[d].out_stride;
      vbase += idx[d] * a.tile_walk.loops[d].out_stride;
      ibase += idx[d] * tile[d].in_stride;
      if (tile[d].tail_bit >= 0 && idx[d] == tile[d].count - 1) mask |= 1 << tile[d].tail_bit;
    }
    const std::vector<int64_t> valid = valid_extents(plan, a.walk, mask, nullptr);
    int64_t ids = 1;
    for (const auto& b : plan.block_axes) ids *= b.chunk;
    for (int64_t id = 0; id < ids; ++id) {
      if (!real.is_valid(id, valid)) continue;
      const int64_t r = rbase + real.out_offset(id), v = vbase + virt.out_offset(id);
      const int64_t in = ibase + real.in_offset(id);
      CHECK((in >= 0 && in < a.span_elements));
      auto s = by_buf.upper_bound(v);
      REQUIRE(s != by_buf.begin());
      --s;
      const int64_t pos = v - s->first;
      REQUIRE(pos < a.piece);
      CHECK(r - a.stream_out[s->second] == pos);
      ++hits[static_cast<size_t>(s->second * a.piece + pos)];
    }
    for (size_t d = tile.size(); d-- > 0;) {
      if (++idx[d] < tile[d].count) break;
      idx[d] = 0;
    }
  }
  CHECK(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
}

}  // namespace

TEST_CASE("assembly: 17^6 float64 (2,5,4,0,1,3), 289 streams of 136-byte pieces", "[assembly]") {
  // Canonical (289, 17, 17, 17, 17) axes (1, 4, 3, 0, 2): the tile is input axes 2, 3, 4 (39304
  // bytes), the output's innermost axis 2 the piece, axis 0 (289) the chain.
  const Plan plan = make_plan(canonicalize(8, {17, 17, 17, 17, 17, 17}, {2, 5, 4, 0, 1, 3}), 8);
  std::string why;
  const auto a = plan_assembly(plan, &why);
  REQUIRE(a);
  CHECK(a->piece == 17);
  CHECK(a->stream_out.size() == 289);
  CHECK(a->region_elements == 4913);
  CHECK(a->walk.loops[a->level - 1].axis == 0);
  CHECK(a->walk.loops[a->level - 1].count == 289);
  CHECK(a->tile_iterations == 3 * 17 * 3);  // chunks of axis 4, axis 3, chunks of axis 2
  CHECK(a->buffer_elements == 4913);        // the output's own strides are congruent already
  CHECK_THAT(a->reason, Catch::Contains("289 output streams"));
  check_tile(plan, *a);
}

TEST_CASE("assembly: a short kept row (3 uint16) is part of the block, tiles assembled", "[assembly]") {
  // seed 002's (3,32,8,16,24,16,20,3) axes (6,0,1,4,5,2,3,7): canonical (96,128,384,20,3) axes
  // (3,0,2,1,4), the kept 3-element axis padded to 4 lanes in the block. The strided tile: input
  // axes 4 and 3 (rows of 120 bytes) x axis 1 (128 rows), pieces of axes 4 and 1 (768 bytes) to
  // each of the 20 values of axis 3, the chain axis 2.
  const Plan plan = make_plan(canonicalize(2, {3, 32, 8, 16, 24, 16, 20, 3}, {6, 0, 1, 4, 5, 2, 3, 7}), 32);
  REQUIRE(plan.problem.rank() == 5);
  std::string why;
  const auto a = plan_assembly(plan, &why);
  REQUIRE(a);
  CHECK(a->piece == 384);
  CHECK(a->stream_out.size() == 20);
  CHECK(a->walk.loops[a->level - 1].axis == 2);
  CHECK_THAT(a->reason, Catch::Contains("in rows of 120 bytes"));
  check_tile(plan, *a);
  // A kept row of a whole line is still left to the rows' own walk.
  const Plan line = make_plan(canonicalize(2, {96, 128, 20, 32}, {2, 0, 1, 3}), 32);
  CHECK_FALSE(plan_assembly(line, &why));
  CHECK_THAT(why, Catch::Contains("kept innermost axis"));
}

TEST_CASE("assembly: where it does not apply, and the pipeline's choice", "[assembly]") {
  std::string why;
  // A 2-D transpose: the output's innermost axis is the input's outermost.
  const Plan flat = make_plan(canonicalize(4, {97, 1001}, {1, 0}), 16);
  CHECK_FALSE(plan_assembly(flat, &why));
  CHECK_THAT(why, Catch::Contains("span the whole input"));
  // Kept rows of a line or more keep their own walk (ir/staging.h, ir/row_order.h).
  const Plan kept = make_plan(canonicalize(8, {15, 15, 15, 15, 15, 15}, {2, 0, 3, 4, 1, 5}), 8);
  CHECK_FALSE(plan_assembly(kept, &why));
  CHECK_THAT(why, Catch::Contains("kept innermost axis"));
  // A tile too large for L2.
  const Plan wide = make_plan(canonicalize(4, {116, 31, 148, 79}, {0, 2, 3, 1}), 16);
  CHECK_FALSE(plan_assembly(wide, &why));
  CHECK_THAT(why, Catch::Contains("more than 65536"));

  auto problem = [](Isa isa, StoreMode stores) {
    Problem p;
    p.name = "k";
    p.dtype = Dtype{"float64", 8};
    p.shape = {17, 17, 17, 17, 17, 17};
    p.perm = {2, 5, 4, 0, 1, 3};
    p.target = Target{isa, isa == Isa::avx2 ? 256 : isa == Isa::neon ? 128 : 512};
    p.stores = stores;
    return p;
  };
  const Lowered avx512 = run_pipeline(problem(Isa::avx512, StoreMode::automatic));
  CHECK(avx512.kernel.assembly_level >= 1);
  REQUIRE(avx512.kernel.assembly_tile.size() == 1);
  CHECK(avx512.kernel.assembly_tile.front().prefetch_ahead == 83521);  // one step of the chain loop
  CHECK(avx512.kernel.stage_level < 0);
  CHECK(run_pipeline(problem(Isa::avx512, StoreMode::cached)).kernel.assembly_level < 0);
  CHECK(run_pipeline(problem(Isa::avx2, StoreMode::automatic)).kernel.assembly_level >= 1);
  CHECK(run_pipeline(problem(Isa::neon, StoreMode::automatic)).kernel.assembly_level < 0);
}

TEST_CASE("assembly: random plans' tiles place every element in its stream's piece", "[assembly][property]") {
  std::mt19937_64 rng(2611);
  int assembled = 0;
  for (int c = 0; c < 3000; ++c) {
    const test::RandomProblem p = test::random_problem(rng, 6, 6000);
    const Plan plan = make_plan(canonicalize(p.elem_bytes, p.shape, p.perm), lanes_of(p.elem_bytes));
    std::string why;
    const auto a = plan_assembly(plan, &why, int64_t{1} << 40, 1);
    if (!a) continue;
    ++assembled;
    INFO("shape " << plan.problem.shape.size() << " axes, element " << p.elem_bytes << " bytes, case " << c);
    check_tile(plan, *a);
  }
  CHECK(assembled >= 40);
}

TEST_CASE("assembly: strided tiles and split problems", "[assembly]") {
  std::string why;
  // float32 72x61x80x83 reversed: no contiguous tile (the output's innermost axis is the input's
  // outermost); the tile is axes 3 and 0 whole, 83 streams of 288-byte pieces, axis 1 the chain.
  const Plan rev = make_plan(canonicalize(4, {72, 61, 80, 83}, {3, 2, 1, 0}), 16);
  const auto r = plan_assembly(rev, &why);
  REQUIRE(r);
  CHECK(r->piece == 72);
  CHECK(r->stream_out.size() == 83);
  CHECK(r->region_elements == 72 * 83);
  CHECK(r->span_elements > r->region_elements);
  CHECK(r->walk.loops[r->level - 1].axis == 1);
  check_tile(rev, *r);
  // Input rows of one line (float32 129x64x32x16 reversed: rows of 16 floats): a strided tile would
  // read one line from each of its 129 rows (it did before); not taken.
  CHECK_FALSE(plan_assembly(make_plan(canonicalize(4, {129, 64, 32, 16}, {3, 2, 1, 0}), 16), &why));
  // A 2-D transpose takes no tile of whole axes; split, 4095 = 65 x 63 and 4097 = 17 x 241.
  const Plan flat = make_plan(canonicalize(4, {4095, 4097}, {1, 0}), 16);
  CHECK_FALSE(plan_assembly(flat, &why));
  const auto s = plan_split_assembly(flat, &why);
  REQUIRE(s);
  CHECK(s->plan.problem.shape == std::vector<int64_t>{65, 63, 17, 241});
  CHECK(s->plan.problem.perm == std::vector<int>{2, 3, 0, 1});
  CHECK(s->assembly.piece == 63);
  CHECK(s->assembly.stream_out.size() == 241);
  check_tile(s->plan, s->assembly);
  // A prime extent has no divisor to split by.
  CHECK_FALSE(plan_split_assembly(make_plan(canonicalize(4, {97, 248631}, {1, 0}), 16), &why));
  CHECK_THAT(why, Catch::Contains("no split fits"));
  // A short kept axis rides along: seed 002's (12288, 24, 16, 20, 3) axes (3,2,1,0,4) splits axis
  // 0 as 64 x 192 (pieces of 192 x 3 uint16, 1152 bytes), the kept axis staying innermost in both.
  const Plan kept = make_plan(canonicalize(2, {3, 32, 8, 16, 24, 16, 20, 3}, {6, 5, 4, 0, 1, 2, 3, 7}), 32);
  REQUIRE(kept.problem.shape == std::vector<int64_t>{12288, 24, 16, 20, 3});
  const auto k = plan_split_assembly(kept, &why);
  REQUIRE(k);
  CHECK(k->plan.problem.shape == std::vector<int64_t>{64, 192, 24, 16, 20, 3});
  CHECK(k->plan.problem.perm.back() == 5);
  CHECK(k->assembly.piece == 192 * 3);
  CHECK(k->assembly.stream_out.size() == 20);
  check_tile(k->plan, k->assembly);
  // Kept rows of a line or more are not split.
  CHECK_FALSE(plan_split_assembly(make_plan(canonicalize(2, {4096, 300, 32}, {1, 0, 2}), 32), &why));
  CHECK_THAT(why, Catch::Contains("kept innermost axis"));
  // A short output row that is not kept rides along on the output side: seed 002's (3, 4096,
  // 23040) reversed (output rows of 3 uint16) splits axis 2 as 72 x 320 (input rows of 640 bytes)
  // and axis 1 as 128 x 32 (pieces of 32 x 3 uint16, 192 bytes) to 320 streams.
  const Plan planar = make_plan(canonicalize(2, {3, 32, 8, 16, 24, 16, 20, 3}, {4, 5, 6, 7, 1, 2, 3, 0}), 32);
  REQUIRE(planar.problem.shape == std::vector<int64_t>{3, 4096, 23040});
  CHECK_FALSE(plan_assembly(planar, &why));
  const auto pl = plan_split_assembly(planar, &why);
  REQUIRE(pl);
  CHECK(pl->plan.problem.shape == std::vector<int64_t>{3, 128, 32, 72, 320});
  CHECK(pl->plan.problem.perm == std::vector<int>{3, 4, 1, 2, 0});
  CHECK(pl->assembly.piece == 32 * 3);
  CHECK(pl->assembly.stream_out.size() == 320);
  check_tile(pl->plan, pl->assembly);
  // Where the cached walk stages, staging keeps such problems (choose_assembly).
  const AssemblyChoice staged = choose_assembly(planar, [] { return true; });
  CHECK_FALSE(staged.assembly);
  CHECK(staged.staged);
  CHECK(choose_assembly(planar, [] { return false; }).split);
  // Input rows of 2 KiB or less are split only as the last resort: uint16 (3,4096,790) reversed
  // needs rows of 158 for pieces of 32 x 3 elements in a tile.
  const Plan short_rows = make_plan(canonicalize(2, {3, 4096, 790}, {2, 1, 0}), 32);
  CHECK_FALSE(plan_split_assembly(short_rows, &why));
  const auto sr = plan_split_assembly(short_rows, &why, kAssemblyMaxTileBytes, kAssemblyMinTileBytes, true);
  REQUIRE(sr);
  CHECK(sr->plan.problem.shape.size() == 5);
  check_tile(sr->plan, sr->assembly);
  const AssemblyChoice last = choose_assembly(short_rows, [] { return false; });
  REQUIRE(last.split);
  CHECK(last.split->split == sr->split);
}

TEST_CASE("assembly: random split plans' tiles place every element in its stream's piece", "[assembly][property]") {
  std::mt19937_64 rng(2612);
  int split = 0;
  for (int c = 0; c < 3000; ++c) {
    const test::RandomProblem p = test::random_problem(rng, 3, 1 << 22);
    const Plan plan = make_plan(canonicalize(p.elem_bytes, p.shape, p.perm), lanes_of(p.elem_bytes));
    std::string why;
    if (plan_assembly(plan, &why)) continue;
    const auto s = plan_split_assembly(plan, &why, kAssemblyMaxTileBytes, kAssemblyMinTileBytes, c % 2 == 1);
    if (!s) continue;
    ++split;
    INFO("case " << c << ": " << s->split);
    int64_t n = 1, m = 1;
    for (int64_t x : plan.problem.shape) n *= x;
    for (int64_t x : s->plan.problem.shape) m *= x;
    CHECK(n == m);
    check_tile(s->plan, s->assembly);
  }
  CHECK(split >= 5);
}

TEST_CASE("assembly: random row chains place every element in its stream's piece", "[assembly][property]") {
  // 3-D (and batched 3-D) problems whose output's innermost axis is the input's outermost of
  // the three: rows of 64 bytes to 2 KiB continued by the middle axis.
  std::mt19937_64 rng(2913);
  int chains = 0;
  for (int c = 0; c < 300; ++c) {
    static const int64_t sizes[] = {1, 2, 4, 8};
    const int64_t e = sizes[rng() % 4];
    const int64_t rows = (64 + static_cast<int64_t>(rng() % 1985)) / e;
    std::vector<int64_t> shape = {rows, 8 + static_cast<int64_t>(rng() % 12), 1 + static_cast<int64_t>(rng() % 300)};
    std::vector<int> perm = {2, 1, 0};
    if (rng() % 3 == 0) {  // a batch axis in front
      shape.insert(shape.begin(), 2 + static_cast<int64_t>(rng() % 3));
      perm = {0, 3, 2, 1};
    }
    const Plan plan = make_plan(canonicalize(e, shape, perm), lanes_of(e));
    std::string why;
    const auto a = plan_row_chain_assembly(plan, &why, 2 * kAssemblyMaxTileBytes);
    if (!a) continue;
    ++chains;
    INFO("case " << c << ": elem " << e << " rows " << rows << "; " << a->reason);
    check_tile(plan, *a);
    // Every block once over the nests: the main tiles and the remainder.
    int64_t blocks = 0;
    for (const LoopRegion& r : a->regions.empty() ? std::vector<LoopRegion>{LoopRegion{0, 0, a->walk.loops}}
                                                  : a->regions) {
      int64_t n = 1;
      for (const LoopDim& l : r.loops) n *= l.count;
      blocks += n;
    }
    int64_t expected = 1;
    for (const LoopDim& l : make_block_loops(plan, LoopOrder::input).loops) expected *= l.count;
    CHECK(blocks == expected);
  }
  CHECK(chains >= 30);
}

TEST_CASE("assembly: chunked loops where no divisor serves, remainders in further nests", "[assembly]") {
  std::string why;
  // float32 1031 x 1009 transposed (both prime): no split; blocks of 16 x 16, tiles of 4 x 9
  // blocks (pieces of 64 elements to 144 streams: 63 full blocks of rows are 7 tiles), the tails
  // in three remainder nests.
  const Plan plan = make_plan(canonicalize(4, {1031, 1009}, {1, 0}), 16);
  CHECK_FALSE(plan_assembly(plan, &why));
  CHECK_FALSE(plan_split_assembly(plan, &why));
  const auto a = plan_chunked_assembly(plan, &why);
  REQUIRE(a);
  CHECK(a->piece == 64);
  CHECK(a->stream_out.size() == 144);
  CHECK(a->tile_iterations == 4 * 9);
  REQUIRE(a->regions.size() == 4);
  CHECK(a->regions.front().loops.size() == a->walk.loops.size());
  check_tile(plan, *a);
  // Through the pipeline: the assembled kernel keeps the four nests (each block once over them:
  // the e2e suites' fixed case 7 runs it bit for bit).
  Problem p;
  p.name = "k";
  p.dtype = Dtype{"float32", 4};
  p.shape = {1031, 1009};
  p.perm = {1, 0};
  p.target = Target{Isa::avx512, 512};
  p.stores = StoreMode::streaming;
  const Lowered l = run_pipeline(p);
  CHECK(l.kernel.assembly_level >= 1);
  CHECK(l.kernel.regions.size() == 4);
  // Short output rows (97 float32, 388 bytes) are taken whole: one contiguous piece per tile, the
  // chunk loop over the input's innermost axis the chain.
  const Plan rows = make_plan(canonicalize(4, {97, 2003}, {1, 0}), 16);
  CHECK_FALSE(plan_split_assembly(rows, &why));
  const auto r = plan_chunked_assembly(rows, &why);
  REQUIRE(r);
  CHECK(r->stream_out.size() == 1);
  CHECK(r->piece == 97 * 160);
  CHECK(r->regions.size() == 2);
  check_tile(rows, *r);
  // Rows of 1336 bytes (float64 167) are whole rows too (up to 2 KiB): 6 blocks of 8 rows of the
  // input's innermost axis per tile, a chain of 18 tiles over its 111 full chunks.
  const Plan batched = make_plan(canonicalize(8, {144, 167, 894}, {0, 2, 1}), 8);
  const auto b = plan_chunked_assembly(batched, &why);
  REQUIRE(b);
  CHECK(b->stream_out.size() == 1);
  CHECK(b->piece == 167 * 48);
  check_tile(batched, *b);
  // Rows of 1256 bytes and 26 full chunks of the input's innermost axis: tiles of 3 chunks (not
  // the 6 that fit), so that each chain has 8 tiles.
  const Plan eight = make_plan(canonicalize(8, {258, 157, 214}, {0, 2, 1}), 8);
  const auto ei = plan_chunked_assembly(eight, &why);
  REQUIRE(ei);
  CHECK(ei->piece == 157 * 24);
  check_tile(eight, *ei);
  // Rows taken whole would make chains too short (uint8 437 x 300: 4 full chunks of 64), and
  // rows of 437 bytes are too short for chains of 256-byte pieces: not chunked.
  const Plan short_chain = make_plan(canonicalize(1, {437, 300}, {1, 0}), 64);
  CHECK_FALSE(plan_chunked_assembly(short_chain, &why));
  CHECK_THAT(why, Catch::Contains("chains of fewer than 8 tiles"));
  // A 3-D reversal: no tile of whole axes, no divisor, no chain along the rows (604 bytes); whole
  // rows chained along the middle axis instead, 4 blocks of 16 input columns a tile (64 streams of
  // 604-byte pieces), the tail chunk of 11 columns in a second nest.
  const Plan reversal = make_plan(canonicalize(4, {151, 20, 139}, {2, 1, 0}), 16);
  CHECK_FALSE(plan_chunked_assembly(reversal, &why));
  const auto rc = plan_row_chain_assembly(reversal, &why);
  REQUIRE(rc);
  CHECK(rc->piece == 151);
  CHECK(rc->stream_out.size() == 64);
  CHECK(rc->regions.size() == 2);
  CHECK(rc->walk.loops[rc->level - 1].axis == 1);  // the chain
  check_tile(reversal, *rc);
  const AssemblyChoice chosen = choose_assembly(reversal, [] { return false; });
  REQUIRE(chosen.assembly);
  CHECK(chosen.assembly->piece == 151);
  CHECK_FALSE(choose_assembly(reversal, [] { return true; }).assembly);  // the cached walk stages
  // The most columns a tile may take while the tiles cover 85% of them: uint8 (425,571,328)
  // reversed, 5 full blocks of 64 of 328 columns, tiles up to 128 KiB: 1 block (97.6%), not 4
  // (78%) or 2 (78%).
  const Plan bytes3 = make_plan(canonicalize(1, {425, 571, 328}, {2, 1, 0}), 64);
  const auto b3 = plan_row_chain_assembly(bytes3, &why, 2 * kAssemblyMaxTileBytes);
  REQUIRE(b3);
  CHECK(b3->stream_out.size() == 64);
  check_tile(bytes3, *b3);
  // Its chain too short (7 < 8), or rows longer than 2 KiB: none.
  CHECK_FALSE(plan_row_chain_assembly(make_plan(canonicalize(4, {151, 7, 139}, {2, 1, 0}), 16), &why));
  CHECK_THAT(why, Catch::Contains("chains of fewer than 8"));
  CHECK_FALSE(plan_row_chain_assembly(make_plan(canonicalize(4, {601, 20, 139}, {2, 1, 0}), 16), &why));
  CHECK_THAT(why, Catch::Contains("output rows of 2404 bytes"));
  // A block with a third axis is not chunked.
  const Plan bytes = make_plan(canonicalize(1, {3, 263, 1009}, {0, 2, 1}), 64);
  if (bytes.block_axes.size() != 2) {
    CHECK_FALSE(plan_chunked_assembly(bytes, &why));
  }
}

TEST_CASE("assembly: short input rows lengthened by a split of the axis that continues them", "[assembly]") {
  std::string why;
  // Seed 002's (3,32,8,16,24,16,20,3) uint16 axes (6,5,4,3,2,1,0,7): tiles of 96 rows of 120
  // bytes (20 x 3 uint16), pieces of 576 bytes to 20 streams; the rows continue along axis 5 (16),
  // not the chain (axis 2): 16 as 2 x 8, 160 streams of the same pieces, rows of 960 bytes.
  const Plan rev = make_plan(canonicalize(2, {3, 32, 8, 16, 24, 16, 20, 3}, {6, 5, 4, 3, 2, 1, 0, 7}), 32);
  const auto base = plan_assembly(rev, &why);
  REQUIRE(base);
  CHECK(base->run_elements == 60);
  CHECK(base->stream_out.size() == 20);
  const auto l = plan_longer_rows(rev, *base, &why);
  REQUIRE(l);
  CHECK(l->split == "axis 5 (16) as 2 x 8");
  CHECK(l->assembly.run_elements == 480);
  CHECK(l->assembly.piece == base->piece);
  CHECK(l->assembly.stream_out.size() == 160);
  CHECK_THAT(l->assembly.reason, Catch::Contains("(input rows of 120 bytes -> 960)"));
  check_tile(l->plan, l->assembly);
  const AssemblyChoice chosen = choose_assembly(rev, [] { return false; });
  REQUIRE(chosen.split);
  CHECK(chosen.split->split == l->split);
  CHECK_THAT(chosen.whole_why, Catch::Contains("input rows of 120 bytes"));
  // (6,0,1,4,5,2,3,7): the rows continue along the chain (axis 2, 384), tiles of 128 rows: 384 as
  // 48 x 8, the same 20 streams, pieces of 8 x 768 bytes.
  const Plan chained = make_plan(canonicalize(2, {3, 32, 8, 16, 24, 16, 20, 3}, {6, 0, 1, 4, 5, 2, 3, 7}), 32);
  const auto cb = plan_assembly(chained, &why);
  REQUIRE(cb);
  const auto cl = plan_longer_rows(chained, *cb, &why);
  REQUIRE(cl);
  CHECK(cl->split == "axis 2 (384) as 48 x 8");
  CHECK(cl->assembly.stream_out.size() == cb->stream_out.size());
  CHECK(cl->assembly.piece == 8 * cb->piece);
  check_tile(cl->plan, cl->assembly);
  // After a first split (plan_split_assembly's): (6,5,4,0,1,2,3,7) splits 12288 as 64 x 192, then
  // its rows' axis 3 (16) as 2 x 8.
  const Plan kept = make_plan(canonicalize(2, {3, 32, 8, 16, 24, 16, 20, 3}, {6, 5, 4, 0, 1, 2, 3, 7}), 32);
  const AssemblyChoice twice = choose_assembly(kept, [] { return false; });
  REQUIRE(twice.split);
  CHECK(twice.split->split == "axis 0 (12288) as 64 x 192, then axis 3 (16) as 2 x 8");
  CHECK(twice.split->plan.problem.shape == std::vector<int64_t>{64, 192, 24, 2, 8, 20, 3});
  check_tile(twice.split->plan, twice.split->assembly);
  // The axis taken whole where that is nearer the target (11 has no other divisor): complex64
  // (21,25,10,25,11,14) (1,5,4,3,0,2), rows of 14 x 8 bytes -> 154 x 8 in tiles of 253 KiB, no
  // split problem.
  const Plan whole = make_plan(canonicalize(8, {21, 25, 10, 25, 11, 14}, {1, 5, 4, 3, 0, 2}), 8);
  const AssemblyChoice wc = choose_assembly(whole, [] { return false; });
  REQUIRE(wc.assembly);
  CHECK_FALSE(wc.split);
  CHECK(wc.assembly->run_elements == 154);
  CHECK_THAT(wc.assembly->reason, Catch::StartsWith("input rows of 112 bytes -> 1232, axis 4 (11) whole in the tile; "));
  check_tile(whole, *wc.assembly);
  // Not taken: rows of 192 bytes or more (complex64 (4590,27,30) reversed, split 54 x 85: rows of
  // 240 bytes); the chain with tiles of fewer than 96 rows (float32 (845,33,64,28) (3,0,2,1)); the
  // chain in a tensor under 64 MiB (the second case at 47 MB).
  const Plan c64 = make_plan(canonicalize(8, {4590, 27, 30}, {2, 1, 0}), 8);
  const AssemblyChoice c64c = choose_assembly(c64, [] { return false; });
  REQUIRE(c64c.split);
  CHECK(c64c.split->split.find("then") == std::string::npos);
  CHECK_FALSE(plan_longer_rows(c64c.split->plan, c64c.split->assembly, &why));
  CHECK_THAT(why, Catch::Contains("input rows of 240 bytes (at least 192)"));
  const Plan few = make_plan(canonicalize(4, {845, 33, 64, 28}, {3, 0, 2, 1}), 16);
  const auto fb = plan_assembly(few, &why);
  REQUIRE(fb);
  CHECK_FALSE(plan_longer_rows(few, *fb, &why));
  CHECK_THAT(why, Catch::Contains("tiles of 33 input rows (fewer than 96)"));
  const Plan small = make_plan(canonicalize(2, {1, 8, 8, 16, 24, 16, 20, 3}, {6, 0, 1, 4, 5, 2, 3, 7}), 32);
  const auto sb = plan_assembly(small, &why);
  REQUIRE(sb);
  CHECK_FALSE(plan_longer_rows(small, *sb, &why));
  CHECK_THAT(why, Catch::Contains("whose rows the chain continues"));
  // A tile of 48 rows (the first case with axis 1 16, not 32) where the axis is not the chain:
  // lengthened all the same (tiles of 8 rows or more).
  const Plan thin = make_plan(canonicalize(2, {3, 16, 8, 16, 24, 16, 20, 3}, {6, 5, 4, 3, 2, 1, 0, 7}), 32);
  const auto tb = plan_assembly(thin, &why);
  REQUIRE(tb);
  CHECK(tb->region_elements / tb->run_elements == 48);
  const auto tl = plan_longer_rows(thin, *tb, &why);
  REQUIRE(tl);
  check_tile(tl->plan, tl->assembly);
}

TEST_CASE("assembly: random lengthened rows' tiles place every element in its stream's piece", "[assembly][property]") {
  std::mt19937_64 rng(2612);
  int longer = 0;
  for (int c = 0; c < 20000; ++c) {
    const test::RandomProblem p = test::random_problem(rng, 6, int64_t{1} << 26);
    const Plan plan = make_plan(canonicalize(p.elem_bytes, p.shape, p.perm), lanes_of(p.elem_bytes));
    const AssemblyChoice chosen = choose_assembly(plan, [] { return false; });
    if (!chosen.assembly || chosen.assembly->reason.find(" bytes -> ") == std::string::npos) continue;
    ++longer;
    const Plan& taken = chosen.split ? chosen.split->plan : plan;
    INFO("case " << c << ": " << chosen.assembly->reason);
    int64_t n = 1, m = 1;
    for (int64_t x : plan.problem.shape) n *= x;
    for (int64_t x : taken.problem.shape) m *= x;
    CHECK(n == m);
    check_tile(taken, *chosen.assembly);
  }
  CHECK(longer >= 5);
}
