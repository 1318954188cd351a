// The AVX-512 block engine: a plan's block programs as 512-bit masked loads, vpermt2{b,w,d,q}
// two-source shuffles by index vectors from the tables, and masked (or streaming) stores.
//
// The loop over registers and passes is unrolled at compile time for every (unit, register
// bits, passes) a plan can have, so the registers stay in zmm registers as in a generated
// kernel; only offsets, masks and index vectors come from memory (L1-resident tables).
// Compiled for AVX-512 F/BW/VBMI by function attributes (no -m flags: the library runs on any
// x86-64); plans pick this engine only when gentt::cpu_supports("avx512").
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <array>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#if defined(__x86_64__)
#define GENTT_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))
#define GENTT_WALK_TARGET GENTT_AVX512
#endif

#include "runtime/engine/engine.h"
#include "runtime/engine/walk_loops.h"

#if defined(__x86_64__)

namespace gentt::engine {

namespace {

constexpr int kVectorBytes = 64;
constexpr int kMaxRegBits = 6;

struct alignas(64) Vec {
  unsigned char bytes[kVectorBytes];
};

// One program's tables in the engine's form.
struct Program {
  const std::int64_t* load_offset;   // bytes, per register
  const unsigned long long* load_mask;  // byte mask, per register
  const Vec* index;                  // [pass][register], in units
  const std::int64_t* store_offset;  // bytes, per register
  const unsigned long long* store_mask;
  unsigned uniform_passes = 0;  // bit s: every pair of pass s uses the index vectors of pair 0
  unsigned char pass_unit[8] = {};  // bytes of the unit pass s shuffles in (1, 2, 4, 8)
  bool full_loads = false;      // every register loads a whole vector (no mask needed)
  bool full_stores = false;     // every register stores a whole vector
};

struct Data {
  std::vector<WalkLoop> loops;
  std::vector<Program> programs;
  bool stream = false;
};

template <int Unit>
GENTT_AVX512 inline __m512i permute2(__m512i a, __m512i index, __m512i b) {
  if constexpr (Unit == 1) return _mm512_permutex2var_epi8(a, index, b);
  if constexpr (Unit == 2) return _mm512_permutex2var_epi16(a, index, b);
  if constexpr (Unit == 4) return _mm512_permutex2var_epi32(a, index, b);
  if constexpr (Unit == 8) return _mm512_permutex2var_epi64(a, index, b);
}

// One shuffle pass over the registers (block_tables.h: pass s of a butterfly pairs registers by
// bit s; a reorder pass permutes each register alone).
template <int Unit, int R, bool Butterfly>
GENTT_AVX512 __attribute__((always_inline)) inline void run_pass(__m512i (&v)[R], int s, const Vec* index,
                                                               bool uniform) {
  if constexpr (Butterfly) {
    const int bit = 1 << s;
    if (uniform) {
      // Two index vectors for the whole pass, kept in registers (one load each per block).
      const __m512i lo = _mm512_load_si512(index), hi = _mm512_load_si512(index + bit);
#pragma GCC unroll 64
      for (int r0 = 0; r0 < R; ++r0) {
        if (r0 & bit) continue;
        const __m512i a = v[r0], b = v[r0 | bit];
        v[r0] = permute2<Unit>(a, lo, b);
        v[r0 | bit] = permute2<Unit>(a, hi, b);
      }
    } else {
#pragma GCC unroll 64
      for (int r0 = 0; r0 < R; ++r0) {
        if (r0 & bit) continue;
        const __m512i a = v[r0], b = v[r0 | bit];
        v[r0] = permute2<Unit>(a, _mm512_load_si512(index + r0), b);
        v[r0 | bit] = permute2<Unit>(a, _mm512_load_si512(index + (r0 | bit)), b);
      }
    }
  } else if (uniform) {
    const __m512i same = _mm512_load_si512(index);
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r) v[r] = permute2<Unit>(v[r], same, v[r]);
  } else {
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r) v[r] = permute2<Unit>(v[r], _mm512_load_si512(index + r), v[r]);
  }
}

