#include "ir/stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "ir/error.h"
#include "ir/tiling.h"

namespace gentt {

std::string nests_off_lines(const Kernel& k) {
  for (const auto& g : k.nests()) {
    if (g.out_offset % k.lanes != 0)
      return fmt::format("output rows do not start on 64-byte lines or whole vectors (a region of the tiles "
                         "starts at output offset {}, not a multiple of {})",
                         g.out_offset, k.lanes);
    for (const auto& L : g.loops)
      if (L.out_stride % k.lanes != 0)
        return fmt::format("output rows do not start on 64-byte lines or whole vectors (the loop over {} steps "
                           "the output by {} elements, not a multiple of {})",
                           L.what, L.out_stride, k.lanes);
  }
  return "";
}

std::string halves_apart(const std::vector<int64_t>& full_store_offsets, int lanes,
                         const std::vector<LoopRegion>& nests) {
  const int64_t line = 2 * int64_t{lanes};
  auto on_lines = [&](bool but_innermost) {
    for (const auto& g : nests) {
      if (g.out_offset % line != 0) return false;
      for (size_t d = 0; d < g.loops.size(); ++d)
        if (!(but_innermost && d + 1 == g.loops.size()) && g.loops[d].out_stride % line != 0) return false;
    }
    return true;
  };
  auto first_half = [&](int64_t o) { return ((o % line) + line) % line == 0; };
  // (1) One block writes both halves of each line it stores.
  bool paired = true;
  for (int64_t o : full_store_offsets) {
    const int64_t partner = first_half(o) ? o + lanes : o - lanes;
    paired &= std::find(full_store_offsets.begin(), full_store_offsets.end(), partner) != full_store_offsets.end();
  }
  if (paired && on_lines(false)) return "";
  // (2) Each block writes first halves, the next iteration of the innermost loop their second.
  // At most kMaxOpenHalfLines of them: each stays open in a write-combining buffer until the next
  // block writes its second half.
  bool firsts = true;
  for (int64_t o : full_store_offsets) firsts &= first_half(o);
  bool consecutive = firsts && on_lines(true);
  for (const auto& g : nests)
    consecutive &= !g.loops.empty() && g.loops.back().out_stride == lanes &&
                   (g.loops.back().count % 2 == 0 || g.loops.back().count >= 8);  // at most 1 in 8 halves alone
  const auto open = static_cast<int64_t>(full_store_offsets.size());
  if (consecutive && open <= kMaxOpenHalfLines) return "";
  if (consecutive)
    return fmt::format("each block leaves {} lines half written for the next block, more than the {} that "
                       "write-combining buffers keep open",
                       open, kMaxOpenHalfLines);
  return "the two 32-byte halves of a line would be written far apart (partial-line writes to memory)";
}

std::optional<Plan> plan_with_whole_lines(const Plan& plan) {
  Plan wide = make_plan(plan.problem, plan.lanes, kMinRegisterBits + 1, plan.register_limit);
  if (wide.block_bits() <= plan.block_bits()) return std::nullopt;
  wide.in_strides = plan.in_strides;
  wide.out_strides = plan.out_strides;
  return wide;
}

std::string halves_apart(const Kernel& k) {
  std::vector<int64_t> offsets;
  for (const auto& op : k.programs.front().ops)
    if (op.kind == OpKind::store && op.count == k.lanes) offsets.push_back(op.offset);
  return halves_apart(offsets, k.lanes, k.nests());
}

namespace {

std::string size_text(int64_t bytes) {
  if (bytes >= (int64_t{1} << 20)) return fmt::format("{:.4g} MiB", static_cast<double>(bytes) / (1 << 20));
  return fmt::format("{:.4g} KiB", static_cast<double>(bytes) / (1 << 10));
}

// Why the cached kernel's full-block stores cannot all land on whole lines, or "" when they can.
std::string alignment_problem(const Kernel& k) {
  if (std::string why = nests_off_lines(k); !why.empty()) return why;
  bool whole = false;
  for (const auto& op : k.programs.front().ops) {
    if (op.kind != OpKind::store || op.count != k.lanes) continue;
    if (op.offset % k.lanes != 0)
      return fmt::format("output rows do not start on 64-byte lines or whole vectors (a block stores a row at "
                         "output offset {}, not a multiple of {})",
                         op.offset, k.lanes);
    whole = true;
  }
  return whole ? "" : "the block stores no whole vectors (its output rows are shorter than a vector)";
}

}  // namespace

bool target_streams(const Target& target) {
  return target.isa == Isa::avx512 || target.isa == Isa::avx512skx || target.isa == Isa::avx2;
}

void check_store_mode(const Target& target, StoreMode mode, const std::string& field) {
  if (mode == StoreMode::streaming && !target_streams(target))
    throw UserError(field,
                    fmt::format("\"streaming\" stores are implemented for avx512, avx512skx and avx2 only, not {}",
                                isa_name(target.isa)));
}

std::string streaming_walk(const Kernel& cached, const Kernel* stream) {
  const bool tiles = stream ? stream->tiled : cached.tiled;
  std::string walk = stream && stream->banded
                         ? "the loops walk " + stream->tiling.substr(std::string_view("loops: ").size()) + " (ir/band.h)"
                     : tiles ? "the loops walk the same cache tiles"
                             : "the loops run in input order so reads are sequential (from the block outwards where "
                               "input order walks the output's next axis outermost)";
  if (stream && stream->left_tiles)
    walk += fmt::format(", not in the cached walk's tiles ({})",
                        stream->paired_lines.empty() ? kStreamUntiledReason : kStreamPairedReason);
  if (stream && !stream->paired_lines.empty()) walk += "; " + stream->paired_lines;
  return walk;
}

StreamChoice choose_streaming(const Kernel& cached, StoreMode mode, bool target_streams,
                              int64_t vector_bytes, const Kernel* stream) {
  const int64_t bytes = cached.in_elements * cached.elem_bytes;
  if (mode == StoreMode::cached) return {false, "stores: cached (the spec says `stores: cached`)"};
  if (!target_streams)
    return {false, "stores: cached (this target's backend has no streaming stores)"};
  if ((vector_bytes != kLineBytes && vector_bytes != kLineBytes / 2) ||
      cached.lanes * cached.elem_bytes != vector_bytes)
    return {false, fmt::format("stores: cached (a register of {} {}-byte elements is not a whole {}-byte vector)",
                               cached.lanes, cached.elem_bytes, vector_bytes)};
  if (vector_bytes < kLineBytes && cached.lanes == 1)
    return {false, "stores: cached (one-element registers are moved by memcpy, which does not stream)"};
  if (const std::string why = alignment_problem(cached); !why.empty())
    return {false, fmt::format("stores: cached ({})", why)};
  if (mode == StoreMode::automatic && bytes < kStreamMinBytes)
    return {false, fmt::format("stores: cached (the output, {}, is below the {} from which streaming pays)",
                               size_text(bytes), size_text(kStreamMinBytes))};
  const std::string walk = streaming_walk(cached, stream);
  return {true, fmt::format("stores: streaming when `out` is 64-byte aligned ({}): {} bypass the "
                            "cache and {}; otherwise the cached variant",
                            mode == StoreMode::streaming ? "the spec says `stores: streaming`"
                                                         : fmt::format("the output, {}, is at least {}",
                                                                       size_text(bytes), size_text(kStreamMinBytes)),
                            vector_bytes == kLineBytes ? "whole-line stores" : "32-byte stores (two per line)",
                            walk)};
}

}  // namespace gentt
