// gentt_access_patterns: how fast this machine reads and writes memory in runs of R bytes per
// row, next to the sequential rate: the constants a cost model for large tensors needs (issue 8).
//
// A permutation past the caches reads each input row and writes each output row in pieces: a
// walk's tile (or block) decides how many consecutive bytes of one row it moves before it goes
// on to the next row. This program measures that on a buffer much larger than the last-level
// cache (rows of --row-bytes, default 16 KiB: the stride of a 4096-column float32 matrix), in
// bands of --band rows: for each column piece of R bytes, the piece of every row of the band, so
// that consecutive runs are one row stride apart, as a transpose's tile reads them.
//   read      loads, summed into four independent accumulators, runs of R bytes
//   write nt  non-temporal stores of whole 64-byte lines (movntdq), runs of R bytes, then sfence
//   write     ordinary stores, runs of R bytes (each line is read for ownership first)
// Lines move as four 16-byte SSE2 vectors, which every x86-64 CPU has: the curve's shape (the
// rate by run length against the sequential one) is what a walk's cost depends on; the widest
// vectors may reach higher absolute rates (Zen 5: sequential 64-byte streaming stores about 1.4x
// these, docs/performance.md). GB/s counts the bytes once (one direction); the best of --repeat
// passes per figure.
// The buffer is 2 MiB-aligned, advised as transparent huge pages and pre-faulted (buffer.h, as
// gentt_bench's); the three patterns of a run length are timed interleaved (timing.h).
//
//   cmake --build build --target gentt_access_patterns && build/bench/gentt_access_patterns
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "buffer.h"
#include "timing.h"

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

// One 64-byte line read, streamed or stored as four SSE2 vectors. Reads sum into independent
// accumulators, so that no chain of additions limits them.
struct Sse2 {
  static constexpr const char* kName = "sse2";
  struct Acc {
    __m128i a = _mm_setzero_si128(), b = a, c = a, d = a;
  };
  static void read(const char* at, Acc& s) {
    const __m128i* p = reinterpret_cast<const __m128i*>(at);
    s.a = _mm_add_epi64(s.a, _mm_load_si128(p));
    s.b = _mm_add_epi64(s.b, _mm_load_si128(p + 1));
    s.c = _mm_add_epi64(s.c, _mm_load_si128(p + 2));
    s.d = _mm_add_epi64(s.d, _mm_load_si128(p + 3));
  }
  static long long sum(const Acc& s) {
    return _mm_cvtsi128_si64(_mm_add_epi64(_mm_add_epi64(s.a, s.b), _mm_add_epi64(s.c, s.d)));
  }
  // Streaming (non-temporal) or ordinary stores of the line.
  template <bool NonTemporal>
  static void write(char* at) {
    __m128i* p = reinterpret_cast<__m128i*>(at);
    const __m128i v = _mm_set1_epi32(1);
    for (int k = 0; k < 4; ++k) {
      if constexpr (NonTemporal)
        _mm_stream_si128(p + k, v);
      else
        _mm_store_si128(p + k, v);
    }
  }
};

// The three patterns of one run length (0: sequential) with lines moved by L, interleaved
// round by round; GB/s (one direction) of each one's fastest pass.
struct Rates {
  double read, nt, store;
};
template <class L>
Rates measure(char* buf, std::int64_t used, const Options& o, std::int64_t run) {
  const auto walk = [&](auto f) {
    if (run == 0)
      for (std::int64_t at = 0; at < used; at += 64) f(buf + at);
    else
      each_run(buf, used, o.row_bytes, o.band, run, f);
  };
  gentt::bench::TimingOptions t;
  t.warmup_calls = 0;  // calibration makes one untimed pass of each
  t.samples = o.repeat;
  t.min_sample_seconds = 0;  // one pass per sample
  const std::vector<gentt::bench::Timing> times = gentt::bench::time_interleaved(
      {[&] {
         typename L::Acc acc;
         walk([&](char* at) { L::read(at, acc); });
         g_sink = L::sum(acc);
       },
       [&] {
         walk([&](char* at) { L::template write<true>(at); });
         _mm_sfence();
       },
       [&] { walk([&](char* at) { L::template write<false>(at); }); }},
      t);
  const auto gbps = [&](const gentt::bench::Timing& x) { return static_cast<double>(used) / x.min_seconds / 1e9; };
  return {gbps(times[0]), gbps(times[1]), gbps(times[2])};
}
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
  gentt::bench::Buffer buffer(static_cast<std::size_t>(bytes), 1);
  char* buf = reinterpret_cast<char*>(buffer.data());
  const std::int64_t used = bytes / o.row_bytes * o.row_bytes;
  std::printf("buffer %lld MiB, rows of %lld bytes, bands of %lld rows; GB/s one direction, best of %d\n",
              static_cast<long long>(o.mib), static_cast<long long>(o.row_bytes), static_cast<long long>(o.band),
              o.repeat);
  std::printf("%-12s %8s %8s %8s   (lines moved with %s)\n", "run (bytes)", "read", "write nt", "write",
              Sse2::kName);
  for (std::int64_t run = 0; run <= std::min<std::int64_t>(o.row_bytes, 8192); run = run ? run * 2 : 64) {
    const Rates r = measure<Sse2>(buf, used, o, run);
    if (run == 0)
      std::printf("%-12s %8.1f %8.1f %8.1f\n", "sequential", r.read, r.nt, r.store);
    else
      std::printf("%-12lld %8.1f %8.1f %8.1f\n", static_cast<long long>(run), r.read, r.nt, r.store);
  }
  return 0;
#endif
}
