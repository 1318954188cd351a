// gentt_access_patterns: how fast this machine reads and writes memory in runs of R bytes per
// row, next to the sequential rate: the constants a cost model for large tensors needs (issue 8).
//
// A permutation past the caches reads each input row and writes each output row in pieces: a
// walk's tile (or block) decides how many consecutive bytes of one row it moves before it goes
// on to the next row. This program measures that on a buffer much larger than the last-level
// cache (rows of --row-bytes, default 16 KiB: the stride of a 4096-column float32 matrix), in
// bands of --band rows: for each column piece of R bytes, the piece of every row of the band, so
// that consecutive runs are one row stride apart, as a transpose's tile reads them.
//   read      loads (SSE2, summed), runs of R bytes
//   write nt  non-temporal stores of whole 64-byte lines (movntdq), runs of R bytes, then sfence
//   write     ordinary stores, runs of R bytes (each line is read for ownership first)
// GB/s here counts the bytes once (one direction); the best of --repeat passes per figure.
// Buffers are 2 MiB-aligned and advised as transparent huge pages (as gentt_bench's).
//
//   cmake --build build --target gentt_access_patterns && build/bench/gentt_access_patterns
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace {

struct Options {
  std::int64_t mib = 256;
  std::int64_t row_bytes = 16384;
  std::int64_t band = 256;
  int repeat = 5;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "gentt_access_patterns: %s\n"
               "usage: gentt_access_patterns [--mib N (>= 16, default 256)] [--row-bytes N (a multiple of 4096,\n"
               "       default 16384)] [--band ROWS (>= 1, default 256)] [--repeat N (>= 1, default 5)]\n",
               why);
  std::exit(2);
}

std::int64_t parse(const char* flag, const char* text, std::int64_t lo) {
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (!end || *end || v < lo) usage((std::string(flag) + ": expected an integer >= " + std::to_string(lo)).c_str());
  return v;
}

char* huge_buffer(std::size_t bytes) {
  const std::size_t align = std::size_t{2} << 20;
  const std::size_t size = (bytes + align - 1) / align * align;
  void* p = mmap(nullptr, size + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    std::perror("gentt_access_patterns: mmap");
    std::exit(1);
  }
  char* q = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(p) + align - 1) / align * align);
  madvise(q, size, MADV_HUGEPAGE);
  std::memset(q, 1, size);  // fault every page in
  return q;
}

template <class F>
double best_gbps(std::int64_t bytes, int repeat, F f) {
  double best = 1e30;
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return static_cast<double>(bytes) / best / 1e9;
}

#if defined(__x86_64__)
volatile long long g_sink;

// Every piece of `run` bytes of the buffer (rows of `row` bytes, bands of `band` rows) in the
// order described above; f(at) moves the 64-byte line at `at`.
template <class F>
void each_run(char* base, std::int64_t bytes, std::int64_t row, std::int64_t band, std::int64_t run, F f) {
  const std::int64_t rows = bytes / row;
  for (std::int64_t r0 = 0; r0 < rows; r0 += band) {
    const std::int64_t r1 = std::min(rows, r0 + band);
    for (std::int64_t c = 0; c < row; c += run)
      for (std::int64_t r = r0; r < r1; ++r)
        for (std::int64_t b = 0; b < run; b += 64) f(base + r * row + c + b);
  }
}

inline __m128i read_line(const char* at, __m128i acc) {
  const __m128i* p = reinterpret_cast<const __m128i*>(at);
  acc = _mm_add_epi64(acc, _mm_load_si128(p));
  acc = _mm_add_epi64(acc, _mm_load_si128(p + 1));
  acc = _mm_add_epi64(acc, _mm_load_si128(p + 2));
  return _mm_add_epi64(acc, _mm_load_si128(p + 3));
}
inline void stream_line(char* at, __m128i v) {
  __m128i* p = reinterpret_cast<__m128i*>(at);
  _mm_stream_si128(p, v);
  _mm_stream_si128(p + 1, v);
  _mm_stream_si128(p + 2, v);
  _mm_stream_si128(p + 3, v);
}
inline void store_line(char* at, __m128i v) {
  __m128i* p = reinterpret_cast<__m128i*>(at);
  _mm_store_si128(p, v);
  _mm_store_si128(p + 1, v);
  _mm_store_si128(p + 2, v);
  _mm_store_si128(p + 3, v);
}
void keep(__m128i acc) { g_sink = _mm_cvtsi128_si64(acc); }
#endif

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") usage("measures read and write rates by run length");
    if (i + 1 >= argc) usage((a + ": missing value").c_str());
    if (a == "--mib") o.mib = parse("--mib", argv[++i], 16);
    else if (a == "--row-bytes") o.row_bytes = parse("--row-bytes", argv[++i], 4096);
    else if (a == "--band") o.band = parse("--band", argv[++i], 1);
    else if (a == "--repeat") o.repeat = static_cast<int>(parse("--repeat", argv[++i], 1));
    else usage(("unknown option " + a).c_str());
  }
  if (o.row_bytes % 4096 != 0) usage("--row-bytes: expected a multiple of 4096");
  const std::int64_t bytes = o.mib << 20;
  if (bytes < o.row_bytes) usage("--mib: the buffer must hold at least one row");
#if !defined(__x86_64__)
  std::printf("gentt_access_patterns: measures x86-64 only (SSE2 streaming stores); nothing measured\n");
  return 0;
#else
  char* buf = huge_buffer(static_cast<std::size_t>(bytes));
  const std::int64_t used = bytes / o.row_bytes * o.row_bytes;
  std::printf("buffer %lld MiB, rows of %lld bytes, bands of %lld rows; GB/s one direction, best of %d\n",
              static_cast<long long>(o.mib), static_cast<long long>(o.row_bytes), static_cast<long long>(o.band),
              o.repeat);
  const __m128i ones = _mm_set1_epi32(1);
  const double read_seq = best_gbps(used, o.repeat, [&] {
    __m128i acc = _mm_setzero_si128();
    for (std::int64_t at = 0; at < used; at += 64) acc = read_line(buf + at, acc);
    keep(acc);
  });
  const double nt_seq = best_gbps(used, o.repeat, [&] {
    for (std::int64_t at = 0; at < used; at += 64) stream_line(buf + at, ones);
    _mm_sfence();
  });
  const double st_seq = best_gbps(used, o.repeat, [&] {
    for (std::int64_t at = 0; at < used; at += 64) store_line(buf + at, ones);
  });
  std::printf("%-12s %8s %8s %8s\n", "run (bytes)", "read", "write nt", "write");
  std::printf("%-12s %8.1f %8.1f %8.1f\n", "sequential", read_seq, nt_seq, st_seq);
  for (std::int64_t run = 64; run <= std::min<std::int64_t>(o.row_bytes, 8192); run *= 2) {
    const double rd = best_gbps(used, o.repeat, [&] {
      __m128i acc = _mm_setzero_si128();
      each_run(buf, used, o.row_bytes, o.band, run, [&](char* at) { acc = read_line(at, acc); });
      keep(acc);
    });
    const double nt = best_gbps(used, o.repeat, [&] {
      each_run(buf, used, o.row_bytes, o.band, run, [&](char* at) { stream_line(at, ones); });
      _mm_sfence();
    });
    const double st = best_gbps(used, o.repeat, [&] {
      each_run(buf, used, o.row_bytes, o.band, run, [&](char* at) { store_line(at, ones); });
    });
    std::printf("%-12lld %8.1f %8.1f %8.1f\n", static_cast<long long>(run), rd, nt, st);
  }
  return 0;
#endif
}
