// ir/band.h: which streaming walks take band tiles, the tiles' shape (tall where the rows spread
// over the cache sets, wider and shorter where power-of-two strides crowd them), and banded
// kernels move every element exactly as the reference does, whole and in parts.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ir/band.h"
#include "ir/canonical.h"
#include "ir/lower.h"
#include "ir/pipeline.h"
#include "ir/plan.h"
#include "ir/verify.h"
#include "tests/ir/parts_check.h"

using namespace gentt;

namespace {

// The band choice for the output-order walk of a problem's plan (AVX-512 lanes).
BandChoice band_of(int64_t elem_bytes, const std::vector<int64_t>& shape, const std::vector<int>& perm) {
  const Plan plan = make_plan(canonicalize(elem_bytes, shape, perm), static_cast<int>(64 / elem_bytes));
  const Kernel k = lower_walk(plan, make_block_loops(plan, LoopOrder::output), "k");
  std::vector<std::pair<int64_t, int64_t>> loads;
  for (const Op& op : k.programs.front().ops)
    if (op.kind == OpKind::load) loads.push_back({op.offset, op.count});
  return band_loops(make_block_loops(plan, LoopOrder::output), elem_bytes, loads);
}

// The streaming variant lower() makes for a problem (AVX-512 lanes).
Kernel stream_kernel(int64_t elem_bytes, const std::vector<int64_t>& shape, const std::vector<int>& perm) {
  const Plan plan = make_plan(canonicalize(elem_bytes, shape, perm), static_cast<int>(64 / elem_bytes));
  return lower(plan, "k", LowerOptions{.streaming = true, .avx512_target = true});
}

}  // namespace

TEST_CASE("band: a 2-D transpose of rows spread over the sets takes tall bands one line wide", "[band]") {
  // float32 4096 x 4000: input rows of 16000 bytes, 1024 rows (64 blocks) of one line each.
  const BandChoice b = band_of(4, {4096, 4000}, {1, 0});
  REQUIRE(b.banded);
  CHECK(b.tw == 64);
  CHECK(b.tr == 1);
  CHECK(b.prefetch_ahead == 16);  // one step of R: the next vector of the same rows
  CHECK_THAT(b.reason, Catch::StartsWith("loops: bands of 64 blocks") && Catch::Contains("runs of 4096 bytes"));
  // 256 row blocks in 4 bands: the full tiles, no remainder; 250 column chunks.
  REQUIRE(b.regions.size() == 1);
  const auto& L = b.regions.front().loops;
  REQUIRE(L.size() == 4);
  CHECK(L[0].count == 4);
  CHECK(L[1].count == 250);
  CHECK(L[2].count == 1);
  CHECK(L[3].count == 64);
}

TEST_CASE("band: power-of-two row strides take wider, shorter tiles", "[band]") {
  // float32 4096^2: rows 16 KiB apart fall in 4 sets of the model cache; 32 rows of 8 lines each.
  const BandChoice b = band_of(4, {4096, 4096}, {1, 0});
  // 2 blocks give runs of 128 bytes, under kBandMinRunBytes: no band.
  CHECK_FALSE(b.banded);
  CHECK_THAT(b.reason, Catch::StartsWith("no bands"));
  // float64 rows 16 KiB apart (2048 columns): runs of 512 bytes need 8 blocks of 8 rows, 64 rows
  // that fall 16 to a set of the model cache however wide the tile: no band.
  const BandChoice d = band_of(8, {4096, 2048}, {1, 0});
  CHECK_FALSE(d.banded);
  CHECK_THAT(d.reason, Catch::Contains("spread over the cache sets"));
  // Rows 16 KiB + 64 bytes apart spread over the sets: a tall band.
  CHECK(band_of(8, {4096, 2056}, {1, 0}).banded);
}

TEST_CASE("band: walks it leaves to others", "[band]") {
  // A kept innermost axis: rows copied whole.
  CHECK_FALSE(stream_kernel(4, {256, 256, 64}, {1, 0, 2}).prefetch_ahead);
  // Short input rows (216 bytes): the walks in input order read them on.
  const BandChoice short_rows = band_of(8, {3699, 88, 27}, {2, 0, 1});
  CHECK_FALSE(short_rows.banded);
  CHECK_THAT(short_rows.reason, Catch::Contains("under 1024"));
  // Rows of 1536 bytes that the next input axis continues: one run to the walks in input order.
  const BandChoice continued = band_of(4, {2320, 59, 384}, {2, 1, 0});
  CHECK_FALSE(continued.banded);
  CHECK_THAT(continued.reason, Catch::Contains("continue along axis"));
  CHECK(band_of(4, {384, 59, 2320}, {2, 1, 0}).banded);  // rows of 9280 bytes
  // A short output row chunk loop (3 blocks of 64 bytes): runs under kBandMinRunBytes.
  CHECK_FALSE(band_of(4, {28, 28, 48, 4, 352}, {1, 3, 0, 4, 2}).banded);
  // Outputs under kTileMinBytes keep their streaming walks.
  CHECK_FALSE(stream_kernel(4, {512, 500}, {1, 0}).prefetch_ahead);
}

