// The loop nest around the block programs, walked at run time: an odometer over the flat
// iterations [begin, end) (the part of a thread), base pointers stepped incrementally (no
// division per block), and the program chosen by which loops are on their tail chunk. The same
// rules as the generated kernels' NAME_run (docs/ir.md: loops, tail bits, parts).
#pragma once

#include <cstdint>

namespace gentt::engine {

struct WalkLoop {
  std::int64_t count = 1;
  std::int64_t in_step = 0;   // bytes
  std::int64_t out_step = 0;  // bytes
  int tail_bit = -1;
};

// An engine compiled for an instruction set by function attributes defines GENTT_WALK_TARGET to
// the same attribute before including this header, so that its block body inlines into the walk
// (walk is a template over the engine's own block type: no other instantiation is affected).
#ifndef GENTT_WALK_TARGET
#define GENTT_WALK_TARGET
#endif

// Calls block(program, in_base, out_base) for every flat iteration in [begin, end).
template <class Block>
GENTT_WALK_TARGET __attribute__((always_inline)) inline void walk(const WalkLoop* loops, int depth, std::int64_t begin,
                                                std::int64_t end, const char* in, char* out, Block& block) {
  if (begin >= end) return;
  if (depth == 0) {
    block(0, in, out);
    return;
  }
  constexpr int kMaxDepth = 64;
  std::int64_t idx[kMaxDepth];
  if (begin == 0) {  // the common whole-tensor call: no division
    for (int d = 0; d < depth; ++d) idx[d] = 0;
  } else {
    std::int64_t rest = begin;
    for (int d = depth - 1; d >= 0; --d) {
      idx[d] = rest % loops[d].count;
      rest /= loops[d].count;
    }
    for (int d = 0; d < depth; ++d) {
      in += idx[d] * loops[d].in_step;
      out += idx[d] * loops[d].out_step;
    }
  }
  const int last = depth - 1;
  const WalkLoop inner = loops[last];
  const int inner_tail = inner.tail_bit >= 0 ? 1 << inner.tail_bit : 0;
  bool outer_tails = false;
  for (int d = 0; d < last; ++d) outer_tails |= loops[d].tail_bit >= 0;
  for (std::int64_t it = begin; it < end;) {
    int outer_program = 0;
    if (outer_tails)
      for (int d = 0; d < last; ++d)
        if (loops[d].tail_bit >= 0 && idx[d] == loops[d].count - 1) outer_program |= 1 << loops[d].tail_bit;
    // One run of the innermost loop, to its end or to the part's end.
    const std::int64_t stop = idx[last] + (end - it < inner.count - idx[last] ? end - it : inner.count - idx[last]);
    it += stop - idx[last];
    const std::int64_t full_stop = inner_tail && stop == inner.count ? stop - 1 : stop;
    std::int64_t i = idx[last];
    for (; i < full_stop; ++i, in += inner.in_step, out += inner.out_step) block(outer_program, in, out);
    if (i < stop) {
      block(outer_program | inner_tail, in, out);
      ++i, in += inner.in_step, out += inner.out_step;
    }
    idx[last] = i;
    if (last == 0 || i < inner.count) continue;
    // Carry: rewind the innermost loop and step the next, and so on outwards.
    int d = last;
    while (d > 0 && idx[d] == loops[d].count) {
      in -= loops[d].count * loops[d].in_step;
      out -= loops[d].count * loops[d].out_step;
      idx[d] = 0;
      --d;
      ++idx[d];
      in += loops[d].in_step;
      out += loops[d].out_step;
    }
  }
}

// Part p of n of t flat iterations: balanced, disjoint, covering (docs/ir.md, "Parts").
inline std::int64_t part_begin(std::int64_t t, std::int64_t p, std::int64_t n) {
  return (t / n) * p + (p < t % n ? p : t % n);
}

}  // namespace gentt::engine
