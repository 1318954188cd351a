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

void interpret_part(const Kernel& k, const void* in, void* out, int part, int nparts) {
  GENTT_CHECK(nparts >= 1 && part >= 0 && part < nparts, "part out of range");
  const int64_t total = k.iterations();
  auto begin_of = [&](int64_t p) { return (total / nparts) * p + std::min<int64_t>(p, total % nparts); };
  const int64_t begin = begin_of(part), end = begin_of(part + 1);
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  const size_t d = k.loops.size();
  std::vector<int64_t> idx(d, 0);
  std::vector<std::vector<unsigned char>> values;
  for (int64_t it = begin; it < end; ++it) {
    // Decode the flat iteration (the interpreter favours clarity; kernels step incrementally).
    int64_t rest = it, in_base = 0, out_base = 0;
    int program = 0;
    for (size_t i = d; i-- > 0;) {
      const auto& L = k.loops[i];
      idx[i] = rest % L.count;
      rest /= L.count;
      in_base += idx[i] * L.in_stride;
      out_base += idx[i] * L.out_stride;
      if (L.tail_bit >= 0 && idx[i] == L.count - 1) program |= 1 << L.tail_bit;
    }
    run_program(k, k.programs.at(program), src + in_base * k.elem_bytes, dst + out_base * k.elem_bytes,
                values);
  }
}

void interpret(const Kernel& k, const void* in, void* out) { interpret_part(k, in, out, 0, 1); }

}  // namespace gentt
