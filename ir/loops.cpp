#include "ir/loops.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/compile.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/row_order.h"

namespace gentt {

std::vector<LoopRegion> Kernel::nests() const {
  if (!regions.empty()) return regions;
  return {LoopRegion{0, 0, loops}};
}

int64_t LoopRegion::iterations() const {
  int64_t n = 1;
  for (const auto& l : loops) n *= l.count;
  return n;
}

int64_t Kernel::iterations() const {
  int64_t total = 0;
  for (const auto& g : nests()) total += g.iterations();
  return total;
}

namespace {

// streaming_order: nests whose loops all have at most this many iterations keep input order.
constexpr int64_t kShortLoopCount = 4;

// LoopOrder::balanced_streaming reads at most this many input rows at once where the rows can
// be read on first within kReadRunBytes. Alternating between the input's and the output's
// next axis, the full reversals of TTC multiplied the rows a tile reads at once by every chunk
// of the output row (32-112 rows of 128-448 bytes), more than the hardware prefetchers follow;
// reading 16 rows on for up to 16 KiB first, and only then the other chunks of the output rows,
// measured (Zen 4, generated kernels, same process, x best copy, 1 thread): AVX-512 TTC
// (32,15,15,15,15,32) reversed 0.40 -> 0.82, (112,15,15,15,5,32) 0.36 -> 0.83, (48,28,28,28,48)
// 0.43 -> 0.62, 16^6 float64 (3,5,2,4,0,1) 0.31 -> 0.69, (4,3,5,0,1,2) 0.29 -> 0.57, 64^4
// float32 reversed 0.35 -> 0.56; AVX2 1.8-2.6x on the same cases; no changed kernel of the
// TTC, TTLG, gentt, seed 002 or midsize sets slower beyond noise (0.98x at worst). A run
// budget of 16 KiB in place of the row limit (every streaming walk) lost up to 0.37x (16^6
// (5,2,3,4,1,0), whose 16 rows read on for 512 KiB). Runs of up to 64 KiB (was 16 KiB; Intel
// server core, run-time engine, same process, x best copy, 1 thread): TTC 96x75x75x96 reversed
// 0.55 -> 0.87, 96x75x12x608 reversed 0.60 -> 0.75, 352x28x28x4x48 reversed 0.59 -> 0.78,
// 32x15x15x15x15x32 reversed 0.67 -> 0.83, 32x15x15x15x5x112 reversed 0.62 -> 0.83 (0.64 with
// 32 KiB); TTC median 0.86 -> 0.87; 16^6 float64 (3,5,2,4,0,1) 0.71 -> 0.95, float64 64^4
// reversed 0.74 -> 0.86; no case of the TTC, TTLG, llc, oddlarge or midsize sets slower beyond
// their noise. AVX2 engine: TTC median 0.78 -> 0.81 (96x75x12x608 reversed 0.54 -> 0.75),
// 16^5x4 float64 (4,3,5,0,1,2) 0.57 -> 0.87; float64 64^4 reversed 0.75 -> 0.69.
constexpr int64_t kMaxReadRows = 16;
constexpr int64_t kReadRunBytes = int64_t{64} << 10;
// Where the output's next loop would take the rows a tile reads at once past kMaxOpenRows (and
// the rule above does not take the input's next loop: the rows are more than 16 already, as in
// blocks of 1- and 2-byte elements, or each row's run would pass 64 KiB), the input's next loop
// comes first whatever its run. Seed 002's uint16 (6,7,3,4,5,0,1,2) (canonical (768, 6144, 60)
// reversed) read 768 rows of 120 bytes at once, each row's next 120 bytes only after the other
// 767 rows' (the output row's 24 chunks inside the loop over the input's next axis). Generated
// kernels, Intel server core, 1 thread, x best copy, ABBA of 2 processes: for rows already past
// 16, AVX-512 0.22 -> 0.53 (run-time library 0.20 -> 0.41), TTC's float32 reversals
// (48,28,28,28,48), (48,28,28,4,352), (32,15,15,15,15,32), (32,15,15,15,5,112) 1.02-1.10x, uint8
// 256^3 reversed 1.04x, float32 32^5 reversed 0.95x; then for rows of at most 16 whose run passes
// 64 KiB too (22 kernels, AVX-512 and AVX2, geomean 1.11x): TTLG 16^6 float64 (4,3,5,0,1,2)
// 0.62 -> 0.86, (5,4,2,3,0,1) 0.64 -> 0.84, TTC float32 (608,75,12,96) reversed 0.58 -> 0.78,
// (112,15,15,15,5,32) 0.66 -> 0.85, (384,59,2320) 0.60 -> 0.73, AVX2 (2320,59,384) 0.61 -> 0.78,
// gentt's (128,64,32,16) reversed 0.67 -> 0.86; losses AVX2 float32 (1024,16,1024) reversed
// 0.63 -> 0.59, 16^6 float64 (3,5,2,4,0,1) 0.98x. (Before the 16-row rule above, a bound of
// 256 rows alone cost TTC's reversals 0.63-0.92x: docs/performance.md, 2026-11-24.)
constexpr int64_t kMaxOpenRows = 64;

// The number of elements of the contiguous run that starts at a block's base, along
// `strides` (the input's or the output's), when the block and the loops inside cover
// `covered[a]` elements of each axis a: axes are taken by increasing stride while each
// continues the run (its stride is the run so far) and the ones before it are whole.
int64_t contiguous_run(const std::vector<int64_t>& strides, const std::vector<int64_t>& extents,
                       const std::vector<int64_t>& covered, const std::vector<int>& by_stride) {
  int64_t run = 1;
  for (int a : by_stride) {
    if (std::llabs(strides[a]) != run) break;
    run *= covered[a];
    if (covered[a] < extents[a]) break;
  }
  return run;
}

std::vector<int> axes_by_stride(const std::vector<int64_t>& strides) {
  std::vector<int> axes(strides.size());
  for (size_t a = 0; a < axes.size(); ++a) axes[a] = static_cast<int>(a);
  std::stable_sort(axes.begin(), axes.end(),
                   [&](int x, int y) { return std::llabs(strides[x]) < std::llabs(strides[y]); });
  return axes;
}

}  // namespace

BlockLoops make_block_loops(const Plan& plan, LoopOrder order) {
  const Canonical& c = plan.problem;
  bool read_rows_limited = false;
  struct Walk {
    LoopDim dim;
    int block_index;  // -1: not a block axis
    int axis;
  };
  std::vector<Walk> walks;
  for (int a = 0; a < c.rank(); ++a) {
    const BlockAxis* b = plan.find_block_axis(a);
    if (!b) {
      walks.push_back({LoopDim{c.shape[a], plan.in_strides[a], plan.out_strides[a], -1,
                               fmt::format(FMT_COMPILE("axis {}"), a)},
                       -1, a});
    } else if (b->chunk < b->extent) {
      const auto j = static_cast<int>(b - plan.block_axes.data());
      walks.push_back({LoopDim{b->chunks(), b->chunk * plan.in_strides[a], b->chunk * plan.out_strides[a], -1,
                               b->tail() ? fmt::format(FMT_COMPILE("axis {} in chunks of {} (last: {})"), a, b->chunk,
                                                       b->tail())
                                         : fmt::format(FMT_COMPILE("axis {} in chunks of {}"), a, b->chunk)},
                       j, a});
    }
  }
  if (order == LoopOrder::balanced || order == LoopOrder::balanced_streaming) {
    // From the block outwards: each step takes the loop over the first axis, in input order,
    // that the block and the loops taken so far do not cover whole (it continues the input's
    // run), or the same in output order: the input's where its run is the shorter, the
    // output's otherwise. Where both runs are one short row (a kept axis: rows copied whole),
    // the input's too: the next rows then lie next to it in the input, so the reads stay
    // sequential for the prefetchers; the writes scatter over a few places instead. Measured
    // on TTLG's kept-axis cases (rows of 120 and 136 bytes): 1.1-1.36x; rows of 2312 bytes
    // (17^6 float64 axes 3,2,0,1,4,5) ran at 0.8 of output order that way. But where output
    // order reaches the input's next axis within kRowReuseBytes of output, output order reads
    // every line once too and writes in order (ir/row_order.h): Zen 4, AVX-512, 1 thread:
    // 15^6 (2,0,3,4,1,5) 1.81x, (0,3,2,4,1,5) 1.44x, (3,4,1,2,0,5) 1.24x, 17^6 (2,4,1,3,0,5)
    // 1.36x, (3,1,4,2,0,5) 1.30x; 15^6 (2,4,3,1,0,5) 0.88x. Where the next row comes back only
    // after 6 MB (15^6 (4,0,3,1,2,5)), output order ran at 0.66x.
    std::vector<int64_t> covered(c.rank(), 1);
    for (const auto& b : plan.block_axes) covered[b.axis] = std::min(b.chunk, b.extent);
    const std::vector<int> in_axes = axes_by_stride(plan.in_strides), out_axes = axes_by_stride(plan.out_strides);
    auto first_open = [&](const std::vector<int>& axes) {
      for (int a : axes)
        if (covered[a] < c.shape[a]) return a;
      return -1;
    };
    std::vector<Walk> inside_out;
    while (inside_out.size() < walks.size()) {
      const int in_axis = first_open(in_axes), out_axis = first_open(out_axes);
      const int64_t in_run = contiguous_run(plan.in_strides, c.shape, covered, in_axes);
      const int64_t out_run = contiguous_run(plan.out_strides, c.shape, covered, out_axes);
      int64_t unit = 1;  // elements the block and the loops so far cover
      for (int64_t n : covered) unit *= n;
      // Output bytes that output order would walk before it steps the input's next axis.
      int64_t reuse = unit * c.elem_bytes;
      for (int a : out_axes) {
        if (a == in_axis) break;
        if (covered[a] < c.shape[a]) reuse *= c.shape[a];
      }
      const bool short_row = in_run == unit && out_run == unit && rows_follow_input(in_run * c.elem_bytes, reuse);
      const bool reads_first = order == LoopOrder::balanced_streaming && in_run == out_run;
      int axis = in_axis != out_axis && (in_run < out_run || short_row || reads_first) ? in_axis : out_axis;
      // Streaming walks, where the output's next loop would make the tile read more input rows
      // at once (the separate runs it reads): the input's next loop first, so that every row is
      // read on before the walk turns to other rows, where the tile reads at most kMaxReadRows
      // rows and the input's next loop keeps each row's run within kReadRunBytes, or where the
      // output's would take the rows past kMaxOpenRows (blocks of 1- and 2-byte elements read
      // 32-64 themselves), whatever the run.
      const int64_t rows_now = unit / in_run;
      if (order == LoopOrder::balanced_streaming && axis == out_axis && in_axis >= 0 && in_axis != out_axis) {
        const int64_t rows = rows_now * ((c.shape[out_axis] + covered[out_axis] - 1) / covered[out_axis]);
        const auto run_bytes = [&] {
          std::vector<int64_t> longer = covered;
          longer[in_axis] = c.shape[in_axis];
          return contiguous_run(plan.in_strides, c.shape, longer, in_axes) * c.elem_bytes;
        };
        const bool few_rows_read_on = rows_now <= kMaxReadRows && rows > kMaxReadRows && run_bytes() <= kReadRunBytes;
        const bool too_many_rows = rows_now <= kMaxOpenRows && rows > kMaxOpenRows;
        if (few_rows_read_on || too_many_rows) {
          axis = in_axis;
          read_rows_limited = true;
        }
      }
      // Every axis already whole leaves only loops of extent 1 (a one-element tensor): take them
      // in the given order.
      if (axis < 0)
        for (const Walk& w : walks)
          if (std::none_of(inside_out.begin(), inside_out.end(), [&](const Walk& x) { return x.axis == w.axis; })) {
            axis = w.axis;
            break;
          }
      inside_out.push_back(*std::find_if(walks.begin(), walks.end(), [&](const Walk& w) { return w.axis == axis; }));
      covered[axis] = c.shape[axis];
    }
    walks.assign(inside_out.rbegin(), inside_out.rend());
  } else if (order == LoopOrder::input) {
    std::stable_sort(walks.begin(), walks.end(),
                     [](const Walk& x, const Walk& y) { return x.dim.in_stride > y.dim.in_stride; });
  } else {
    std::stable_sort(walks.begin(), walks.end(),
                     [](const Walk& x, const Walk& y) { return x.dim.out_stride > y.dim.out_stride; });
  }
  BlockLoops out;
  out.read_rows_limited = read_rows_limited;
  for (auto& w : walks) {
    if (w.block_index >= 0 && plan.block_axes[w.block_index].tail()) {
      w.dim.tail_bit = static_cast<int>(out.tail_block_index.size());
      out.tail_block_index.push_back(w.block_index);
    }
    w.dim.axis = w.axis;
    out.loops.push_back(w.dim);
  }
  return out;
}

LoopOrder streaming_order(const Plan& plan) {
  const BlockLoops in_order = make_block_loops(plan, LoopOrder::input);
  if (in_order.loops.size() < 2) return LoopOrder::input;
  const auto next_out =
      std::min_element(in_order.loops.begin(), in_order.loops.end(), [](const LoopDim& x, const LoopDim& y) {
        return std::llabs(x.out_stride) < std::llabs(y.out_stride);
      });
  if (next_out != in_order.loops.begin()) return LoopOrder::input;
  // Loops of a few iterations each (all-size-2 tensors, some axes fused in pairs): walking from
  // the block outwards alternates between the input's and the output's next axis at every
  // level, so each of the block's rows is read in runs of a few lines only; input order reads
  // them in long runs, and the streamed lines need no write locality (Zen 4, AVX-512, 2^24
  // float32, run-time engine: reversed 0.14 -> 0.45 of the best copy, two random axis orders
  // 0.40 -> 0.72 and 0.25 -> 0.55; generated kernels 2^24 and 2^26 reversed 2.0-2.2x, AVX2 2.9x).
  if (std::all_of(in_order.loops.begin(), in_order.loops.end(),
                  [](const LoopDim& l) { return l.count <= kShortLoopCount; }))
    return LoopOrder::input;
  // Said as input order where both orders give the same nest (a 2-D transpose's short loops).
  const BlockLoops balanced = make_block_loops(plan, LoopOrder::balanced_streaming);
  for (size_t d = 0; d < balanced.loops.size(); ++d)
    if (balanced.loops[d].what != in_order.loops[d].what) return LoopOrder::balanced_streaming;
  return LoopOrder::input;
}

const char* order_text(LoopOrder order) {
  switch (order) {
    case LoopOrder::output: return "in output order";
    case LoopOrder::input: return "in input order";
    case LoopOrder::balanced: return "from the block outwards";
    case LoopOrder::balanced_streaming: return "from the block outwards, reads first";
  }
  return "";
}

std::vector<int64_t> valid_extents(const Plan& plan, const BlockLoops& loops, int tail_mask, std::string* what) {
  std::vector<int64_t> valid;
  for (const auto& b : plan.block_axes) valid.push_back(std::min(b.chunk, b.extent));
  std::vector<std::string> tails;
  for (size_t t = 0; t < loops.tail_block_index.size(); ++t) {
    if (!((tail_mask >> t) & 1)) continue;
    const auto& b = plan.block_axes[loops.tail_block_index[t]];
    valid[loops.tail_block_index[t]] = b.tail();
    if (what) tails.push_back(fmt::format(FMT_COMPILE("axis {} tail ({} of {})"), b.axis, b.tail(), b.chunk));
  }
  if (what) *what = tails.empty() ? "full blocks" : fmt::format("{}", fmt::join(tails, ", "));
  return valid;
}

}  // namespace gentt