template <int Unit, int RegBits, int Passes, bool Butterfly>
struct BlockBody {
  const Program* programs;
  bool stream;
  GENTT_AVX512 __attribute__((always_inline)) inline void operator()(int program, const char* in, char* out) const {
    constexpr int R = 1 << RegBits;
    const Program& p = programs[program];
    __m512i v[R];
    if (p.full_loads) {
#pragma GCC unroll 64
      for (int r = 0; r < R; ++r) v[r] = _mm512_loadu_si512(in + p.load_offset[r]);
    } else {
#pragma GCC unroll 64
      for (int r = 0; r < R; ++r) v[r] = _mm512_maskz_loadu_epi8(p.load_mask[r], in + p.load_offset[r]);
    }
#pragma GCC unroll 8
    for (int s = 0; s < Passes; ++s) {
      // Each pass in its widest exact unit: vpermt2d/q where elements move in aligned groups.
      switch (p.pass_unit[s]) {
        case 8: run_pass<8, R, Butterfly>(v, s, p.index + s * R, (p.uniform_passes >> s) & 1); break;
        case 4: if constexpr (Unit <= 4) run_pass<4, R, Butterfly>(v, s, p.index + s * R, (p.uniform_passes >> s) & 1); break;
        case 2: if constexpr (Unit <= 2) run_pass<2, R, Butterfly>(v, s, p.index + s * R, (p.uniform_passes >> s) & 1); break;
        default: if constexpr (Unit == 1) run_pass<1, R, Butterfly>(v, s, p.index + s * R, (p.uniform_passes >> s) & 1); break;
      }
    }
    if (p.full_stores && !stream) {
#pragma GCC unroll 64
      for (int r = 0; r < R; ++r) _mm512_storeu_si512(out + p.store_offset[r], v[r]);
      return;
    }
#pragma GCC unroll 64
    for (int r = 0; r < R; ++r) {
      char* dst = out + p.store_offset[r];
      if (stream && p.store_mask[r] == ~0ull && (reinterpret_cast<std::uintptr_t>(dst) & (kVectorBytes - 1)) == 0)
        _mm512_stream_si512(reinterpret_cast<__m512i*>(dst), v[r]);
      else
        _mm512_mask_storeu_epi8(dst, p.store_mask[r], v[r]);
    }
  }
};

using RunFn = void (*)(const Data&, const char*, char*, std::int64_t, std::int64_t);

template <int Unit, int RegBits, int Passes, bool Butterfly>
GENTT_AVX512 void run_range(const Data& d, const char* in, char* out, std::int64_t begin, std::int64_t end) {
  BlockBody<Unit, RegBits, Passes, Butterfly> body{d.programs.data(), d.stream};
  walk(d.loops.data(), static_cast<int>(d.loops.size()), begin, end, in, out, body);
  if (d.stream) _mm_sfence();
}

// The run function for (unit, register bits, passes, butterfly), or nullptr past the limits.
template <int Unit, int RegBits>
RunFn pick_passes(int passes, bool butterfly) {
  if (!butterfly) {
    if (passes == 0) return run_range<Unit, RegBits, 0, false>;
    if (passes == 1) return run_range<Unit, RegBits, 1, false>;
    return nullptr;
  }
  RunFn fn = nullptr;
  [&]<int... P>(std::integer_sequence<int, P...>) {
    ((passes == P + 1 && P + 1 <= RegBits ? (fn = run_range<Unit, RegBits, P + 1, true>, 0) : 0), ...);
  }(std::make_integer_sequence<int, RegBits>{});
  return fn;
}

template <int Unit>
RunFn pick(int reg_bits, int passes, bool butterfly) {
  constexpr int kMax = Unit == 1 ? 6 : Unit == 2 ? 5 : Unit == 4 ? 4 : 3;
  RunFn fn = nullptr;
  [&]<int... B>(std::integer_sequence<int, B...>) {
    ((reg_bits == B ? (fn = pick_passes<Unit, B>(passes, butterfly), 0) : 0), ...);
  }(std::make_integer_sequence<int, kMax + 1>{});
  return fn;
}

class Avx512Blocks final : public PreparedBlocks {
 public:
  Avx512Blocks(Data data, std::vector<std::int64_t> offsets, std::vector<unsigned long long> masks,
               std::vector<Vec> index, std::vector<std::array<std::size_t, 3>> starts, RunFn fn, int passes)
      : data_(std::move(data)), offsets_(std::move(offsets)), masks_(std::move(masks)), index_(std::move(index)),
        fn_(fn), passes_(passes) {
    // Pointers into the owned vectors, now that they no longer move.
    for (size_t p = 0; p < data_.programs.size(); ++p) {
      const auto& s = starts[p];
      const std::size_t regs = s[2];
      Program& prog = data_.programs[p];
      prog.load_offset = offsets_.data() + s[0];
      prog.load_mask = masks_.data() + s[0];
      prog.index = index_.data() + s[1];
      prog.store_offset = offsets_.data() + s[0] + regs;
      prog.store_mask = masks_.data() + s[0] + regs;
    }
  }
  void run(const char* in, char* out, std::int64_t begin, std::int64_t end) const override {
    fn_(data_, in, out, begin, end);
  }
  std::int64_t iterations() const override { return walk_iterations(data_.loops); }
  std::string describe() const override {
    const Program& p = data_.programs.front();
    std::string text = "avx512 engine, full blocks: ";
    text += p.full_loads ? "whole-vector loads" : "masked loads";
    for (int s = 0; s < passes_; ++s)
      text += ", pass " + std::to_string(s + 1) + ": " + std::to_string(p.pass_unit[s]) + "-byte units" +
              ((p.uniform_passes >> s) & 1 ? " (one index pair)" : " (index per register)");
    text += p.full_stores ? ", whole-vector stores" : ", masked stores";
    return text;
  }

