// Conversion and scaling through output slabs (slab_conversion.h).
#include "runtime/slab_conversion.h"

#include <algorithm>
#include <memory>

#include "runtime/engine/row_copy.h"

namespace gentt::detail {

namespace {

constexpr std::int64_t kSlabLineBytes = 64;
// Output runs of a slab whose input's innermost axis is kept whole: at least this long.
constexpr std::int64_t kSlabMinRunElements = 64;
// Inputs larger than this take no slabs that cut their innermost axis into line chunks.
constexpr std::int64_t kSlabChunkedMaxBytes = std::int64_t{8} << 20;

std::string slab_kib(std::int64_t bytes) {
  return bytes % 1024 == 0 ? std::to_string(bytes / 1024) + " KiB" : std::to_string(bytes) + " bytes";
}

// This thread's slab buffer of at least `bytes`, on a 64-byte line.
unsigned char* slab_buffer(std::int64_t bytes) {
  struct Buffer {
    std::unique_ptr<unsigned char[]> data;
    std::int64_t capacity = 0;
  };
  static thread_local Buffer buffer;
  if (buffer.capacity < bytes) {
    buffer.data = std::make_unique<unsigned char[]>(static_cast<std::size_t>(bytes + kSlabLineBytes));
    buffer.capacity = bytes;
  }
  const auto at = reinterpret_cast<std::uintptr_t>(buffer.data.get());
  return buffer.data.get() + ((kSlabLineBytes - at % kSlabLineBytes) % kSlabLineBytes);
}

}  // namespace

std::int64_t slab_target_bytes(std::int64_t in_bytes, int parts) {
  if (parts <= 1) return kSlabTargetBytes;
  return std::clamp<std::int64_t>(in_bytes / (4 * std::int64_t{parts}), kSlabMinTargetBytes, kSlabTargetBytes);
}

std::optional<SlabGeometry> choose_slabs(const engine::StridedProblem& sp, std::int64_t in_elem_bytes,
                                         std::string* why, std::int64_t target) {
  const int m = static_cast<int>(sp.axes.size());
  if (m == 0) {
    *why = "a single element";
    return std::nullopt;
  }
  // A kept innermost axis that the row engine takes: it converts each row as it copies it, faster
  // than a slab's extra pass (int32 -> int64 (64,64,100) (1,0,2): 1.6x, uint8 -> float32
  // (300,40,100) (1,0,2) 1.5x, float32 -> float16 (16,32,256) (1,0,2) 2x).
  const engine::StridedAxis& last = sp.axes.back();
  if (last.in_stride == 1 && last.out_stride == 1 && last.extent * in_elem_bytes >= engine::kRowMinBytes) {
    *why = "rows of " + std::to_string(last.extent * in_elem_bytes) +
           " bytes are kept: each is converted as the row engine copies it";
    return std::nullopt;
  }
  std::vector<std::int64_t> extent(m), in_stride(m);
  int innermost_at = 0;  // output position of the input's innermost axis (the last of sp.axes)
  for (int k = 0; k < m; ++k) {
    const engine::StridedAxis& a = sp.axes[static_cast<size_t>(sp.perm[k])];
    extent[k] = a.extent;
    in_stride[k] = a.in_stride;
    if (sp.perm[k] == m - 1) innermost_at = k;
  }
  // Output axes k..m-1 of one index of the axes before k are contiguous in the output.
  std::int64_t expected = 1;
  for (int k = m - 1; k >= 0; --k) {
    if (sp.axes[static_cast<size_t>(sp.perm[k])].out_stride != expected) {
      *why = "the output is not contiguous";
      return std::nullopt;
    }
    expected *= extent[k];
  }
  // The split: the outermost axis whose inner axes fit the target.
  int split = m - 1;
  std::int64_t inner = 1;
  while (split > 0 && inner * extent[split] * in_elem_bytes <= target) inner *= extent[split--];
  // The input's innermost axis must not be cut to single indices (the slab's plan would read its
  // elements one by one): before the split it stays whole, one output run per index of it.
  const std::int64_t line = std::max<std::int64_t>(1, kSlabLineBytes / in_elem_bytes);
  int whole = innermost_at < split ? innermost_at : -1;
  // The same where it is the split axis but shorter than a line (chunks of it could only be the
  // whole axis): the next axis is chunked instead.
  if (innermost_at == split && split + 1 < m && extent[split] <= line &&
      inner * extent[split] * in_elem_bytes > target) {
    whole = split++;
    inner /= extent[split];
  }
  std::int64_t whole_extent = whole >= 0 ? extent[whole] : 1;
  std::int64_t chunk =
      std::clamp<std::int64_t>(target / (whole_extent * inner * in_elem_bytes), 1, extent[split]);
  // A long innermost axis kept whole leaves short output runs (float32 (20000, 4096) transposed:
  // 4096 runs of 4 elements a slab, a row-transform call each): cut that axis in lines instead.
  if (whole >= 0 && chunk * inner < kSlabMinRunElements) {
    while (split > innermost_at) inner *= extent[split--];
    whole = -1;
    whole_extent = 1;
    chunk = std::clamp<std::int64_t>(target / (inner * in_elem_bytes), 1, extent[split]);
  }
  if (split == innermost_at && chunk < extent[split]) {  // whole lines of it
    chunk = std::min(extent[split], std::max(line, chunk / line * line));
    // Past the caches a slab would read one or a few lines from each of its rows, all rows of
    // the tensor apart: the engine's cache tiles read longer runs (uint8 -> float32 4096 x 4096
    // transposed: slabs 0.72x of the fused blocks, float32 -> float16 0.83x; at 1024 x 1024
    // float32 -> float16 slabs were 1.6x).
    if (sp.elements * in_elem_bytes > kSlabChunkedMaxBytes) {
      *why = "a large input whose innermost axis slabs would read in chunks of " + std::to_string(chunk) +
             " elements: the fused blocks' cache tiles read longer runs";
      return std::nullopt;
    }
  }
  const std::int64_t slab_bytes = whole_extent * chunk * inner * in_elem_bytes;
  if (slab_bytes > kSlabMaxBytes) {
    *why = "a slab that keeps whole lines of the input's innermost axis would take " + slab_kib(slab_bytes) +
           " (at most " + slab_kib(kSlabMaxBytes) + ")";
    return std::nullopt;
  }
  SlabGeometry g;
  g.split = split;
  g.whole = whole;
  g.whole_extent = whole_extent;
  std::vector<std::int64_t> out_step(m);
  for (int k = m - 1; k >= 0; --k) out_step[k] = k == m - 1 ? 1 : out_step[k + 1] * extent[k + 1];
  if (whole >= 0) g.whole_out_step = out_step[whole];
  for (int k = 0; k < split; ++k) {
    if (k == whole) continue;
    g.outer_counts.push_back(extent[k]);
    g.outer_in_steps.push_back(in_stride[k]);
    g.outer_out_steps.push_back(out_step[k]);
  }
  g.extent = extent[split];
  g.chunk = chunk;
  g.in_step = in_stride[split];
  g.inner = inner;
  g.slabs = (g.extent + chunk - 1) / chunk;
  for (std::int64_t c : g.outer_counts) g.slabs *= c;
  g.reason = "output slabs of " + std::to_string(whole_extent * chunk * inner) + " elements (" + slab_kib(slab_bytes) +
             " of the input type): canonical output axis " + std::to_string(split) + " (" +
             std::to_string(g.extent) + ") in chunks of " + std::to_string(chunk) +
             (whole >= 0 ? ", axis " + std::to_string(whole) + " (the input's innermost) whole: " +
                               std::to_string(whole_extent) + " output runs per slab"
                         : std::string()) +
             (static_cast<int>(g.outer_counts.size()) > 0 ? ", the other axes before it one index at a time" : "") +
             "; " + std::to_string(g.slabs) + " slab(s)";
  return g;
}

PermuteDesc slab_desc(const PermuteDesc& d, const engine::StridedProblem& sp, const SlabGeometry& g,
                      std::int64_t chunk) {
  PermuteDesc s;
  s.dtype = d.dtype;
  s.elem_bytes = d.elem_bytes;
  s.isa = d.isa;
  s.threads = 1;
  s.perm = sp.perm;
  for (const engine::StridedAxis& a : sp.axes) {
    s.shape.push_back(a.extent);
    s.in_strides.push_back(a.in_stride);
  }
  for (int k = 0; k < g.split; ++k)
    if (k != g.whole) s.shape[static_cast<size_t>(sp.perm[k])] = 1;
  s.shape[static_cast<size_t>(sp.perm[g.split])] = chunk;
  return s;
}

SlabConversion::SlabConversion(SlabGeometry g, PermutePlan full, PermutePlan tail, engine::RowSink sink,
                               std::int64_t in_elem_bytes)
    : g_(std::move(g)),
      full_(std::move(full)),
      tail_(std::move(tail)),
      sink_(sink),
      in_elem_bytes_(in_elem_bytes),
      chunks_((g_.extent + g_.chunk - 1) / g_.chunk) {}

void SlabConversion::run(const char* in, char* out, std::int64_t begin, std::int64_t end) const {
  if (begin >= end) return;
  const std::int64_t run_elements = g_.chunk * g_.inner;  // of one index of the whole axis, full chunks
  unsigned char* buffer = slab_buffer(g_.whole_extent * run_elements * in_elem_bytes_);
  const int outer = static_cast<int>(g_.outer_counts.size());
  const std::int64_t out_bytes = sink_.out_elem_bytes;
  for (std::int64_t s = begin; s < end; ++s) {
    const std::int64_t first = (s % chunks_) * g_.chunk;  // the slab's first index of the split axis
    const char* from = in + first * g_.in_step * in_elem_bytes_;
    std::int64_t out_at = first * g_.inner;  // output elements before the slab
    std::int64_t rest = s / chunks_;
    for (int a = outer - 1; a >= 0; --a) {
      const std::int64_t count = g_.outer_counts[static_cast<size_t>(a)], at = rest % count;
      from += at * g_.outer_in_steps[static_cast<size_t>(a)] * in_elem_bytes_;
      out_at += at * g_.outer_out_steps[static_cast<size_t>(a)];
      rest /= count;
    }
    const std::int64_t chunk = std::min(g_.chunk, g_.extent - first);
    (chunk == g_.chunk ? full_ : tail_).execute(from, buffer);
    // The buffer: the slab's output in order, one run of chunk * inner per index of the whole axis.
    const std::int64_t n = chunk * g_.inner;
    for (std::int64_t w = 0; w < g_.whole_extent; ++w)
      sink_.fn(buffer + w * n * in_elem_bytes_, out + (out_at + w * g_.whole_out_step) * out_bytes, n, sink_.state);
  }
}

}  // namespace gentt::detail
