#include "ir/explain.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/bits.h"

namespace gentt {

namespace {

std::string bits_text(const std::vector<BlockBit>& row) {
  std::vector<std::string> parts;
  for (const auto& b : row) parts.push_back(fmt::format("a{}.{}", b.axis, b.bit));
  return parts.empty() ? "-" : fmt::format("{}", fmt::join(parts, " "));
}

struct OpCounts {
  int loads = 0, shuffles = 0, stores = 0;
};
OpCounts count_ops(const BlockProgram& p) {
  OpCounts c;
  for (const auto& op : p.ops) {
    c.loads += op.kind == OpKind::load;
    c.shuffles += op.kind == OpKind::shuffle;
    c.stores += op.kind == OpKind::store;
  }
  return c;
}

// The GenTT block of `plan`: its axes, rows, steps.
std::string gentt_block_summary(const Plan& plan) {
  std::string s;
  std::vector<std::string> axes;
  for (const auto& b : plan.block_axes)
    axes.push_back(fmt::format("a{}:{}{}", b.axis, b.chunk,
                               b.chunk > b.extent ? fmt::format("(pad {})", b.extent) : std::string()));
  s += fmt::format("block: {} lanes, {} bits [{}], {} register(s)\n", plan.lanes, plan.block_bits(),
                   fmt::join(axes, " "), int64_t{1} << std::max(0, plan.block_bits() - ceil_log2(plan.lanes)));
  s += fmt::format("input row (lane bit 0 first): {}\n", bits_text(plan.in_row));
  s += fmt::format("output row (lane bit 0 first): {}\n", bits_text(plan.out_row));
  s += fmt::format("shuffle steps: {}; padding efficiency: {:.1f}%\n", plan.shuffle_steps,
                   100.0 * plan.padding_efficiency);
  return s;
}

// The kernel's loops, programs, tiles and prefetch.
std::string kernel_summary(const Kernel& kernel) {
  std::string s;
  s += fmt::format("loops: {} ({} iterations); programs: {}; unroll: {}{}{}\n", kernel.loops.size(), kernel.iterations(),
                   kernel.programs.size(), kernel.unroll,
                   kernel.stage_level < 0 ? std::string()
                   : kernel.stage_rows    ? fmt::format("; streamed rows of {} bytes", kernel.stage_tile_elements * kernel.elem_bytes)
                                          : fmt::format("; staged output: tiles of {} bytes",
                                                        kernel.stage_tile_elements * kernel.elem_bytes),
                   kernel.assembly_level < 0
                       ? std::string()
                       : fmt::format("; output lines assembled: {} streams, pieces of {} bytes",
                                     kernel.assembly_stream_out.size(), kernel.assembly_piece * kernel.elem_bytes));
  for (size_t i = 0; i < kernel.programs.size(); ++i) {
    const auto n = count_ops(kernel.programs[i]);
    s += fmt::format("  program {} ({}): {} loads, {} shuffles, {} stores\n", i, kernel.programs[i].what, n.loads,
                     n.shuffles, n.stores);
  }
  if (kernel.tiled) s += kernel.tiling + "\n";
  if (kernel.prefetch_window)
    s += fmt::format("prefetch: each kept row first prefetches {} input bytes from {} bytes past it (ir/prefetch.h)\n",
                     kernel.prefetch_window, kernel.prefetch_ahead * kernel.elem_bytes);
  else if (kernel.prefetch_ahead)
    s += fmt::format("prefetch: each full block first prefetches the lines of the block {} bytes ahead (ir/prefetch.h)\n",
                     kernel.prefetch_ahead * kernel.elem_bytes);
  return s;
}

}  // namespace

std::string plan_summary(const Plan& plan, const Kernel& kernel) {
  const Canonical& c = plan.problem;
  std::string s = fmt::format("canonical: shape ({}) perm ({}), {}-byte elements\n", fmt::join(c.shape, ", "),
                              fmt::join(c.perm, ", "), c.elem_bytes);
  if (!kernel.interleave.empty()) {
    s += "block: " + kernel.interleave + " (not the GenTT block)\n";
  } else {
    s += gentt_block_summary(plan);
  }
  return s + kernel_summary(kernel);
}

std::string explain(const Problem& problem, const Plan& plan, const Kernel& kernel) {
  std::string s = fmt::format("problem: {} dtype {} ({} bytes) shape ({}) perm ({}) isa {} ({} bits)\n", problem.name,
                              problem.dtype.name, problem.dtype.bytes, fmt::join(problem.shape, ", "),
                              fmt::join(problem.perm, ", "), isa_name(problem.target.isa), problem.target.vector_bits);
  const Canonical& c = plan.problem;
  std::vector<std::string> groups;
  for (const auto& g : c.groups) groups.push_back(fmt::format("({})", fmt::join(g, " ")));
  s += fmt::format("canonicalization: extent-1 axes dropped, adjacent axes fused; canonical axes are input axes {}\n",
                   fmt::join(groups, " "));
  if (c.is_identity()) s += "the permutation is the identity after canonicalization: a plain copy\n";
  s += plan_summary(plan, kernel);
  s += "why:\n";
  for (const auto& r : plan.reasons) s += "  - " + r + "\n";
  if (kernel.tiled)
    s += "  - loops walk cache tiles (the loops: line above)\n";
  else if (kernel.order == "in output order")
    s += "  - loops run in output order (outermost output axis first) so consecutive blocks write neighbouring output\n";
  else
    s += "  - loops run " + kernel.order + "\n";
  if (kernel.programs.size() > 1)
    s += "  - axes walked in chunks with a partial last chunk get their own block programs (masked loads/stores)\n";
  if (kernel.unroll > 1)
    s += fmt::format("  - a block loads only a few registers, so {} consecutive blocks of the innermost loop are fused "
                     "(loads first, then shuffles, then stores) to overlap their dependency chains\n",
                     kernel.unroll);
  return s;
}

}  // namespace gentt
