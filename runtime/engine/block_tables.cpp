#include "runtime/engine/block_tables.h"

#include <algorithm>
#include <bit>

#include "ir/block_space.h"
#include "ir/error.h"

namespace gentt::engine {

namespace {

// A block element id (below 2^block_bits: 4096 for 64 lanes of 64 registers).
using ElemId = int32_t;

// The per-element work arrays of one make_block_tables call, kept per thread between calls and
// reused (assign() keeps their capacity). Allocated afresh per plan, their 200-300 KiB went back
// to the system at each plan's end and came back as page faults at the next: 13 a plan, several
// hundred microseconds of a 1-byte plan in a virtual machine.
struct Scratch {
  std::vector<int64_t> in_offset, out_offset;  // per element id, in both tensors (fill_offsets)
  std::vector<char> valid;                     // per element id, in the program being built
  std::vector<int32_t> pos, next;              // Placement
  std::vector<ElemId> content, moved;          // per register and lane: the element there (-1: none)
  std::vector<ElemId> full_loaded, full_stored;  // FullLanes
};

Scratch& thread_scratch() {
  thread_local Scratch scratch;
  return scratch;
}

// Offsets of every block element id in both tensors. An offset is linear in the id's bits (bit b
// of axis j's coordinate adds stride_j << b), so each id's is that of the id without its lowest
// bit plus that bit's weight: O(1) per id.
void fill_offsets(const BlockSpace& space, int bits, std::vector<int64_t>& in, std::vector<int64_t>& out) {
  in.assign(size_t{1} << bits, 0);
  out.assign(size_t{1} << bits, 0);
  std::vector<int64_t> in_weight(static_cast<size_t>(bits), 0), out_weight(static_cast<size_t>(bits), 0);
  for (const auto& ax : space.axes)
    for (int b = 0; b < ax.bits; ++b) {
      in_weight[static_cast<size_t>(ax.shift + b)] = ax.in_stride * (int64_t{1} << b);
      out_weight[static_cast<size_t>(ax.shift + b)] = ax.out_stride * (int64_t{1} << b);
    }
  for (size_t id = 1; id < in.size(); ++id) {
    const auto low = static_cast<size_t>(std::countr_zero(id));
    in[id] = in[id & (id - 1)] + in_weight[low];
    out[id] = out[id & (id - 1)] + out_weight[low];
  }
}

// valid[id] = space.is_valid(id, extent) for every block element id: all true, then the ids whose
// coordinate on a tail axis is at or past its valid extent cleared as whole runs.
void mark_valid(const BlockSpace& space, const std::vector<int64_t>& extent, std::vector<char>& valid) {
  std::fill(valid.begin(), valid.end(), char{1});
  const int64_t elements = static_cast<int64_t>(valid.size());
  for (size_t j = 0; j < space.axes.size(); ++j) {
    const auto& ax = space.axes[j];
    if (extent[j] >= ax.chunk) continue;
    const int64_t run = int64_t{1} << ax.shift, period = run << ax.bits;
    for (int64_t base = 0; base < elements; base += period)
      std::fill(valid.begin() + base + extent[j] * run, valid.begin() + base + period, char{0});
  }
}

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
  // swap_lane[s]: the lane bit that butterfly step s exchanges with register bit s (every other
  // lane and register bit keeps its block bit), or -1 when the step is not such an exchange.
  std::vector<int> swap_lane;
  PassLayouts(const InitialLayout& init, int lanes) : steps(static_cast<int>(init.needed.size())) {
    Layout layout = init.layout;
    ids.emplace_back(layout, lanes);
    for (int s = 0; s < std::max(steps, 1); ++s) {
      const Layout before = layout;
      if (steps > 0) layout = butterfly_step(layout, init, s);
      ids.emplace_back(layout, lanes);
      swap_lane.push_back(steps > 0 ? exchanged_lane(before, layout, s) : -1);
    }
  }
  static int exchanged_lane(const Layout& a, const Layout& b, int s) {
    if (a.reg_pos.size() != b.reg_pos.size() || a.lane_pos.size() != b.lane_pos.size()) return -1;
    for (size_t u = 0; u < a.reg_pos.size(); ++u)
      if ((a.reg_pos[u] != b.reg_pos[u]) != (static_cast<int>(u) == s)) return -1;
    int t = -1;
    for (size_t v = 0; v < a.lane_pos.size(); ++v)
      if (a.lane_pos[v] != b.lane_pos[v]) {
        if (t >= 0) return -1;
        t = static_cast<int>(v);
      }
    if (t < 0 || a.lane_pos[t] != b.reg_pos[s] || b.lane_pos[t] != a.reg_pos[s] || a.lane_pos[t] == kEmptyLaneBit) return -1;
    return t;
  }
};

// Butterfly step s's index lists when the registers hold exactly the layout before it (every
// block element valid, as loaded): register bit s and lane bit t = swap_lane[s] trade block
// bits, so lane l of new register r comes from lane (l with bit t set to r's bit s) of the
// register pair's r0 (l's bit t clear) or r1 (set), whatever the other bits of r. Computed
// from the bits, without tracking elements (most of a 1-byte plan's planning otherwise).
void exchange_pass(const LayoutIds& after, int s, int t, int64_t regs, int lanes, LaneIndex* pass) {
  for (int64_t r = 0; r < regs; ++r) {
    const int rs = static_cast<int>((r >> s) & 1);
    LaneIndex* list = pass + r * lanes;
    for (int l = 0; l < lanes; ++l) {
      if (after.lane[l] < 0) continue;  // an empty lane: don't care
      const int lt = (l >> t) & 1;
      list[l] = static_cast<LaneIndex>(((l & ~(1 << t)) | (rs << t)) + (lt ? lanes : 0));
    }
  }
}

// Where each block element currently sits, as register << lane_shift | lane (entries of elements
// not in the current content are stale and never read), and where it sits after the pass being
// built (`next`). One packed entry and no separate placement sweep per pass: the tracking is
// most of a 1-byte plan's planning time (64 registers x 64 lanes x 6 passes).
struct Placement {
  std::vector<int32_t>& pos;
  std::vector<int32_t>& next;
  int lane_shift = 0;
  Placement(Scratch& scratch, int64_t elements, int lanes) : pos(scratch.pos), next(scratch.next) {
    pos.assign(static_cast<size_t>(elements), -1);
    next.assign(static_cast<size_t>(elements), -1);
    while ((1 << lane_shift) < lanes) ++lane_shift;
  }
};

// The valid elements of register r in the order of their offsets in `offset`, written to
// run[0..count); returns count, or -1 if they are not one contiguous run. Offsets of distinct
// valid elements are distinct unless a view repeats elements (stride 0), which is no run either,
// so a run is exactly count elements spanning count offsets: placed by offset, no sort.
int contiguous_run(const LayoutIds& ids, const std::vector<char>& valid, const std::vector<int64_t>& offset, int64_t r,
                   ElemId* run) {
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
  std::fill(run, run + count, ElemId{-1});
  for (int l = 0; l < lanes; ++l) {
    const int64_t id = ids.element(r, l);
    if (id < 0 || !valid[id]) continue;
    ElemId& slot = run[offset[id] - lo];
    if (slot >= 0) return -1;  // a repeated offset
    slot = static_cast<ElemId>(id);
  }
  return count;
}

// The element ids in each lane of the full block's program (program 0) after its loads and after
// its last pass (-1: padding), for deriving tail programs from it (tail_from_full).
struct FullLanes {
  std::vector<ElemId>& loaded;
  std::vector<ElemId>& stored;
};

std::optional<ProgramTables> make_program(const Plan& plan, const Scratch& offsets, const PassLayouts& layouts,
                                          const std::vector<char>& valid, Placement& where, std::vector<ElemId>& content,
                                          std::vector<ElemId>& moved, std::string what, FullLanes* keep) {
  const int lanes = plan.lanes;
  const int64_t regs = static_cast<int64_t>(layouts.ids.front().reg.size());
  ProgramTables t;
  t.what = std::move(what);
  t.load_offset.reserve(regs);
  t.load_count.reserve(regs);

  // Loads: each register's valid elements, a contiguous input run, land in lanes 0.. in input order.
  // content[r * lanes + l]: the element in register r, lane l (-1: padding).
  content.assign(static_cast<size_t>(regs * lanes), -1);
  moved.assign(static_cast<size_t>(regs * lanes), -1);
  for (int64_t r = 0; r < regs; ++r) {
    const int count = contiguous_run(layouts.ids[0], valid, offsets.in_offset, r, content.data() + r * lanes);
    if (count < 0) return std::nullopt;
    t.load_count.push_back(count);
    t.load_offset.push_back(count ? offsets.in_offset[content[r * lanes]] : 0);
  }
  if (keep) keep->loaded = content;
  // Every element valid and loaded where the first layout puts it: the butterfly steps before
  // the last are pure bit exchanges (exchange_pass), and the registers hold each layout exactly.
  bool exact = std::all_of(valid.begin(), valid.end(), [](char v) { return v != 0; });
  for (int64_t r = 0; r < regs && exact; ++r)
    for (int l = 0; l < lanes && exact; ++l) exact = content[r * lanes + l] == layouts.ids[0].element(r, l);
  const auto place = [&](const std::vector<ElemId>& c) {
    for (int64_t i = 0; i < regs * lanes; ++i)
      if (c[i] >= 0) where.pos[c[i]] = static_cast<int32_t>(((i / lanes) << where.lane_shift) | (i % lanes));
  };
  if (!exact) place(content);

  const int steps = layouts.steps;
  const int passes = std::max(steps, 1);
  const int32_t lane_mask = (1 << where.lane_shift) - 1;
  auto index = std::make_shared<std::vector<LaneIndex>>();
  index->reserve(static_cast<size_t>(passes * regs * lanes));
  for (int s = 0; s < passes; ++s) {
    const LayoutIds& ids = layouts.ids[s + 1];
    const bool last = s == passes - 1;
    const size_t at = index->size();
    index->resize(at + static_cast<size_t>(regs * lanes), -1);
    LaneIndex* pass = index->data() + at;
    if (exact && steps > 0 && layouts.swap_lane[s] >= 0 && !last) {
      exchange_pass(ids, s, layouts.swap_lane[s], regs, lanes, pass);
      ++t.pass_count;
      continue;  // content stays unset: the registers hold layout ids[s + 1]
    }
    if (exact) {  // the registers hold layout ids[s] exactly: place its elements, then track
      for (int64_t r = 0; r < regs; ++r)
        for (int l = 0; l < lanes; ++l) content[r * lanes + l] = static_cast<ElemId>(layouts.ids[s].element(r, l));
      place(content);
      exact = false;
    }
    bool identity = true;
    for (int64_t r = 0; r < regs; ++r) {
      ElemId* row = moved.data() + r * lanes;
      if (last) {
        std::fill(row, row + lanes, ElemId{-1});
        if (contiguous_run(ids, valid, offsets.out_offset, r, row) < 0) return std::nullopt;
      } else {
        for (int64_t l = 0; l < lanes; ++l) {
          const int64_t id = ids.element(r, l);
          row[l] = id >= 0 && valid[id] ? static_cast<ElemId>(id) : -1;
        }
      }
      const int64_t r0 = steps > 0 ? (r & ~(int64_t{1} << s)) : r;
      const int32_t here = static_cast<int32_t>(r << where.lane_shift);
      LaneIndex* list = pass + r * lanes;
      for (int l = 0; l < lanes; ++l) {
        const int64_t id = row[l];
        if (id < 0) continue;
        const int32_t from = where.pos[id];
        const int64_t src = from >> where.lane_shift;
        GENTT_CHECK(src == r0 || (steps > 0 && src == (r0 | (int64_t{1} << s))),
                    "a butterfly lane comes from outside its register pair");
        list[l] = static_cast<LaneIndex>((from & lane_mask) + (src == r0 ? 0 : lanes));
        identity &= list[l] == l;
        where.next[id] = here | l;
      }
    }
    std::swap(content, moved);
    std::swap(where.pos, where.next);
    if (steps == 0 && identity) {  // lanes already in output order: no pass at all
      index->resize(at);
      break;
    }
    ++t.pass_count;
  }
  t.index = std::move(index);
  if (keep) keep->stored = content;

  // Stores: each register's valid elements, in output order from lane 0.
  t.store_offset.reserve(regs);
  t.store_count.reserve(regs);
  for (int64_t r = 0; r < regs; ++r) {
    const ElemId* row = content.data() + r * lanes;
    int count = 0;
    while (count < lanes && row[count] >= 0) ++count;
    t.store_count.push_back(count);
    t.store_offset.push_back(count ? offsets.out_offset[row[0]] : 0);
  }
  return t;
}

// How many leading lanes of each register of `lanes_of` (the full block's lanes at one point)
// hold valid elements, into count[]; false unless every register's valid elements are exactly
// such a prefix.
bool valid_prefixes(const std::vector<ElemId>& lanes_of, const std::vector<char>& valid, int lanes,
                    std::vector<int>& count) {
  const size_t regs = lanes_of.size() / static_cast<size_t>(lanes);
  count.assign(regs, 0);
  for (size_t r = 0; r < regs; ++r) {
    const ElemId* row = lanes_of.data() + r * lanes;
    int c = 0;
    while (c < lanes && row[c] >= 0 && valid[row[c]]) ++c;
    for (int l = c; l < lanes; ++l)
      if (row[l] >= 0 && valid[row[l]]) return false;
    count[r] = c;
  }
  return true;
}

// A tail program as the full block's program with fewer lanes loaded and stored, when its valid
// elements are a prefix of each register's lanes both as loaded and as stored: the same shuffles
// then carry each valid element to the lane it has in the full block. What make_program would
// build for it differs only in don't-care entries (and, for a reorder pass that the tail alone
// would not need, in keeping that pass). Saves the per-program butterfly tracking that
// dominated planning of 1- and 2-byte problems (64 registers of 64 lanes, 6 passes).
std::optional<ProgramTables> tail_from_full(const ProgramTables& full, const FullLanes& lanes_of,
                                            const std::vector<char>& valid, int lanes, std::string what) {
  std::vector<int> load_count, store_count;
  if (!valid_prefixes(lanes_of.loaded, valid, lanes, load_count) ||
      !valid_prefixes(lanes_of.stored, valid, lanes, store_count))
    return std::nullopt;
  ProgramTables t;
  t.what = std::move(what);
  t.pass_count = full.pass_count;
  t.index = full.index;
  t.same_lanes_as_full = true;
  const size_t regs = full.load_offset.size();
  t.load_offset.resize(regs, 0);
  t.store_offset.resize(regs, 0);
  for (size_t r = 0; r < regs; ++r) {
    if (load_count[r]) t.load_offset[r] = full.load_offset[r];
    if (store_count[r]) t.store_offset[r] = full.store_offset[r];
  }
  t.load_count = std::move(load_count);
  t.store_count = std::move(store_count);
  return t;
}

// The valid leading lanes [from, from + lanes) of register r in layout `ids`, when they are a
// prefix whose elements lie at consecutive offsets (the first one's into *at); -1 otherwise.
int prefix_run(const LayoutIds& ids, const std::vector<char>& valid, const std::vector<int64_t>& offset, int64_t r,
               int from, int lanes, int64_t* at) {
  int count = 0;
  for (int l = from; l < from + lanes; ++l) {
    const int64_t id = ids.element(r, l);
    const bool v = id >= 0 && valid[id];
    if (!v) continue;
    if (l != from + count) return -1;  // a valid lane after an invalid one
    if (count == 0) *at = offset[id];
    else if (offset[id] != *at + count) return -1;
    ++count;
  }
  return count;
}

// A program of a split plan (Plan::split_row; BlockTables::split_rows): each register's two
// halves load prefixes of two contiguous runs, the butterfly steps exchange register bit s with
// lane bit s (exchange_pass), and each register stores a prefix of contiguous output, or, where
// some register's stored lanes are not one run (the output row's top lane bit an axis padded
// below it: uint8 17^6 (4,1,2,5,3,0), 17 of each half's 32 lanes), every register stores a prefix
// of each half (ProgramTables::split_stores). Tails are the same passes on fewer lanes. nullopt
// where the layouts do not take that form.
std::optional<ProgramTables> make_split_program(const Scratch& offsets, const PassLayouts& layouts,
                                                const std::vector<char>& valid, int lanes, std::string what) {
  const LayoutIds& first = layouts.ids.front();
  const LayoutIds& last = layouts.ids.back();
  const int64_t regs = static_cast<int64_t>(first.reg.size());
  const int half = lanes / 2;
  for (int s = 0; s < layouts.steps; ++s)
    if (layouts.swap_lane[static_cast<size_t>(s)] != s) return std::nullopt;
  ProgramTables t;
  t.what = std::move(what);
  t.same_lanes_as_full = true;
  for (int64_t r = 0; r < regs && !t.split_stores; ++r) {
    int64_t out = 0;
    t.split_stores = prefix_run(last, valid, offsets.out_offset, r, 0, lanes, &out) < 0;
  }
  for (int64_t r = 0; r < regs; ++r) {
    int64_t lo = 0, hi = 0, out = 0, out2 = 0;
    const int n_lo = prefix_run(first, valid, offsets.in_offset, r, 0, half, &lo);
    const int n_hi = prefix_run(first, valid, offsets.in_offset, r, half, half, &hi);
    const int n_out = prefix_run(last, valid, offsets.out_offset, r, 0, t.split_stores ? half : lanes, &out);
    const int n_out2 = t.split_stores ? prefix_run(last, valid, offsets.out_offset, r, half, half, &out2) : 0;
    if (n_lo < 0 || n_hi < 0 || n_out < 0 || n_out2 < 0) return std::nullopt;
    if (t.split_stores) {
      t.store_offset2.push_back(n_out2 ? out2 : 0);
      t.store_count2.push_back(n_out2);
    }
    t.load_offset.push_back(n_lo ? lo : 0);
    t.load_count.push_back(n_lo);
    t.load_offset2.push_back(n_hi ? hi : 0);
    t.load_count2.push_back(n_hi);
    t.store_offset.push_back(n_out ? out : 0);
    t.store_count.push_back(n_out);
  }
  auto index = std::make_shared<std::vector<LaneIndex>>(static_cast<size_t>(layouts.steps * regs * lanes), LaneIndex{-1});
  for (int s = 0; s < layouts.steps; ++s)
    exchange_pass(layouts.ids[static_cast<size_t>(s) + 1], s, s, regs, lanes, index->data() + s * regs * lanes);
  t.pass_count = layouts.steps;
  t.index = std::move(index);
  return t;
}

}  // namespace

