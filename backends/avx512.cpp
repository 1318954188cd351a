#include "backends/avx512.h"

#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/lane_unit.h"
#include "backends/memcpy_block.h"
#include "backends/skeleton.h"
#include "ir/error.h"
#include "templates/templates.h"

namespace gentt {

namespace {

constexpr int kRegisterBytes = 64;

// Intrinsic names per unit size: the backend's one table.
struct UnitOps {
  const char* suffix;      // epi8 / epi16 / epi32 / epi64
  const char* index_type;  // C type of one index table entry
  const char* mask_type;   // __mmask64 ...
};
UnitOps unit_ops(int unit_bytes) {
  switch (unit_bytes) {
    case 1: return {"epi8", "std::int8_t", "__mmask64"};
    case 2: return {"epi16", "std::int16_t", "__mmask32"};
    case 4: return {"epi32", "std::int32_t", "__mmask16"};
    default: return {"epi64", "std::int64_t", "__mmask8"};
  }
}

std::string mask_literal(const LaneUnit& u, int count) {
  return fmt::format("static_cast<{}>(0x{:x}u{})", unit_ops(u.bytes).mask_type, u.mask(count),
                     u.bytes == 1 ? "ll" : "");
}

void block_body(CodeWriter& w, const Kernel& k, const BlockProgram& prog) {
  // Elements larger than a register move with memcpy (one lane: loads and stores only).
  if (k.elem_bytes > kRegisterBytes) return emit_memcpy_block(w, k, prog);
  const LaneUnit u = LaneUnit::choose(k.elem_bytes, kRegisterBytes);
  const UnitOps ops = unit_ops(u.bytes);
  // Each shuffle in its widest exact unit (vpermt2d/q instead of the costlier vpermt2b/w when
  // bytes or words move in aligned groups); one index table per distinct (unit, list), in lane
  // order (lane 0 first).
  std::map<std::pair<int, std::vector<int>>, int> tables;
  std::map<std::vector<int>, WideShuffle> wide;
  for (const auto& op : prog.ops) {
    if (op.kind != OpKind::shuffle || wide.count(op.index)) continue;
    const WideShuffle s = widest_shuffle(op.index, k.lanes, k.elem_bytes, kRegisterBytes);
    wide.emplace(op.index, s);
    const auto key = std::make_pair(s.unit.bytes, s.index);
    if (tables.count(key)) continue;
    const int id = static_cast<int>(tables.size());
    tables[key] = id;
    w.linef("alignas(64) static const {} kIndex{}[{}] = {{{}}};", unit_ops(s.unit.bytes).index_type, id,
            s.unit.per_reg, fmt::join(s.index, ", "));
  }
  for (const auto& op : prog.ops) {
    switch (op.kind) {
      case OpKind::load:
        if (u.full(op.count, k.lanes))
          w.linef("const __m512i v{} = _mm512_loadu_si512(in + {});", op.dst, op.offset);
        else
          w.linef("const __m512i v{} = _mm512_maskz_loadu_{}({}, in + {});", op.dst, ops.suffix,
                  mask_literal(u, op.count), op.offset);
        break;
      case OpKind::shuffle: {
        // One source: the same register twice (permutexvar trips GCC 12's uninitialized check).
        const WideShuffle& s = wide.at(op.index);
        w.linef("const __m512i v{} = _mm512_permutex2var_{}(v{}, _mm512_load_si512(kIndex{}), v{});", op.dst,
                unit_ops(s.unit.bytes).suffix, op.a, tables.at({s.unit.bytes, s.index}), op.b >= 0 ? op.b : op.a);
        break;
      }
      case OpKind::store:
        if (op.stream)  // a whole 64-byte line, aligned whenever `out` is (ir/stream.h)
          w.linef("_mm512_stream_si512(reinterpret_cast<__m512i*>(out + {}), v{});", op.offset, op.src);
        else if (u.full(op.count, k.lanes))
          w.linef("_mm512_storeu_si512(out + {}, v{});", op.offset, op.src);
        else
          w.linef("_mm512_mask_storeu_{}(out + {}, {}, v{});", ops.suffix, op.offset, mask_literal(u, op.count),
                  op.src);
        break;
    }
  }
}

class Avx512Backend final : public Backend {
 public:
  Isa isa() const override { return Isa::avx512; }
  std::string prelude() const override { return std::string(template_text("avx512_prelude.h")); }
  std::string epilogue() const override { return "GENTT_AVX512_END\n"; }
  std::string kernel(const KernelUnit& unit) const override {
    return emit_kernel_skeleton(unit, block_body, "_mm_sfence();  // order the streaming stores before returning");
  }
};

}  // namespace

const Backend& avx512_backend() {
  static const Avx512Backend backend;
  return backend;
}

}  // namespace gentt
