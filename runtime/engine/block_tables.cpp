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

// Where each block element currently sits: register and lane (-1: nowhere).
struct Placement {
  std::vector<int> reg, lane;
  explicit Placement(int64_t elements) : reg(elements, -1), lane(elements, -1) {}
  void put(const std::vector<std::vector<int64_t>>& content) {
    for (size_t r = 0; r < content.size(); ++r)
      for (size_t l = 0; l < content[r].size(); ++l)
        if (content[r][l] >= 0) {
          reg[content[r][l]] = static_cast<int>(r);
          lane[content[r][l]] = static_cast<int>(l);
        }
  }
};

// The valid elements of register r, sorted by their offsets in `offset`; nullopt if they are not
// one contiguous run.
std::optional<std::vector<int64_t>> contiguous_run(const LayoutIds& ids, const std::vector<char>& valid,
                                                   const std::vector<int64_t>& offset, int64_t r) {
  std::vector<int64_t> run;
  for (size_t l = 0; l < ids.lane.size(); ++l) {
    const int64_t id = ids.element(r, static_cast<int64_t>(l));
    if (id >= 0 && valid[id]) run.push_back(id);
  }
  std::sort(run.begin(), run.end(), [&](int64_t x, int64_t y) { return offset[x] < offset[y]; });
  for (size_t i = 1; i < run.size(); ++i)
    if (offset[run[i]] != offset[run[i - 1]] + 1) return std::nullopt;
  return run;
}

std::optional<ProgramTables> make_program(const Plan& plan, const BlockSpace& space, const IdOffsets& offsets,
                                          const InitialLayout& init, const std::vector<int64_t>& valid_extent,
                                          std::string what) {
  const int lanes = plan.lanes;
  const int64_t elements = static_cast<int64_t>(offsets.in.size());
  std::vector<char> valid(elements);
  for (int64_t id = 0; id < elements; ++id) valid[id] = space.is_valid(id, valid_extent);
  Layout layout = init.layout;
  const int64_t regs = layout.registers();
  ProgramTables t;
  t.what = std::move(what);

  // Loads: each register's valid elements, a contiguous input run, land in lanes 0.. in input order.
  std::vector<std::vector<int64_t>> content(regs, std::vector<int64_t>(lanes, -1));
  {
    const LayoutIds ids(layout, lanes);
    for (int64_t r = 0; r < regs; ++r) {
      auto run = contiguous_run(ids, valid, offsets.in, r);
      if (!run) return std::nullopt;
      t.load_count.push_back(static_cast<int>(run->size()));
      t.load_offset.push_back(run->empty() ? 0 : offsets.in[run->front()]);
      std::copy(run->begin(), run->end(), content[r].begin());
    }
  }

  Placement where(elements);
  const int steps = static_cast<int>(init.needed.size());
  const int passes = std::max(steps, 1);
  std::vector<std::vector<int64_t>> moved(regs, std::vector<int64_t>(lanes, -1));
  for (int s = 0; s < passes; ++s) {
    const Layout next = steps > 0 ? butterfly_step(layout, init, s) : layout;
    const LayoutIds ids(next, lanes);
    const bool last = s == passes - 1;
    where.put(content);
    std::vector<std::vector<int>> index(regs, std::vector<int>(lanes, -1));
    bool identity = true;
    for (int64_t r = 0; r < regs; ++r) {
      std::fill(moved[r].begin(), moved[r].end(), -1);
      if (last) {
        auto run = contiguous_run(ids, valid, offsets.out, r);
        if (!run) return std::nullopt;
        std::copy(run->begin(), run->end(), moved[r].begin());
      } else {
        for (int64_t l = 0; l < lanes; ++l) {
          const int64_t id = ids.element(r, l);
          moved[r][l] = id >= 0 && valid[id] ? id : -1;
        }
      }
      const int64_t r0 = steps > 0 ? (r & ~(int64_t{1} << s)) : r;
      for (int l = 0; l < lanes; ++l) {
        const int64_t id = moved[r][l];
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
    layout = next;
  }

  // Stores: each register's valid elements, in output order from lane 0.
  for (int64_t r = 0; r < regs; ++r) {
    int count = 0;
    while (count < lanes && content[r][count] >= 0) ++count;
    t.store_count.push_back(count);
    t.store_offset.push_back(count ? offsets.out[content[r][0]] : 0);
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
  for (int mask = 0; mask < (1 << tables.loops.tail_block_index.size()); ++mask) {
    std::string what;
    const std::vector<int64_t> valid = valid_extents(plan, tables.loops, mask, &what);
    auto program = make_program(plan, space, offsets, init, valid, std::move(what));
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