std::optional<BlockTables> make_block_tables(const Plan& plan, LoopOrder order) {
  return make_block_tables(plan, make_block_loops(plan, order));
}

std::optional<BlockTables> make_block_tables(const Plan& plan, const BlockLoops& loops) {
  BlockTables tables;
  tables.lanes = plan.lanes;
  tables.loops = loops;
  const BlockSpace space(plan);
  Scratch& scratch = thread_scratch();
  fill_offsets(space, plan.block_bits(), scratch.in_offset, scratch.out_offset);
  const InitialLayout init = initial_layout(plan, space);
  tables.reg_bits = static_cast<int>(init.layout.reg_pos.size());
  tables.butterfly = !init.needed.empty();
  const PassLayouts layouts(init, plan.lanes);
  const int64_t elements = static_cast<int64_t>(scratch.in_offset.size());
  Placement where(scratch, elements, plan.lanes);
  std::vector<char>& valid = scratch.valid;
  valid.assign(static_cast<size_t>(elements), 0);
  FullLanes full_lanes{scratch.full_loaded, scratch.full_stored};
  tables.split_rows = plan.split_row;
  for (int mask = 0; mask < (1 << tables.loops.tail_block_index.size()); ++mask) {
    std::string what;
    const std::vector<int64_t> extent = valid_extents(plan, tables.loops, mask, &what);
    mark_valid(space, extent, valid);
    if (plan.split_row) {
      std::optional<ProgramTables> program = make_split_program(scratch, layouts, valid, plan.lanes, std::move(what));
      if (!program) return std::nullopt;
      tables.programs.push_back(std::move(*program));
      continue;
    }
    std::optional<ProgramTables> program;
    if (mask > 0) program = tail_from_full(tables.programs.front(), full_lanes, valid, plan.lanes, what);
    if (!program)
      program = make_program(plan, scratch, layouts, valid, where, scratch.content, scratch.moved, std::move(what),
                             mask == 0 ? &full_lanes : nullptr);
    if (!program) return std::nullopt;
    if (mask == 0) program->same_lanes_as_full = true;
    tables.programs.push_back(std::move(*program));
  }
  return tables;
}

BlockTables with_loop_order(const BlockTables& tables, const Plan& plan, LoopOrder order) {
  return with_loops(tables, make_block_loops(plan, order));
}

BlockTables with_loops(const BlockTables& tables, const BlockLoops& loops) {
  BlockTables out = tables;
  out.loops = loops;
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
