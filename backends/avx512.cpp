#include "backends/avx512.h"

#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/lane_unit.h"
#include "backends/memcpy_block.h"
#include "backends/skeleton.h"
#include "backends/word_byte_shuffle.h"
#include "ir/error.h"
#include "ir/target_features.h"
#include "runtime/include/gentt/kernel_info.h"
#include "templates/templates.h"

namespace gentt {

namespace {

// The register a kernel's blocks live in: zmm (512 bits, the default) or ymm (256 bits with
// AVX-512VL's forms of the same instructions: vpermt2*, masked loads and stores). ymm blocks are
// for CPUs that run 512-bit shuffles as two 256-bit halves (Zen 4), where a block with one
// butterfly step fewer can be the cheaper one (ir/vector_width.h).
struct Reg {
  int bytes;           // 64 or 32
  const char* type;    // __m512i / __m256i
  const char* prefix;  // _mm512 / _mm256
  const char* whole;   // si512 / si256
};
Reg reg_for(int vector_bits) {
  return vector_bits == 256 ? Reg{32, "__m256i", "_mm256", "si256"} : Reg{64, "__m512i", "_mm512", "si512"};
}

// Intrinsic names per unit size: the backend's one table.
struct UnitOps {
  const char* suffix;      // epi8 / epi16 / epi32 / epi64
  const char* index_type;  // C type of one index table entry
};
UnitOps unit_ops(int unit_bytes) {
  switch (unit_bytes) {
    case 1: return {"epi8", "std::int8_t"};
    case 2: return {"epi16", "std::int16_t"};
    case 4: return {"epi32", "std::int32_t"};
    default: return {"epi64", "std::int64_t"};
  }
}

// The mask type of a register of `reg_bytes` in units of `unit_bytes` (__mmask8 at least).
std::string mask_type(int unit_bytes, int reg_bytes) {
  return fmt::format("__mmask{}", std::max(8, reg_bytes / unit_bytes));
}

std::string mask_literal(const LaneUnit& u, int count, int reg_bytes) {
  return fmt::format("static_cast<{}>(0x{:x}u{})", mask_type(u.bytes, reg_bytes), u.mask(count),
                     u.bytes == 1 ? "ll" : "");
}

// Index tables of one block program, one per distinct (kind, list), emitted before the block's
// code. kind: the unit in bytes for vpermt2{b,w,d,q} tables, 0 for vpshufb tables.
class IndexTables {
 public:
  explicit IndexTables(CodeWriter& w) : w_(w) {}
  int id(int kind, const std::vector<int>& list) {
    const auto key = std::make_pair(kind, list);
    if (auto it = ids_.find(key); it != ids_.end()) return it->second;
    const int id = static_cast<int>(ids_.size());
    ids_[key] = id;
    w_.linef("alignas(64) static const {} kIndex{}[{}] = {{{}}};", unit_ops(kind == 0 ? 1 : kind).index_type, id,
             list.size(), fmt::join(list, ", "));
    return id;
  }

