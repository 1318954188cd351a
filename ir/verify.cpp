#include "ir/verify.h"

#include <bit>

#include <fmt/format.h>

#include "ir/bits.h"
#include "ir/error.h"
#include "ir/stream.h"

namespace gentt {

namespace {

[[noreturn]] void fail(const Kernel& k, const std::string& what) {
  throw InternalError(fmt::format("IR verifier: kernel {}: {}", k.name, what));
}

void verify_program(const Kernel& k, size_t pi, int64_t max_in_base, int64_t max_out_base,
                    const std::vector<BlockProgram>& programs) {
  const BlockProgram& p = programs[pi];
  std::vector<bool> defined(p.num_values, false);
  auto use = [&](int v, size_t oi) {
    if (v < 0 || v >= p.num_values || !defined[v])
      fail(k, fmt::format("program {} op {}: value v{} used before it is defined", pi, oi, v));
  };
  auto def = [&](int v, size_t oi) {
    if (v < 0 || v >= p.num_values) fail(k, fmt::format("program {} op {}: bad value v{}", pi, oi, v));
    if (defined[v]) fail(k, fmt::format("program {} op {}: v{} defined twice", pi, oi, v));
    defined[v] = true;
  };
  auto access = [&](const Op& op, size_t oi, int64_t max_base, const char* tensor) {
    if (op.count < 1 || op.count > k.lanes)
      fail(k, fmt::format("program {} op {}: count {} not in 1..{}", pi, oi, op.count, k.lanes));
    if (op.offset < 0 || max_base + op.offset + op.count > k.in_elements)
      fail(k, fmt::format("program {} op {}: {} access [{}, {}) beyond the tensor ({} elements)", pi, oi,
                          tensor, max_base + op.offset, max_base + op.offset + op.count, k.in_elements));
  };
  for (size_t oi = 0; oi < p.ops.size(); ++oi) {
    const Op& op = p.ops[oi];
    switch (op.kind) {
      case OpKind::load:
        access(op, oi, max_in_base, "input");
        def(op.dst, oi);
        break;
      case OpKind::shuffle:
        use(op.a, oi);
        if (op.b >= 0) use(op.b, oi);
        if (static_cast<int>(op.index.size()) != k.lanes)
          fail(k, fmt::format("program {} op {}: index has {} entries, not {}", pi, oi, op.index.size(), k.lanes));
        for (int i : op.index)
          if (i < -1 || i >= (op.b >= 0 ? 2 : 1) * k.lanes)
            fail(k, fmt::format("program {} op {}: shuffle index {} out of range", pi, oi, i));
        def(op.dst, oi);
        break;
      case OpKind::store:
        use(op.src, oi);
        access(op, oi, max_out_base, "output");
        if (op.stream && (op.count != k.lanes || op.offset % k.lanes != 0))
          fail(k, fmt::format("program {} op {}: streaming store of {} lanes at offset {}: not a whole vector at a "
                              "lane-aligned offset", pi, oi, op.count, op.offset));
        break;
    }
  }
}

}  // namespace

void verify_kernel(const Kernel& k) {
  if (!is_pow2(k.lanes) || k.lanes > 1024) fail(k, fmt::format("lanes {} is not a power of two <= 1024", k.lanes));
  if (k.elem_bytes < 1) fail(k, "element size < 1");
  const std::vector<LoopRegion> nests = k.nests();
  // Each nest's tail bits distinct; together they number 0.. (in any loop order).
  if (!k.regions.empty() && k.regions.front().loops.size() != k.loops.size()) fail(k, "loops are not region 0's");
  unsigned all_bits = 0;
  for (const auto& g : nests) {
    if (g.in_offset < 0 || g.out_offset < 0) fail(k, "negative region offset");
    // Unrolled programs and the prefetch distance are built for `loops`' innermost steps (a paired
    // streaming walk, ir/line_pairs.h, has neither: its regions' innermost loops differ).
    if (!k.regions.empty() && (k.unroll > 1 || k.prefetch_ahead != 0) &&
        (g.loops.empty() || g.loops.back().in_stride != k.loops.back().in_stride ||
         g.loops.back().out_stride != k.loops.back().out_stride))
      fail(k, "a region's innermost loop must step as the kernel's innermost loop where it is unrolled or prefetches");
    unsigned seen = 0;
    for (const auto& L : g.loops) {
      if (L.count < 1) fail(k, "loop count < 1");
      if (L.in_stride < 0 || L.out_stride < 0) fail(k, "negative stride");
      if (L.tail_bit < 0) continue;
      if (L.tail_bit >= 16 || ((seen >> L.tail_bit) & 1)) fail(k, "a loop nest repeats a tail bit (or one >= 16)");
      seen |= 1u << L.tail_bit;
    }
    all_bits |= seen;
  }
  const int tail_bits = std::popcount(all_bits);
  if (all_bits != (1u << tail_bits) - 1) fail(k, "tail bits are not numbered 0..");
  bool streams = false;
  for (const auto& p : k.programs)
    for (const auto& op : p.ops) streams |= op.stream;
  if (streams)
    if (const std::string why = nests_off_lines(k); !why.empty()) fail(k, "streaming stores, but " + why);
  if (k.programs.size() != (size_t{1} << tail_bits))
    fail(k, fmt::format("{} programs for {} tail bits", k.programs.size(), tail_bits));
  for (const auto& g : nests) {
    unsigned nest_bits = 0;
    for (const auto& L : g.loops)
      if (L.tail_bit >= 0) nest_bits |= 1u << L.tail_bit;
    // Bounds: the largest base each program can run at in this nest (strides are non-negative).
    for (size_t pi = 0; pi < k.programs.size(); ++pi) {
      if (pi & ~static_cast<size_t>(nest_bits)) continue;  // selects a tail this nest does not walk
      int64_t max_in = g.in_offset, max_out = g.out_offset;
      bool reachable = true;
      for (const auto& L : g.loops) {
        int64_t last = L.count - 1;
        if (L.tail_bit >= 0 && !((pi >> L.tail_bit) & 1)) {
          if (L.count < 2) reachable = false;
          last = L.count - 2;
        }
        max_in += last * L.in_stride;
        max_out += last * L.out_stride;
      }
      if (reachable) verify_program(k, pi, max_in, max_out, k.programs);
    }
    // Unrolled programs: instance c runs at inner index i + c, and i + unroll never passes the
    // innermost tail, so they start at most `unroll - 1` iterations before the last full one.
    if (k.unroll > 1) {
      if (g.loops.empty() || k.unrolled.size() != k.programs.size())
        fail(k, "unrolled programs need an innermost loop and one entry per program");
      const LoopDim& inner = g.loops.back();
      for (size_t pi = 0; pi < k.unrolled.size(); ++pi) {
        if (pi & ~static_cast<size_t>(nest_bits)) continue;
        if (inner.tail_bit >= 0 && ((pi >> inner.tail_bit) & 1)) continue;
        int64_t max_in = g.in_offset, max_out = g.out_offset;
        bool reachable = true;
        for (size_t d = 0; d < g.loops.size(); ++d) {
          const LoopDim& L = g.loops[d];
          int64_t last = L.count - 1;
          if (d + 1 == g.loops.size()) last = L.count - k.unroll - (L.tail_bit >= 0 ? 1 : 0);
          else if (L.tail_bit >= 0 && !((pi >> L.tail_bit) & 1)) last = L.count - 2;
          if (last < 0) reachable = false;
          max_in += last * L.in_stride;
          max_out += last * L.out_stride;
        }
        if (reachable) verify_program(k, pi, max_in, max_out, k.unrolled);
      }
    }
  }
}

}  // namespace gentt
