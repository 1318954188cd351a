#include "ir/plan.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/bits.h"
#include "ir/error.h"

namespace gentt {

int Plan::block_bits() const {
  int bits = 0;
  for (const auto& b : block_axes) bits += ceil_log2(b.chunk);
  return bits;
}

bool split_pads_more(const Plan& split) {
  if (!split.split_row || split.lanes < 2) return false;
  return make_plan(split.problem, split.lanes / 2).padding_efficiency > kSplitPaddingRatio * split.padding_efficiency;
}

const BlockAxis* Plan::find_block_axis(int axis) const {
  for (const auto& b : block_axes)
    if (b.axis == axis) return &b;
  return nullptr;
}

namespace {

// How many low bits of each axis a row takes: walk `order` (axes, innermost first) and take
// whole axes (padded to a power of two) until `lanes_bits` are used; the axis that does not
// fit whole gives only the bits still needed. Returns bits per canonical axis.
std::vector<int> row_bits(const Canonical& c, const std::vector<int>& order, int lane_bits) {
  std::vector<int> bits(c.rank(), 0);
  int need = lane_bits;
  for (int axis : order) {
    if (need == 0) break;
    const int m = ceil_log2(c.shape[axis]);
    bits[axis] = std::min(m, need);
    need -= bits[axis];
  }
  return bits;
}

std::vector<BlockBit> row_sequence(const std::vector<int>& order, const std::vector<int>& bits) {
  std::vector<BlockBit> seq;
  for (int axis : order)
    for (int b = 0; b < bits[axis]; ++b) seq.push_back({axis, b});
  return seq;
}

}  // namespace

Plan make_plan(const Canonical& c, int lanes, int min_register_bits, int register_limit, bool kept_row_groups) {
  GENTT_CHECK(is_pow2(lanes) && lanes <= 1024, "lanes must be a power of two <= 1024");
  GENTT_CHECK(c.rank() >= 1, "canonical problem has rank 0");
  const int d = c.rank();
  const int k = ceil_log2(lanes);

  Plan plan;
  plan.problem = c;
  plan.lanes = lanes;
  plan.register_limit = register_limit;

  // Strides of both tensors, per canonical input axis.
  plan.in_strides.assign(d, 1);
  for (int a = d - 2; a >= 0; --a) plan.in_strides[a] = plan.in_strides[a + 1] * c.shape[a + 1];
  plan.out_strides.assign(d, 1);
  {
    int64_t s = 1;
    for (int j = d - 1; j >= 0; --j) {
      plan.out_strides[c.perm[j]] = s;
      s *= c.shape[c.perm[j]];
    }
  }

  // The rows: innermost input axes, innermost output axes.
  std::vector<int> in_order, out_order;
  for (int a = d - 1; a >= 0; --a) in_order.push_back(a);
  for (int j = d - 1; j >= 0; --j) out_order.push_back(c.perm[j]);
  std::vector<int> in_bits = row_bits(c, in_order, k);
  const std::vector<int> out_bits = row_bits(c, out_order, k);
  plan.in_row = row_sequence(in_order, in_bits);
  plan.out_row = row_sequence(out_order, out_bits);
  auto missing = [&] {  // output-row bits not in the input row, lowest first
    std::vector<BlockBit> m;
    for (const auto& bit : plan.out_row)
      if (std::find(plan.in_row.begin(), plan.in_row.end(), bit) == plan.in_row.end()) m.push_back(bit);
    return m;
  };
  // A split input row (register_limit): one lane bit fewer from the input, the top one the highest
  // output-row bit the row lacks.
  std::string split;
  if (register_limit > 0 && k >= 1 && static_cast<int>(plan.in_row.size()) == k &&
      (int64_t{1} << missing().size()) > register_limit) {
    const int64_t before = int64_t{1} << missing().size();
    in_bits = row_bits(c, in_order, k - 1);
    plan.in_row = row_sequence(in_order, in_bits);
    const BlockBit top = missing().back();
    plan.in_row.push_back(top);
    plan.split_row = true;
    split = fmt::format(
        "split input row: {} registers would exceed {}; each register's top lane bit is axis {}'s bit {} (an output-row "
        "bit), so it holds two runs of {} lanes, loaded apart: {} registers, one butterfly step less",
        before, register_limit, top.axis, top.bit, lanes / 2, int64_t{1} << missing().size());
  }

  // Register bits: the next bits of the output index above the rows (next output axis first),
  // one at a time, from axes whose extent they divide (no padding, no tail). Kept rows in groups
  // (kept_row_groups): the output's next axis after a kept innermost axis takes them even where
  // its extent leaves a partial last chunk (a tail program), if it has at least
  // 2^min_register_bits elements, so that a block's rows are neighbours in the output.
  std::vector<int> reg_bits(d, 0);
  std::vector<std::string> joined;
  {
    int row_bits = 0, regs = 0;
    for (int a = 0; a < d; ++a) regs += std::max(in_bits[a], out_bits[a]);
    for (int a = 0; a < d; ++a) row_bits += in_bits[a];
    regs -= k;
    const bool kept = d >= 2 && c.perm.back() == d - 1 && in_bits[d - 1] == k;  // rows of whole vectors
    // Not for one-lane plans (elements as wide as a vector: blocks are element copies), nor
    // for a tensor smaller than a vector (one block anyway).
    if (k > 0 && row_bits == k) {
      for (size_t i = 0; i < out_order.size(); ++i) {
        const int axis = out_order[i];
        const int used = std::max(in_bits[axis], out_bits[axis]);
        const bool tail_ok = kept_row_groups && kept && i == 1 && in_bits[axis] == 0 &&
                             c.shape[axis] >= (int64_t{1} << min_register_bits);
        const auto fits = [&] {
          const int64_t chunk = int64_t{2} << (used + reg_bits[axis]);
          return c.shape[axis] % chunk == 0 || (tail_ok && chunk <= c.shape[axis]);
        };
        while (regs < min_register_bits && fits()) {
          ++reg_bits[axis];
          ++regs;
        }
        if (reg_bits[axis] > 0)
          joined.push_back(fmt::format(
              "{} bit(s) of axis {} ({}{})", reg_bits[axis], axis, c.shape[axis],
              c.shape[axis] % (int64_t{1} << (used + reg_bits[axis])) == 0
                  ? ""
                  : ", the last chunk partial: the kept rows of a block are neighbours in the output"));
      }
    }
  }

  int64_t padded = 1, valid = 1;
  for (int a = 0; a < d; ++a) {
    const int m = std::max(in_bits[a], out_bits[a]) + reg_bits[a];
    if (m == 0) continue;
    BlockAxis b;
    b.axis = a;
    b.extent = c.shape[a];
    b.chunk = int64_t{1} << m;
    b.in_bits = in_bits[a];
    b.out_bits = out_bits[a];
    b.reg_bits = reg_bits[a];
    plan.block_axes.push_back(b);
    padded *= b.chunk;
    valid *= std::min(b.chunk, b.extent);
  }
  plan.shuffle_steps = static_cast<int>(missing().size());
  plan.padding_efficiency = static_cast<double>(valid) / static_cast<double>(padded);

  // Reasons, for `gentt-gen explain`.
  auto describe_row = [&](const char* which, const std::vector<int>& order, const std::vector<int>& bits) {
    std::vector<std::string> parts;
    for (int axis : order) {
      if (bits[axis] == 0) continue;
      const int m = ceil_log2(c.shape[axis]);
      if (bits[axis] == m)
        parts.push_back(c.shape[axis] == (int64_t{1} << m)
                            ? fmt::format("axis {} whole ({})", axis, c.shape[axis])
                            : fmt::format("axis {} whole ({} padded to {})", axis, c.shape[axis],
                                          int64_t{1} << m));
      else
        parts.push_back(fmt::format("axis {} in runs of {}", axis, int64_t{1} << bits[axis]));
    }
    int used = 0;
    for (int axis : order) used += bits[axis];
    plan.reasons.push_back(fmt::format(
        "{} row ({} of {} lane bits): {}{}", which, used, k, parts.empty() ? "-" : fmt::format("{}", fmt::join(parts, ", ")),
        used == k               ? ""
        : std::string(which) == "input" && !split.empty() ? " and the top lane bit split off (below)"
                                                          : " (the tensor is smaller than a vector)"));
  };
  describe_row("input", in_order, in_bits);
  describe_row("output", out_order, out_bits);
  if (!split.empty()) plan.reasons.push_back(split);
  const int shared = static_cast<int>(plan.out_row.size()) - plan.shuffle_steps;
  plan.reasons.push_back(fmt::format(
      "{} bit(s) are in both rows and need no movement; each of the other {} output-row bit(s) "
      "costs one butterfly step",
      shared, plan.shuffle_steps));
  if (!joined.empty())
    plan.reasons.push_back(fmt::format(
        "the rows alone give fewer than {} registers: the next output bits join the block as register bits, {} "
        "(no shuffle; fewer, longer loop iterations)",
        1 << min_register_bits, fmt::join(joined, ", ")));
  return plan;
}

}  // namespace gentt
