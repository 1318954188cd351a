// The streaming copy (stream_copy.h). The vector bodies are compiled for their ISA with
// __attribute__((target)), so this file builds with the project's baseline flags and the choice
// is made at run time (__builtin_cpu_supports).
#include "stream_copy.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define GENTT_STREAM_X86 1
#endif

namespace gentt::bench {
namespace {

#if GENTT_STREAM_X86
// The bodies copy `lines` whole 64-byte lines from src to the 64-byte-aligned dst in one of two
// orders (StreamOrder). Four pages: four 4 KiB pages (by destination offset) at a time, two lines
// of each page in turn, as glibc's large memcpy reads; the rest two lines at a time. Four read
// streams keep more misses in flight than one on some machines and fewer on others: on an Intel
// server core under KVM (2026-11-29) one stream copied 18 GB/s at 128-512 MiB and four 24-25
// (glibc's non-temporal memcpy: 25; on two threads 34-36 against 45-47); on a Zen 5 under KVM
// (2026-12-01) one stream 41-44 GB/s at 64-540 MiB and four 22. Sequential: two lines at a time in
// address order.
constexpr std::size_t kPageLines = 64;  // 4 KiB
constexpr std::size_t kPages = 4;

// An order: two(at) copies the two lines at byte offset `at`, for every pair of whole lines;
// returns the lines copied (all, or all but the last). The bodies inline it and `two` with
// `flatten` (a lambda does not inherit its function's target attribute).
template <class Two>
inline std::size_t copy_pairs(std::size_t lines, StreamOrder order, Two two) {
  std::size_t i = 0;
  if (order == StreamOrder::four_pages)
    for (; i + kPages * kPageLines <= lines; i += kPages * kPageLines)
      for (std::size_t l = 0; l < kPageLines; l += 2)
        for (std::size_t k = 0; k < kPages; ++k) two(64 * (i + k * kPageLines + l));
  for (; i + 2 <= lines; i += 2) two(64 * i);
  return i;
}

__attribute__((target("avx512f"))) inline void two_lines_avx512(char* dst, const char* src) {
  const __m512i a = _mm512_loadu_si512(src);
  const __m512i b = _mm512_loadu_si512(src + 64);
  _mm512_stream_si512(reinterpret_cast<__m512i*>(dst), a);
  _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + 64), b);
}

__attribute__((target("avx512f"), flatten)) void lines_avx512(char* dst, const char* src, std::size_t lines,
                                                               StreamOrder order) {
  const std::size_t i = copy_pairs(lines, order, [&](std::size_t at) { two_lines_avx512(dst + at, src + at); });
  if (i < lines)
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + 64 * i), _mm512_loadu_si512(src + 64 * i));
  _mm_sfence();
}

#define GENTT_LOAD(p) _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))
#define GENTT_STREAM(p, v) _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v)
__attribute__((target("avx2"))) inline void two_lines_avx2(char* d, const char* s) {
  const __m256i a = GENTT_LOAD(s), b = GENTT_LOAD(s + 32), c = GENTT_LOAD(s + 64), e = GENTT_LOAD(s + 96);
  GENTT_STREAM(d, a);
  GENTT_STREAM(d + 32, b);
  GENTT_STREAM(d + 64, c);
  GENTT_STREAM(d + 96, e);
}

__attribute__((target("avx2"), flatten)) void lines_avx2(char* dst, const char* src, std::size_t lines,
                                                           StreamOrder order) {
  const std::size_t i = copy_pairs(lines, order, [&](std::size_t at) { two_lines_avx2(dst + at, src + at); });
  if (i < lines) {
    const __m256i a = GENTT_LOAD(src + 64 * i), b = GENTT_LOAD(src + 64 * i + 32);
    GENTT_STREAM(dst + 64 * i, a);
    GENTT_STREAM(dst + 64 * i + 32, b);
  }
  _mm_sfence();
}
#undef GENTT_LOAD
#undef GENTT_STREAM
#endif

using LinesFn = void (*)(char*, const char*, std::size_t, StreamOrder);

struct Choice {
  LinesFn lines;
  const char* isa;
};

Choice choose() {
#if GENTT_STREAM_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return {lines_avx512, "avx512"};
  if (__builtin_cpu_supports("avx2")) return {lines_avx2, "avx2"};
#endif
  return {nullptr, "memcpy"};
}

const Choice& choice() {
  static const Choice c = choose();
  return c;
}

}  // namespace

const char* stream_copy_isa() { return choice().isa; }

void stream_copy(void* dst, const void* src, std::size_t bytes, StreamOrder order) {
  const LinesFn lines = choice().lines;
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  const std::size_t head = std::min<std::size_t>(bytes, (64 - reinterpret_cast<std::uintptr_t>(d) % 64) % 64);
  if (!lines || bytes - head < 64) {
    std::memcpy(d, s, bytes);
    return;
  }
  std::memcpy(d, s, head);
  const std::size_t n = (bytes - head) / 64;
  lines(d + head, s + head, n, order);
  const std::size_t done = head + 64 * n;
  std::memcpy(d + done, s + done, bytes - done);
}

}  // namespace gentt::bench
