#include "ir/assembly.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <tuple>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/staging.h"
#include "ir/stream.h"
#include "ir/tiling.h"

namespace gentt {

namespace {

// The smallest stride of at least `span` elements that is congruent to `out_stride` modulo a line
// of `line` elements: a buffer axis whose streams keep their output offsets within a line.
int64_t congruent_stride(int64_t span, int64_t out_stride, int64_t line) {
  return span + (((out_stride - span) % line) + line) % line;
}

}  // namespace

std::optional<AssemblyPlan> plan_assembly(const Plan& plan, std::string* why, int64_t max_tile_bytes,
                                          int64_t min_tile_bytes, bool single_stream_strided, int must_axis) {
  const Canonical& c = plan.problem;
  const int d = c.rank();
  const int64_t e = c.elem_bytes;
  auto no = [&](std::string reason) -> std::optional<AssemblyPlan> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  if (kLineBytes % e != 0) return no(fmt::format("{}-byte elements do not tile a {}-byte line", e, kLineBytes));
  // Kept rows of a line or more are copied whole by their own walks (ir/staging.h's row streaming
  // and staging, the run-time row engine). Shorter ones (seed 002's 3 x uint16) are part of the
  // block like any other axis: uint16 (3,32,8,16,24,16,20,3) axes (6,0,1,4,5,2,3,7), tiles of 128
  // input rows of 120 bytes and pieces of 768 bytes to 20 streams, generated 3.0 -> 8.4 GB/s, run-time
  // 0.16 -> 0.29 of the best copy (Intel server core, 1 thread).
  if (kept_row_bytes(plan) >= kLineBytes)
    return no("rows are copied whole (a kept innermost axis): the kept rows' own walk");
  const int64_t line = kLineBytes / e;
  auto by = [&](const std::vector<int64_t>& strides) {
    std::vector<int> axes(d);
    for (int a = 0; a < d; ++a) axes[a] = a;
    std::stable_sort(axes.begin(), axes.end(), [&](int x, int y) { return strides[x] < strides[y]; });
    return axes;
  };
  const std::vector<int> in_axes = by(plan.in_strides), out_axes = by(plan.out_strides);
  // The tile: the input's innermost axes, at least up to the output's innermost axis and every
  // block axis.
  int m = 0;
  auto position = [&](int axis) { return static_cast<int>(std::find(in_axes.begin(), in_axes.end(), axis) - in_axes.begin()); };
  m = position(out_axes.front()) + 1;
  for (const auto& b : plan.block_axes) m = std::max(m, position(b.axis) + 1);
  std::vector<bool> in_tile(d, false);
  for (int k = 0; k < m; ++k) in_tile[in_axes[k]] = true;
  // A walk for the tile `in_tile` (canonical axes): the piece axes are the output's innermost axes
  // in the tile (out_axes[0, j)), the chain out_axes[j]; nullopt with last_why set where the
  // tile breaks a rule.
  std::string last_why = "the output's innermost axes and the block span the whole input";
  auto build = [&](const std::vector<bool>& in_tile) -> std::optional<AssemblyPlan> {
    int64_t region = 1, span = 1;
    for (int a = 0; a < d; ++a)
      if (in_tile[a]) region *= c.shape[a], span += (c.shape[a] - 1) * plan.in_strides[a];
    if (region * e > max_tile_bytes) {
      last_why = fmt::format("the input's innermost axes that hold the output's innermost axis span {} bytes (more than {})",
                             region * e, max_tile_bytes);
      return std::nullopt;
    }
    int64_t piece = 1;
    size_t j = 0;
    while (j < out_axes.size() && in_tile[out_axes[j]]) piece *= c.shape[out_axes[j++]];
    if (j == out_axes.size()) return std::nullopt;  // the tile is the whole tensor
    const int chain = out_axes[j];
    if (plan.out_strides[chain] != piece) {
      last_why = "the tile's output pieces are not contiguous";
      return std::nullopt;
    }
    if (piece * e < kLineBytes) {
      last_why = fmt::format("pieces of {} bytes (less than a line)", piece * e);
      return std::nullopt;
    }
    const int64_t streams = region / piece;
    if (streams > kAssemblyMaxStreams) {
      last_why = fmt::format("{} streams (more than {})", streams, kAssemblyMaxStreams);
      return std::nullopt;
    }
    // The walk: input order, with the chain loop moved just above the tile's loops and the tile's
    // loops innermost.
    AssemblyPlan p;
    p.walk = make_block_loops(plan, LoopOrder::input);
    auto& loops = p.walk.loops;
    const auto chain_it =
        std::find_if(loops.begin(), loops.end(), [&](const LoopDim& l) { return l.axis == chain; });
    if (chain_it == loops.end()) {
      last_why = "no loop walks the chain axis";
      return std::nullopt;
    }
    const LoopDim chain_loop = *chain_it;
    loops.erase(chain_it);
    std::stable_partition(loops.begin(), loops.end(), [&](const LoopDim& l) { return !in_tile[l.axis]; });
    const auto first_tile =
        std::find_if(loops.begin(), loops.end(), [&](const LoopDim& l) { return in_tile[l.axis]; });
    p.level = static_cast<int>(first_tile - loops.begin()) + 1;
    loops.insert(first_tile, chain_loop);
    p.tile_iterations = 1;
    for (size_t k = p.level; k < loops.size(); ++k) p.tile_iterations *= loops[k].count;
    for (int k = 0; k < p.level - 1; ++k)
      if (loops[k].tail_bit >= 0) {
        last_why = "a loop above the tile has a tail";
        return std::nullopt;
      }
    // The buffer: piece axes keep their output strides; each other tile axis, by output stride,
    // the smallest stride past what the axes below it span that is congruent to its output
    // stride modulo a line (so that every stream has its output offset within a line).
    p.tile_plan = plan;
    std::vector<int> stream_axes;
    for (int a = 0; a < d; ++a) {
      if (!in_tile[a]) p.tile_plan.out_strides[a] = 0;
    }
    for (size_t k = j; k < out_axes.size(); ++k)
      if (in_tile[out_axes[k]]) stream_axes.push_back(out_axes[k]);
    int64_t buf_span = piece;
    for (int a : stream_axes) {
      const int64_t v = congruent_stride(buf_span, plan.out_strides[a], line);
      p.tile_plan.out_strides[a] = v;
      buf_span += v * (c.shape[a] - 1);
    }
    p.buffer_elements = buf_span;
    p.tile_walk = make_block_loops(p.tile_plan, LoopOrder::input);
    std::erase_if(p.tile_walk.loops, [&](const LoopDim& l) { return !in_tile[l.axis]; });
    // Streams: every combination of the stream axes, the output-innermost one fastest.
    p.stream_out.assign(1, 0);
    p.stream_buf.assign(1, 0);
    for (int a : stream_axes) {
      std::vector<int64_t> so, sb;
      for (int64_t i = 0; i < c.shape[a]; ++i)
        for (size_t s = 0; s < p.stream_out.size(); ++s) {
          so.push_back(p.stream_out[s] + i * plan.out_strides[a]);
          sb.push_back(p.stream_buf[s] + i * p.tile_plan.out_strides[a]);
        }
      p.stream_out = std::move(so);
      p.stream_buf = std::move(sb);
    }
    p.piece = piece;
    p.region_elements = region;
    p.span_elements = span;
    p.run_elements = 1;
    for (int a : in_axes) {
      if (!in_tile[a] || plan.in_strides[a] != p.run_elements) break;
      p.run_elements *= c.shape[a];
    }
    return p;
  };
  // The reason explain prints for the plan that `build` made of `in_tile` (formatted only for the
  // plan returned: formatting every candidate's was a sixth of a large problem's planning time).
  auto described = [&](const std::vector<bool>& in_tile, AssemblyPlan p) {
    std::vector<int> axes;
    for (int a : in_axes)
      if (in_tile[a]) axes.push_back(a);
    int64_t chain = 0;
    for (int a : out_axes)
      if (!in_tile[a]) {
        chain = a;
        break;
      }
    const int64_t region = p.region_elements, span = p.span_elements;
    p.reason = fmt::format(
        "output lines assembled across tiles: each tile reads {} input bytes{} (axes {}) and writes a piece of "
        "{} bytes to each of {} output streams, which axis {} (the loop above the tile) continues; whole lines "
        "streamed, partial ones carried to the next tile; the next tile's input prefetched",
        region * e, span == region ? " (contiguous)" : fmt::format(" (in rows of {} bytes)", p.run_elements * e),
        fmt::format("{}", fmt::join(axes, ",")), p.piece * e, region / p.piece, chain);
    return p;
  };
  // First the input's innermost axes, at least up to the output's innermost axis and every block
  // axis: one contiguous input region per tile.
  for (; m < d; in_tile[in_axes[m]] = true, ++m) {
    int64_t region = 1;
    for (int k = 0; k < m; ++k) region *= c.shape[in_axes[k]];
    if (region * e > max_tile_bytes) {
      last_why = fmt::format("the input's innermost axes that hold the output's innermost axis span {} bytes (more than {})",
                             region * e, max_tile_bytes);
      break;
    }
    if (plan.in_strides[in_axes[m - 1]] * c.shape[in_axes[m - 1]] != region) {
      last_why = "the tile's input is not contiguous";
      continue;
    }
    if (region * e < min_tile_bytes && m + 1 < d) {
      last_why = fmt::format("tiles of {} bytes (less than {})", region * e, min_tile_bytes);
      continue;
    }
    if (must_axis >= 0 && !in_tile[must_axis]) {
      last_why = fmt::format("the tile leaves axis {} out", must_axis);
      continue;
    }
    if (std::optional<AssemblyPlan> p = build(in_tile)) return described(in_tile, std::move(*p));
  }
  // Then strided tiles: the output's innermost axes (the piece) and the input's innermost ones,
  // each taken whole, with the input axes between them left to the loops above: the tile reads
  // rows of the input's innermost axes, one per stream combination. The candidate whose shorter
  // side (the piece or the input row) is longest wins; ties: the smaller tile.
  std::optional<AssemblyPlan> best;
  std::vector<bool> best_tile;
  int64_t best_side = 0, best_region = 0;
  const std::string contiguous_why = last_why;
  // Several (i, jj) give the same tile: each is considered once, and a repeat only sets the
  // reason it set the first time (what explain says when no tile is taken).
  std::vector<std::pair<std::vector<bool>, std::string>> tried;
  auto consider = [&](const std::vector<bool>& t) {
    int64_t region = 1, run = 1, piece = 1;
    for (int a = 0; a < d; ++a)
      if (t[a]) region *= c.shape[a];
    for (int a : in_axes) {
      if (!t[a] || plan.in_strides[a] != run) break;
      run *= c.shape[a];
    }
    for (int a : out_axes) {
      if (!t[a]) break;
      piece *= c.shape[a];
    }
    if (region * e < min_tile_bytes) return;
    if (must_axis >= 0 && !t[must_axis]) return;
    // Input rows shorter than a line leave the rest of each line to another tile, which reads it
    // again: float32 15^6 reversed (rows of 60 bytes) ran 0.72x of the balanced walk. Rows of
    // one line make the tile read one line from each of as many rows as it has, and the chain
    // the next line of each: more streams than the prefetchers follow (beyond 16, reads fell
    // from 21-24 to 10-17 GB/s on Zen 4). float32 128x64x32x16 reversed and its neighbours,
    // tiles of 128-256 rows of 64 bytes: 1.16-1.64x without the tile; 672 uint8 rows: 0.85-0.91x.
    if (run * e <= kLineBytes) {
      last_why =
          fmt::format("a strided tile's input rows of {} bytes (at most a line: one stream per row)", run * e);
      return;
    }
    // A tile that could not win is not built (its reason would only matter without a winner).
    const int64_t side = std::min(piece, run) * e;
    if (best && !(side > best_side || (side == best_side && region < best_region))) return;
    std::optional<AssemblyPlan> p = build(t);
    if (!p) return;
    // One stream: its tile writes one contiguous range, which staged output (ir/staging.h) does
    // better where the loops allow it: TTLG 15^6 float64 (4,2,3,5,1,0), (0,3,2,4,5,1) 0.82-0.89x
    // assembled. The split problems, which staging does not take, keep them.
    if (p->stream_out.size() < 2 && !single_stream_strided) {
      last_why = "a strided tile with one output stream (staged output's case)";
      return;
    }
    best = std::move(p);
    best_tile = t;
    best_side = side;
    best_region = region;
  };
  for (int i = 1; i <= d; ++i)
    for (int jj = 1; jj <= d; ++jj) {
      std::vector<bool> t(d, false);
      for (int k = 0; k < i; ++k) t[in_axes[k]] = true;
      for (int k = 0; k < jj; ++k) t[out_axes[k]] = true;
      for (const auto& b : plan.block_axes) t[b.axis] = true;
      const auto seen = std::find_if(tried.begin(), tried.end(), [&](const auto& x) { return x.first == t; });
      if (seen != tried.end()) {
        if (!seen->second.empty()) last_why = seen->second;
        continue;
      }
      std::string before = std::exchange(last_why, std::string(1, '\0'));  // unset: consider says nothing
      consider(t);
      if (last_why == std::string(1, '\0')) {
        last_why = std::move(before);
        tried.emplace_back(t, std::string());
      } else {
        tried.emplace_back(t, last_why);
      }
    }
  if (best) return described(best_tile, std::move(*best));
  if (last_why != contiguous_why) last_why = contiguous_why + "; strided tiles: " + last_why;
  return no(last_why);
}

Canonical split_canonical_axis(const Canonical& c, int axis, int64_t inner) {
  Canonical s = c;
  s.shape[axis] = c.shape[axis] / inner;
  s.shape.insert(s.shape.begin() + axis + 1, inner);
  s.groups.insert(s.groups.begin() + axis + 1, c.groups[axis]);
  s.perm.clear();
  for (int x : c.perm) {
    if (x < axis) s.perm.push_back(x);
    else if (x > axis) s.perm.push_back(x + 1);
    else s.perm.push_back(axis), s.perm.push_back(axis + 1);
  }
  return s;
}

namespace {

// Split tiles of at least this many bytes: TTLG's 15^6 and 17^6 float64 cases whose fused axes
// split into tiles of 2.3-5.4 KB ran at 0.66-0.81x their balanced or staged walks (Zen 4, 1
// thread); tiles of 39-60 KB gained 1.2-1.9x (2-D transposes, 17^6 (3,4,5,2,0,1)).
constexpr int64_t kSplitMinTileBytes = int64_t{16} << 10;
// Chunked walks (plan_chunked_assembly): chains of at least this many tiles.
constexpr int64_t kChunkMinChain = 8;
// Chunked walks take output rows of at most this many bytes whole (one stream), in the largest
// tiles that leave chains of kChunkMinChain tiles (the largest tile that fits, before: float32
// (544,278,160) (0,2,1) 0.30 -> 0.70 of the best copy, float64 (258,157,214) (0,2,1) 0.35 -> 0.64,
// (9,5,57,31,87) (2,1,3,4,0) 0.46 -> 0.87; 6 of 13 problems of 600 random large ones gained
// 1.27-2.33x, none lost). 4 KiB (was 1): float64 (144,167,894) (0,2,1), rows of 1336 bytes, 0.30
// -> 0.53; float32 (85,628,423) (0,2,1), rows of 2512 bytes, 0.38 -> 0.435, (87,621,338) 0.40 ->
// 0.47 (run-time library, Intel server core, 1 thread).
constexpr int64_t kChunkWholeRowBytes = 4096;
// Row chains (plan_row_chain_assembly) take output rows of 64 bytes to this many.
constexpr int64_t kRowChainMaxRowBytes = 2048;

// A short output innermost axis that is not the input's innermost one (planar to interleaved:
// (3, H, W) axes (2,1,0), output rows of 3 elements): its extent, which rides along with each
// element of the output's next axis in a split (plan_split_assembly), else 0. Only where that next
// axis is not the input's innermost one either (a tile of it would be a single stream).
int64_t short_output_row(const Plan& plan) {
  const Canonical& c = plan.problem;
  const int d = c.rank();
  if (d < 3 || c.perm.back() == d - 1 || c.perm[d - 2] == d - 1) return 0;
  return c.shape[c.perm.back()] * c.elem_bytes < kLineBytes ? c.shape[c.perm.back()] : 0;
}

// The divisors of n in [lo, hi], each with its cost: how far its bytes are from `target` (in
// factors of two) plus the padding a chunk of `lanes` leaves in its last block.
std::vector<std::pair<double, int64_t>> split_sizes(int64_t n, int64_t e, int64_t lanes, int64_t lo, int64_t hi,
                                                    int64_t target) {
  std::vector<std::pair<double, int64_t>> out;
  for (int64_t k = 1; k * k <= n; ++k) {
    if (n % k != 0) continue;
    for (int64_t v : {k, n / k}) {
      if (v * e < lo || v * e > hi || v >= n) continue;
      const double padded = static_cast<double>((v + lanes - 1) / lanes * lanes) / static_cast<double>(v);
      out.emplace_back(std::abs(std::log2(static_cast<double>(v * e) / static_cast<double>(target))) +
                           4.0 * (padded - 1.0),
                       v);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::optional<SplitAssembly> plan_split_assembly(const Plan& plan, std::string* why, int64_t max_tile_bytes,
                                                 int64_t min_tile_bytes, bool short_rows) {
  const Canonical& c = plan.problem;
  const int d = c.rank();
  auto no = [&](std::string reason) -> std::optional<SplitAssembly> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  if (d < 2 || d >= 64) return no("no axis to split");
  // A kept innermost axis shorter than a line (3 x uint16) rides along as part of each element:
  // the axes to split are the next ones in, each "element" its whole run (e bytes), pieces of up
  // to 2 KiB (seed 002's (12288, 24, 16, 20, 3) (3,2,1,0,4): 192 x 6 bytes, tiles of 23 KB).
  // Run-time library, Intel server core, 1 thread: that case 0.13 -> 0.20 of the best copy (3.2 ->
  // 5.5 GB/s generated); 200 random 20-120 MiB problems with a kept axis of 2-63 bytes, 52 of them
  // changed (where the cached walk stages, it keeps it: choose_assembly): median 0.29 -> 0.52,
  // float32 (5304,1554,3) (1,0,2) 0.27 -> 0.58, uint8 (1688,423,44) (1,0,2) 0.27 -> 0.81; two
  // slower, 0.87-0.9x (float64 (127,98,143,6) (0,2,1,3)).
  // A short output row that is not kept (short_output_row: planar to interleaved) rides along in
  // the same way on the output side only: the output's next axis in is split (pieces of its
  // elements times the row), the input's innermost axis as before. Same machine and library: seed
  // 002's (3,4096,23040) reversed (rows of 3 x uint16) 0.12 -> 0.31, (3,4096,384,60) reversed 0.12
  // -> 0.18; 120 random 16-160 MiB problems with an output row of 2-63 bytes, the 18 changed:
  // median 0.33 -> 0.53 (float32 (12,4684,8,55) (3,1,2,0) 0.26 -> 0.73, uint16 (270,2,142,4,112)
  // (2,4,1,0,3) 0.08 -> 0.33), none slower once staged walks keep theirs (choose_assembly).
  const int64_t kept_bytes = kept_row_bytes(plan);  // the kept axis is the last one in both
  const bool kept = kept_bytes > 0;
  if (kept && (d < 3 || kept_bytes >= kLineBytes)) return no("a kept innermost axis");
  const int64_t short_out = kept ? 0 : short_output_row(plan);
  const int out_inner = kept || short_out ? c.perm[d - 2] : c.perm.back(), in_inner = kept ? d - 2 : d - 1;
  const int64_t e = kept ? kept_bytes : c.elem_bytes;
  const int64_t eo = short_out ? e * short_out : e;  // the bytes of one element of out_inner
  const auto kept_lanes = static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(c.shape[d - 1])));
  const int64_t lanes = kept ? std::max<int64_t>(1, plan.lanes / kept_lanes) : plan.lanes;
  const int64_t lanes_o =
      short_out ? std::max<int64_t>(1, plan.lanes / static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(short_out))))
                : lanes;
  if (out_inner == in_inner) return no("a kept innermost axis");
  // Pieces of 2-16 lines (128-1024 bytes) of the output's innermost axis, rows of at least a line
  // of the input's innermost one; axes already that short stay whole.
  // Each axis may also stay whole (a prime extent), at the cost of its distance from the target.
  const int64_t po = c.shape[out_inner], pi = c.shape[in_inner];
  auto whole = [&](int64_t n, int64_t unit, int64_t target) {
    return std::abs(std::log2(static_cast<double>(n * unit) / static_cast<double>(target)));
  };
  std::vector<std::pair<double, int64_t>> ks = {{po * eo > 1024 ? whole(po, eo, 256) : 0.0, po}},
                                          ms = {{pi * e > 2048 ? whole(pi, e, 1024) : 0.0, pi}};
  if (po * eo > 1024)
    for (const auto& k : split_sizes(po, eo, lanes_o, 128, kept ? 2048 : 1024, 256)) ks.push_back(k);
  if (pi * e > 2048 || (short_rows && pi * e > 256))
    for (const auto& m : split_sizes(pi, e, lanes, 64, 4096, 1024)) ms.push_back(m);
  if (ks.size() == 1 && ms.size() == 1)
    return no(fmt::format("no divisor of axis {} ({}) or axis {} ({}) makes pieces of 128-1024 bytes or rows of "
                          "64-4096 bytes",
                          out_inner, po, in_inner, pi));
  // The pairs that fit a tile, cheapest first; at most three planned.
  std::vector<std::tuple<double, int64_t, int64_t>> pairs;
  for (const auto& [kc, k] : ks)
    for (const auto& [mc, m] : ms)
      if ((k != po || m != pi) && k * m * eo <= max_tile_bytes &&
          k * m * eo >= std::max(min_tile_bytes, kSplitMinTileBytes) && m <= kAssemblyMaxStreams)
        pairs.emplace_back(kc + mc, k, m);
  std::sort(pairs.begin(), pairs.end());
  std::string last = "no split fits a tile of " + std::to_string(std::max(min_tile_bytes, kSplitMinTileBytes)) +
                     "-" + std::to_string(max_tile_bytes) + " bytes";
  for (size_t t = 0; t < pairs.size() && t < 3; ++t) {
    const auto [cost, k, m] = pairs[t];
    Canonical s = c;
    std::vector<std::string> said;
    // The input's innermost axis first (the higher index), so that out_inner keeps its index.
    if (m != pi) {
      s = split_canonical_axis(s, in_inner, m);
      said.push_back(fmt::format("axis {} ({}) as {} x {}", in_inner, pi, pi / m, m));
    }
    if (k != po) {
      s = split_canonical_axis(s, out_inner, k);
      said.push_back(fmt::format("axis {} ({}) as {} x {}", out_inner, po, po / k, k));
    }
    Plan sp = make_plan(s, plan.lanes, kMinRegisterBits, plan.register_limit);
    std::string w;
    std::optional<AssemblyPlan> a = plan_assembly(sp, &w, max_tile_bytes, min_tile_bytes, true);
    if (!a) {
      last = fmt::format("split {}: {}", fmt::join(said, ", "), w);
      continue;
    }
    SplitAssembly r{std::move(sp), std::move(*a), fmt::format("{}", fmt::join(said, ", "))};
    r.assembly.reason = fmt::format("canonical {} split; {}", r.split, r.assembly.reason);
    return r;
  }
  return no(last);
}

std::optional<SplitAssembly> plan_longer_rows(const Plan& plan, const AssemblyPlan& a, std::string* why,
                                              const std::string& earlier_split, int64_t max_tile_bytes,
                                              int64_t min_tile_bytes) {
  const Canonical& c = plan.problem;
  const int d = c.rank();
  const int64_t e = c.elem_bytes;
  auto no = [&](std::string reason) -> std::optional<SplitAssembly> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  const int64_t run = a.run_elements;
  if (run <= 0 || a.span_elements == a.region_elements) return no("not a strided tile");
  if (run * e >= kLongerRowsMinRunBytes)
    return no(fmt::format("input rows of {} bytes (at least {})", run * e, kLongerRowsMinRunBytes));
  if (d >= 64) return no("no axis to split");
  // The input axis that continues the rows (canonical axes are in input order, strides products).
  int x = -1;
  for (int k = 0; k < d; ++k)
    if (plan.in_strides[k] == run && c.shape[k] > 1) x = k;
  if (x < 0) return no("no input axis continues the rows");
  const int64_t n = c.shape[x];
  const bool chain = plan.out_strides[x] == a.piece;  // x is the chain: each stream's piece grows
  const int64_t streams = static_cast<int64_t>(a.stream_out.size());
  const int64_t rows = a.region_elements / run;
  const int64_t min_rows = chain ? kLongerRowsChainMinRows : kLongerRowsMinRows;
  if (rows < min_rows) return no(fmt::format("tiles of {} input rows (fewer than {})", rows, min_rows));
  int64_t bytes = e;
  for (int64_t v : c.shape) bytes *= v;
  if (chain && bytes < kLongerRowsChainMinBytes)
    return no(fmt::format("{} bytes, whose rows the chain continues (less than {})", bytes, kLongerRowsChainMinBytes));
  // Divisors k whose rows are at least kLongerRowsMinNewRunBytes and whose tile fits, nearest
  // kLongerRowsTargetBytes (in factors of two) first; at most three planned. k = n: the axis
  // whole in the tile, no split (a prime extent has no other divisor).
  std::vector<std::pair<double, int64_t>> ks;
  // k stops where the tile outgrows max_tile_bytes (a fused axis may have 10^5 elements and more).
  for (int64_t k = 2; k <= n && a.region_elements * k * e <= max_tile_bytes; ++k) {
    if (n % k != 0 || run * k * e < kLongerRowsMinNewRunBytes) continue;
    if (!chain && streams * k > kAssemblyMaxStreams) continue;
    ks.emplace_back(std::abs(std::log2(static_cast<double>(run * k * e) / static_cast<double>(kLongerRowsTargetBytes))), k);
  }
  std::sort(ks.begin(), ks.end());
  std::string last = fmt::format("no divisor of axis {} ({}) makes rows of {} bytes or more in a tile of {} bytes or less",
                                 x, n, kLongerRowsMinNewRunBytes, max_tile_bytes);
  for (size_t t = 0; t < ks.size() && t < 3; ++t) {
    const int64_t k = ks[t].second;
    Plan sp = k == n ? plan : make_plan(split_canonical_axis(c, x, k), plan.lanes, kMinRegisterBits, plan.register_limit);
    std::string w;
    // The tile must hold the rows' longer part (x whole, or its inner part x + 1): left free,
    // plan_assembly's rule (the longest shorter side) kept the short rows wherever the pieces were
    // the shorter side, as short as before (TTLG 17^6 float64 (3,5,4,0,2,1), pieces and rows of
    // 136 bytes: 0.38 -> 0.45 of the best copy with the axis in the tile; 14 random problems it
    // changes, run-time library, 1.43x at the geomean, 1.05-2.13x).
    std::optional<AssemblyPlan> b = plan_assembly(sp, &w, max_tile_bytes, min_tile_bytes, true, k == n ? x : x + 1);
    const std::string said = k == n ? fmt::format("axis {} ({}) whole", x, n) : fmt::format("axis {} ({}) as {} x {}", x, n, n / k, k);
    if (!b) {
      last = fmt::format("split {}: {}", said, w);
      continue;
    }
    if (b->run_elements < run * k) {  // the tile left the split axis' inner part out
      last = fmt::format("split {}: its tile reads rows of {} bytes", said, b->run_elements * e);
      continue;
    }
    const std::string split = k == n ? earlier_split : earlier_split.empty() ? said : earlier_split + ", then " + said;
    const std::string rows_note = fmt::format("input rows of {} bytes -> {}{}", run * e, b->run_elements * e,
                                              k == n ? fmt::format(", {} in the tile", said) : std::string());
    SplitAssembly r{std::move(sp), std::move(*b), split};
    r.assembly.reason = split.empty() ? fmt::format("{}; {}", rows_note, r.assembly.reason)
                                      : fmt::format("canonical {} split ({}); {}", split, rows_note, r.assembly.reason);
    return r;
  }
  return no(last);
}

namespace {

// The chunked forms' common ground: a block of exactly the output's innermost axis P and the
// input's innermost one I (both contiguous), walked in input order with a loop over each.
struct InnerBlock {
  int P = -1, I = -1;
  int64_t bw = 0, br = 0;  // elements of P and of I per block
  int64_t line = 0;        // elements per line
  BlockLoops walk;         // make_block_loops(plan, LoopOrder::input)
  LoopDim W, R;            // the loops over P's and I's chunks
};

std::optional<InnerBlock> inner_block(const Plan& plan, std::string* why) {
  const Canonical& c = plan.problem;
  const int d = c.rank();
  const int64_t e = c.elem_bytes;
  auto no = [&](std::string reason) -> std::optional<InnerBlock> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  if (kLineBytes % e != 0) return no(fmt::format("{}-byte elements do not tile a {}-byte line", e, kLineBytes));
  if (d < 2) return no("one axis");
  InnerBlock b;
  b.P = c.perm.back();
  b.I = d - 1;
  if (b.P == b.I) return no("a kept innermost axis");
  const BlockAxis* bp = plan.find_block_axis(b.P);
  const BlockAxis* bi = plan.find_block_axis(b.I);
  if (plan.block_axes.size() != 2 || !bp || !bi)
    return no("the block's axes are not exactly the output's and the input's innermost ones");
  if (plan.out_strides[b.P] != 1 || plan.in_strides[b.I] != 1) return no("the innermost axes are not contiguous");
  b.line = kLineBytes / e;
  b.walk = make_block_loops(plan, LoopOrder::input);
  const auto& loops = b.walk.loops;
  const auto find = [&](int axis) {
    return std::find_if(loops.begin(), loops.end(), [&](const LoopDim& l) { return l.axis == axis; });
  };
  if (find(b.P) == loops.end() || find(b.I) == loops.end()) return no("an innermost axis fits one block");
  b.W = *find(b.P);
  b.R = *find(b.I);
  b.bw = bp->chunk;
  b.br = bi->chunk;
  return b;
}

}  // namespace

std::optional<AssemblyPlan> plan_chunked_assembly(const Plan& plan, std::string* why, int64_t max_tile_bytes,
                                                  int64_t min_tile_bytes) {
  const Canonical& c = plan.problem;
  const int d = c.rank();
  const int64_t e = c.elem_bytes;
  auto no = [&](std::string reason) -> std::optional<AssemblyPlan> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  const std::optional<InnerBlock> ib = inner_block(plan, why);
  if (!ib) return std::nullopt;
  const int P = ib->P, I = ib->I;
  const int64_t line = ib->line, bw = ib->bw, br = ib->br;
  const BlockLoops& walk = ib->walk;
  const std::vector<LoopDim>& loops = walk.loops;
  const LoopDim W = ib->W, R = ib->R;
  // Tail chunks stay out of the tiles (ir/tiling.h's rule).
  const int64_t nw = W.tail_bit >= 0 ? W.count - 1 : W.count, nr = R.tail_bit >= 0 ? R.count - 1 : R.count;
  std::vector<LoopDim> others;
  for (const LoopDim& l : loops)
    if (l.axis != P && l.axis != I) {
      if (l.tail_bit >= 0) return no("a loop above the tile has a tail");
      others.push_back(l);
    }
  auto nest = [&](std::vector<LoopDim> tail) {
    std::vector<LoopDim> n = others;
    n.insert(n.end(), tail.begin(), tail.end());
    return n;
  };
  const auto steps = tile_steps;
  const auto with = with_count;
  const int64_t min_tile = std::max(min_tile_bytes, kSplitMinTileBytes);
  const auto too_small = [&](int64_t tile_bytes) {
    return no(fmt::format("tiles of {} bytes (less than {})", tile_bytes, min_tile));
  };
  // The tile's plan: the loops above the tile do not move the buffer.
  const auto tile_plan = [&] {
    Plan t = plan;
    for (int a = 0; a < d; ++a)
      if (a != P && a != I) t.out_strides[a] = 0;
    return t;
  };
  // Short output rows (at most kChunkWholeRowBytes, the input's innermost axis next in the
  // output): a tile takes them whole, tail included, so its output is one contiguous range (one
  // stream) that the chunk loop over the input's innermost axis continues. Where that fails
  // (tiles too small or chains too short), the tiles of blocks below.
  int64_t whole_tr = 0;
  if (c.shape[P] * e <= kChunkWholeRowBytes && plan.out_strides[I] == c.shape[P]) {
    // The largest tile that fits and still leaves chains of kChunkMinChain tiles.
    for (int64_t t = 1; t <= nr / kChunkMinChain; ++t) {
      if (c.shape[P] * t * br * e > max_tile_bytes || t * br * e > 4096) break;
      whole_tr = t;
    }
    if (c.shape[P] * whole_tr * br * e < min_tile) whole_tr = 0;
  }
  if (whole_tr > 0) {
    const int64_t tr = whole_tr;
    const int64_t tile_bytes = c.shape[P] * tr * br * e;
    const int64_t main_r = nr / tr * tr;
    AssemblyPlan p;
    p.walk = walk;
    p.walk.loops = nest({steps(R, tr, main_r), W, with(R, tr, false)});
    p.level = static_cast<int>(others.size()) + 1;
    p.tile_iterations = W.count * tr;
    if (R.count > main_r) {
      p.regions.push_back(LoopRegion{0, 0, p.walk.loops});
      p.regions.push_back(LoopRegion{main_r * R.in_stride, main_r * R.out_stride,
                                     nest({W, with(R, R.count - main_r, true)})});
    }
    p.tile_plan = tile_plan();
    LoopDim w = W;
    if (W.tail_bit >= 0) {
      p.tile_walk.tail_block_index = {walk.tail_block_index[W.tail_bit]};
      w.tail_bit = 0;
    }
    p.tile_walk.loops = {w, with(R, tr, false)};
    p.piece = c.shape[P] * tr * br;
    p.buffer_elements = p.piece;
    p.stream_out = {0};
    p.stream_buf = {0};
    p.region_elements = p.piece;
    p.span_elements = (c.shape[P] - 1) * plan.in_strides[P] + tr * br;
    p.reason = fmt::format(
        "output lines assembled across tiles of whole output rows (axis {}, {} bytes) x {} blocks of axis {} ({} more "
        "loop nest(s) for the rest): each tile reads {} input bytes (in rows of {} bytes) and writes one contiguous "
        "piece of {} bytes, which the loop over axis {}'s chunks continues; whole lines streamed, the partial last one "
        "carried to the next tile; the next tile's input prefetched",
        P, c.shape[P] * e, tr, I, p.regions.empty() ? 0 : p.regions.size() - 1, tile_bytes, tr * br * e, tile_bytes, I);
    return p;
  }
  // Pieces of about 256 bytes (four lines); then as many blocks of rows as fit the tile, 512
  // streams and input rows of 4 KiB.
  const int64_t tw = std::max<int64_t>(1, 256 / (bw * e));
  int64_t tmax = 0;
  for (int64_t t = 1; t <= nr; ++t) {
    if (t * br > kAssemblyMaxStreams || tw * bw * t * br * e > max_tile_bytes || t * br * e > 4096) break;
    tmax = t;
  }
  // Of tmax / 2 .. tmax blocks of rows, the count that leaves the fewest to the remainder.
  int64_t tr = tmax;
  for (int64_t t = tmax; t >= std::max<int64_t>(1, (tmax + 1) / 2); --t)
    if (nr % t < nr % tr) tr = t;
  const int64_t tile_bytes = tw * bw * tr * br * e;
  if (tr < 1 || tile_bytes < min_tile) return too_small(tile_bytes);
  // Chains of at least 8 tiles, and at most 15% of the elements left to the remainder nests:
  // measured against the cached walk (Zen 4, x best copy, 1 thread), chains of 2-6 tiles or
  // remainders of 29-31% lost 0.72-0.74x (float32 7x51x386x133 (1,0,3,2), uint16 374x460x302
  // (0,2,1), complex64 93x1848x104 reversed), 2-D transposes with long chains gained 1.1-1.6x.
  const int64_t main_w = nw / tw * tw, main_r = nr / tr * tr;
  if (main_w < kChunkMinChain * tw) return no(fmt::format("chains of fewer than {} tiles", kChunkMinChain));
  const double tiled_share = static_cast<double>(main_w * bw) / static_cast<double>(c.shape[P]) *
                             static_cast<double>(main_r * br) / static_cast<double>(c.shape[I]);
  if (tiled_share < 0.85)
    return no(fmt::format("the tiles would cover {:.0f}% of the tensor (less than 85%)", 100 * tiled_share));
  AssemblyPlan p;
  p.walk = walk;
  p.walk.loops = nest({steps(R, tr, main_r), steps(W, tw, main_w), with(W, tw, false), with(R, tr, false)});
  p.level = static_cast<int>(others.size()) + 2;
  p.tile_iterations = tw * tr;
  const int64_t rem_w = W.count - main_w, rem_r = R.count - main_r;
  if (rem_w > 0 || rem_r > 0) {
    p.regions.push_back(LoopRegion{0, 0, p.walk.loops});
    if (rem_w > 0)
      p.regions.push_back(LoopRegion{main_w * W.in_stride, main_w * W.out_stride,
                                     nest({steps(R, tr, main_r), with(W, rem_w, true), with(R, tr, false)})});
    if (rem_r > 0)
      p.regions.push_back(LoopRegion{main_r * R.in_stride, main_r * R.out_stride,
                                     nest({steps(W, tw, main_w), with(W, tw, false), with(R, rem_r, true)})});
    if (rem_w > 0 && rem_r > 0)
      p.regions.push_back(LoopRegion{main_w * W.in_stride + main_r * R.in_stride,
                                     main_w * W.out_stride + main_r * R.out_stride,
                                     nest({with(W, rem_w, true), with(R, rem_r, true)})});
  }
  // The buffer: P keeps its stride (1); I's stride past the piece, congruent to its output
  // stride modulo a line.
  const int64_t piece = tw * bw, streams = tr * br;
  const int64_t v = congruent_stride(piece, plan.out_strides[I], line);
  p.tile_plan = tile_plan();
  p.tile_plan.out_strides[I] = v;
  p.tile_walk.loops = {with(W, tw, false), with(R, tr, false)};
  p.tile_walk.loops[1].out_stride = br * v;
  p.buffer_elements = piece + v * (streams - 1);
  for (int64_t s = 0; s < streams; ++s) {
    p.stream_out.push_back(s * plan.out_strides[I]);
    p.stream_buf.push_back(s * v);
  }
  p.piece = piece;
  p.region_elements = piece * streams;
  p.span_elements = (piece - 1) * plan.in_strides[P] + streams;
  p.reason = fmt::format(
      "output lines assembled across tiles of {} x {} blocks (axis {} in chunks of {}, axis {} in chunks of {}; the "
      "remainders, with the tails, walked without tiles in {} more loop nest(s)): each tile reads {} input bytes (in "
      "rows of {} bytes) and writes a piece of {} bytes to each of {} output streams, which the loop over axis {}'s "
      "chunks continues; whole lines streamed, partial ones carried to the next tile; the next tile's input prefetched",
      tw, tr, P, piece, I, streams, p.regions.empty() ? 0 : p.regions.size() - 1, tile_bytes, streams * e, piece * e,
      streams, P);
  return p;
}

std::optional<AssemblyPlan> plan_row_chain_assembly(const Plan& plan, std::string* why, int64_t max_tile_bytes,
                                                    int64_t min_tile_bytes) {
  const Canonical& c = plan.problem;
  const int d = c.rank();
  const int64_t e = c.elem_bytes;
  auto no = [&](std::string reason) -> std::optional<AssemblyPlan> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  if (d < 3) return no("fewer than three axes");
  const std::optional<InnerBlock> ib = inner_block(plan, why);
  if (!ib) return std::nullopt;
  const int P = ib->P, I = ib->I;
  const int64_t line = ib->line, br = ib->br;
  const BlockLoops& walk = ib->walk;
  const std::vector<LoopDim>& loops = walk.loops;
  const LoopDim W = ib->W, R = ib->R;
  const int64_t row = c.shape[P] * e;
  if (row < kLineBytes || row > kRowChainMaxRowBytes)
    return no(fmt::format("output rows of {} bytes (not {}-{})", row, kLineBytes, kRowChainMaxRowBytes));
  // The chain: the output's next axis, which continues the rows (not the input's innermost one:
  // plan_chunked_assembly takes that).
  int C = -1;
  for (int a = 0; a < d; ++a)
    if (a != P && plan.out_strides[a] == c.shape[P]) C = a;
  if (C < 0 || C == I) return no("the output's next axis is the input's innermost one or none");
  if (c.shape[C] < kChunkMinChain) return no(fmt::format("chains of fewer than {} tiles", kChunkMinChain));
  const auto chain = std::find_if(loops.begin(), loops.end(), [&](const LoopDim& l) { return l.axis == C; });
  if (chain == loops.end() || chain->tail_bit >= 0 || chain->count != c.shape[C])
    return no("the chain's loop is chunked");
  const LoopDim Cl = *chain;
  const int64_t nr = R.tail_bit >= 0 ? R.count - 1 : R.count;
  std::vector<LoopDim> others;
  for (const LoopDim& l : loops)
    if (l.axis != P && l.axis != I && l.axis != C) {
      if (l.tail_bit >= 0) return no("a loop above the tile has a tail");
      others.push_back(l);
    }
  // Blocks of I per tile: the most that fit the tile and 512 streams while the tiles cover at
  // least 85% of I (the rest goes to the remainder nest) and stay at least min_tile.
  const int64_t min_tile = std::max(min_tile_bytes, kSplitMinTileBytes);
  const auto covers = [&](int64_t t) {
    return static_cast<double>(nr / t * t * br) >= 0.85 * static_cast<double>(c.shape[I]);
  };
  int64_t tr = 0;
  for (int64_t t = 1; t <= nr; ++t) {
    if (row * t * br > max_tile_bytes || t * br > kAssemblyMaxStreams) break;
    if (row * t * br >= min_tile && covers(t)) tr = t;
  }
  if (tr < 1)
    return no(fmt::format("no tile of {}-{} bytes covers 85% of axis {} ({})", min_tile, max_tile_bytes, I,
                          c.shape[I]));
  const int64_t tile_bytes = row * tr * br;
  const int64_t main_r = nr / tr * tr;
  const auto steps = tile_steps;
  const auto with = with_count;
  auto nest = [&](std::vector<LoopDim> tail) {
    std::vector<LoopDim> n = others;
    n.insert(n.end(), tail.begin(), tail.end());
    return n;
  };
  AssemblyPlan p;
  p.walk = walk;
  p.walk.loops = nest({steps(R, tr, main_r), Cl, W, with(R, tr, false)});
  p.level = static_cast<int>(others.size()) + 2;
  p.tile_iterations = W.count * tr;
  if (R.count > main_r) {
    p.regions.push_back(LoopRegion{0, 0, p.walk.loops});
    p.regions.push_back(
        LoopRegion{main_r * R.in_stride, main_r * R.out_stride, nest({Cl, W, with(R, R.count - main_r, true)})});
  }
  // The buffer: P keeps its stride (1); I's stride past the row, congruent to its output stride
  // modulo a line; the loops above the tile do not move it.
  const int64_t streams = tr * br;
  const int64_t v = congruent_stride(c.shape[P], plan.out_strides[I], line);
  p.tile_plan = plan;
  for (int a = 0; a < d; ++a)
    if (a != P && a != I) p.tile_plan.out_strides[a] = 0;
  p.tile_plan.out_strides[I] = v;
  LoopDim w = W;
  if (W.tail_bit >= 0) {
    p.tile_walk.tail_block_index = {walk.tail_block_index[W.tail_bit]};
    w.tail_bit = 0;
  }
  p.tile_walk.loops = {w, with(R, tr, false)};
  p.tile_walk.loops[1].out_stride = br * v;
  p.buffer_elements = c.shape[P] + v * (streams - 1);
  for (int64_t s = 0; s < streams; ++s) {
    p.stream_out.push_back(s * plan.out_strides[I]);
    p.stream_buf.push_back(s * v);
  }
  p.piece = c.shape[P];
  p.region_elements = c.shape[P] * streams;
  p.span_elements = (c.shape[P] - 1) * plan.in_strides[P] + streams;
  p.reason = fmt::format(
      "output lines assembled across tiles of whole output rows (axis {}, {} bytes) x {} blocks of axis {} ({} more "
      "loop nest(s) for the rest): each tile reads {} input bytes (in rows of {} bytes) and writes a row to each of "
      "{} output streams, which the loop over axis {} (the output's next axis) continues; whole lines streamed, "
      "partial ones carried to the next tile; the next tile's input prefetched",
      P, row, tr, I, p.regions.empty() ? 0 : p.regions.size() - 1, tile_bytes, streams * e, streams, C);
  return p;
}

AssemblyChoice choose_assembly(const Plan& plan, const std::function<bool()>& cached_walk_stages,
                               int64_t max_tile_bytes, int64_t min_tile_bytes) {
  AssemblyChoice c;
  c.assembly = plan_assembly(plan, &c.whole_why, max_tile_bytes, min_tile_bytes);
  // Strided tiles give way to staged output where the cached walk writes contiguous tiles:
  // oddlarge float64 14x3x60x25x72 (3,2,4,1,0) ran 0.48 -> 0.35 of the best copy assembled.
  if (c.assembly && c.assembly->span_elements != c.assembly->region_elements && cached_walk_stages()) {
    c.assembly.reset();
    c.staged = true;
    c.whole_why = "a strided tile, where the cached walk's tiles are staged (below)";
    c.why = c.whole_why;
    return c;
  }
  // Strided tiles of short input rows take longer ones from a split of the axis that continues
  // them (plan_longer_rows), in tiles of up to kLongerRowsMaxTileBytes.
  if (c.assembly) {
    if (std::optional<SplitAssembly> l =
            plan_longer_rows(plan, *c.assembly, nullptr, {}, kLongerRowsMaxTileBytes, min_tile_bytes)) {
      if (l->split.empty()) {  // the axis whole: no split problem
        c.assembly = std::move(l->assembly);
      } else {
        c.whole_why = fmt::format("its tiles of whole axes read input rows of {} bytes",
                                  c.assembly->run_elements * plan.problem.elem_bytes);
        c.split = std::move(l);
        c.assembly = c.split->assembly;
      }
    }
    return c;
  }
  std::string split_why, chunk_why;
  // Split problems of a short kept axis give way to staged output too: uint8 (149,13,6,88,57)
  // (2,0,3,1,4), rows of 57 bytes, 0.61 -> 0.44 of the best copy assembled from the split. So do
  // those of a short output row: float32 (1008,10,26,88) (0,3,2,1) 0.60 -> 0.46.
  if ((kept_row_bytes(plan) > 0 || short_output_row(plan) > 0) && cached_walk_stages()) {
    split_why = std::string(kept_row_bytes(plan) > 0 ? "a kept innermost axis" : "a short output row") +
                ", where the cached walk's tiles are staged (below)";
    c.staged = true;
  } else {
    c.split = plan_split_assembly(plan, &split_why, max_tile_bytes, min_tile_bytes);
  }
  if (c.split) {
    if (std::optional<SplitAssembly> l = plan_longer_rows(c.split->plan, c.split->assembly, nullptr, c.split->split,
                                                          kLongerRowsMaxTileBytes, min_tile_bytes))
      c.split = std::move(l);
    c.assembly = c.split->assembly;
    return c;
  }
  c.assembly = plan_chunked_assembly(plan, &chunk_why, max_tile_bytes, min_tile_bytes);
  if (c.assembly) return c;
  std::string chain_why = "the cached walk stages its output";
  // Row chains take tiles of up to twice the others' (their buffer stays in L2): 128 KiB against
  // 64 made 13 of 18 such problems faster, 1.05-3.5x (uint16 (183,804,238) reversed 0.11 -> 0.40,
  // float32 (110,11,148,121) (3,1,0,2) 0.34 -> 0.50), 2 slower (0.89-0.93x).
  if (!cached_walk_stages())
    c.assembly = plan_row_chain_assembly(plan, &chain_why, 2 * max_tile_bytes, min_tile_bytes);
  if (c.assembly) return c;
  // The last resort: a split that cuts input rows of 2 KiB or less too, where the whole row made
  // no tile fit (uint16 (3,4096,790) reversed: pieces of 32 x 3 elements need rows of 158).
  // Run-time library, Intel server core, 1 thread, x best copy (ABBA, the 4 of 392 problems of
  // the bench and /tmp sets it changes): that case 0.26 -> 0.44, float32 (40,2,1397,11,22)
  // (3,4,0,2,1) 0.25 -> 0.37, (282,543,125) (0,2,1) 0.33 -> 0.46, float64 (111,11,17,114,2)
  // (3,1,2,0,4) 0.61 -> 0.75. Tried before the chunked and row-chain forms, it lost where those
  // apply (uint8 (425,571,328) reversed 0.22 -> 0.18, float64 (114,217,209) 0.66 -> 0.57).
  std::string short_why;
  if (!c.staged && !cached_walk_stages()) {
    c.split = plan_split_assembly(plan, &short_why, max_tile_bytes, min_tile_bytes, true);
    if (c.split) {
      c.assembly = c.split->assembly;
      return c;
    }
  }
  c.why = c.whole_why + "; split: " + split_why + "; chunked: " + chunk_why + "; row chains: " + chain_why;
  return c;
}

}  // namespace gentt
