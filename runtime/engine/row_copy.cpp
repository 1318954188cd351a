#include "runtime/engine/row_copy.h"

#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

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
  if (!spec.sink && spec.isa == RowIsa::avx512)
    if (auto r = make_rows_avx512(walk, g, spec.stream, nullptr, pieces)) return r;
  if (!spec.sink && spec.isa == RowIsa::avx2)
    if (auto r = make_rows_avx2(walk, g, spec.stream, nullptr, pieces)) return r;
  return make_rows_portable(std::move(walk), g, spec.sink, pieces);
}

}  // namespace gentt::engine
