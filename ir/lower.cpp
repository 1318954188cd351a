#include "ir/lower.h"

#include <algorithm>
#include <map>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/bits.h"
#include "ir/error.h"
#include "ir/unroll.h"

namespace gentt {

int64_t Kernel::iterations() const {
  int64_t n = 1;
  for (const auto& l : loops) n *= l.count;
  return n;
}

namespace {

constexpr int kEmpty = -1;  // a lane position that holds no block bit (tensor < vector)

// The block as a small tensor: element id = sum over block axes j of x_j << offs[j]
// (last block axis lowest), x_j in [0, chunk_j).
struct BlockSpace {
  struct Axis {
    int64_t chunk, in_stride, out_stride;
    int bits, shift;
  };
  std::vector<Axis> axes;
  std::map<std::pair<int, int>, int> bit_pos;  // (canonical axis, bit) -> bit of element id

  explicit BlockSpace(const Plan& plan) {
    int shift = 0;
    for (int j = static_cast<int>(plan.block_axes.size()) - 1; j >= 0; --j) {
      const auto& b = plan.block_axes[j];
      Axis ax{b.chunk, plan.in_strides[b.axis], plan.out_strides[b.axis], ceil_log2(b.chunk), shift};
      for (int bit = 0; bit < ax.bits; ++bit) bit_pos[{b.axis, bit}] = shift + bit;
      shift += ax.bits;
      axes.insert(axes.begin(), ax);
    }
  }
  int64_t coord(int64_t id, int j) const { return (id >> axes[j].shift) & (axes[j].chunk - 1); }
  int64_t in_offset(int64_t id) const {
    int64_t o = 0;
    for (size_t j = 0; j < axes.size(); ++j) o += coord(id, j) * axes[j].in_stride;
    return o;
  }
  int64_t out_offset(int64_t id) const {
    int64_t o = 0;
    for (size_t j = 0; j < axes.size(); ++j) o += coord(id, j) * axes[j].out_stride;
    return o;
  }
};

// Which block bit each lane position and register position holds.
struct Layout {
  std::vector<int> lane_pos;  // k entries: element-id bit, or kEmpty
  std::vector<int> reg_pos;   // register index bit u -> element-id bit

  int64_t registers() const { return int64_t{1} << reg_pos.size(); }
  // The element at (register r, lane l), or -1 if the lane is an empty position.
  int64_t element(int64_t r, int64_t l) const {
    int64_t id = 0;
    for (size_t t = 0; t < lane_pos.size(); ++t) {
      if (!((l >> t) & 1)) continue;
      if (lane_pos[t] == kEmpty) return -1;
      id |= int64_t{1} << lane_pos[t];
    }
    for (size_t u = 0; u < reg_pos.size(); ++u)
      if ((r >> u) & 1) id |= int64_t{1} << reg_pos[u];
    return id;
  }
};

// What a value physically holds: element id per lane (-1: nothing of use).
struct Value {
  int id = -1;  // SSA value, -1: absent (no valid lane; never loaded or computed)
  std::vector<int64_t> lanes;
};

class ProgramBuilder {
 public:
  ProgramBuilder(const Plan& plan, const BlockSpace& space, std::vector<int64_t> valid_extent)
      : plan_(plan), space_(space), valid_(std::move(valid_extent)), lanes_(plan.lanes) {}

