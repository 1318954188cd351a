#include "ir/interpret.h"

#include <cstring>
#include <vector>

#include "ir/error.h"

namespace gentt {

namespace {

// Runs one block program at the given bases; registers are byte arrays of lanes * elem_bytes.
void run_program(const Kernel& k, const BlockProgram& p, const unsigned char* in, unsigned char* out,
                 std::vector<std::vector<unsigned char>>& values) {
  const size_t e = static_cast<size_t>(k.elem_bytes);
  values.resize(p.num_values);
  for (auto& v : values) v.assign(static_cast<size_t>(k.lanes) * e, 0);
  for (const Op& op : p.ops) {
    switch (op.kind) {
      case OpKind::load:
        std::memcpy(values[op.dst].data(), in + op.offset * e, op.count * e);
        break;
      case OpKind::shuffle: {
        auto& dst = values[op.dst];
        for (int l = 0; l < k.lanes; ++l) {
          const int i = op.index[l];
          if (i < 0) continue;
          const auto& src = i < k.lanes ? values[op.a] : values[op.b];
          std::memcpy(dst.data() + l * e, src.data() + (i % k.lanes) * e, e);
        }
        break;
      }
      case OpKind::store:
        std::memcpy(out + op.offset * e, values[op.src].data(), op.count * e);
        break;
    }
  }
}

}  // namespace

namespace {

// Flat iterations [begin, end) of one loop nest whose blocks start at (in_off, out_off).
template <class Run>
void walk_nest(const Kernel& k, const std::vector<LoopDim>& loops, int64_t in_off, int64_t out_off, int64_t begin,
               int64_t end, Run run) {
  const size_t d = loops.size();
  if (d == 0) return run(k.programs.at(0), in_off, out_off);

  // Decode the first iteration; then walk runs of the innermost loop as kernel.h describes.
  std::vector<int64_t> idx(d, 0);
  for (int64_t rest = begin, i = static_cast<int64_t>(d) - 1; i >= 0; --i) {
    idx[i] = rest % loops[i].count;
    rest /= loops[i].count;
  }
  auto base = [&](bool input) {
    int64_t b = input ? in_off : out_off;
    for (size_t i = 0; i < d; ++i) b += idx[i] * (input ? loops[i].in_stride : loops[i].out_stride);
    return b;
  };
  const LoopDim& inner = loops[d - 1];
  int64_t& j = idx[d - 1];
  for (int64_t it = begin; it < end;) {
    const int64_t stop = j + std::min(inner.count - j, end - it);
    it += stop - j;
    int program = 0;
    for (size_t i = 0; i + 1 < d; ++i)
      if (loops[i].tail_bit >= 0 && idx[i] == loops[i].count - 1) program |= 1 << loops[i].tail_bit;
    const int64_t full_end = inner.tail_bit >= 0 ? std::min(stop, inner.count - 1) : stop;
    for (; k.unroll > 1 && j + k.unroll <= full_end; j += k.unroll) run(k.unrolled.at(program), base(true), base(false));
    for (; j < full_end; ++j) run(k.programs.at(program), base(true), base(false));
    if (j < stop) {
      run(k.programs.at(program | (1 << inner.tail_bit)), base(true), base(false));
      ++j;
    }
    // Carry into the outer loops.
    for (size_t i = d - 1; i > 0 && idx[i] == loops[i].count; --i) {
      idx[i] = 0;
      ++idx[i - 1];
    }
  }
}

}  // namespace

void interpret_part(const Kernel& k, const void* in, void* out, int part, int nparts) {
  GENTT_CHECK(nparts >= 1 && part >= 0 && part < nparts, "part out of range");
  const int64_t total = k.iterations();
  auto begin_of = [&](int64_t p) { return (total / nparts) * p + std::min<int64_t>(p, total % nparts); };
  const int64_t begin = begin_of(part), end = begin_of(part + 1);
  if (begin >= end) return;
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  std::vector<std::vector<unsigned char>> values;
  auto run = [&](const BlockProgram& p, int64_t in_base, int64_t out_base) {
    run_program(k, p, src + in_base * k.elem_bytes, dst + out_base * k.elem_bytes, values);
  };
  // The nests' flat iterations follow one another (kernel.h, regions).
  int64_t start = 0;
  for (const auto& g : k.nests()) {
    const int64_t n = g.iterations();
    const int64_t lo = std::max(begin, start), hi = std::min(end, start + n);
    if (lo < hi) walk_nest(k, g.loops, g.in_offset, g.out_offset, lo - start, hi - start, run);
    start += n;
  }
}

void interpret(const Kernel& k, const void* in, void* out) { interpret_part(k, in, out, 0, 1); }

}  // namespace gentt
