#include "ir/vector_width.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "ir/canonical.h"
#include "ir/lower.h"
#include "ir/pipeline.h"
#include "ir/plan.h"
#include "ir/stream.h"

namespace gentt {

namespace {

struct BlockShape {
  int registers = 0;      // values the full block loads (its registers)
  int load_lines = 0;     // most lines its loads put into one L1 set
  int store_lines = 0;    // the same for its stores
};

// The most lines that the ops of `kind` (from a base on a line) put into one of 64 L1 sets.
int lines_per_set(const BlockProgram& prog, OpKind kind, int64_t elem_bytes) {
  constexpr int64_t kSets = 64;
  std::map<int64_t, std::set<int64_t>> sets;
  for (const Op& op : prog.ops) {
    if (op.kind != kind || op.count <= 0) continue;
    const int64_t first = op.offset * elem_bytes, last = (op.offset + op.count) * elem_bytes - 1;
    for (int64_t line = first / kLineBytes; line <= last / kLineBytes; ++line)
      sets[((line % kSets) + kSets) % kSets].insert(line);
  }
  size_t most = 0;
  for (const auto& [set, lines] : sets) most = std::max(most, lines.size());
  return static_cast<int>(most);
}

BlockShape block_shape(const Problem& problem, int vector_bits) {
  Target t = problem.target;
  t.vector_bits = vector_bits;
  const Canonical c = canonicalize(problem.dtype.bytes, problem.shape, problem.perm);
  const Kernel k = lower(make_plan(c, lanes_for(t, problem.dtype.bytes)), "width_probe");
  const BlockProgram& full = k.programs.front();
  BlockShape s;
  s.registers = static_cast<int>(std::count_if(full.ops.begin(), full.ops.end(),
                                               [](const Op& op) { return op.kind == OpKind::load; }));
  s.load_lines = lines_per_set(full, OpKind::load, problem.dtype.bytes);
  s.store_lines = lines_per_set(full, OpKind::store, problem.dtype.bytes);
  return s;
}

}  // namespace

WidthChoice choose_vector_bits(const Problem& problem) {
  WidthChoice w{problem.target.vector_bits, ""};
  if (problem.target.tune != Tune::znver4) return w;
  const BlockShape zmm = block_shape(problem, 512);
  const BlockShape ymm = block_shape(problem, 256);
  const std::string head = fmt::format("width (tune znver4): the zmm block has {} registers, the ymm block {}",
                                       zmm.registers, ymm.registers);
  if (zmm.registers <= kAvx512Registers) {
    w.vector_bits = 512;
    w.reason = head + fmt::format("; zmm blocks: the zmm block fits the {} registers", kAvx512Registers);
  } else if (ymm.registers > kAvx512Registers) {
    w.vector_bits = 512;
    w.reason = head + "; zmm blocks: the ymm block would not fit the registers either";
  } else if (ymm.load_lines > kMaxLinesPerSet && ymm.store_lines > kMaxLinesPerSet) {
    w.vector_bits = 512;
    w.reason = head + fmt::format(
                          "; zmm blocks: the ymm block's half-line rows put {} (loads) and {} (stores) lines into "
                          "one L1 set, more than {}",
                          ymm.load_lines, ymm.store_lines, kMaxLinesPerSet);
  } else {
    w.vector_bits = 256;
    w.reason = head + fmt::format(
                          "; ymm blocks: the zmm block spills past the {} registers of the register file, the ymm "
                          "block fits and its rows put at most {} (loads) and {} (stores) lines into one L1 set",
                          kAvx512Registers, ymm.load_lines, ymm.store_lines);
  }
  return w;
}

}  // namespace gentt
