// The IR's text and JSON forms (golden: the format is documented in docs/ir.md).
#include <catch2/catch.hpp>

#include "ir/canonical.h"
#include "ir/lower.h"
#include "ir/plan.h"
#include "ir/printer.h"

using namespace gentt;

TEST_CASE("text form of a 4x4 transpose with 4 lanes", "[printer]") {
  const Kernel k = lower(make_plan(canonicalize(4, {4, 4}, {1, 0}), 4), "t4");
  const std::string want =
      "kernel t4: elem_bytes=4 lanes=4 elements=16 iterations=1\n"
      "loops (outermost first; strides in elements):\n"
      "  (none: one block)\n"
      "program 0 (full blocks): 12 values, 16 ops\n"
      "  v0 = load in[+0] x4\n"
      "  v1 = load in[+4] x4\n"
      "  v2 = load in[+8] x4\n"
      "  v3 = load in[+12] x4\n"
      "  v4 = shuffle v0, v1 [0 4 2 6]\n"
      "  v5 = shuffle v0, v1 [1 5 3 7]\n"
      "  v6 = shuffle v2, v3 [0 4 2 6]\n"
      "  v7 = shuffle v2, v3 [1 5 3 7]\n"
      "  v8 = shuffle v4, v6 [0 1 4 5]\n";
  CHECK(print_kernel(k).substr(0, want.size()) == want);
}

TEST_CASE("JSON form round-trips the structure", "[printer]") {
  const Kernel k = lower(make_plan(canonicalize(2, {5, 3}, {1, 0}), 8), "j");
  const auto j = kernel_to_json(k);
  CHECK(j["name"] == "j");
  CHECK(j["lanes"] == 8);
  CHECK(j["programs"].size() == k.programs.size());
  CHECK(j["programs"][0]["ops"].size() == k.programs[0].ops.size());
  CHECK(j["programs"][0]["ops"][0]["op"] == "load");
}
