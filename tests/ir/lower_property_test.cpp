// Property test: planner + lowering + interpreter agree with the NumPy-semantics reference on
// thousands of random (shape, perm, element size, lanes) cases, ranks 1 to 16.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gentt/reference.h"
#include "ir/canonical.h"
#include "ir/interpret.h"
#include "ir/lower.h"
#include "ir/plan.h"
#include "ir/verify.h"
#include "tests/ir/random_problem.h"

using namespace gentt;

TEST_CASE("random problems: interpreter matches the reference bit for bit", "[lower][property]") {
  std::mt19937_64 rng(20261122);
  constexpr int kCases = 2500;
  int failures = 0;
  for (int c = 0; c < kCases; ++c) {
    const auto p = test::random_problem(rng, 16, 20000);
    const int lanes = 1 << (rng() % 7);  // 1..64
    const int64_t n = std::accumulate(p.shape.begin(), p.shape.end(), int64_t{1}, std::multiplies<>());
    const auto in = test::random_bytes(rng, n * p.elem_bytes);
    std::vector<unsigned char> want(in.size()), got(in.size(), 0xEE);
    reference_permute(in.data(), want.data(), p.elem_bytes, p.shape, p.perm);

    // Half the cases with a register limit (2..32), so that many plans split their input rows
    // (ir/plan.h): registers of two runs, joined after their loads.
    const int limit = rng() % 2 ? 0 : 1 << (1 + rng() % 5);
    const Kernel k = lower(make_plan(canonicalize(p.elem_bytes, p.shape, p.perm), lanes, kMinRegisterBits, limit), "k");
    verify_kernel(k);
    const int parts = 1 + static_cast<int>(rng() % 5);
    for (int part = parts - 1; part >= 0; --part) interpret_part(k, in.data(), got.data(), part, parts);
    if (got != want && ++failures <= 5)
      FAIL_CHECK(fmt::format("case {}: elem_bytes {} lanes {} register limit {} shape ({}) perm ({}) parts {}", c,
                             p.elem_bytes, lanes, limit, fmt::join(p.shape, ","), fmt::join(p.perm, ","), parts));
  }
  CHECK(failures == 0);
}

TEST_CASE("all-size-2 tensors of rank up to 16 with every lane count", "[lower][property]") {
  std::mt19937_64 rng(7);
  for (int c = 0; c < 200; ++c) {
    const int rank = 1 + static_cast<int>(rng() % 16);
    std::vector<int64_t> shape(rank, 2);
    std::vector<int> perm(rank);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    const int lanes = 1 << (rng() % 7);
    const int64_t esize = int64_t{1} << (rng() % 4);
    const auto in = test::random_bytes(rng, (size_t{1} << rank) * esize);
    std::vector<unsigned char> want(in.size()), got(in.size());
    reference_permute(in.data(), want.data(), esize, shape, perm);
    const Kernel k = lower(make_plan(canonicalize(esize, shape, perm), lanes), "k");
    verify_kernel(k);
    interpret(k, in.data(), got.data());
    INFO(fmt::format("rank {} perm ({}) lanes {}", rank, fmt::join(perm, ","), lanes));
    REQUIRE(got == want);
  }
}

TEST_CASE("butterfly cost: shuffles per register never exceed the plan's steps", "[lower]") {
  std::mt19937_64 rng(11);
  for (int c = 0; c < 300; ++c) {
    const auto p = test::random_problem(rng, 8, 5000);
    const Plan plan = make_plan(canonicalize(p.elem_bytes, p.shape, p.perm), 16);
    const Kernel k = lower(plan, "k");
    for (const auto& prog : k.programs) {
      int loads = 0, shuffles = 0;
      for (const auto& op : prog.ops) {
        loads += op.kind == OpKind::load;
        shuffles += op.kind == OpKind::shuffle;
      }
      // Each step produces at most one value per register; a pass with no step may reorder
      // each register once.
      const int64_t regs = int64_t{1} << std::max(0, plan.block_bits() - 4);
      CHECK(shuffles <= regs * std::max(plan.shuffle_steps, 1));
      CHECK(loads <= regs);
    }
  }
}
