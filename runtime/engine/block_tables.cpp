#include "runtime/engine/block_tables.h"

#include <algorithm>

#include "ir/block_space.h"
#include "ir/error.h"

namespace gentt::engine {

namespace {

// Per block element id (2^block_bits of them): offsets in both tensors, computed once per plan.
struct IdOffsets {
  std::vector<int64_t> in, out;
  IdOffsets(const BlockSpace& space, int bits) : in(int64_t{1} << bits), out(int64_t{1} << bits) {
    for (int64_t id = 0; id < static_cast<int64_t>(in.size()); ++id) {
      in[id] = space.in_offset(id);
      out[id] = space.out_offset(id);
    }
  }
};

// The element ids of a layout: element(r, l) = lane[l] | reg[r], or -1 where lane[l] is -1 (a lane
// bit on an empty position).
struct LayoutIds {
  std::vector<int64_t> lane, reg;
  LayoutIds(const Layout& layout, int lanes) : lane(lanes), reg(layout.registers()) {
    for (int64_t l = 0; l < lanes; ++l) lane[l] = layout.element(0, l);
    for (int64_t r = 0; r < layout.registers(); ++r) reg[r] = layout.element(r, 0);
  }
  int64_t element(int64_t r, int64_t l) const { return lane[l] < 0 ? -1 : lane[l] | reg[r]; }
};

// The layouts a plan's programs pass through, the same for every program (only which elements
// are valid differs): the initial one, then one per shuffle pass (butterfly steps; a plan
// without them has one reorder pass into the same layout). Computed once per plan: with 64
// lanes, 64 registers and up to 2^k tail programs, recomputing them per program dominated
// planning of 1- and 2-byte problems.
struct PassLayouts {
  int steps = 0;                // butterfly steps (init.needed)
  std::vector<LayoutIds> ids;   // ids[0]: the loaded layout; ids[s + 1]: after pass s
  PassLayouts(const InitialLayout& init, int lanes) : steps(static_cast<int>(init.needed.size())) {
    Layout layout = init.layout;
    ids.emplace_back(layout, lanes);
    for (int s = 0; s < std::max(steps, 1); ++s) {
      if (steps > 0) layout = butterfly_step(layout, init, s);
      ids.emplace_back(layout, lanes);
    }
  }
};

// Where each block element currently sits: register and lane (entries of elements not in the
// current content are stale and never read).
struct Placement {
  std::vector<int> reg, lane;
  explicit Placement(int64_t elements) : reg(elements, -1), lane(elements, -1) {}
  void put(const std::vector<int64_t>& content, int lanes) {
    const int regs = static_cast<int>(content.size()) / lanes;
    const int64_t* c = content.data();
    for (int r = 0; r < regs; ++r)
      for (int l = 0; l < lanes; ++l, ++c)  // no division per element (a quarter of make_block_tables)
        if (*c >= 0) {
          reg[*c] = r;
          lane[*c] = l;
        }
  }
};

// The valid elements of register r in the order of their offsets in `offset`, written to
// run[0..count); returns count, or -1 if they are not one contiguous run. Offsets of distinct
// valid elements are distinct unless a view repeats elements (stride 0), which is no run either,
// so a run is exactly count elements spanning count offsets: placed by offset, no sort.
int contiguous_run(const LayoutIds& ids, const std::vector<char>& valid, const std::vector<int64_t>& offset, int64_t r,
                   int64_t* run) {
  const int lanes = static_cast<int>(ids.lane.size());
  int64_t lo = 0, hi = -1;
  int count = 0;
  for (int l = 0; l < lanes; ++l) {
    const int64_t id = ids.element(r, l);
    if (id < 0 || !valid[id]) continue;
    const int64_t o = offset[id];
    if (count == 0 || o < lo) lo = o;
    if (count == 0 || o > hi) hi = o;
    ++count;
  }
  if (count == 0) return 0;
  if (hi - lo + 1 != count) return -1;
  std::fill(run, run + count, int64_t{-1});
  for (int l = 0; l < lanes; ++l) {
    const int64_t id = ids.element(r, l);
    if (id < 0 || !valid[id]) continue;
    int64_t& slot = run[offset[id] - lo];
    if (slot >= 0) return -1;  // a repeated offset
    slot = id;
  }
  return count;
}

std::optional<ProgramTables> make_program(const Plan& plan, const IdOffsets& offsets, const PassLayouts& layouts,
                                          const std::vector<char>& valid, Placement& where, std::string what) {
  const int lanes = plan.lanes;
  const int64_t regs = static_cast<int64_t>(layouts.ids.front().reg.size());
  ProgramTables t;
  t.what = std::move(what);
  t.load_offset.reserve(regs);
  t.load_count.reserve(regs);

  // Loads: each register's valid elements, a contiguous input run, land in lanes 0.. in input order.
  // content[r * lanes + l]: the element in register r, lane l (-1: padding).
  std::vector<int64_t> content(regs * lanes, -1), moved(regs * lanes, -1);
  for (int64_t r = 0; r < regs; ++r) {
    const int count = contiguous_run(layouts.ids[0], valid, offsets.in, r, content.data() + r * lanes);
    if (count < 0) return std::nullopt;
    t.load_count.push_back(count);
    t.load_offset.push_back(count ? offsets.in[content[r * lanes]] : 0);
  }

  const int steps = layouts.steps;
  const int passes = std::max(steps, 1);
  for (int s = 0; s < passes; ++s) {
    const LayoutIds& ids = layouts.ids[s + 1];
    const bool last = s == passes - 1;
    where.put(content, lanes);
    std::vector<std::vector<int>> index(regs, std::vector<int>(lanes, -1));
    bool identity = true;
    std::fill(moved.begin(), moved.end(), int64_t{-1});
    for (int64_t r = 0; r < regs; ++r) {
      int64_t* row = moved.data() + r * lanes;
      if (last) {
        if (contiguous_run(ids, valid, offsets.out, r, row) < 0) return std::nullopt;
      } else {
        for (int64_t l = 0; l < lanes; ++l) {
          const int64_t id = ids.element(r, l);
          row[l] = id >= 0 && valid[id] ? id : -1;
        }
      }
      const int64_t r0 = steps > 0 ? (r & ~(int64_t{1} << s)) : r;
      for (int l = 0; l < lanes; ++l) {
        const int64_t id = row[l];
        if (id < 0) continue;
        const int src = where.reg[id];
        GENTT_CHECK(src == r0 || (steps > 0 && src == (r0 | (int64_t{1} << s))),
                    "a butterfly lane comes from outside its register pair");
        index[r][l] = where.lane[id] + (src == r0 ? 0 : lanes);
        identity &= index[r][l] == l;
      }
    }
    std::swap(content, moved);
    if (steps == 0 && identity) break;  // lanes already in output order: no pass at all
    t.passes.push_back(std::move(index));
  }

  // Stores: each register's valid elements, in output order from lane 0.
  t.store_offset.reserve(regs);
  t.store_count.reserve(regs);
  for (int64_t r = 0; r < regs; ++r) {
    const int64_t* row = content.data() + r * lanes;
    int count = 0;
    while (count < lanes && row[count] >= 0) ++count;
    t.store_count.push_back(count);
    t.store_offset.push_back(count ? offsets.out[row[0]] : 0);
  }
  return t;
}

}  // namespace

std::optional<BlockTables> make_block_tables(const Plan& plan, LoopOrder order) {
  BlockTables tables;
  tables.lanes = plan.lanes;
  tables.loops = make_block_loops(plan, order);
  const BlockSpace space(plan);
  const IdOffsets offsets(space, plan.block_bits());
  const InitialLayout init = initial_layout(plan, space);
  tables.reg_bits = static_cast<int>(init.layout.reg_pos.size());
  tables.butterfly = !init.needed.empty();
  const PassLayouts layouts(init, plan.lanes);
  const int64_t elements = static_cast<int64_t>(offsets.in.size());
  Placement where(elements);
  std::vector<char> valid(elements);
  for (int mask = 0; mask < (1 << tables.loops.tail_block_index.size()); ++mask) {
    std::string what;
    const std::vector<int64_t> extent = valid_extents(plan, tables.loops, mask, &what);
    for (int64_t id = 0; id < elements; ++id) valid[id] = space.is_valid(id, extent);
    auto program = make_program(plan, offsets, layouts, valid, where, std::move(what));
    if (!program) return std::nullopt;
    tables.programs.push_back(std::move(*program));
  }
  return tables;
}

BlockTables with_loop_order(const BlockTables& tables, const Plan& plan, LoopOrder order) {
  BlockTables out = tables;
  out.loops = make_block_loops(plan, order);
  const auto& from = tables.loops.tail_block_index;
  const auto& to = out.loops.tail_block_index;
  for (int mask = 0; mask < static_cast<int>(out.programs.size()); ++mask) {
    int old_mask = 0;
    for (size_t t = 0; t < to.size(); ++t)
      if ((mask >> t) & 1) old_mask |= 1 << (std::find(from.begin(), from.end(), to[t]) - from.begin());
    out.programs[mask] = tables.programs[old_mask];
  }
  return out;
}

}  // namespace gentt::engine
