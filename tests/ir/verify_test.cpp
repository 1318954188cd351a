// The verifier rejects broken IR with a message that says what is wrong.
#include <catch2/catch.hpp>

#include "ir/canonical.h"
#include "ir/error.h"
#include "ir/lower.h"
#include "ir/plan.h"
#include "ir/verify.h"

using namespace gentt;
using Catch::Matchers::Contains;

namespace {
Kernel sample() { return lower(make_plan(canonicalize(4, {20, 37}, {1, 0}), 16), "sample"); }
Op* first(Kernel& k, OpKind kind) {
  for (auto& op : k.programs[0].ops)
    if (op.kind == kind) return &op;
  return nullptr;
}
}  // namespace

TEST_CASE("a lowered kernel verifies", "[verify]") { CHECK_NOTHROW(verify_kernel(sample())); }

TEST_CASE("out-of-bounds loads and stores are caught", "[verify]") {
  Kernel k = sample();
  first(k, OpKind::load)->offset = k.in_elements;
  CHECK_THROWS_WITH(verify_kernel(k), Contains("beyond the tensor"));
  k = sample();
  first(k, OpKind::store)->offset += k.in_elements;
  CHECK_THROWS_WITH(verify_kernel(k), Contains("output access"));
}

TEST_CASE("use before definition is caught", "[verify]") {
  Kernel k = sample();
  first(k, OpKind::shuffle)->a = k.programs[0].num_values - 1;
  CHECK_THROWS_WITH(verify_kernel(k), Contains("used before it is defined"));
}

TEST_CASE("bad shuffle indices and counts are caught", "[verify]") {
  Kernel k = sample();
  first(k, OpKind::shuffle)->index[0] = 2 * k.lanes;
  CHECK_THROWS_WITH(verify_kernel(k), Contains("shuffle index"));
  k = sample();
  first(k, OpKind::load)->count = k.lanes + 1;
  CHECK_THROWS_WITH(verify_kernel(k), Contains("count"));
}

TEST_CASE("program count must match tail bits", "[verify]") {
  Kernel k = sample();
  k.programs.pop_back();
  CHECK_THROWS_AS(verify_kernel(k), InternalError);
}
