#include "runtime/engine/split_rows.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "runtime/engine/regions.h"

#if defined(__x86_64__) && !defined(GENTT_NO_SIMD_ENGINES)
#include <immintrin.h>

#define GENTT_SPLIT_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))
#define GENTT_WALK_TARGET GENTT_SPLIT_TARGET
#include "runtime/engine/walk.h"

namespace gentt::engine {

namespace {

constexpr int kRegs = 32;   // registers of a split byte block
constexpr int kHalf = 32;   // bytes of each of a register's two runs
constexpr int kLine = 64;

// One program's registers in bytes from the block's bases: the two runs each register loads (a
// prefix of kHalf bytes under its mask; 0: none) and the prefix of a line it stores.
struct Program {
  std::int64_t lo[kRegs], hi[kRegs], out[kRegs], out2[kRegs];
  std::uint32_t lo_mask[kRegs], hi_mask[kRegs];
  std::uint64_t out_mask[kRegs];  // split_stores: the low half's mask, and the high half's above it
  bool full = false;              // every run loaded whole and every line stored whole
  bool split_stores = false;      // each half stored at its own place (ProgramTables::split_stores)
};

// Butterfly step S: register bit S exchanges with byte-lane bit S, units of 2^S bytes. Side 0 (a,
// register bit clear) keeps its lanes with bit S clear and takes b's below them; side 1 the rest
// (backends/avx512.cpp's exchange_code writes the same forms into the generated kernels). The
// 512-bit forms are masked with every lane set: the unmasked ones merge into an undefined vector,
// which GCC 12's -Wmaybe-uninitialized reports.
template <int S>
GENTT_SPLIT_TARGET __attribute__((always_inline)) inline void exchange(__m512i& a, __m512i& b) {
  __m512i x, y;
  if constexpr (S == 0) {
    const __mmask64 odd = 0xAAAAAAAAAAAAAAAAull;
    const __mmask32 all = 0xFFFFFFFFu;
    x = _mm512_mask_blend_epi8(odd, a, _mm512_mask_slli_epi16(b, all, b, 8));
    y = _mm512_mask_blend_epi8(odd, _mm512_mask_srli_epi16(a, all, a, 8), b);
  } else if constexpr (S == 1) {
    const __mmask32 odd = 0xAAAAAAAAu;
    const __mmask16 all = 0xFFFF;
    x = _mm512_mask_blend_epi16(odd, a, _mm512_mask_slli_epi32(b, all, b, 16));
    y = _mm512_mask_blend_epi16(odd, _mm512_mask_srli_epi32(a, all, a, 16), b);
  } else if constexpr (S == 2) {
    x = _mm512_castps_si512(_mm512_mask_moveldup_ps(_mm512_castsi512_ps(a), 0xAAAA, _mm512_castsi512_ps(b)));
    y = _mm512_castps_si512(_mm512_mask_movehdup_ps(_mm512_castsi512_ps(b), 0x5555, _mm512_castsi512_ps(a)));
  } else if constexpr (S == 3) {
    x = _mm512_mask_unpacklo_epi64(a, 0xFF, a, b);
    y = _mm512_mask_unpackhi_epi64(a, 0xFF, a, b);
  } else {
    static_assert(S == 4);
    x = _mm512_mask_permutex_epi64(a, 0xCC, b, 0x4E);
    y = _mm512_mask_permutex_epi64(b, 0x33, a, 0x4E);
  }
  a = x;
  b = y;
}

template <int S>
GENTT_SPLIT_TARGET __attribute__((always_inline)) inline void step(__m512i* v) {
  _Pragma("GCC unroll 32") for (int r = 0; r < kRegs; ++r) if (!(r & (1 << S))) exchange<S>(v[r], v[r | (1 << S)]);
}

// One block of program p at (in, out): loads, five exchanges, stores. Full: whole runs and lines,
// no masks; Stream: whole lines with non-temporal stores (aligned when the plan streams).
template <bool Full, bool Stream, bool SplitStores = false>
GENTT_SPLIT_TARGET __attribute__((always_inline)) inline void run_block(const Program& p, const char* in, char* out,
                                                                        std::int64_t ahead) {
  __m512i v[kRegs];
  if (ahead) {
    _Pragma("GCC unroll 32") for (int r = 0; r < kRegs; ++r) {
      __builtin_prefetch(in + p.lo[r] + ahead, 0, 3);
      __builtin_prefetch(in + p.hi[r] + ahead, 0, 3);
    }
  }
  _Pragma("GCC unroll 32") for (int r = 0; r < kRegs; ++r) {
    __m256i lo, hi;
    if constexpr (Full) {
      lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + p.lo[r]));
      hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + p.hi[r]));
    } else {
      lo = _mm256_maskz_loadu_epi8(p.lo_mask[r], in + p.lo[r]);
      hi = _mm256_maskz_loadu_epi8(p.hi_mask[r], in + p.hi[r]);
    }
    const __m512i wide = _mm512_castsi256_si512(lo);
    v[r] = _mm512_mask_inserti64x4(wide, 0xFF, wide, hi, 1);
  }
  step<0>(v);
  step<1>(v);
  step<2>(v);
  step<3>(v);
  step<4>(v);
  _Pragma("GCC unroll 32") for (int r = 0; r < kRegs; ++r) {
    if constexpr (Full) {
      if constexpr (Stream)
        _mm512_stream_si512(reinterpret_cast<__m512i*>(out + p.out[r]), v[r]);
      else
        _mm512_storeu_si512(out + p.out[r], v[r]);
    } else if constexpr (SplitStores) {
      const auto lo = static_cast<__mmask32>(p.out_mask[r]), hi = static_cast<__mmask32>(p.out_mask[r] >> 32);
      _mm256_mask_storeu_epi8(out + p.out[r], lo, _mm512_castsi512_si256(v[r]));
      _mm256_mask_storeu_epi8(out + p.out2[r], hi, _mm512_extracti64x4_epi64(v[r], 1));
    } else {
      _mm512_mask_storeu_epi8(out + p.out[r], p.out_mask[r], v[r]);
    }
  }
}

