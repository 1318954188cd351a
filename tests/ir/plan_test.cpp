// The planner: the GenTT block (paper 000, sections 4-5) for given lanes.
#include <catch2/catch.hpp>

#include "ir/canonical.h"
#include "ir/lower.h"
#include "ir/plan.h"
#include "ir/verify.h"

using namespace gentt;
using Shape = std::vector<int64_t>;
using Perm = std::vector<int>;

namespace {
Plan plan_of(int64_t esize, Shape s, Perm p, int lanes) { return make_plan(canonicalize(esize, s, p), lanes); }
}  // namespace

TEST_CASE("the paper's example (64,32,32,4) perm (2,1,0,3), 16 lanes", "[plan]") {
  const Plan plan = plan_of(4, {64, 32, 32, 4}, {2, 1, 0, 3}, 16);
  // Axis 3 (4 = 2 bits) is innermost in both tensors: shared, no movement.
  CHECK(plan.in_row == std::vector<BlockBit>{{3, 0}, {3, 1}, {2, 0}, {2, 1}});
  CHECK(plan.out_row == std::vector<BlockBit>{{3, 0}, {3, 1}, {0, 0}, {0, 1}});
  CHECK(plan.shuffle_steps == 2);
  // The rows give 4 registers of 16 lanes; the next output bit (axis 0's third) joins as a
  // register bit: 8 registers, no extra shuffle.
  CHECK(plan.block_bits() == 7);
  CHECK(plan.find_block_axis(0)->chunk == 8);
  CHECK(plan.find_block_axis(0)->reg_bits == 1);
  CHECK(plan.padding_efficiency == 1.0);
}

TEST_CASE("register bits come from the next output bits and never pad or add tails", "[plan]") {
  // 3 x 5 x 16, perm (1, 0, 2): one register from the rows, but no power of two divides the
  // other axes (3 and 5).
  const Plan odd = plan_of(4, {3, 5, 16}, {1, 0, 2}, 16);
  CHECK(odd.block_bits() == 4);
  for (const auto& b : odd.block_axes) CHECK(b.reg_bits == 0);
  // 64 x 16 transposed: rows take 4 bits of each axis (16 registers), no register bits needed.
  const Plan square = plan_of(4, {64, 16}, {1, 0}, 16);
  for (const auto& b : square.block_axes) CHECK(b.reg_bits == 0);
  // Whole size-2 axes join in output order until there are 8 registers.
  const Plan all2 = plan_of(4, Shape(10, 2), {3, 5, 6, 2, 0, 4, 9, 7, 1, 8}, 16);
  CHECK(all2.block_bits() == 7);
}

TEST_CASE("kept rows in groups: register bits of the output's next axis, a partial last chunk allowed", "[plan]") {
  // TTC (2307, 64, 368) (1, 0, 2) float32: the output's next axis (0, 2307) is odd, so plain
  // register bits come from axis 1, whose rows are 2307 rows apart in the output.
  const Canonical c = canonicalize(4, {2307, 64, 368}, {1, 0, 2});
  const Plan plain = make_plan(c, 16);
  REQUIRE(plain.find_block_axis(1));
  CHECK(plain.find_block_axis(1)->reg_bits == 3);
  CHECK_FALSE(plain.find_block_axis(0));
  // In groups: 8 rows of axis 0, neighbours in the output, the last chunk 3 rows (2307 = 288 * 8 + 3).
  const Plan groups = make_plan(c, 16, kMinRegisterBits, 0, true);
  REQUIRE(groups.find_block_axis(0));
  CHECK(groups.find_block_axis(0)->reg_bits == 3);
  CHECK(groups.find_block_axis(0)->chunk == 8);
  CHECK(groups.find_block_axis(0)->tail() == 3);
  CHECK_FALSE(groups.find_block_axis(1));
  CHECK_NOTHROW(verify_kernel(lower(groups, "k")));
  bool said = false;
  for (const auto& r : groups.reasons) said = said || r.find("the last chunk partial") != std::string::npos;
  CHECK(said);
  // Not below 8 rows (a tail bigger than the block), nor without a kept axis, nor where the
  // extent divides (the same plan as without groups).
  const Plan short_axis = make_plan(canonicalize(4, {7, 64, 368}, {1, 0, 2}), 16, kMinRegisterBits, 0, true);
  CHECK_FALSE(short_axis.find_block_axis(0));
  const Canonical moved = canonicalize(4, {2307, 64, 368}, {2, 0, 1});
  CHECK(make_plan(moved, 16, kMinRegisterBits, 0, true).block_axes == make_plan(moved, 16).block_axes);
  const Canonical even = canonicalize(4, {2304, 64, 368}, {1, 0, 2});
  CHECK(make_plan(even, 16, kMinRegisterBits, 0, true).block_axes == make_plan(even, 16).block_axes);
}

