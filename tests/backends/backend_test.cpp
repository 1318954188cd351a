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

TEST_CASE("every ISA has a backend", "[backend]") {
  for (Isa isa : all_isas()) {
    INFO(isa_name(isa));
    CHECK(backend_implemented(isa));
    CHECK(backend_for(isa, "/isa").isa() == isa);
  }
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