 private:
  Data data_;
  std::vector<std::int64_t> offsets_;
  std::vector<unsigned long long> masks_;
  std::vector<Vec> index_;
  RunFn fn_;
  int passes_;
};

int unit_for(std::int64_t elem_bytes) {
  for (int u : {8, 4, 2, 1})
    if (elem_bytes % u == 0) return u;
  return 1;
}

unsigned long long byte_mask(std::int64_t bytes) {
  return bytes >= 64 ? ~0ull : (1ull << bytes) - 1;
}

// An element-level index list as units of `unit` bytes; b's units start at 64 / unit.
void expand_index(const std::vector<int>& index, std::int64_t elem_bytes, int unit, Vec& out) {
  const int per_elem = static_cast<int>(elem_bytes / unit);
  const int per_reg = kVectorBytes / unit;
  const int lanes = static_cast<int>(index.size());
  std::memset(out.bytes, 0, sizeof out.bytes);
  for (int l = 0; l < lanes; ++l) {
    if (index[l] < 0) continue;
    const int src_lane = index[l] % lanes, src_reg = index[l] / lanes;
    for (int j = 0; j < per_elem; ++j) {
      const long long value = src_reg * per_reg + src_lane * per_elem + j;
      const int slot = l * per_elem + j;
      switch (unit) {
        case 1: out.bytes[slot] = static_cast<unsigned char>(value); break;
        case 2: { const auto v = static_cast<std::int16_t>(value); std::memcpy(out.bytes + 2 * slot, &v, 2); break; }
        case 4: { const auto v = static_cast<std::int32_t>(value); std::memcpy(out.bytes + 4 * slot, &v, 4); break; }
        default: { const auto v = static_cast<std::int64_t>(value); std::memcpy(out.bytes + 8 * slot, &v, 8); break; }
      }
    }
  }
}

bool unit_bytes_ok(std::int64_t bytes) { return bytes == 2 || bytes == 4 || bytes == 8; }

// Whether every group of g lanes takes g consecutive lanes of one source, g-aligned (don't-cares
// fit anything): then the shuffle moves units of g elements.
bool groups_move_whole(const std::vector<int>& index, int g) {
  const int lanes = static_cast<int>(index.size());
  for (int first = 0; first < lanes; first += g) {
    int start = -1;
    for (int j = 0; j < g; ++j) {
      const int i = index[first + j];
      if (i < 0) continue;
      if (start < 0) {
        start = i - j;
        if (start < 0 || start % g != 0) return false;
      } else if (i != start + j) {
        return false;
      }
    }
  }
  return true;
}

// The unit-level index vector of a list that moves whole groups of g elements (unit_bytes each).
void expand_groups(const std::vector<int>& index, int g, int unit_bytes, Vec& out) {
  const int lanes = static_cast<int>(index.size());
  const int per_reg = kVectorBytes / unit_bytes;
  std::memset(out.bytes, 0, sizeof out.bytes);
  for (int first = 0; first < lanes; first += g) {
    long long value = 0;
    for (int j = 0; j < g; ++j) {
      const int i = index[first + j];
      if (i < 0) continue;
      const int src_reg = i / lanes, src_lane = (i % lanes) - j;
      value = src_reg * per_reg + src_lane / g;
      break;
    }
    const int slot = first / g;
    if (unit_bytes == 2) { const auto v = static_cast<std::int16_t>(value); std::memcpy(out.bytes + 2 * slot, &v, 2); }
    if (unit_bytes == 4) { const auto v = static_cast<std::int32_t>(value); std::memcpy(out.bytes + 4 * slot, &v, 4); }
    if (unit_bytes == 8) { const auto v = static_cast<std::int64_t>(value); std::memcpy(out.bytes + 8 * slot, &v, 8); }
  }
}

