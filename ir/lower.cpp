#include "ir/lower.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/band.h"
#include "ir/bits.h"
#include "ir/block_space.h"
#include "ir/error.h"
#include "ir/line_pairs.h"
#include "ir/loops.h"
#include "ir/stream.h"
#include "ir/unroll.h"

namespace gentt {

namespace {

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
    const InitialLayout init = initial_layout(plan_, space_);
    Layout layout = init.layout;
    const std::vector<int>& needed = init.needed;  // output-row bits held in registers, in output-row order
    // Loads: each register's valid elements are one contiguous run of the input (loaded into lanes
    // 0..; the first shuffle step takes them from there), or two where the plan split its input
    // row (ir/plan.h's register_limit): each run loaded into lanes 0.. of a value of its own, and
    // one shuffle puts both in the register's lanes.
    std::vector<Value> regs(layout.registers());
    for (int64_t r = 0; r < layout.registers(); ++r) {
      const auto valid = valid_elements(layout, r, /*by_input=*/true);
      if (valid.empty()) continue;
      std::vector<std::vector<int64_t>> runs(1);
      for (int64_t id : valid) {
        if (!runs.back().empty() && space_.in_offset(id) != space_.in_offset(runs.back().back()) + 1) runs.emplace_back();
        runs.back().push_back(id);
      }
      GENTT_CHECK(runs.size() <= 2, "a register's valid elements are more than two runs of the input");
      std::vector<Value> loaded;
      for (const auto& run : runs) {
        loaded.push_back(define(run));
        prog_.ops.push_back(Op{OpKind::load, loaded.back().id, -1, -1, -1, space_.in_offset(run.front()),
                               static_cast<int>(run.size()), {}});
      }
      if (loaded.size() == 1) {
        regs[r] = std::move(loaded.front());
        continue;
      }
      std::vector<int64_t> target(lanes_, -1);
      for (int64_t l = 0; l < lanes_; ++l) {
        const int64_t id = layout.element(r, l);
        if (id >= 0 && is_valid(id)) target[l] = id;
      }
      regs[r] = gather(where_of(loaded), target);
    }

