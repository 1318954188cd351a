// The row engine (row_copy.h) for AVX2: 32-byte loads and stores, four per step; a row's last
// partial vector is one more 32-byte copy ending at the row's end (it rewrites a few bytes with
// the same values). Compiled for AVX2 by function attributes, used only when the CPU runs it.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

// The walk (walk.h) is compiled for the ISA too, so that the row copy inlines into it.
#if defined(__x86_64__)
#define GENTT_WALK_TARGET __attribute__((target("avx2")))
#endif
#include "runtime/engine/row_copy_isa.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "runtime/engine/walk_loops.h"

namespace gentt::engine {

namespace {

struct Avx2Rows {
  static constexpr const char* kName = "avx2";
  struct Line {
    __m256i a, b;
  };
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline __m256i load(const char* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline void store(char* p, __m256i v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
  }
  using Vec = __m256i;
  static constexpr int kVec = 32;
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline Vec load_vec(const char* p) { return load(p); }
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline void store_vec(char* p, Vec v) { store(p, v); }
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline Line load_line(const char* p) {
    return {load(p), load(p + 32)};
  }
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline void stream_line(char* p, Line v) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v.a);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p + 32), v.b);
  }
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline void copy(const char* in, char* out, std::int64_t n) {
    if (n < 32) {
      std::memcpy(out, in, static_cast<std::size_t>(n));
      return;
    }
    const char* in_end = in + n;
    char* out_end = out + n;
    for (; n >= 128; n -= 128, in += 128, out += 128) {
      const __m256i a = load(in), b = load(in + 32), c = load(in + 64), d = load(in + 96);
      store(out, a);
      store(out + 32, b);
      store(out + 64, c);
      store(out + 96, d);
    }
    for (; n >= 32; n -= 32, in += 32, out += 32) store(out, load(in));
    if (n > 0) store(out_end - 32, load(in_end - 32));
  }
  GENTT_WALK_TARGET __attribute__((always_inline)) static inline void stream(const char* in, char* out, std::int64_t n) {
    const std::int64_t head = static_cast<std::int64_t>((32 - (reinterpret_cast<std::uintptr_t>(out) & 31)) & 31);
    if (n < head + 64) return copy(in, out, n);
    const char* in_end = in + n;
    char* out_end = out + n;
    if (head) {
      store(out, load(in));
      in += head, out += head, n -= head;
    }
    for (; n >= 64; n -= 64, in += 64, out += 64) {
      const __m256i a = load(in), b = load(in + 32);
      _mm256_stream_si256(reinterpret_cast<__m256i*>(out), a);
      _mm256_stream_si256(reinterpret_cast<__m256i*>(out + 32), b);
    }
    if (n >= 32) {
      _mm256_stream_si256(reinterpret_cast<__m256i*>(out), load(in));
      in += 32, out += 32, n -= 32;
    }
    if (n > 0) store(out_end - 32, load(in_end - 32));
  }
  GENTT_WALK_TARGET static void fence() { _mm_sfence(); }
};

#include "runtime/engine/row_body.h"

}  // namespace

std::unique_ptr<PreparedBlocks> make_rows_avx2(std::vector<WalkLoop> loops, const RowGeometry& g, bool stream,
                                               const RowSink* sink, std::int64_t pieces) {
  return std::make_unique<RowBlocks<Avx2Rows>>(std::move(loops), g, stream, sink, pieces);
}

}  // namespace gentt::engine

#else

namespace gentt::engine {
std::unique_ptr<PreparedBlocks> make_rows_avx2(std::vector<WalkLoop>, const RowGeometry&, bool, const RowSink*,
                                               std::int64_t) {
  return nullptr;
}
}  // namespace gentt::engine

#endif
