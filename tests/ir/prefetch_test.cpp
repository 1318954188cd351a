// ir/prefetch.h: which generated kernels prefetch the rows of the block one loop step ahead.
#include <catch2/catch.hpp>

#include "ir/pipeline.h"
#include "ir/prefetch.h"

using namespace gentt;

namespace {

Problem problem(Isa isa, int64_t elem_bytes, std::vector<int64_t> shape, std::vector<int> perm) {
  Problem p;
  p.name = "k";
  p.dtype = Dtype{"bytes" + std::to_string(elem_bytes), elem_bytes};
  p.shape = std::move(shape);
  p.perm = std::move(perm);
  p.target = Target{isa, isa == Isa::avx512 ? 512 : isa == Isa::avx2 ? 256 : 0};
  return p;
}

bool explains_prefetch(const Lowered& l) {
  for (const auto& r : l.plan.reasons)
    if (r.rfind("prefetch: each block", 0) == 0) return true;
  return false;
}

}  // namespace

TEST_CASE("prefetch: the rule on the innermost run and the next step", "[prefetch]") {
  CHECK(prefetch_ahead_bytes(4, 32, 262144) == 262144);
  CHECK(prefetch_ahead_bytes(4, 32, -8192) == -8192);   // either direction
  CHECK(prefetch_ahead_bytes(16, 32, 262144) == 262144);  // a run of 512 bytes: still short
  CHECK(prefetch_ahead_bytes(17, 32, 262144) == 0);     // a longer run: the hardware follows it
  CHECK(prefetch_ahead_bytes(4, 32, 4095) == 0);        // a step within a page
  CHECK(prefetch_ahead_bytes(4, -32, 4096) == 4096);
}

TEST_CASE("prefetch: AVX2 kernels past the caches whose blocks read rows a page apart", "[prefetch]") {
  // 16^5 x 4 float64 (4,3,5,0,1,2), 8 MiB: blocks of 8 rows 32 KiB apart, 128 bytes of each row
  // per run of the innermost loop; the loop above it steps 8 rows (256 KiB).
  const Lowered l = run_pipeline(problem(Isa::avx2, 8, {16, 16, 16, 16, 16, 4}, {4, 3, 5, 0, 1, 2}));
  CHECK(l.kernel.prefetch_ahead * 8 == 65536);
  CHECK(explains_prefetch(l));
  // Its streaming walk reads each block's rows on over the next input axes first (ir/loops.cpp's
  // run budget): runs the hardware prefetchers follow, so no prefetch there.
  if (l.stream_kernel) CHECK(l.stream_kernel->prefetch_ahead == 0);
  // The same walk in cache (64 KiB): no prefetch, and nothing said.
  const Lowered small = run_pipeline(problem(Isa::avx2, 8, {2, 2, 16, 16, 16, 4}, {4, 3, 5, 0, 1, 2}));
  CHECK(small.kernel.prefetch_ahead == 0);
  for (const auto& r : small.plan.reasons) CHECK(r.find("prefetch") == std::string::npos);
  // Other ISAs: not measured there, so none.
  CHECK(run_pipeline(problem(Isa::avx512, 8, {16, 16, 16, 16, 16, 4}, {4, 3, 5, 0, 1, 2})).kernel.prefetch_ahead == 0);
  CHECK(run_pipeline(problem(Isa::scalar, 8, {16, 16, 16, 16, 16, 4}, {4, 3, 5, 0, 1, 2})).kernel.prefetch_ahead == 0);
}

TEST_CASE("prefetch: none for tiled walks and long inner runs", "[prefetch]") {
  // A large 2-D transpose walks cache tiles.
  const Lowered tiled = run_pipeline(problem(Isa::avx2, 4, {2048, 2048}, {1, 0}));
  CHECK(tiled.kernel.prefetch_ahead == 0);
  // Keeping the two innermost axes: long contiguous runs the hardware prefetchers follow.
  const Lowered rows = run_pipeline(problem(Isa::avx2, 4, {64, 64, 1024}, {1, 0, 2}));
  CHECK(rows.kernel.prefetch_ahead == 0);
}

