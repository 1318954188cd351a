#include "ir/verify.h"

#include <fmt/format.h>

#include "ir/bits.h"
#include "ir/error.h"

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
  int tail_bits = 0;
  for (const auto& L : k.loops) {
    if (L.count < 1) fail(k, "loop count < 1");
    if (L.in_stride < 0 || L.out_stride < 0) fail(k, "negative stride");
    if (L.tail_bit >= 0) {
      if (L.tail_bit != tail_bits) fail(k, "tail bits must be numbered 0.. in loop order");
      ++tail_bits;
    }
  }
  bool streams = false;
  for (const auto& p : k.programs)
    for (const auto& op : p.ops) streams |= op.stream;
  if (streams)
    for (const auto& L : k.loops)
      if (L.out_stride % k.lanes != 0)
        fail(k, fmt::format("streaming stores in a loop nest whose out_stride {} is not a multiple of {} lanes",
                            L.out_stride, k.lanes));
  if (k.programs.size() != (size_t{1} << tail_bits))
    fail(k, fmt::format("{} programs for {} tail bits", k.programs.size(), tail_bits));
  // Bounds: the largest base each program can run at (strides are non-negative).
  for (size_t pi = 0; pi < k.programs.size(); ++pi) {
    int64_t max_in = 0, max_out = 0;
    bool reachable = true;
    for (const auto& L : k.loops) {
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
    if (k.loops.empty() || k.unrolled.size() != k.programs.size())
      fail(k, "unrolled programs need an innermost loop and one entry per program");
    const LoopDim& inner = k.loops.back();
    for (size_t pi = 0; pi < k.unrolled.size(); ++pi) {
      if (inner.tail_bit >= 0 && ((pi >> inner.tail_bit) & 1)) continue;
      int64_t max_in = 0, max_out = 0;
      bool reachable = true;
      for (size_t d = 0; d < k.loops.size(); ++d) {
        const LoopDim& L = k.loops[d];
        int64_t last = L.count - 1;
        if (d + 1 == k.loops.size()) last = L.count - k.unroll - (L.tail_bit >= 0 ? 1 : 0);
        else if (L.tail_bit >= 0 && !((pi >> L.tail_bit) & 1)) last = L.count - 2;
        if (last < 0) reachable = false;
        max_in += last * L.in_stride;
        max_out += last * L.out_stride;
      }
      if (reachable) verify_program(k, pi, max_in, max_out, k.unrolled);
    }
  }
}

}  // namespace gentt