    // Butterfly steps: swap a needed register bit with a lane position whose bit is not an
    // output-row bit; the last step (or a lone reordering pass) also lays lanes out in output
    // memory order, compacting padding away.
    const int steps = static_cast<int>(needed.size());
    for (int s = 0; s < std::max(steps, 1); ++s) {
      const Layout next = steps > 0 ? butterfly_step(layout, init, s) : layout;
      const bool last = s == std::max(steps, 1) - 1;
      std::vector<Value> moved(next.registers());
      const Where where = where_of(regs);
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
        moved[r] = gather(where, target);
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
  bool is_valid(int64_t id) const { return space_.is_valid(id, valid_); }

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

  // Where each element is held before a step: where[id] = (SSA value, lane), value -1 where no
  // register holds it. One table per step, indexed by element id (a map built per output
  // register made large blocks quadratic: 14 s for one 2048-bit SVE byte kernel).
  using Where = std::vector<std::pair<int, int>>;
  Where where_of(const std::vector<Value>& regs) const {
    int64_t ids = 0;
    for (const auto& v : regs)
      if (v.id >= 0)
        for (int64_t id : v.lanes) ids = std::max(ids, id + 1);
    Where where(static_cast<size_t>(ids), {-1, -1});
    for (const auto& v : regs) {
      if (v.id < 0) continue;
      for (int l = 0; l < lanes_; ++l)
        if (v.lanes[l] >= 0) where[v.lanes[l]] = {v.id, l};
    }
    return where;
  }

  // A value holding `target` (element ids per lane, -1 = don't care), from at most two of the
  // values in `where`. No op when one source already holds every wanted lane in place (renaming).
  Value gather(const Where& where, const std::vector<int64_t>& target) {
    std::vector<int> sources;
    bool any = false;
    for (int64_t want : target) any |= want >= 0;
    if (!any) return Value{};
    for (int64_t want : target) {
      if (want < 0) continue;
      GENTT_CHECK(want < static_cast<int64_t>(where.size()) && where[want].first >= 0,
                  "a valid element was lost between steps");
      if (std::find(sources.begin(), sources.end(), where[want].first) == sources.end())
        sources.push_back(where[want].first);
    }
    GENTT_CHECK(sources.size() <= 2, "a butterfly output needs more than two sources");
    std::sort(sources.begin(), sources.end());
    std::vector<int> index(lanes_, -1);
    bool in_place = sources.size() == 1;
    for (int l = 0; l < lanes_; ++l) {
      if (target[l] < 0) continue;
      const auto [value, lane] = where[target[l]];
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

// A kernel of `plan` with no loops or programs yet.
Kernel empty_kernel(const Plan& plan, const std::string& kernel_name) {
  Kernel kernel;
  kernel.name = kernel_name;
  kernel.elem_bytes = plan.problem.elem_bytes;
  kernel.lanes = plan.lanes;
  kernel.in_elements = 1;
  for (int64_t n : plan.problem.shape) kernel.in_elements *= n;
  return kernel;
}

// One block program per combination of tails (tail bits are numbered by the walk's loops).
std::vector<BlockProgram> build_programs(const Plan& plan, const BlockLoops& walk) {
  const BlockSpace space(plan);
  std::vector<BlockProgram> programs;
  for (int mask = 0; mask < (1 << walk.tail_block_index.size()); ++mask) {
    std::string what;
    std::vector<int64_t> valid = valid_extents(plan, walk, mask, &what);
    programs.push_back(ProgramBuilder(plan, space, std::move(valid)).build(what));
  }
  return programs;
}

}  // namespace

Kernel lower(const Plan& plan, const std::string& kernel_name, const LowerOptions& options) {
  const Canonical& c = plan.problem;
  Kernel kernel = empty_kernel(plan, kernel_name);

  // Output order, outermost first: consecutive blocks write neighbouring output.
  BlockLoops walk = make_block_loops(plan, LoopOrder::output);

  kernel.programs = build_programs(plan, walk);

  // Large outputs: the reading and the writing loop walked in cache tiles (tiling keeps the
  // loops' tail bits, so the programs above stay valid). Streaming stores need no write
  // locality: an untiled streaming variant reads in input order instead (streaming_order), and
  // so does one with small blocks and short runs (ir/tiling.h's stream_keeps_tiles).
  int64_t block_in = 0;
  for (const Op& op : kernel.programs.front().ops)
    if (op.kind == OpKind::load) block_in += op.count * c.elem_bytes;
  const int64_t out_bytes = kernel.in_elements * c.elem_bytes;
  // The streaming variant of an output past the caches walks bands of tiles and prefetches each
  // tile's lines one tile ahead (ir/band.h), where such tiles exist: for vectors of a line or half
  // of one (AVX2's and ymm blocks: the band's innermost loop continues each output row, so a line's
  // two halves come from consecutive blocks; ir/pipeline.cpp checks halves_apart) and blocks that
  // transpose (rows copied whole, a kept innermost axis, keep their own walks).
  if (options.streaming && options.bands && out_bytes >= kTileMinBytes && kernel.lanes * c.elem_bytes * 2 >= kLineBytes &&
      plan.shuffle_steps > 0) {
    std::vector<std::pair<int64_t, int64_t>> loads;
    for (const Op& op : kernel.programs.front().ops)
      if (op.kind == OpKind::load) loads.push_back({op.offset, op.count});
    BandChoice band = band_loops(walk, c.elem_bytes, loads);
    if (band.banded) {
      kernel.tiled = true;
      kernel.banded = true;
      kernel.tiling = band.reason;
      kernel.loops = band.regions.front().loops;
      if (band.regions.size() > 1) kernel.regions = std::move(band.regions);
      kernel.prefetch_ahead = band.prefetch_ahead;
      for (auto& prog : kernel.programs)
        for (auto& op : prog.ops)
          op.stream = op.kind == OpKind::store && op.count == kernel.lanes && op.offset % kernel.lanes == 0;
      add_unrolled_programs(kernel);
      return kernel;
    }
  }
  // AVX-512 blocks of whole-line registers that read at most 1 KiB: tiles from 8 MiB only.
  BlockLoops tiled_walk = walk;
  TileChoice tiling = tile_block_loops(tiled_walk, out_bytes,
                                       options.tile_min_bytes > 0 ? options.tile_min_bytes : INT64_MAX,
                                       options.avx512_target && kernel.lanes * c.elem_bytes == kLineBytes, block_in,
                                       options.tile_cache_bytes);
  // A streaming variant leaves the tiles that the cached walk takes (stream_keeps_tiles), and pairs
  // the output lines of its untiled walk where that walk writes them far apart (ir/line_pairs.h).
  const bool line_rows =
      (options.avx512_target && kernel.lanes * c.elem_bytes == kLineBytes) || options.whole_line_rows;
  // The streaming variant's untiled walk (streaming_order), taken below where it is not tiled.
  const LoopOrder stream_order = options.streaming ? streaming_order(plan) : LoopOrder::output;
  const BlockLoops stream_walk = options.streaming ? make_block_loops(plan, stream_order) : BlockLoops{};
  const LinePairing pairing =
      options.streaming ? pair_output_lines(stream_walk, c.elem_bytes, line_rows, block_in) : LinePairing{};
  kernel.left_tiles =
      options.streaming && tiling.tiled &&
      !stream_keeps_tiles(block_in, innermost_run_bytes(stream_walk.loops, c.elem_bytes), pairing.paired);
  if (kernel.left_tiles) {
    tiling = TileChoice{};
    tiling.reason = std::string("loops: no tiling (streaming variant: ") +
                    (pairing.paired ? kStreamPairedReason : kStreamUntiledReason) + ")";
  } else {
    walk = std::move(tiled_walk);
  }
  kernel.tiled = tiling.tiled;
  kernel.tiling = tiling.reason;
  if (tiling.regions.size() > 1) kernel.regions = tiling.regions;
  // Untiled walks: the streaming variant's own order (streaming_order); the cached walk of an
  // output past the last-level cache from the block outwards; otherwise output order.
  LoopOrder order = LoopOrder::output;
  if (options.streaming && !tiling.tiled) {
    order = stream_order;
  } else if (tiling.untiled_large && out_bytes >= options.balanced_min_bytes) {
    order = LoopOrder::balanced;
    kernel.tiling += kBalancedReason;
  }
  if (order != LoopOrder::output) {
    walk = options.streaming && !tiling.tiled ? stream_walk : make_block_loops(plan, order);
    kernel.programs = build_programs(plan, walk);
    kernel.order = order_text(order);
    kernel.read_rows_limited = walk.read_rows_limited;
    if (walk.read_rows_limited) kernel.order += std::string(", ") + kReadRowsLimitText;
  }
  kernel.loops = walk.loops;
  if (pairing.paired && !tiling.tiled) {  // walk is stream_walk
    kernel.loops = pairing.regions.front().loops;
    if (pairing.regions.size() > 1) kernel.regions = pairing.regions;
    kernel.paired_lines = pairing.reason;
  }
  if (options.streaming)
    for (auto& prog : kernel.programs)
      for (auto& op : prog.ops)
        op.stream = op.kind == OpKind::store && op.count == kernel.lanes && op.offset % kernel.lanes == 0;
  add_unrolled_programs(kernel);
  GENTT_CHECK(kernel.paired_lines.empty() || kernel.unroll == 1, "a paired walk's regions differ in their innermost loop");
  return kernel;
}

Kernel lower_walk(const Plan& plan, const BlockLoops& walk, const std::string& kernel_name) {
  Kernel kernel = empty_kernel(plan, kernel_name);
  kernel.programs = build_programs(plan, walk);
  kernel.loops = walk.loops;
  add_unrolled_programs(kernel);
  return kernel;
}

}  // namespace gentt