 private:
  CodeWriter& w_;
  std::map<std::pair<int, std::vector<int>>, int> ids_;
};

// One shuffle: its widest exact unit (vpermt2d/q instead of the costlier vpermt2b/w when bytes or
// words move in aligned groups); 1-byte units without VBMI as word permutes and vpshufb.
struct ShuffleCode {
  WideShuffle wide;
  std::optional<WordByteShuffle> bytes;  // set for 1-byte units without VBMI
  std::vector<int> table;                // kIndex ids: the permute's, or P0, P1 words, then bytes
};

// A plain exchange of lane bit j between two registers a and b (a butterfly step with nothing
// else to do): side 0 keeps a's lanes whose bit j is 0 and takes b's below them, side 1 the
// rest. Units of 2^j elements of 1, 2, 8, 16 or 32 bytes. 4-byte units stay vpermt2d: their
// one-instruction form, a masked vpshufd merging into the other register, ran float32 2^20
// reversed at 0.82-0.87x and 4096^2 at 0.86-0.94x of vpermt2d on Zen 4 (1 thread, gentt set);
// but in blocks of 32 registers, whose two index registers spill, a masked vmovsldup/vmovshdup
// (uint8 8192x8000 split rows, streamed in bands: 30.6 -> 33.2 GB/s, Zen 5).
// Only kernels of outputs under kPlainFormMaxBytes take them (docs/performance.md): there the
// block's shuffles bound the kernel, and the forms measured 1.06-1.43x (float32 2^10 reversed
// 1.43, (6,10,12,14,9) 1.23, uint16 64x32x32x4 1.08, 511x513 1.06); from 4 MiB, where memory
// bounds it, they measured 0.91-1.19x (median 1.00): power-of-two 2-D transposes lost
// (float32 4096^2 0.92, uint8 8192^2 0.91), others gained (int8 2^22 1.15, 256x256x64 1.10).
constexpr int64_t kPlainFormMaxBytes = int64_t{4} << 20;
struct PlainExchange {
  int unit_bytes = 0;
  int side = 0;
};
// Blocks of 32 registers or more (a split input row's 32 registers of bytes, ir/plan.h) take the
// forms at any size: they need no index register, where the block has none to spare (uint8
// 8192x8000 transposed, streamed in bands: 22.6 -> 26.3 GB/s, Zen 5). So does the exchange of a
// register's two halves (the join of a split row's two runs) in any block.
std::optional<PlainExchange> plain_exchange(const Kernel& k, const std::vector<int>& index, int reg_bytes) {
  const int lanes = k.lanes;
  const int64_t elem_bytes = k.elem_bytes;
  if (static_cast<int64_t>(lanes) * elem_bytes != reg_bytes) return std::nullopt;  // padding bytes
  const auto& full = k.programs.front().ops;
  const bool register_file = std::count_if(full.begin(), full.end(), [](const Op& op) { return op.kind == OpKind::store; }) >= 32;
  const bool halves_only = k.in_elements * elem_bytes >= kPlainFormMaxBytes && !register_file;
  for (int j = 0; (1 << j) < lanes; ++j) {
    const int64_t unit = (int64_t{1} << j) * elem_bytes;
    if (unit > 32 || (unit & (unit - 1)) != 0) break;
    if (halves_only && unit * 2 != reg_bytes) continue;
    if (unit == 4 && !register_file) continue;  // vpermt2d measured faster than a masked vpshufd (below)
    for (int side = 0; side < 2; ++side) {
      bool match = true;
      for (int l = 0; l < lanes && match; ++l) {
        if (index[l] < 0) continue;  // a don't-care lane
        const bool low = ((l >> j) & 1) == 0;
        const int want = side == 0 ? (low ? l : lanes + l - (1 << j)) : (low ? l + (1 << j) : lanes + l);
        match = index[l] == want;
      }
      if (match) return PlainExchange{static_cast<int>(unit), side};
    }
  }
  return std::nullopt;
}

// The exchange in one or two instructions without an index table: vshufi64x2 (32-byte units),
// a masked vpermq or vperm2i128 (16), vpunpckl/hqdq (8), a shift and a masked blend (2, 1).
// Index-table permutes (vpermt2*) take the other shuffles. The 512-bit forms are written masked
// with every lane set: the unmasked ones merge into _mm512_undefined_epi32(), which GCC 12's
// -Wuninitialized reports (and -Werror rejects).
std::string exchange_code(const PlainExchange& x, const std::string& a, const std::string& b, const Reg& r) {
  const bool zmm = r.bytes == 64;
  const std::string p = r.prefix;
  const bool s0 = x.side == 0;
  // shift(v, n, epi): v's units shifted by n bits, whole-register on zmm via the masked form.
  auto shift = [&](const char* dir, const std::string& v, int n, const char* epi) {
    if (!zmm) return fmt::format("_mm256_s{}li_{}({}, {})", dir, epi, v, n);
    const char* all =
        std::string(epi) == "epi32" ? "static_cast<__mmask16>(0xFFFF)" : "static_cast<__mmask32>(0xFFFFFFFFu)";
    return fmt::format("_mm512_mask_s{}li_{}({}, {}, {}, {})", dir, epi, v, all, v, n);
  };
  switch (x.unit_bytes) {
    case 32:
      return fmt::format("_mm512_mask_shuffle_i64x2({0}, static_cast<__mmask8>(0xFF), {0}, {1}, 0x{2})", a, b,
                         s0 ? "44" : "EE");
    case 16:
      if (zmm)
        return s0 ? fmt::format("_mm512_mask_permutex_epi64({}, static_cast<__mmask8>(0xCC), {}, 0x4E)", a, b)
                  : fmt::format("_mm512_mask_permutex_epi64({}, static_cast<__mmask8>(0x33), {}, 0x4E)", b, a);
      return fmt::format("_mm256_permute2x128_si256({}, {}, 0x{})", a, b, s0 ? "20" : "31");
    case 4: {
      const std::string ps = zmm ? "_mm512" : "_mm256";
      const std::string cast_a = fmt::format("{}_castsi{}_ps({})", ps, zmm ? 512 : 256, a);
      const std::string cast_b = fmt::format("{}_castsi{}_ps({})", ps, zmm ? 512 : 256, b);
      return s0 ? fmt::format("{}_castps_si{}({}_mask_moveldup_ps({}, static_cast<{}>(0x{}), {}))", ps, zmm ? 512 : 256, ps,
                              cast_a, zmm ? "__mmask16" : "__mmask8", zmm ? "AAAA" : "AA", cast_b)
                : fmt::format("{}_castps_si{}({}_mask_movehdup_ps({}, static_cast<{}>(0x{}), {}))", ps, zmm ? 512 : 256, ps,
                              cast_b, zmm ? "__mmask16" : "__mmask8", zmm ? "5555" : "55", cast_a);
    }
    case 8:
      if (zmm)
        return fmt::format("_mm512_mask_unpack{0}_epi64({1}, static_cast<__mmask8>(0xFF), {1}, {2})", s0 ? "lo" : "hi",
                           a, b);
      return fmt::format("_mm256_unpack{}_epi64({}, {})", s0 ? "lo" : "hi", a, b);
    case 2: {
      const std::string mask = zmm ? (s0 ? "static_cast<__mmask32>(0xAAAAAAAAu)"
                                         : "static_cast<__mmask32>(0x55555555u)")
                                   : (s0 ? "static_cast<__mmask16>(0xAAAA)" : "static_cast<__mmask16>(0x5555)");
      return s0 ? fmt::format("{}_mask_blend_epi16({}, {}, {})", p, mask, a, shift("l", b, 16, "epi32"))
                : fmt::format("{}_mask_blend_epi16({}, {}, {})", p, mask, b, shift("r", a, 16, "epi32"));
    }
    case 1: {
      const std::string mask = zmm ? (s0 ? "static_cast<__mmask64>(0xAAAAAAAAAAAAAAAAull)"
                                         : "static_cast<__mmask64>(0x5555555555555555ull)")
                                   : (s0 ? "static_cast<__mmask32>(0xAAAAAAAAu)"
                                         : "static_cast<__mmask32>(0x55555555u)");
      return s0 ? fmt::format("{}_mask_blend_epi8({}, {}, {})", p, mask, a, shift("l", b, 8, "epi16"))
                : fmt::format("{}_mask_blend_epi8({}, {}, {})", p, mask, b, shift("r", a, 8, "epi16"));
    }
  }
  throw InternalError(fmt::format("exchange_code: no form for {}-byte units", x.unit_bytes));
}

void block_body(CodeWriter& w, const Kernel& k, const BlockProgram& prog, bool vbmi, const Reg& r) {
  const int kRegisterBytes = r.bytes;
  // Elements larger than a register move with memcpy (one lane: loads and stores only).
  if (k.elem_bytes > kRegisterBytes) return emit_memcpy_block(w, k, prog);
  const LaneUnit u = LaneUnit::choose(k.elem_bytes, kRegisterBytes);
  const UnitOps ops = unit_ops(u.bytes);
  IndexTables tables(w);
  std::map<std::vector<int>, ShuffleCode> code;
  for (const auto& op : prog.ops) {
    if (op.kind != OpKind::shuffle || code.count(op.index) ||
        plain_exchange(k, op.index, kRegisterBytes))
      continue;
    ShuffleCode c{widest_shuffle(op.index, k.lanes, k.elem_bytes, kRegisterBytes), std::nullopt, {}};
    if (c.wide.unit.bytes == 1 && !vbmi) {
      // u has 1-byte units here (c.wide would be wider otherwise): its expansion is the source
      // byte of each output byte, don't cares kept as -1.
      const WordByteShuffle& b =
          *(c.bytes = word_byte_shuffle(u.expand_index(op.index, k.lanes, -1), kRegisterBytes));
      if (!b.in_lane)
        for (int p = 0; p < b.sources; ++p) c.table.push_back(tables.id(2, b.words[p]));
      for (int p = 0; p < b.sources; ++p)  // P0's bytes may already be in place: no table then
        c.table.push_back(p == 0 && !b.in_lane && !b.shuffle_first ? -1 : tables.id(0, b.bytes[p]));
    } else {
      c.table.push_back(tables.id(c.wide.unit.bytes, c.wide.index));
    }
    code.emplace(op.index, std::move(c));
  }
  // _mm512_ loads and stores take void pointers, the _mm256_ ones __m256i pointers.
  auto vptr = [&r](const std::string& p, bool is_const) {
    return r.bytes == 64 ? p : fmt::format("reinterpret_cast<{}{}*>({})", is_const ? "const " : "", r.type, p);
  };
  auto table = [&](int id) {
    return fmt::format("{}_load_{}({})", r.prefix, r.whole, vptr(fmt::format("kIndex{}", id), true));
  };
  for (const auto& op : prog.ops) {
    switch (op.kind) {
      case OpKind::load:
        if (u.full(op.count, k.lanes))
          w.linef("const {} v{} = {}_loadu_{}({});", r.type, op.dst, r.prefix, r.whole,
                  vptr(fmt::format("in + {}", op.offset), true));
        else if (op.count * k.elem_bytes * 2 == kRegisterBytes)  // half a register: a narrower load, upper lanes undefined
          w.linef("const {0} v{1} = {2}_cast{3}_{4}({5}_loadu_{3}(reinterpret_cast<const {6}*>(in + {7})));", r.type,
                  op.dst, r.prefix, r.bytes == 64 ? "si256" : "si128", r.whole, r.bytes == 64 ? "_mm256" : "_mm",
                  r.bytes == 64 ? "__m256i" : "__m128i", op.offset);
        else
          w.linef("const {} v{} = {}_maskz_loadu_{}({}, in + {});", r.type, op.dst, r.prefix, ops.suffix,
                  mask_literal(u, op.count, kRegisterBytes), op.offset);
        break;
      case OpKind::shuffle: {
        // One source: the same register twice (permutexvar trips GCC 12's uninitialized check).
        const int b = op.b >= 0 ? op.b : op.a;
        if (const auto x = plain_exchange(k, op.index, kRegisterBytes)) {
          w.linef("const {} v{} = {};", r.type, op.dst,
                  exchange_code(*x, fmt::format("v{}", op.a), fmt::format("v{}", b), r));
          break;
        }
        const ShuffleCode& c = code.at(op.index);
        if (!c.bytes) {
          w.linef("const {} v{} = {}_permutex2var_{}(v{}, {}, v{});", r.type, op.dst, r.prefix,
                  unit_ops(c.wide.unit.bytes).suffix, op.a, table(c.table[0]), b);
          break;
        }
        const WordByteShuffle& s = *c.bytes;
        std::string sources[2];
        const int byte_tables = s.in_lane ? 0 : s.sources;  // where the vpshufb tables start
        if (s.in_lane) {
          sources[0] = fmt::format("v{}", s.words[0][0] == 0 ? op.a : b);
          sources[1] = fmt::format("v{}", b);
        } else {
          for (int p = 0; p < s.sources; ++p) {
            w.linef("const {} v{}_w{} = {}_permutex2var_epi16(v{}, {}, v{});", r.type, op.dst, p, r.prefix, op.a,
                    table(c.table[p]), b);
            sources[p] = fmt::format("v{}_w{}", op.dst, p);
          }
        }
        std::string first = s.in_lane || s.shuffle_first
                                ? fmt::format("{}_shuffle_epi8({}, {})", r.prefix, sources[0],
                                              table(c.table[byte_tables]))
                                : sources[0];
        if (s.sources == 2)
          first = fmt::format("{}_mask_shuffle_epi8({}, static_cast<{}>(0x{:x}ull), {}, {})", r.prefix, first,
                              mask_type(1, kRegisterBytes), s.second, sources[1], table(c.table[byte_tables + 1]));
        w.linef("const {} v{} = {};", r.type, op.dst, first);
        break;
      }
      case OpKind::store:
        if (op.stream)  // a whole line or half of one, aligned whenever `out` is (ir/stream.h)
          w.linef("{}_stream_{}(reinterpret_cast<{}*>(out + {}), v{});", r.prefix, r.whole, r.type, op.offset,
                  op.src);
        else if (u.full(op.count, k.lanes))
          w.linef("{}_storeu_{}({}, v{});", r.prefix, r.whole, vptr(fmt::format("out + {}", op.offset), false), op.src);
        else
          w.linef("{}_mask_storeu_{}(out + {}, {}, v{});", r.prefix, ops.suffix, op.offset,
                  mask_literal(u, op.count, kRegisterBytes), op.src);
        break;
    }
  }
}

// One stream's piece of an assembled tile (ir/assembly.h, SkeletonHooks::assemble_stream): byte
// masks (AVX512BW) merge the carry into the first line and write a chain's partial ends.
constexpr const char* kAssembleStream =
    "const unsigned a = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(d) % 64);\n"
    "unsigned char* const line = d - a;\n"
    "const unsigned char* const from = b - a;\n"
    "const std::int64_t stop = a + piece;\n"
    "std::int64_t i = 0;\n"
    "if (a) {\n"
    "  const __m512i v = _mm512_load_si512(from);\n"
    "  const __mmask64 m = _cvtu64_mask64(~0ull << a);\n"
    "  if (cont_in)\n"
    "    _mm512_stream_si512(reinterpret_cast<__m512i*>(line), _mm512_mask_blend_epi8(m, _mm512_load_si512(c), v));\n"
    "  else\n"
    "    _mm512_mask_storeu_epi8(line, m, v);\n"
    "  i = 64;\n"
    "}\n"
    "for (; i + 64 <= stop; i += 64)\n"
    "  _mm512_stream_si512(reinterpret_cast<__m512i*>(line + i), _mm512_load_si512(from + i));\n"
    "if (i < stop) {\n"
    "  const __m512i v = _mm512_load_si512(from + i);\n"
    "  if (cont_out)\n"
    "    _mm512_store_si512(c, v);\n"
    "  else\n"
    "    _mm512_mask_storeu_epi8(line + i, _cvtu64_mask64(~0ull >> (64 - (stop - i))), v);\n"
    "}";

// avx512 (VBMI) and avx512skx (no VBMI) share this backend; they differ in 1-byte shuffles and
// in the features the prelude's target pragma names.
class Avx512Backend final : public Backend {
 public:
  explicit Avx512Backend(Isa isa) : isa_(isa) {}
  Isa isa() const override { return isa_; }
  std::string prelude() const override {
    const std::string features = feature_list(isa_features(isa_));
    return std::string(template_text("avx512_prelude.h")) + "\n" + std::string(template_text("x86_bands_prelude.h")) +
           fmt::format("\n#if defined(__clang__)\n"
                       "#pragma clang attribute push(__attribute__((target(\"{0}\"))), apply_to = function)\n"
                       "#define GENTT_AVX512_END _Pragma(\"clang attribute pop\")\n"
                       "#elif defined(__GNUC__)\n"
                       "#pragma GCC push_options\n"
                       "#pragma GCC target(\"{0}\")\n"
                       "#define GENTT_AVX512_END _Pragma(\"GCC pop_options\")\n"
                       "#else\n"
                       "#define GENTT_AVX512_END\n"
                       "#endif\n",
                       features);
  }
  std::string epilogue() const override { return "GENTT_AVX512_END\n"; }
  std::string kernel(const KernelUnit& unit) const override {
    const bool vbmi = (isa_features(isa_) & GENTT_FEATURE_AVX512VBMI) != 0;
    const Reg r = reg_for(unit.problem.target.vector_bits);
    return emit_kernel_skeleton(
        unit, [vbmi, r](CodeWriter& w, const Kernel& k, const BlockProgram& prog) { block_body(w, k, prog, vbmi, r); },
        "_mm_sfence();  // order the streaming stores before returning",
        "_mm512_stream_si512(reinterpret_cast<__m512i*>(to), _mm512_loadu_si512(from));", kAssembleStream);
  }

 private:
  Isa isa_;
};

}  // namespace

const Backend& avx512_backend(Isa isa) {
  static const Avx512Backend vbmi(Isa::avx512), skx(Isa::avx512skx);
  GENTT_CHECK(is_avx512_level(isa), "avx512_backend: not an AVX-512 level");
  return isa == Isa::avx512 ? vbmi : skx;
}

}  // namespace gentt
