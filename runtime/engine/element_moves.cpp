#include "runtime/engine/element_moves.h"

namespace gentt::engine {

std::vector<int> lane_sources(const ProgramTables& t, int lanes, bool butterfly) {
  const std::size_t regs = t.load_offset.size();
  std::vector<int> v(regs * static_cast<std::size_t>(lanes), -1);
  for (std::size_t r = 0; r < regs; ++r)
    for (int l = 0; l < t.load_count[r]; ++l) v[r * lanes + l] = static_cast<int>(r) * lanes + l;
  std::vector<int> next(v.size());
  for (int p = 0; p < t.pass_count; ++p) {
    std::fill(next.begin(), next.end(), -1);
    for (std::size_t r = 0; r < regs; ++r) {
      const std::size_t r0 = r & ~(std::size_t{1} << p), r1 = r | (std::size_t{1} << p);
      const LaneIndex* list = t.pass_list(p, r, lanes);
      for (int l = 0; l < lanes; ++l) {
        const int i = list[l];
        if (i < 0) continue;
        next[r * lanes + l] = i < lanes ? v[(butterfly ? r0 : r) * lanes + i] : v[(butterfly ? r1 : r) * lanes + i - lanes];
      }
    }
    std::swap(v, next);
  }
  return v;
}

ElementMoves element_moves(const ProgramTables& t, int lanes, bool butterfly, std::int64_t in_bytes,
                           std::int64_t out_bytes) {
  const std::vector<int> sources = lane_sources(t, lanes, butterfly);
  ElementMoves prog;
  for (std::size_t r = 0; r < t.store_offset.size(); ++r) {
    if (t.store_count[r] == 0) continue;
    prog.runs.push_back({prog.moves.size(), static_cast<std::size_t>(t.store_count[r])});
    for (int l = 0; l < t.store_count[r]; ++l) {
      const int src = sources[r * lanes + l];
      prog.moves.push_back({(t.load_offset[src / lanes] + src % lanes) * in_bytes, (t.store_offset[r] + l) * out_bytes});
    }
  }
  return prog;
}

namespace {

template <int Bytes>
void move_fixed(const ElementMoves& m, const char* in, char* out) {
  for (const Move& mv : m.moves) std::memcpy(out + mv.out, in + mv.in, Bytes);  // one load, one store
}

}  // namespace

void run_moves(const ElementMoves& m, std::int64_t bytes, const char* in, char* out) {
  switch (bytes) {
    case 1: return move_fixed<1>(m, in, out);
    case 2: return move_fixed<2>(m, in, out);
    case 4: return move_fixed<4>(m, in, out);
    case 8: return move_fixed<8>(m, in, out);
    case 16: return move_fixed<16>(m, in, out);
    default:
      for (const Move& mv : m.moves) std::memcpy(out + mv.out, in + mv.in, static_cast<std::size_t>(bytes));
  }
}

}  // namespace gentt::engine