TEST_CASE("band: streaming variants of banded walks prefetch and stay valid", "[band]") {
  const Kernel k = stream_kernel(4, {2016, 9410}, {1, 0});
  REQUIRE(k.tiled);
  CHECK_THAT(k.tiling, Catch::StartsWith("loops: bands of"));
  CHECK(k.prefetch_ahead == 16);
  // 126 row blocks in bands of 32, 30 left (a third nest); 589 column chunks, the last a tail (the
  // second nest: R's rest beside the full tiles).
  CHECK(k.regions.size() == 3);
  CHECK(k.iterations() == 126 * 589);
  for (const auto& g : k.nests()) CHECK(g.loops.back().in_stride == k.loops.back().in_stride);
  verify_kernel(k);
}

TEST_CASE("band: banded kernels move every element as the reference does, whole and in parts", "[band]") {
  std::mt19937_64 rng(20261201);
  // Outputs of 4 MiB and more (the band's size rule) whose rows are whole lines (the streaming
  // variant's), input rows on and off lines, tails on both loops, several element sizes; a batch
  // axis outside the band.
  const std::vector<std::pair<int64_t, std::vector<int64_t>>> cases = {
      {4, {1040, 1030}}, {4, {1088, 1024}}, {8, {520, 1010}}, {2, {1056, 2100}}, {1, {2112, 2050}},
      {4, {3, 704, 520}},
  };
  int banded = 0;
  for (const auto& [e, shape] : cases) {
    const std::vector<int> perm = shape.size() == 2 ? std::vector<int>{1, 0} : std::vector<int>{0, 2, 1};
    const Kernel k = stream_kernel(e, shape, perm);
    INFO("elem " << e << " shape " << shape[0] << "x" << shape[1] << (k.prefetch_ahead ? " banded" : ""));
    banded += k.prefetch_ahead != 0;
    verify_kernel(k);
    CHECK(test::parts_match_reference(k, rng, e, shape, perm));
  }
  CHECK(banded >= 4);
}

TEST_CASE("band: a banded streaming variant comes with its unbanded twin", "[band]") {
  auto problem = [](int64_t elem_bytes, std::vector<int64_t> shape, Isa isa) {
    Problem p;
    p.name = "k";
    p.dtype = Dtype{"bytes" + std::to_string(elem_bytes), elem_bytes};
    p.shape = std::move(shape);
    p.perm = {1, 0};
    p.target = Target{isa, isa == Isa::avx512 ? 512 : 256};
    return p;
  };
  std::mt19937_64 rng(20261202);
  for (const Isa isa : {Isa::avx512, Isa::avx2}) {
    INFO(isa_name(isa));
    // 17 MB of rows of 16 KiB: bands on every target that streams (ir/band.h); the twin reads in
    // input order, as the streaming variant did before bands, and names itself in the reasons.
    const Lowered l = run_pipeline(problem(4, {1040, 4100}, isa));
    REQUIRE(l.stream_kernel);
    CHECK(l.stream_kernel->banded);
    REQUIRE(l.unbanded_stream_kernel);
    CHECK(l.unbanded_stream_kernel->name == "k_stream_unbanded");
    CHECK_FALSE(l.unbanded_stream_kernel->banded);
    verify_kernel(*l.unbanded_stream_kernel);
    std::string stores;
    for (const auto& r : l.plan.reasons)
      if (r.starts_with("stores:")) stores = r;
    CHECK_THAT(stores, Catch::Contains("the unbanded twin k_stream_unbanded runs instead"));
    CHECK(test::parts_match_reference(*l.unbanded_stream_kernel, rng, 4, {1040, 4100}, {1, 0}));
  }
  // No band, no twin: outputs under 4 MiB and power-of-two rows that would crowd the cache sets.
  CHECK_FALSE(run_pipeline(problem(4, {1024, 512}, Isa::avx512)).unbanded_stream_kernel);
  CHECK_FALSE(run_pipeline(problem(4, {4096, 4096}, Isa::avx512)).unbanded_stream_kernel);
}
