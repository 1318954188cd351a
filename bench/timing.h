// Median-of-runs timing for memory-bound kernels.
//
// A "sample" calls a function enough times to last at least `min_sample_seconds` (so the clock's
// resolution and call overhead do not matter for tiny tensors) and records the mean time per
// call. Several functions are measured interleaved, round by round, so that they see the same
// machine state (frequency, other load); each gets the median over all rounds.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

namespace gentt::bench {

struct Timing {
  double median_seconds = 0;  // per call, median over samples
  double min_seconds = 0;     // per call, fastest sample
  long calls_per_sample = 0;
  int samples = 0;
};

struct TimingOptions {
  int warmup_calls = 3;               // untimed calls of each function before calibration
  int samples = 21;                   // rounds; each function gets one sample per round
  double min_sample_seconds = 2e-3;   // a sample repeats the call until it lasts this long
};

namespace detail {
using Clock = std::chrono::steady_clock;

inline void clobber_memory() {
#if defined(__GNUC__)
  asm volatile("" ::: "memory");
#endif
}

inline double seconds_for(const std::function<void()>& f, long calls) {
  const auto t0 = Clock::now();
  for (long i = 0; i < calls; ++i) {
    f();
    clobber_memory();
  }
  const auto t1 = Clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

// The number of calls that makes one sample last at least min_seconds (doubling).
inline long calibrate(const std::function<void()>& f, double min_seconds) {
  long calls = 1;
  while (calls < (1L << 30)) {
    if (seconds_for(f, calls) >= min_seconds) break;
    calls *= 2;
  }
  return calls;
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
}  // namespace detail

// Times each function of `fns`, interleaved; result i belongs to fns[i].
inline std::vector<Timing> time_interleaved(const std::vector<std::function<void()>>& fns,
                                            const TimingOptions& opt = {}) {
  const std::size_t n = fns.size();
  std::vector<long> calls(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int w = 0; w < opt.warmup_calls; ++w) fns[i]();
    calls[i] = detail::calibrate(fns[i], opt.min_sample_seconds);
  }
  // Each round starts with the next function (round s: s, s + 1, ..., wrapping), so that no
  // function always runs right after the same one: with a fixed order, two identical run-time
  // plans of an in-cache case measured up to 0.87x apart (the one that always ran first was
  // slower: the other's lines were where it left them), docs/performance.md.
  std::vector<std::vector<double>> per_call(n);
  for (int s = 0; s < opt.samples; ++s)
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = (static_cast<std::size_t>(s) + k) % n;
      per_call[i].push_back(detail::seconds_for(fns[i], calls[i]) / double(calls[i]));
    }

  std::vector<Timing> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i].median_seconds = detail::median(per_call[i]);
    out[i].min_seconds = *std::min_element(per_call[i].begin(), per_call[i].end());
    out[i].calls_per_sample = calls[i];
    out[i].samples = opt.samples;
  }
  return out;
}

// Throughput of a permutation or copy of `bytes` bytes: every byte is read once and written
// once, so GB/s = 2 * bytes / seconds / 1e9.
inline double gbps(std::size_t bytes, double seconds) {
  return seconds > 0 ? 2.0 * double(bytes) / seconds / 1e9 : 0.0;
}

}  // namespace gentt::bench