  BlockProgram build(std::string what) {
    prog_.what = std::move(what);
    const int k = ceil_log2(lanes_);
    Layout layout;
    std::vector<int> out_set;
    for (const auto& b : plan_.out_row) out_set.push_back(space_.bit_pos.at({b.axis, b.bit}));
    for (const auto& b : plan_.in_row) layout.lane_pos.push_back(space_.bit_pos.at({b.axis, b.bit}));
    layout.lane_pos.resize(k, kEmpty);
    std::vector<int> needed;  // output-row bits held in registers, in output-row order
    for (int bit : out_set)
      if (std::find(layout.lane_pos.begin(), layout.lane_pos.end(), bit) == layout.lane_pos.end())
        needed.push_back(bit);
    layout.reg_pos = needed;  // every other block bit is in one row or both, or a register bit
    for (const auto& b : plan_.block_axes)
      for (int bit = 0; bit < b.reg_bits; ++bit)
        layout.reg_pos.push_back(space_.bit_pos.at({b.axis, std::max(b.in_bits, b.out_bits) + bit}));

    // Loads: each register's valid elements are one contiguous run of the input.
    std::vector<Value> regs(layout.registers());
    for (int64_t r = 0; r < layout.registers(); ++r) {
      auto run = valid_elements(layout, r, /*by_input=*/true);
      if (run.empty()) continue;
      const int64_t first = space_.in_offset(run.front());
      check_contiguous(run, true);
      regs[r] = define(run);
      prog_.ops.push_back(
          Op{OpKind::load, regs[r].id, -1, -1, -1, first, static_cast<int>(run.size()), {}});
    }

    // Butterfly steps: swap a needed register bit with a lane position whose bit is not an
    // output-row bit; the last step (or a lone reordering pass) also lays lanes out in output
    // memory order, compacting padding away.
    const int steps = static_cast<int>(needed.size());
    for (int s = 0; s < std::max(steps, 1); ++s) {
      Layout next = layout;
      if (steps > 0) {
        const int bit = needed[s];
        const auto u = std::find(next.reg_pos.begin(), next.reg_pos.end(), bit) - next.reg_pos.begin();
        int t = -1;
        for (int cand = 0; cand < k && t < 0; ++cand) {
          const int held = layout.lane_pos[cand];
          if (held != kEmpty && std::find(out_set.begin(), out_set.end(), held) == out_set.end()) t = cand;
        }
        GENTT_CHECK(t >= 0, "no lane position to exchange");
        std::swap(next.reg_pos[u], next.lane_pos[t]);
      }
      const bool last = s == std::max(steps, 1) - 1;
      std::vector<Value> moved(next.registers());
      for (int64_t r = 0; r < next.registers(); ++r) {
        std::vector<int64_t> target;
        if (last) {
          target = valid_elements(next, r, /*by_input=*/false);
          check_contiguous(target, false);
          target.resize(lanes_, -1);
        } else {
          target.resize(lanes_);
          for (int64_t l = 0; l < lanes_; ++l) {
            const int64_t id = next.element(r, l);
            target[l] = id >= 0 && is_valid(id) ? id : -1;
          }
        }
        moved[r] = gather(regs, target);
      }
      regs = std::move(moved);
      layout = std::move(next);
    }

    // Stores: each output register's valid elements, in output order, from lane 0.
    for (int64_t r = 0; r < layout.registers(); ++r) {
      if (regs[r].id < 0) continue;
      int count = 0;
      while (count < lanes_ && regs[r].lanes[count] >= 0) ++count;
      prog_.ops.push_back(Op{OpKind::store, -1, regs[r].id, -1, -1,
                             space_.out_offset(regs[r].lanes[0]), count, {}});
    }
    return std::move(prog_);
  }

 private:
  bool is_valid(int64_t id) const {
    for (size_t j = 0; j < space_.axes.size(); ++j)
      if (space_.coord(id, j) >= valid_[j]) return false;
    return true;
  }

  // The valid elements of register r, sorted by input (or output) memory offset.
  std::vector<int64_t> valid_elements(const Layout& layout, int64_t r, bool by_input) const {
    std::vector<int64_t> ids;
    for (int64_t l = 0; l < lanes_; ++l) {
      const int64_t id = layout.element(r, l);
      if (id >= 0 && is_valid(id)) ids.push_back(id);
    }
    std::sort(ids.begin(), ids.end(), [&](int64_t x, int64_t y) {
      return by_input ? space_.in_offset(x) < space_.in_offset(y) : space_.out_offset(x) < space_.out_offset(y);
    });
    return ids;
  }

  void check_contiguous(const std::vector<int64_t>& ids, bool by_input) const {
    for (size_t i = 1; i < ids.size(); ++i) {
      const int64_t a = by_input ? space_.in_offset(ids[i - 1]) : space_.out_offset(ids[i - 1]);
      const int64_t b = by_input ? space_.in_offset(ids[i]) : space_.out_offset(ids[i]);
      GENTT_CHECK(b == a + 1, "a register's valid elements are not contiguous in memory");
    }
  }

  Value define(std::vector<int64_t> lanes) {
    lanes.resize(lanes_, -1);
    return Value{prog_.num_values++, std::move(lanes)};
  }

