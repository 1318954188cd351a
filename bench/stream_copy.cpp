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
// Both bodies copy `lines` whole 64-byte lines from src to the 64-byte-aligned dst, four lines
// per iteration where they can (four loads in flight before the stores).
__attribute__((target("avx512f"))) void lines_avx512(char* dst, const char* src, std::size_t lines) {
  std::size_t i = 0;
  for (; i + 4 <= lines; i += 4) {
    const __m512i a = _mm512_loadu_si512(src + 64 * i);
    const __m512i b = _mm512_loadu_si512(src + 64 * i + 64);
    const __m512i c = _mm512_loadu_si512(src + 64 * i + 128);
    const __m512i d = _mm512_loadu_si512(src + 64 * i + 192);
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + 64 * i), a);
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + 64 * i + 64), b);
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + 64 * i + 128), c);
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + 64 * i + 192), d);
  }
  for (; i < lines; ++i)
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + 64 * i), _mm512_loadu_si512(src + 64 * i));
  _mm_sfence();
}

// (Lambdas would not inherit the target attribute, hence the macros.)
#define GENTT_LOAD(p) _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))
#define GENTT_STREAM(p, v) _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v)
__attribute__((target("avx2"))) void lines_avx2(char* dst, const char* src, std::size_t lines) {
  std::size_t i = 0;
  for (; i + 2 <= lines; i += 2) {
    const char* s = src + 64 * i;
    char* d = dst + 64 * i;
    const __m256i a = GENTT_LOAD(s), b = GENTT_LOAD(s + 32), c = GENTT_LOAD(s + 64), e = GENTT_LOAD(s + 96);
    GENTT_STREAM(d, a);
    GENTT_STREAM(d + 32, b);
    GENTT_STREAM(d + 64, c);
    GENTT_STREAM(d + 96, e);
  }
  for (; i < lines; ++i) {
    const __m256i a = GENTT_LOAD(src + 64 * i), b = GENTT_LOAD(src + 64 * i + 32);
    GENTT_STREAM(dst + 64 * i, a);
    GENTT_STREAM(dst + 64 * i + 32, b);
  }
  _mm_sfence();
}
#undef GENTT_LOAD
#undef GENTT_STREAM
#endif

using LinesFn = void (*)(char*, const char*, std::size_t);

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

void stream_copy(void* dst, const void* src, std::size_t bytes) {
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
  lines(d + head, s + head, n);
  const std::size_t done = head + 64 * n;
  std::memcpy(d + done, s + done, bytes - done);
}

}  // namespace gentt::bench