template <bool Stream>
struct Block {
  const Program* programs;
  std::int64_t ahead;
  GENTT_SPLIT_TARGET __attribute__((always_inline)) inline void operator()(int program, const char* in, char* out) const {
    const Program& p = programs[program];
    if (p.full) run_block<true, Stream>(p, in, out, ahead);
    else if (p.split_stores) run_block<false, Stream, true>(p, in, out, ahead);
    else run_block<false, Stream>(p, in, out, ahead);
  }
};

class SplitBlocks final : public PreparedBlocks {
 public:
  SplitBlocks(std::vector<WalkLoop> loops, std::shared_ptr<const std::vector<Program>> programs, bool stream,
              std::int64_t ahead)
      : loops_(std::move(loops)), programs_(std::move(programs)), stream_(stream), ahead_(ahead) {
    total_ = 1;
    for (const auto& l : loops_) total_ *= l.count;
  }
  void run(const char* in, char* out, std::int64_t begin, std::int64_t end) const override {
    if (stream_) {
      walk_with<true>(in, out, begin, end);
      _mm_sfence();
    } else {
      walk_with<false>(in, out, begin, end);
    }
  }
  std::int64_t iterations() const override { return total_; }
  std::string describe() const override {
    return std::string("split-row byte blocks: 32 registers of two 32-byte runs, 5 fixed exchanges") +
           (programs_->front().split_stores ? ", each register's halves stored to two output runs" : "") +
           (stream_ ? ", whole lines streamed" : "") + (ahead_ ? ", each block's lines prefetched " + std::to_string(ahead_) + " bytes on" : "");
  }

 private:
  template <bool Stream>
  GENTT_SPLIT_TARGET void walk_with(const char* in, char* out, std::int64_t begin, std::int64_t end) const {
    Block<Stream> block{programs_->data(), ahead_};
    walk<true>(loops_.data(), static_cast<int>(loops_.size()), begin, end, in, out, block);
  }

  std::vector<WalkLoop> loops_;
  std::shared_ptr<const std::vector<Program>> programs_;
  bool stream_;
  std::int64_t ahead_;
  std::int64_t total_ = 1;
};

// The tables' programs in bytes and masks (elements are bytes).
std::shared_ptr<const std::vector<Program>> byte_programs(const BlockTables& tables) {
  auto programs = std::make_shared<std::vector<Program>>(tables.programs.size());
  for (size_t k = 0; k < tables.programs.size(); ++k) {
    const ProgramTables& t = tables.programs[k];
    Program& p = (*programs)[k];
    p.full = !t.split_stores;
    p.split_stores = t.split_stores;
    for (int r = 0; r < kRegs; ++r) {
      const int lo = t.load_count[r], hi = t.load_count2[r], n = t.store_count[r];
      p.lo[r] = t.load_offset[r];
      p.hi[r] = t.load_offset2[r];
      p.out[r] = t.store_offset[r];
      p.out2[r] = t.split_stores ? t.store_offset2[r] : 0;
      p.lo_mask[r] = lo >= kHalf ? ~0u : (1u << lo) - 1;
      p.hi_mask[r] = hi >= kHalf ? ~0u : (1u << hi) - 1;
      if (t.split_stores) {
        const int n2 = t.store_count2[r];
        p.out_mask[r] = (n >= kHalf ? 0xFFFFFFFFull : (1ull << n) - 1) |
                        (n2 >= kHalf ? 0xFFFFFFFFull : (1ull << n2) - 1) << 32;
      } else {
        p.out_mask[r] = n >= kLine ? ~0ull : (1ull << n) - 1;
      }
      p.full &= lo == kHalf && hi == kHalf && n == kLine;
    }
  }
  return programs;
}

}  // namespace

std::unique_ptr<PreparedBlocks> prepare_split_rows(const BlockTables& tables, const PrepareOptions& options) {
  if (!tables.split_rows || tables.lanes != kLine || tables.reg_bits != 5 || options.sink) return nullptr;
  for (const auto& t : tables.programs)
    if (t.load_offset.size() != kRegs || t.load_offset2.size() != kRegs || t.pass_count != 5 ||
        (t.split_stores && t.store_offset2.size() != kRegs))
      return nullptr;
  const auto programs = byte_programs(tables);
  return over_regions(tables.loops, 1, 1, options, [&](const BlockLoops& nest, const PrepareOptions& o) {
    std::vector<WalkLoop> loops;
    for (const auto& l : nest.loops) loops.push_back(WalkLoop{l.count, l.in_stride, l.out_stride, l.tail_bit});
    return std::unique_ptr<PreparedBlocks>(std::make_unique<SplitBlocks>(std::move(loops), programs, o.stream, o.prefetch_ahead));
  });
}

}  // namespace gentt::engine

#else  // not x86-64, or GENTT_RUNTIME_SIMD_ENGINES=OFF: no split-row engine

namespace gentt::engine {
std::unique_ptr<PreparedBlocks> prepare_split_rows(const BlockTables&, const PrepareOptions&) { return nullptr; }
}  // namespace gentt::engine

#endif
