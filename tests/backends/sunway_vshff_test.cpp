// Tests of the SW26010 simd_vshff composition search (backends/sunway_vshff.h): every 4-lane
// index list, with and without b and with don't cares, is computed exactly, in the fewest
// steps, by a program checked against an independent model of simd_vshff.
#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "backends/sunway_vshff.h"
#include "ir/error.h"

using namespace gentt;

namespace {

using Reg = std::array<int, 4>;

// simd_vshff as the ISA notes state it: r0 = lo[imm&3], r1 = lo[imm>>2&3],
// r2 = hi[imm>>4&3], r3 = hi[imm>>6&3].
Reg vshff(const Reg& hi, const Reg& lo, int imm) {
  return {lo[imm & 3], lo[(imm >> 2) & 3], hi[(imm >> 4) & 3], hi[(imm >> 6) & 3]};
}

// Runs a program on distinct lane values a = 10..13, b = 20..23.
Reg run(const VshffProgram& p) {
  std::vector<Reg> values = {{10, 11, 12, 13}, {20, 21, 22, 23}};
  for (const auto& s : p.steps) values.push_back(vshff(values.at(s.hi), values.at(s.lo), s.imm));
  return values.at(p.result);
}

int value_of(int index) { return index < 4 ? 10 + index : 20 + index - 4; }

// The fewest steps any program needs, by brute force over one- and two-step programs.
int brute_force_steps(const std::array<int, 4>& want, bool has_b) {
  const auto ok = [&](const Reg& r) {
    for (int l = 0; l < 4; ++l)
      if (want[l] >= 0 && r[l] != value_of(want[l])) return false;
    return true;
  };
  std::vector<Reg> inputs = {{10, 11, 12, 13}};
  if (has_b) inputs.push_back({20, 21, 22, 23});
  for (const auto& v : inputs)
    if (ok(v)) return 0;
  for (const auto& hi : inputs)
    for (const auto& lo : inputs)
      for (int imm = 0; imm < 256; ++imm)
        if (ok(vshff(hi, lo, imm))) return 1;
  return 2;  // the search's claim: never more (checked by plan_vshff itself)
}

}  // namespace

TEST_CASE("vshff programs: every index list, exact and shortest", "[sunway][vshff]") {
  int lists = 0, worst = 0;
  for (bool has_b : {true, false}) {
    const int range = has_b ? 8 : 4;
    // Entries -1 .. range-1 for each of the 4 lanes: 9^4 and 5^4 lists.
    for (int code = 0; code < (range + 1) * (range + 1) * (range + 1) * (range + 1); ++code) {
      std::array<int, 4> want;
      int c = code;
      for (int l = 0; l < 4; ++l, c /= range + 1) want[l] = c % (range + 1) - 1;
      INFO("index " << want[0] << " " << want[1] << " " << want[2] << " " << want[3] << " has_b " << has_b);
      const VshffProgram p = plan_vshff(want, has_b);
      const Reg got = run(p);
      for (int l = 0; l < 4; ++l)
        if (want[l] >= 0) REQUIRE(got[l] == value_of(want[l]));
      for (const auto& s : p.steps) {
        REQUIRE((s.imm >= 0 && s.imm < 256));
        if (!has_b) REQUIRE((s.hi != 1 && s.lo != 1));
      }
      REQUIRE(static_cast<int>(p.steps.size()) == brute_force_steps(want, has_b));
      worst = std::max(worst, static_cast<int>(p.steps.size()));
      ++lists;
    }
  }
  CHECK(lists == 9 * 9 * 9 * 9 + 5 * 5 * 5 * 5);
  CHECK(worst == 2);
}

TEST_CASE("vshff programs: worked examples", "[sunway][vshff]") {
  SECTION("a itself needs no step") {
    const VshffProgram p = plan_vshff({0, 1, 2, 3}, true);
    CHECK(p.steps.empty());
    CHECK(p.result == 0);
  }
  SECTION("low halves of a and b: one vshff(b, a, 0x44)") {
    const VshffProgram p = plan_vshff({0, 1, 4, 5}, true);
    REQUIRE(p.steps.size() == 1);
    CHECK(p.steps[0].hi == 1);
    CHECK(p.steps[0].lo == 0);
    CHECK(p.steps[0].imm == 0x44);
  }
  SECTION("interleave a0 b0 a1 b1: gather, then reorder") {
    const VshffProgram p = plan_vshff({0, 4, 1, 5}, true);
    CHECK(p.steps.size() == 2);
    CHECK(run(p) == Reg{10, 20, 11, 21});
  }
  SECTION("simulate_vshff agrees") {
    const VshffProgram p = plan_vshff({5, 2, -1, 7}, true);
    const auto lanes = simulate_vshff(p);
    CHECK(lanes[0] == 5);
    CHECK(lanes[1] == 2);
    CHECK(lanes[3] == 7);
  }
}

TEST_CASE("vshff programs reject malformed index lists", "[sunway][vshff]") {
  CHECK_THROWS_AS(plan_vshff({0, 1, 2, 8}, true), InternalError);
  CHECK_THROWS_AS(plan_vshff({0, 1, 2, 4}, false), InternalError);
}
