// ir/vector_width.h: the width a tuned AVX-512 target (tune znver4) chooses, and why.
#include <catch2/catch.hpp>

#include "ir/pipeline.h"
#include "ir/vector_width.h"

using namespace gentt;

namespace {

Problem problem(int64_t elem_bytes, std::vector<int64_t> shape, std::vector<int> perm, Tune tune = Tune::znver4,
                Isa isa = Isa::avx512) {
  Problem p;
  p.name = "k";
  p.dtype = Dtype{"bytes" + std::to_string(elem_bytes), elem_bytes};
  p.shape = std::move(shape);
  p.perm = std::move(perm);
  p.target = Target{isa, 512, tune};
  return p;
}

}  // namespace

TEST_CASE("choose_vector_bits: untuned targets keep their width", "[vector_width]") {
  const WidthChoice w = choose_vector_bits(problem(1, {1024, 1024}, {1, 0}, Tune::generic));
  CHECK(w.vector_bits == 512);
  CHECK(w.reason.empty());
  Problem ymm = problem(1, {1024, 1024}, {1, 0}, Tune::generic);
  ymm.target.vector_bits = 256;
  CHECK(choose_vector_bits(ymm).vector_bits == 256);
}

TEST_CASE("choose_vector_bits: znver4 takes ymm blocks where zmm blocks spill", "[vector_width]") {
  // 1-byte transposes: the zmm block is 64 registers, twice the register file; the ymm block 32.
  for (Isa isa : {Isa::avx512, Isa::avx512skx}) {
    const WidthChoice w = choose_vector_bits(problem(1, {1024, 1024}, {1, 0}, Tune::znver4, isa));
    CHECK(w.vector_bits == 256);
    CHECK_THAT(w.reason, Catch::Contains("the zmm block has 64 registers, the ymm block 32; ymm blocks"));
  }
  CHECK(choose_vector_bits(problem(1, {48, 48, 48, 48}, {1, 3, 0, 2})).vector_bits == 256);
  CHECK(choose_vector_bits(problem(1, {2048, 2049}, {1, 0})).vector_bits == 256);
  // Only the loads' rows share L1 sets: the stores' lines are whole.
  CHECK(choose_vector_bits(problem(1, {64, 64, 64, 64}, {2, 0, 3, 1})).vector_bits == 256);
}

TEST_CASE("choose_vector_bits: znver4 keeps zmm blocks that fit, or whose ymm rows share L1 sets", "[vector_width]") {
  // float32: 16 registers in zmm, no spill; ymm blocks measured slower (memory-bound walks).
  const WidthChoice f = choose_vector_bits(problem(4, {1024, 1024}, {1, 0}));
  CHECK(f.vector_bits == 512);
  CHECK_THAT(f.reason, Catch::Contains("zmm blocks: the zmm block fits the 32 registers"));
  // Rows 4 KiB apart on both sides: 32 lines in one L1 set for the loads and for the stores.
  const WidthChoice p = choose_vector_bits(problem(1, {4096, 4096}, {1, 0}));
  CHECK(p.vector_bits == 512);
  CHECK_THAT(p.reason, Catch::Contains("put 32 (loads) and 32 (stores) lines into one L1 set"));
  CHECK(choose_vector_bits(problem(1, {32, 32, 32, 32}, {3, 2, 1, 0})).vector_bits == 512);
}

TEST_CASE("run_pipeline plans for the width a tuned target chose", "[vector_width]") {
  const Lowered l = run_pipeline(problem(1, {1024, 1024}, {1, 0}));
  CHECK(l.target.vector_bits == 256);
  CHECK(l.target.tune == Tune::znver4);
  CHECK(l.kernel.lanes == 32);
  REQUIRE_FALSE(l.plan.reasons.empty());
  CHECK_THAT(l.plan.reasons.front(), Catch::StartsWith("width (tune znver4):"));
  const Lowered g = run_pipeline(problem(1, {1024, 1024}, {1, 0}, Tune::generic));
  CHECK(g.target.vector_bits == 512);
  CHECK(g.kernel.lanes == 64);
}

TEST_CASE("run_pipeline takes ymm byte blocks where the zmm block's split rows pad much more", "[vector_width]") {
  // uint8 (34,43,4,14,33,25) (5,4,2,3,1,0), 64 MB: the zmm block splits its rows (32 registers of
  // two half rows) and pads the output row's 34 elements to 64 lanes, 41.5% of the block valid;
  // the ymm block (32 lanes, 32 registers), 78%, is planned instead, untuned.
  const Lowered l = run_pipeline(problem(1, {34, 43, 4, 14, 33, 25}, {5, 4, 2, 3, 1, 0}, Tune::generic));
  CHECK(l.plan.lanes == 32);
  CHECK(l.target.vector_bits == 256);
  REQUIRE_FALSE(l.plan.reasons.empty());
  CHECK_THAT(l.plan.reasons.front(), Catch::StartsWith("ymm blocks (32 lanes): the zmm block's split rows pad it to 41.5% valid"));
  // Split rows that pad alike keep the zmm block (uint8 (1300,6,76,31) (3,2,0,1), 18 MB, which
  // had ymm blocks before the split: the 64-register block wrote it cached), as do small outputs.
  const Lowered split = run_pipeline(problem(1, {1300, 6, 76, 31}, {3, 2, 0, 1}, Tune::generic));
  CHECK(split.plan.lanes == 64);
  CHECK(split.plan.split_row);
  CHECK(run_pipeline(problem(1, {34, 43, 4, 14, 3, 25}, {5, 4, 2, 3, 1, 0}, Tune::generic)).plan.lanes == 64);
  CHECK(run_pipeline(problem(1, {4096, 4096}, {1, 0}, Tune::generic)).plan.lanes == 64);
  CHECK(run_pipeline(problem(1, {1300, 6, 76, 31}, {3, 2, 0, 1}, Tune::generic, Isa::avx512skx)).plan.split_row);
  CHECK(run_pipeline(problem(1, {34, 43, 4, 14, 33, 25}, {5, 4, 2, 3, 1, 0}, Tune::generic, Isa::avx512skx)).plan.lanes == 32);
}