TEST_CASE("all-size-2 tensors: one step per output-row bit not in the input row", "[plan]") {
  const Plan plan = plan_of(4, Shape(10, 2), {3, 5, 6, 2, 0, 4, 9, 7, 1, 8}, 16);
  // Axes 5,6 stay adjacent and fuse (rank 9). Input row: axes 9,8,7,(5,6) low bit;
  // output row: axes 8,1,7,9: only axis 1 must move into the lanes.
  CHECK(plan.problem.rank() == 9);
  CHECK(plan.shuffle_steps == 1);
}

TEST_CASE("reversed all-size-2 rank 10: every output-row bit moves", "[plan]") {
  const Plan plan = plan_of(4, Shape(10, 2), {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, 16);
  CHECK(plan.shuffle_steps == 4);
  CHECK(plan.block_bits() == 8);
}

TEST_CASE("inner axis kept: the rows share bits and need no shuffle", "[plan]") {
  const Plan plan = plan_of(4, {8, 8, 64}, {1, 0, 2}, 16);
  CHECK(plan.shuffle_steps == 0);
  CHECK(plan.in_row == plan.out_row);
}

TEST_CASE("general extents are padded to powers of two inside the block", "[plan]") {
  const Plan plan = plan_of(4, {3, 5}, {1, 0}, 16);
  // Input row: axis 1 (5 -> 8), then 1 bit of axis 0 (3 -> 4). Output: axis 0 (3 -> 4), 2 bits of axis 1.
  REQUIRE(plan.block_axes.size() == 2);
  CHECK(plan.block_axes[0].chunk == 4);
  CHECK(plan.block_axes[1].chunk == 8);
  CHECK(plan.padding_efficiency == Approx(15.0 / 32.0));
  CHECK(plan.shuffle_steps == 1);
}

TEST_CASE("long axes are walked in chunks with a tail", "[plan]") {
  const Plan plan = plan_of(4, {100, 37}, {1, 0}, 16);
  REQUIRE(plan.block_axes.size() == 2);
  CHECK(plan.block_axes[0].chunk == 16);
  CHECK(plan.block_axes[0].tail() == 100 % 16);
  CHECK(plan.block_axes[1].chunk == 16);
  CHECK(plan.block_axes[1].tail() == 37 % 16);
  CHECK(plan.shuffle_steps == 4);
}

TEST_CASE("a tensor smaller than one vector uses fewer lane bits", "[plan]") {
  const Plan plan = plan_of(4, {2, 3}, {1, 0}, 16);
  CHECK(plan.in_row.size() == 3);
  CHECK(plan.out_row.size() == 3);
}

TEST_CASE("one lane: no block bits, every axis is a loop", "[plan]") {
  const Plan plan = plan_of(100, {3, 4}, {1, 0}, 1);
  CHECK(plan.block_axes.empty());
  CHECK(plan.shuffle_steps == 0);
}

TEST_CASE("the planner explains its choice", "[plan]") {
  const Plan plan = plan_of(4, {3, 5}, {1, 0}, 16);
  REQUIRE(plan.reasons.size() >= 3);
  CHECK(plan.reasons[0].find("padded to 8") != std::string::npos);
}

TEST_CASE("a register limit splits the input row: 64 byte registers become 32 of two half rows", "[plan]") {
  const Canonical c = canonicalize(1, {8192, 8000}, {1, 0});
  const Plan whole = make_plan(c, 64);
  CHECK_FALSE(whole.split_row);
  CHECK(whole.shuffle_steps == 6);
  const Plan split = make_plan(c, 64, kMinRegisterBits, 32);
  REQUIRE(split.split_row);
  CHECK(split.shuffle_steps == 5);
  REQUIRE(split.in_row.size() == 6);
  // Five lane bits of the input's innermost axis, then the output row's top bit.
  for (int j = 0; j < 5; ++j) CHECK(split.in_row[j] == whole.in_row[j]);
  CHECK(split.in_row[5] == whole.out_row[5]);
  CHECK(split.out_row == whole.out_row);
  CHECK(split.block_bits() == 11);
  const Kernel k = lower(split, "k");
  verify_kernel(k);
  int loads = 0, shuffles = 0, stores = 0;
  for (const Op& op : k.programs.front().ops) {
    loads += op.kind == OpKind::load;
    shuffles += op.kind == OpKind::shuffle;
    stores += op.kind == OpKind::store;
    if (op.kind == OpKind::load) CHECK(op.count == 32);
  }
  CHECK(loads == 64);             // two half rows a register
  CHECK(shuffles == 32 + 5 * 32);  // the joins, then five butterfly steps
  CHECK(stores == 32);
  bool said = false;
  for (const auto& r : split.reasons) said |= r.starts_with("split input row: 64 registers would exceed 32");
  CHECK(said);
  // Within the limit: no split (float32's 16 registers).
  CHECK_FALSE(make_plan(canonicalize(4, {4096, 4000}, {1, 0}), 16, kMinRegisterBits, 32).split_row);
}