// When every register pair of a pass can share one pair of index lists (they agree wherever
// both care), those lists for every register; else nullopt. `bit` >= 0: butterfly pass s pairs
// registers by bit s (low and high members get separate lists); -1: a reorder pass (one list).
std::optional<std::vector<std::vector<int>>> merge_pass(const std::vector<std::vector<int>>& pass, int bit) {
  const std::size_t lanes = pass.front().size();
  std::vector<int> merged[2] = {std::vector<int>(lanes, -1), std::vector<int>(lanes, -1)};
  for (std::size_t r = 0; r < pass.size(); ++r) {
    std::vector<int>& m = merged[bit >= 0 ? (r >> bit) & 1 : 0];
    for (std::size_t l = 0; l < lanes; ++l) {
      if (pass[r][l] < 0) continue;
      if (m[l] >= 0 && m[l] != pass[r][l]) return std::nullopt;
      m[l] = pass[r][l];
    }
  }
  std::vector<std::vector<int>> out(pass.size());
  for (std::size_t r = 0; r < pass.size(); ++r) out[r] = merged[bit >= 0 ? (r >> bit) & 1 : 0];
  return out;
}

}  // namespace

std::unique_ptr<PreparedBlocks> prepare_avx512(const BlockTables& tables, std::int64_t elem_bytes,
                                               const PrepareOptions& options) {
  if (options.sink || tables.lanes * elem_bytes > kVectorBytes || tables.reg_bits > kMaxRegBits) return nullptr;
  const int unit = unit_for(elem_bytes);
  const int passes = tables.programs.empty() ? 0 : static_cast<int>(tables.programs[0].passes.size());
  for (const auto& p : tables.programs)
    if (static_cast<int>(p.passes.size()) != passes) return nullptr;
  RunFn fn = nullptr;
  switch (unit) {
    case 1: fn = pick<1>(tables.reg_bits, passes, tables.butterfly); break;
    case 2: fn = pick<2>(tables.reg_bits, passes, tables.butterfly); break;
    case 4: fn = pick<4>(tables.reg_bits, passes, tables.butterfly); break;
    default: fn = pick<8>(tables.reg_bits, passes, tables.butterfly); break;
  }
  if (!fn) return nullptr;

  Data data;
  data.loops = walk_loops(tables.loops, elem_bytes, elem_bytes);
  data.stream = options.stream;
  const std::size_t regs = std::size_t{1} << tables.reg_bits;
  std::vector<std::int64_t> offsets;
  std::vector<unsigned long long> masks;
  std::vector<Vec> index;
  std::vector<std::array<std::size_t, 3>> starts;
  for (const auto& p : tables.programs) {
    starts.push_back({offsets.size(), index.size(), regs});
    for (std::size_t r = 0; r < regs; ++r) {
      offsets.push_back(p.load_offset[r] * elem_bytes);
      masks.push_back(byte_mask(p.load_count[r] * elem_bytes));
    }
    for (std::size_t r = 0; r < regs; ++r) {
      offsets.push_back(p.store_offset[r] * elem_bytes);
      masks.push_back(byte_mask(p.store_count[r] * elem_bytes));
    }
    Program flags{};
    flags.full_loads = flags.full_stores = true;
    for (std::size_t r = 0; r < regs; ++r) {
      flags.full_loads &= p.load_count[r] * elem_bytes == kVectorBytes;
      flags.full_stores &= p.store_count[r] * elem_bytes == kVectorBytes;
    }
    for (std::size_t s = 0; s < p.passes.size(); ++s) {
      const auto merged = merge_pass(p.passes[s], tables.butterfly ? static_cast<int>(s) : -1);
      if (merged) flags.uniform_passes |= 1u << s;
      const auto& lists = merged ? *merged : p.passes[s];
      int group = 1;  // elements per unit of this pass
      for (int g = 2; unit_bytes_ok(g * elem_bytes) && g <= tables.lanes; g *= 2) {
        bool ok = true;
        for (const auto& list : lists) ok &= groups_move_whole(list, g);
        if (!ok) break;
        group = g;
      }
      flags.pass_unit[s] = static_cast<unsigned char>(group > 1 ? group * elem_bytes : unit);
      for (std::size_t r = 0; r < regs; ++r) {
        index.emplace_back();
        if (group > 1)
          expand_groups(lists[r], group, static_cast<int>(group * elem_bytes), index.back());
        else
          expand_index(lists[r], elem_bytes, unit, index.back());
      }
    }
    data.programs.push_back(flags);
  }
  return std::make_unique<Avx512Blocks>(std::move(data), std::move(offsets), std::move(masks), std::move(index),
                                        std::move(starts), fn, passes);
}

}  // namespace gentt::engine

#else  // not x86-64: no AVX-512 engine

namespace gentt::engine {
std::unique_ptr<PreparedBlocks> prepare_avx512(const BlockTables&, std::int64_t, const PrepareOptions&) {
  return nullptr;
}
}  // namespace gentt::engine

#endif
