#include "runtime/engine/row_copy.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "ir/prefetch.h"
#include "ir/tiling.h"
#include "runtime/engine/row_copy_isa.h"
#include "runtime/engine/walk_loops.h"

namespace gentt::engine {

namespace {

struct PortableRows {
  static constexpr const char* kName = "portable";
  struct Line {
    unsigned char b[64];
  };
  static Line load_line(const char* p) {
    Line l;
    std::memcpy(l.b, p, 64);
    return l;
  }
  static void stream_line(char* p, const Line& l) { std::memcpy(p, l.b, 64); }
  static void copy(const char* in, char* out, std::int64_t n) { std::memcpy(out, in, static_cast<std::size_t>(n)); }
  static void stream(const char* in, char* out, std::int64_t n) { copy(in, out, n); }
  static void fence() {}
};

#include "runtime/engine/row_body.h"

}  // namespace

std::unique_ptr<PreparedBlocks> make_rows_portable(std::vector<WalkLoop> loops, const RowGeometry& g,
                                                   const RowSink* sink, std::int64_t pieces) {
  return std::make_unique<RowBlocks<PortableRows>>(std::move(loops), g, false, sink, pieces);
}

std::int64_t row_prefetch_ahead(const std::vector<WalkLoop>& walk, std::int64_t row_in_bytes, std::int64_t* window) {
  *window = 0;
  if (walk.size() < 2) return 0;
  const WalkLoop& inner = walk.back();
  const RowPrefetch r = row_prefetch(row_in_bytes, inner.count, inner.in_step, walk[walk.size() - 2].in_step);
  *window = r.window;
  return r.ahead;
}

std::unique_ptr<PreparedBlocks> prepare_row_copy(const std::vector<LoopDim>& loops, const RowCopySpec& spec) {
  std::vector<WalkLoop> walk;
  for (const auto& l : loops)
    walk.push_back({l.count, l.in_stride * spec.in_elem_bytes, l.out_stride * spec.out_elem_bytes, l.tail_bit});
  // Rows longer than a piece: an innermost loop over the pieces, its last iteration the rest.
  const std::int64_t row_in = spec.row_elems * spec.in_elem_bytes;
  std::int64_t pieces = 1;
  RowGeometry g;
  g.piece_elems = g.last_elems = spec.row_elems;
  if (row_in > 2 * kRowPieceBytes) {
    g.piece_elems = (kRowPieceBytes + spec.in_elem_bytes - 1) / spec.in_elem_bytes;
    pieces = (spec.row_elems + g.piece_elems - 1) / g.piece_elems;
    g.last_elems = spec.row_elems - (pieces - 1) * g.piece_elems;
    walk.push_back({pieces, g.piece_elems * spec.in_elem_bytes, g.piece_elems * spec.out_elem_bytes, 0});
  }
  if (spec.group > 1 && pieces > 1)
    throw std::logic_error("gentt: row groups of rows walked in pieces (internal error)");
  if (spec.group > 1) {
    g.group = static_cast<int>(spec.group);
    g.group_rest = static_cast<int>(spec.group_rest);
    g.group_in = spec.group_in_stride * spec.in_elem_bytes;
    g.group_out = spec.group_out_stride * spec.out_elem_bytes;
  }
  g.piece_in = g.piece_elems * spec.in_elem_bytes;
  g.last_in = g.last_elems * spec.in_elem_bytes;
  // A last piece of its own program only where there are pieces (walk: tail bit 0 -> program 1).
  if (pieces == 1) g.last_in = g.piece_in, g.last_elems = g.piece_elems;
  // Inputs of kTileMinBytes and more, as the generated kernels prefetch: in cache the prefetches
  // only cost (float32 (64,48,32) (1,0,2) 0.48x, float64 (40,32,17) 0.63x). On AVX2 too: on the
  // Intel server core (1 thread, x best copy, same process) the 19 such problems of the bench and
  // /tmp sets ran 1.0-1.64x with it, none slower (float32 (33,38,29,33,20) (2,0,3,1,4) 0.29 ->
  // 0.48, uint16 (186,78,43,43) (1,2,0,3) 0.42 -> 0.66, 17^6 float64 (3,1,4,2,0,5) 1.19x); on a
  // Zen 5 the 16^6 and 17^6 cases had run at 0.73-0.83x with it, and 15-20 GB/s without.
  const std::int64_t in_bytes = walk_iterations(walk) * g.group * g.piece_in;
  if (pieces == 1 && !spec.sink && spec.isa != RowIsa::portable && in_bytes >= kTileMinBytes)
    g.ahead = row_prefetch_ahead(walk, g.piece_in, &g.ahead_bytes);
  if (!spec.sink && spec.isa == RowIsa::avx512)
    if (auto r = make_rows_avx512(walk, g, spec.stream, nullptr, pieces)) return r;
  if (!spec.sink && spec.isa == RowIsa::avx2)
    if (auto r = make_rows_avx2(walk, g, spec.stream, nullptr, pieces)) return r;
  return make_rows_portable(std::move(walk), g, spec.sink, pieces);
}

}  // namespace gentt::engine
