#include <catch2/catch.hpp>

#include "backends/backend.h"
#include "ir/error.h"
#include "tests/backends/unit.h"

using namespace gentt;
using Catch::Matchers::Contains;

TEST_CASE("emitted text is deterministic", "[backend]") {
  const auto unit = test::make_unit("det", Dtype{"int16", 2}, {9, 10, 11}, {1, 2, 0});
  CHECK(emit_file({unit}, "x") == emit_file({unit}, "x"));
}

TEST_CASE("unimplemented backends say so and name the field", "[backend]") {
  for (Isa isa : {Isa::avx2, Isa::neon, Isa::sve, Isa::sunway}) {
    CHECK_FALSE(backend_implemented(isa));
    CHECK_THROWS_WITH(backend_for(isa, "/isa"), Contains("/isa") && Contains("not implemented"));
  }
  CHECK(backend_implemented(Isa::scalar));
  CHECK(backend_implemented(Isa::avx512));
}

TEST_CASE("the banner records the plan and how to regenerate", "[backend]") {
  const auto unit = test::make_unit("banner", Dtype{"float32", 4}, {3, 224, 224}, {1, 2, 0});
  const std::string text = emit_file({unit}, "gentt-gen generate specs/x.json --isa scalar -o x.cpp");
  CHECK_THAT(text, Contains("regenerate with") && Contains("gentt-gen generate specs/x.json --isa scalar -o x.cpp"));
  CHECK_THAT(text, Contains("shuffle steps:") && Contains("padding efficiency:"));
  CHECK_THAT(text, Contains("extern \"C\" void banner(const void* in, void* out)"));
  CHECK_THAT(text, Contains("extern \"C\" void banner_part(const void* in, void* out, int part, int nparts)"));
  CHECK_THAT(text, Contains("extern \"C\" const gentt_kernel_info banner_info"));
}