  // A value holding `target` (element ids per lane, -1 = don't care), from at most two of
  // `regs`. No op when one source already holds every wanted lane in place (renaming).
  Value gather(const std::vector<Value>& regs, const std::vector<int64_t>& target) {
    std::map<int64_t, std::pair<int, int>> where;  // element -> (SSA value, lane)
    std::vector<int> sources;
    bool any = false;
    for (int64_t want : target) any |= want >= 0;
    if (!any) return Value{};
    for (const auto& v : regs) {
      if (v.id < 0) continue;
      for (int l = 0; l < lanes_; ++l)
        if (v.lanes[l] >= 0) where[v.lanes[l]] = {v.id, l};
    }
    for (int64_t want : target) {
      if (want < 0) continue;
      auto it = where.find(want);
      GENTT_CHECK(it != where.end(), "a valid element was lost between steps");
      if (std::find(sources.begin(), sources.end(), it->second.first) == sources.end())
        sources.push_back(it->second.first);
    }
    GENTT_CHECK(sources.size() <= 2, "a butterfly output needs more than two sources");
    std::sort(sources.begin(), sources.end());
    std::vector<int> index(lanes_, -1);
    bool in_place = sources.size() == 1;
    for (int l = 0; l < lanes_; ++l) {
      if (target[l] < 0) continue;
      const auto [value, lane] = where.at(target[l]);
      index[l] = value == sources[0] ? lane : lane + lanes_;
      in_place &= index[l] == l;
    }
    if (in_place) {
      // Renaming: the source value already has the wanted lanes in place.
      Value v;
      v.id = sources[0];
      v.lanes = target;
      return v;
    }
    Value v = define(target);
    prog_.ops.push_back(Op{OpKind::shuffle, v.id, -1, sources[0],
                           sources.size() > 1 ? sources[1] : -1, 0, 0, std::move(index)});
    return v;
  }

  const Plan& plan_;
  const BlockSpace& space_;
  std::vector<int64_t> valid_;
  int lanes_;
  BlockProgram prog_;
};

}  // namespace

Kernel lower(const Plan& plan, const std::string& kernel_name, const LowerOptions& options) {
  const Canonical& c = plan.problem;
  Kernel kernel;
  kernel.name = kernel_name;
  kernel.elem_bytes = c.elem_bytes;
  kernel.lanes = plan.lanes;
  kernel.in_elements = 1;
  for (int64_t n : c.shape) kernel.in_elements *= n;

  // Loops: axes outside the block, and chunks of block axes longer than their chunk.
  struct Walk {
    LoopDim dim;
    int block_index;  // -1: not a block axis
  };
  std::vector<Walk> walks;
  for (int a = 0; a < c.rank(); ++a) {
    const BlockAxis* b = plan.find_block_axis(a);
    if (!b) {
      walks.push_back({LoopDim{c.shape[a], plan.in_strides[a], plan.out_strides[a], -1,
                               fmt::format("axis {}", a)}, -1});
    } else if (b->chunk < b->extent) {
      const auto j = static_cast<int>(b - plan.block_axes.data());
      walks.push_back({LoopDim{b->chunks(), b->chunk * plan.in_strides[a], b->chunk * plan.out_strides[a], -1,
                               b->tail() ? fmt::format("axis {} in chunks of {} (last: {})", a, b->chunk, b->tail())
                                         : fmt::format("axis {} in chunks of {}", a, b->chunk)},
                       j});
    }
  }
  // Output order, outermost first: consecutive blocks write neighbouring output. Streaming
  // stores need no write locality, so the streaming variant reads in input order instead.
  if (options.streaming)
    std::stable_sort(walks.begin(), walks.end(),
                     [](const Walk& x, const Walk& y) { return x.dim.in_stride > y.dim.in_stride; });
  else
    std::stable_sort(walks.begin(), walks.end(),
                     [](const Walk& x, const Walk& y) { return x.dim.out_stride > y.dim.out_stride; });
  std::vector<int> tail_block_index;  // tail bit -> block axis
  for (auto& w : walks) {
    if (w.block_index >= 0 && plan.block_axes[w.block_index].tail()) {
      w.dim.tail_bit = static_cast<int>(tail_block_index.size());
      tail_block_index.push_back(w.block_index);
    }
    kernel.loops.push_back(w.dim);
  }

  // One block program per combination of tails.
  const BlockSpace space(plan);
  for (int mask = 0; mask < (1 << tail_block_index.size()); ++mask) {
    std::vector<int64_t> valid;
    for (const auto& b : plan.block_axes) valid.push_back(std::min(b.chunk, b.extent));
    std::string what = "full blocks";
    std::vector<std::string> tails;
    for (size_t t = 0; t < tail_block_index.size(); ++t) {
      if (!((mask >> t) & 1)) continue;
      const auto& b = plan.block_axes[tail_block_index[t]];
      valid[tail_block_index[t]] = b.tail();
      tails.push_back(fmt::format("axis {} tail ({} of {})", b.axis, b.tail(), b.chunk));
    }
    if (!tails.empty()) what = fmt::format("{}", fmt::join(tails, ", "));
    kernel.programs.push_back(ProgramBuilder(plan, space, std::move(valid)).build(what));
  }
  if (options.streaming)
    for (auto& prog : kernel.programs)
      for (auto& op : prog.ops)
        op.stream = op.kind == OpKind::store && op.count == kernel.lanes && op.offset % kernel.lanes == 0;
  add_unrolled_programs(kernel);
  return kernel;
}

}  // namespace gentt
