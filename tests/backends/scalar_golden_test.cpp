// Golden tests of emitted scalar text: the file is a product, so its exact form is reviewed.
#include <catch2/catch.hpp>

#include "backends/backend.h"
#include "tests/backends/golden.h"
#include "tests/backends/unit.h"

using namespace gentt;

namespace {
const std::string kGolden = std::string(GENTT_SOURCE_DIR) + "/tests/backends/golden/";
}

TEST_CASE("scalar: the paper's (64,32,32,4) perm (2,1,0,3) float32", "[scalar][golden]") {
  const auto unit = test::make_unit("paper_example", Dtype{"float32", 4}, {64, 32, 32, 4}, {2, 1, 0, 3});
  const std::string text = emit_file({unit}, "gentt-gen generate --shape 64,32,32,4 --perm 2,1,0,3 --dtype float32 --isa scalar --name paper_example -o paper_example.cpp");
  CHECK(test::matches_golden(kGolden + "scalar_paper_example.cpp", text));
}

TEST_CASE("scalar: odd extents and an odd element size (bytes3, tails, padding)", "[scalar][golden]") {
  const auto unit = test::make_unit("odd_bytes3", Dtype{"bytes3", 3}, {5, 7, 3}, {2, 0, 1});
  const std::string text = emit_file({unit}, "gentt-gen generate --shape 5,7,3 --perm 2,0,1 --dtype bytes3 --isa scalar --name odd_bytes3 -o odd_bytes3.cpp");
  CHECK(test::matches_golden(kGolden + "scalar_odd_bytes3.cpp", text));
}

TEST_CASE("scalar: two kernels in one file share one prelude", "[scalar][golden]") {
  const auto a = test::make_unit("pair_a", Dtype{"uint8", 1}, {40, 24}, {1, 0});
  const auto b = test::make_unit("pair_b", Dtype{"float64", 8}, {2, 2, 2, 2, 2}, {4, 3, 2, 1, 0});
  const std::string text = emit_file({a, b}, "gentt-gen generate pair.json --isa scalar -o pair.cpp");
  CHECK(test::matches_golden(kGolden + "scalar_pair.cpp", text));
  CHECK(text.find("#define GENTT_SCALAR_PRELUDE_H") == text.rfind("#define GENTT_SCALAR_PRELUDE_H"));
}