TEST_CASE("prefetch: tiled walks prefetch whole steps of at least kTileAheadMinBytes", "[prefetch]") {
  // Rows of 120 bytes (15^6 float64): three steps (360 bytes); 136 (17^6): two; 2312: one; backwards too.
  CHECK(tile_prefetch_ahead(15, 8) == 45);
  CHECK(tile_prefetch_ahead(17, 8) == 34);
  CHECK(tile_prefetch_ahead(289, 8) == 289);
  CHECK(tile_prefetch_ahead(-60, 2) == -180);
  CHECK(tile_prefetch_ahead(kTileAheadMinBytes, 1) == kTileAheadMinBytes);
  CHECK(tile_prefetch_ahead(1, 1) == kTileAheadMinBytes);
  CHECK(tile_prefetch_ahead(0, 4) == 0);
}

TEST_CASE("prefetch: kept rows prefetch the next rows' bytes, as the run-time row engine", "[prefetch]") {
  // The rule: rows of at most 512 bytes a page or more apart, the loop above continuing them forwards.
  const RowPrefetch r = row_prefetch(96, 18, 3394560, 96);
  CHECK(r.ahead == 96);
  CHECK(r.window == 288);  // the row and two more steps
  CHECK(row_prefetch(424, 136, 328600, 424).window == 512);  // at most 512 bytes
  CHECK(row_prefetch(513, 136, 328600, 513).ahead == 0);    // a longer row: the hardware follows it
  CHECK(row_prefetch(96, 1, 3394560, 96).ahead == 0);       // one row per run
  CHECK(row_prefetch(96, 18, 4095, 96).ahead == 0);         // rows within a page
  CHECK(row_prefetch(96, 18, 3394560, -96).ahead == 0);     // rows read backwards
  CHECK(row_prefetch(96, 18, 3394560, 600).ahead == 0);     // the next rows far away
  // float64 (18,13,8,20,17,12) (3,4,1,2,0,5), 58 MiB: rows of 96 bytes (a chunk and a tail) 3.4 MB
  // apart, the loop above stepping 96 bytes: each run of the chunk loop that begins a row.
  for (Isa isa : {Isa::avx512, Isa::avx2}) {
    const Lowered l = run_pipeline(problem(isa, 8, {18, 13, 8, 20, 17, 12}, {3, 4, 1, 2, 0, 5}));
    CHECK(l.kernel.prefetch_ahead == 12);
    CHECK(l.kernel.prefetch_window == 288);
    CHECK(l.kernel.prefetch_row_chunks == (isa == Isa::avx512 || l.kernel.lanes < 12));
    bool said = false;
    for (const auto& reason : l.plan.reasons) said = said || reason.starts_with("prefetch: each row of 96 bytes");
    CHECK(said);
  }
  // 18 rows of 288 bytes a sweep fit L1; uint16 (392,1610,57) (1,0,2): 392 rows of 342 bytes, into L2.
  CHECK(run_pipeline(problem(Isa::avx512, 8, {18, 13, 8, 20, 17, 12}, {3, 4, 1, 2, 0, 5})).kernel.prefetch_locality == 3);
  const Lowered many = run_pipeline(problem(Isa::avx512, 2, {392, 1610, 57}, {1, 0, 2}));
  CHECK(many.kernel.prefetch_window == 342);
  CHECK(many.kernel.prefetch_locality == 2);
  // The same rows in cache: none. Other ISAs: not measured there, none.
  CHECK(run_pipeline(problem(Isa::avx512, 8, {2, 13, 8, 2, 17, 12}, {3, 4, 1, 2, 0, 5})).kernel.prefetch_window == 0);
  CHECK(run_pipeline(problem(Isa::scalar, 8, {18, 13, 8, 20, 17, 12}, {3, 4, 1, 2, 0, 5})).kernel.prefetch_window == 0);
  // Blocks of several rows (rows of whole lines, kept in groups): the block rule, if any.
  const Lowered lines = run_pipeline(problem(Isa::avx512, 4, {64, 64, 256}, {1, 0, 2}));
  CHECK(lines.kernel.prefetch_window == 0);
}
