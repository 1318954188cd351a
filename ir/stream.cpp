#include "ir/stream.h"

#include <fmt/format.h>

#include "ir/error.h"

namespace gentt {

std::string nests_off_lines(const Kernel& k) {
  for (const auto& g : k.nests()) {
    if (g.out_offset % k.lanes != 0)
      return fmt::format("output rows do not start on 64-byte lines (a region of the tiles starts at output "
                         "offset {}, not a multiple of {})",
                         g.out_offset, k.lanes);
    for (const auto& L : g.loops)
      if (L.out_stride % k.lanes != 0)
        return fmt::format("output rows do not start on 64-byte lines (the loop over {} steps the output by {} "
                           "elements, not a multiple of {})",
                           L.what, L.out_stride, k.lanes);
  }
  return "";
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
      return fmt::format("output rows do not start on 64-byte lines (a block stores a row at output offset {}, "
                         "not a multiple of {})",
                         op.offset, k.lanes);
    whole = true;
  }
  return whole ? "" : "the block stores no whole 64-byte lines (its output rows are shorter than a vector)";
}

}  // namespace

bool target_streams(const Target& target) { return target.isa == Isa::avx512 || target.isa == Isa::avx512skx; }

void check_store_mode(const Target& target, StoreMode mode, const std::string& field) {
  if (mode == StoreMode::streaming && !target_streams(target))
    throw UserError(field, fmt::format("\"streaming\" stores are implemented for avx512 only, not {}",
                                       isa_name(target.isa)));
}

StreamChoice choose_streaming(const Kernel& cached, StoreMode mode, bool target_streams,
                              int64_t vector_bytes) {
  const int64_t bytes = cached.in_elements * cached.elem_bytes;
  if (mode == StoreMode::cached) return {false, "stores: cached (the spec says `stores: cached`)"};
  if (!target_streams)
    return {false, "stores: cached (this target's backend has no whole-line streaming stores)"};
  if (vector_bytes != kLineBytes || cached.lanes * cached.elem_bytes != kLineBytes)
    return {false, fmt::format("stores: cached (a register of {} {}-byte elements is not one 64-byte line)",
                               cached.lanes, cached.elem_bytes)};
  if (const std::string why = alignment_problem(cached); !why.empty())
    return {false, fmt::format("stores: cached ({})", why)};
  if (mode == StoreMode::automatic && bytes < kStreamMinBytes)
    return {false, fmt::format("stores: cached (the output, {}, is below the {} from which streaming pays)",
                               size_text(bytes), size_text(kStreamMinBytes))};
  return {true, fmt::format("stores: streaming when `out` is 64-byte aligned ({}): whole-line stores bypass the "
                            "cache and {}; otherwise the cached variant",
                            mode == StoreMode::streaming ? "the spec says `stores: streaming`"
                                                         : fmt::format("the output, {}, is at least {}",
                                                                       size_text(bytes), size_text(kStreamMinBytes)),
                            cached.tiled ? "the loops walk the same cache tiles"
                                         : "the loops run in input order so reads are sequential")};
}

}  // namespace gentt
