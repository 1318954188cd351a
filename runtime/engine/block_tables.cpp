#include "runtime/engine/block_tables.h"

#include <algorithm>

#include "ir/block_space.h"
#include "ir/error.h"

namespace gentt::engine {

namespace {

// Where each block element currently sits: register and lane (-1: nowhere).
struct Placement {
  std::vector<int> reg, lane;
  explicit Placement(int64_t elements) : reg(elements, -1), lane(elements, -1) {}
  void put(const std::vector<std::vector<int64_t>>& content) {
    std::fill(reg.begin(), reg.end(), -1);
    for (size_t r = 0; r < content.size(); ++r)
      for (size_t l = 0; l < content[r].size(); ++l)
        if (content[r][l] >= 0) {
          reg[content[r][l]] = static_cast<int>(r);
          lane[content[r][l]] = static_cast<int>(l);
        }
  }
};

// The valid elements of register r of `layout`, sorted by input (or output) offset; nullopt if
// they are not one contiguous run.
std::optional<std::vector<int64_t>> contiguous_run(const BlockSpace& space, const std::vector<int64_t>& valid,
                                                   const Layout& layout, int64_t r, int lanes, bool by_input) {
  std::vector<int64_t> ids;
  for (int64_t l = 0; l < lanes; ++l) {
    const int64_t id = layout.element(r, l);
    if (id >= 0 && space.is_valid(id, valid)) ids.push_back(id);
  }
  auto offset = [&](int64_t id) { return by_input ? space.in_offset(id) : space.out_offset(id); };
  std::sort(ids.begin(), ids.end(), [&](int64_t x, int64_t y) { return offset(x) < offset(y); });
  for (size_t i = 1; i < ids.size(); ++i)
    if (offset(ids[i]) != offset(ids[i - 1]) + 1) return std::nullopt;
  return ids;
}

std::optional<ProgramTables> make_program(const Plan& plan, const BlockSpace& space, const InitialLayout& init,
                                          const std::vector<int64_t>& valid, std::string what) {
  const int lanes = plan.lanes;
  const int64_t elements = int64_t{1} << plan.block_bits();
  Layout layout = init.layout;
  const int64_t regs = layout.registers();
  ProgramTables t;
  t.what = std::move(what);

  // Loads: each register's valid elements, a contiguous input run, land in lanes 0.. in input order.
  std::vector<std::vector<int64_t>> content(regs, std::vector<int64_t>(lanes, -1));
  for (int64_t r = 0; r < regs; ++r) {
    auto run = contiguous_run(space, valid, layout, r, lanes, /*by_input=*/true);
    if (!run) return std::nullopt;
    t.load_count.push_back(static_cast<int>(run->size()));
    t.load_offset.push_back(run->empty() ? 0 : space.in_offset(run->front()));
    std::copy(run->begin(), run->end(), content[r].begin());
  }

  Placement where(elements);
  const int steps = static_cast<int>(init.needed.size());
  const int passes = std::max(steps, 1);
  for (int s = 0; s < passes; ++s) {
    const Layout next = steps > 0 ? butterfly_step(layout, init, s) : layout;
    const bool last = s == passes - 1;
    where.put(content);
    std::vector<std::vector<int64_t>> moved(regs, std::vector<int64_t>(lanes, -1));
    std::vector<std::vector<int>> index(regs, std::vector<int>(lanes, -1));
    bool identity = true;
    for (int64_t r = 0; r < regs; ++r) {
      if (last) {
        auto run = contiguous_run(space, valid, next, r, lanes, /*by_input=*/false);
        if (!run) return std::nullopt;
        std::copy(run->begin(), run->end(), moved[r].begin());
      } else {
        for (int64_t l = 0; l < lanes; ++l) {
          const int64_t id = next.element(r, l);
          moved[r][l] = id >= 0 && space.is_valid(id, valid) ? id : -1;
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
    content = std::move(moved);
    if (steps == 0 && identity) break;  // lanes already in output order: no pass at all
    t.passes.push_back(std::move(index));
    layout = next;
  }

  // Stores: each register's valid elements, in output order from lane 0.
  for (int64_t r = 0; r < regs; ++r) {
    int count = 0;
    while (count < lanes && content[r][count] >= 0) ++count;
    t.store_count.push_back(count);
    t.store_offset.push_back(count ? space.out_offset(content[r][0]) : 0);
  }
  return t;
}

}  // namespace

std::optional<BlockTables> make_block_tables(const Plan& plan, LoopOrder order) {
  BlockTables tables;
  tables.lanes = plan.lanes;
  tables.loops = make_block_loops(plan, order);
  const BlockSpace space(plan);
  const InitialLayout init = initial_layout(plan, space);
  tables.reg_bits = static_cast<int>(init.layout.reg_pos.size());
  tables.butterfly = !init.needed.empty();
  for (int mask = 0; mask < (1 << tables.loops.tail_block_index.size()); ++mask) {
    std::string what;
    const std::vector<int64_t> valid = valid_extents(plan, tables.loops, mask, &what);
    auto program = make_program(plan, space, init, valid, std::move(what));
    if (!program) return std::nullopt;
    tables.programs.push_back(std::move(*program));
  }
  return tables;
}

}  // namespace gentt::engine
