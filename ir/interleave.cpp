#include "ir/interleave.h"

#include <algorithm>

#include <fmt/format.h>

#include "ir/stream.h"

namespace gentt {

int64_t interleave_channels(const Canonical& c, int lanes, int64_t out_bytes, bool asked, bool vbmi) {
  const int d = c.rank();
  const int64_t e = c.elem_bytes;
  if (d < 2 || (e != 1 && e != 2 && e != 4 && e != 8) || (e == 1 && !vbmi)) return 0;
  if (lanes * e != kLineBytes && lanes * e != kLineBytes / 2) return 0;  // AVX-512's or AVX2's vectors
  const int channel = c.perm[d - 1];
  if (channel == d - 1 || c.perm[d - 2] != d - 1) return 0;
  const int64_t ch = c.shape[channel];
  if (ch < 3 || ch > 15 || (ch & (ch - 1)) == 0 || ch * e >= kLineBytes) return 0;
  if (c.shape[d - 1] < kInterleaveMinVectors * lanes) return 0;
  if (ch != 3 && !asked && out_bytes < kStreamMinBytes) return 0;
  // AVX2 (half-line vectors) shuffles bytes and words in 16-byte lanes, four vpshufb and three
  // blends a two-source shuffle: past 7 planes of them the chains cost more than the butterfly
  // (uint8 (13,1e7) (1,0) 12.5 -> 9.5 GB/s, uint16 (13,5e6) 12.2 -> 12.1; float32 (12,4e6) 18.8 ->
  // 23.6).
  if (lanes * e < kLineBytes && e < 4 && ch > 7) return 0;
  return ch;
}

namespace {

// The block program of `pixels` (1..lanes) pixels of each of `ch` planes `plane` elements apart:
// loads, the shuffle chains, the stores of the pixels * ch output elements.
BlockProgram interleave_program(int64_t ch, int64_t plane, int lanes, int64_t pixels, bool streaming) {
  BlockProgram p;
  p.what = pixels == lanes ? "full" : fmt::format("the pixel axis' tail ({} of {})", pixels, lanes);
  int next = 0;
  for (int64_t c = 0; c < ch; ++c) {
    Op load;
    load.kind = OpKind::load;
    load.dst = next++;
    load.offset = c * plane;
    load.count = static_cast<int>(pixels);
    p.ops.push_back(load);
  }
  const int64_t elements = pixels * ch;
  for (int64_t j = 0; j * lanes < elements; ++j) {
    const int count = static_cast<int>(std::min<int64_t>(lanes, elements - j * lanes));
    // Lane t of output vector j is element q = j * lanes + t: pixel q / ch of channel q % ch.
    // Shuffle k (k = 1..ch-1) adds channel k's lanes from plane k (source b) to those of channels
    // below k (from plane 0 and 1 for the first, from the chain's value after).
    int acc = 0;  // plane 0's value
    for (int64_t k = 1; k < ch; ++k) {
      Op sh;
      sh.kind = OpKind::shuffle;
      sh.a = acc;
      sh.b = static_cast<int>(k);
      sh.dst = next++;
      sh.index.assign(static_cast<size_t>(lanes), -1);
      for (int t = 0; t < count; ++t) {
        const int64_t q = j * lanes + t, pixel = q / ch, channel = q % ch;
        if (channel == k)
          sh.index[static_cast<size_t>(t)] = lanes + static_cast<int>(pixel);
        else if (channel < k)
          sh.index[static_cast<size_t>(t)] = k == 1 ? static_cast<int>(pixel) : t;
      }
      p.ops.push_back(sh);
      acc = sh.dst;
    }
    Op store;
    store.kind = OpKind::store;
    store.src = acc;
    store.offset = j * lanes;
    store.count = count;
    store.stream = streaming && count == lanes;
    p.ops.push_back(store);
  }
  p.num_values = next;
  return p;
}

}  // namespace

std::optional<Kernel> lower_interleave(const Plan& plan, const std::string& name, bool streaming) {
  const Canonical& c = plan.problem;
  const int d = c.rank(), lanes = plan.lanes;
  const int channel = c.perm[d - 1];
  const int64_t ch = c.shape[channel], n = c.shape[d - 1];
  const std::vector<int64_t>& in_strides = plan.in_strides;
  const std::vector<int64_t>& out_strides = plan.out_strides;

  Kernel k;
  k.name = name;
  k.elem_bytes = c.elem_bytes;
  k.lanes = lanes;
  k.in_elements = 1;
  for (int64_t x : c.shape) k.in_elements *= x;
  // The other axes in output order (outermost first), then the pixels in chunks of a vector.
  for (int k_out = 0; k_out < d - 2; ++k_out) {
    const int a = c.perm[k_out];
    k.loops.push_back(LoopDim{c.shape[a], in_strides[a], out_strides[a], -1, fmt::format("axis {}", a), a});
  }
  const int64_t rest = n % lanes;
  k.loops.push_back(LoopDim{(n + lanes - 1) / lanes, lanes, lanes * ch, rest ? 0 : -1,
                            fmt::format("axis {} in chunks of {}{}", d - 1, lanes,
                                        rest ? fmt::format(" (last: {})", rest) : std::string()),
                            d - 1});
  k.programs.push_back(interleave_program(ch, in_strides[channel], lanes, lanes, streaming));
  if (rest) k.programs.push_back(interleave_program(ch, in_strides[channel], lanes, rest, streaming));
  k.order = "in output order (the other axes), the pixels innermost";
  k.tiling = "loops: no cache tiles (interleaved planes read and written in order)";
  k.interleave = fmt::format(
      "interleaved planes: {} planes of {} elements (axis {}) into each output row; a block is {} pixels of each "
      "plane: {} loads, {} two-source shuffles, {} whole-vector stores",
      ch, n, channel, lanes, ch, ch * (ch - 1), ch);
  if (streaming && !nests_off_lines(k).empty()) return std::nullopt;
  return k;
}

}  // namespace gentt
