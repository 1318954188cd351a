// The demo harness: checks one generated kernel against the reference permutation bit for bit,
// then measures its throughput next to memcpy of the same bytes in the same process.
//
// The kernel is linked in, not loaded: compile this file with -DGENTT_DEMO_INFO=<NAME>_info,
// where NAME is the kernel's symbol, and link the kernel's object and gentt::runtime. The
// harness learns everything else (shape, perm, element size, ISA) from that descriptor.
// scripts/demo does all of this; bench/CMakeLists.txt builds the same thing as gentt_demo.
//
//   demo [--reps N] [--warmup N] [--min-sample-ms X]
// Exit status: 0 checked and measured, 1 the kernel's output differs from the reference,
// 2 bad arguments or a kernel this CPU cannot run.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>


#include <gentt/arguments.h>
#include <gentt/cpu.h>
#include <gentt/kernel_info.h>
#include <gentt/reference.h>

#include "buffer.h"
#include "timing.h"

#ifndef GENTT_DEMO_INFO
#error "compile with -DGENTT_DEMO_INFO=<kernel name>_info (the kernel's gentt_kernel_info descriptor)"
#endif

extern "C" const gentt_kernel_info GENTT_DEMO_INFO;

namespace {

using gentt::bench::Buffer;

struct Options {
  gentt::bench::TimingOptions timing;
};

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr,
               "demo: %s\nusage: demo [--reps N] [--warmup N] [--min-sample-ms X]\n"
               "  --reps N           timed samples of kernel and memcpy, interleaved (default 21)\n"
               "  --warmup N         untimed calls of each before timing (default 3)\n"
               "  --min-sample-ms X  each sample repeats the call for at least X ms (default 2)\n",
               message.c_str());
  std::exit(2);
}

Options parse_options(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") usage_error("runs the linked kernel; options:");
    if (i + 1 >= argc) usage_error("unknown argument or missing value: " + std::string(arg));
    const char* value = argv[++i];
    char* end = nullptr;
    if (arg == "--reps") {
      const long v = std::strtol(value, &end, 10);
      if (*end || v < 1 || v > 100000) usage_error("--reps: expected an integer >= 1, got " + std::string(value));
      opt.timing.samples = int(v);
    } else if (arg == "--warmup") {
      const long v = std::strtol(value, &end, 10);
      if (*end || v < 0 || v > 100000) usage_error("--warmup: expected an integer >= 0, got " + std::string(value));
      opt.timing.warmup_calls = int(v);
    } else if (arg == "--min-sample-ms") {
      const double v = std::strtod(value, &end);
      if (*end || !(v >= 0) || v > 10000) usage_error("--min-sample-ms: expected a number >= 0, got " + std::string(value));
      opt.timing.min_sample_seconds = v * 1e-3;
    } else {
      usage_error("unknown argument: " + std::string(arg));
    }
  }
  return opt;
}

// Whether this CPU can execute the kernel ("" if it can, else the reason): it must have every
// CPU feature the kernel declares (NAME_info.features).
std::string cpu_cannot_run(const gentt_kernel_info& info) {
  if (gentt::cpu_has(info.features)) return "";
  return std::string("this CPU lacks some of the CPU features the ") + info.isa + " kernel uses (" +
         info.feature_names + ")";
}

template <class Range>
std::string join(const Range& values) {
  std::string s = "[";
  for (const auto& v : values) s += (s.size() > 1 ? ", " : "") + std::to_string(v);
  return s + "]";
}

// Compares the kernel's output with the reference; on a difference prints where and returns false.
bool same_bytes(const Buffer& got, const Buffer& want, std::size_t elem_bytes,
                std::span<const std::int64_t> out_shape, const char* what) {
  if (std::memcmp(got.data(), want.data(), want.size()) == 0) return true;
  std::size_t byte = 0;
  while (got.data()[byte] == want.data()[byte]) ++byte;
  std::size_t elem = byte / elem_bytes;
  std::vector<std::int64_t> index(out_shape.size());
  for (std::size_t k = out_shape.size(); k-- > 0;) {
    index[k] = std::int64_t(elem % std::size_t(out_shape[k]));
    elem /= std::size_t(out_shape[k]);
  }
  std::string at = "[";
  for (std::size_t k = 0; k < index.size(); ++k) at += (k ? ", " : "") + std::to_string(index[k]);
  at += "]";
  std::fprintf(stderr,
               "demo: MISMATCH (%s): output element %s (byte %zu) is 0x%02x, the reference has 0x%02x\n",
               what, at.c_str(), byte, got.data()[byte], want.data()[byte]);
  return false;
}

int run(const Options& opt) {
  const gentt_kernel_info& info = GENTT_DEMO_INFO;
  if (info.version != GENTT_KERNEL_INFO_VERSION) {
    std::fprintf(stderr, "demo: the kernel's descriptor has version %d, this harness reads version %d; "
                 "regenerate the kernel with the matching gentt-gen\n", info.version, GENTT_KERNEL_INFO_VERSION);
    return 2;
  }
  if (const std::string why = cpu_cannot_run(info); !why.empty()) {
    std::fprintf(stderr, "demo: kernel %s is for %s, and %s\n", info.name, info.isa, why.c_str());
    return 2;
  }

  const std::size_t rank = std::size_t(info.rank);
  const std::vector<std::int64_t> shape(info.shape, info.shape + rank);
  const std::span<const int> perm(info.perm, rank);
  const std::size_t elem_bytes = std::size_t(info.elem_bytes);
  const std::size_t bytes = std::size_t(gentt::check_permute_arguments(elem_bytes, shape, perm));
  const std::vector<std::int64_t> out_shape = gentt::permuted_shape(shape, perm);

  Buffer in(bytes), out(bytes), want(bytes);
  in.fill_random(0x67656E7474ULL);
  gentt::reference_permute(in.data(), want.data(), elem_bytes, shape, perm);

  // Correctness: the whole kernel, then the partitioned entry point in a few splits.
  info.run(in.data(), out.data());
  if (!same_bytes(out, want, elem_bytes, out_shape, "run")) return 1;
  std::string checked = "whole";
  if (info.run_part) {
    for (int nparts : {2, 3, 7}) {
      std::memset(out.data(), 0xCD, bytes);
      for (int p = nparts; p-- > 0;) info.run_part(in.data(), out.data(), p, nparts);
      const std::string what = "run_part, " + std::to_string(nparts) + " parts";
      if (!same_bytes(out, want, elem_bytes, out_shape, what.c_str())) return 1;
    }
    checked += ", 2/3/7 parts";
  }

  // Throughput: kernel and memcpy of the same bytes, interleaved, same buffers.
  const void* src = in.data();
  void* dst = out.data();
  const auto timings = gentt::bench::time_interleaved(
      {[&] { info.run(src, dst); }, [&] { std::memcpy(dst, src, bytes); }}, opt.timing);
  const double kernel_gbps = gentt::bench::gbps(bytes, timings[0].median_seconds);
  const double memcpy_gbps = gentt::bench::gbps(bytes, timings[1].median_seconds);

  // The timed calls overwrote the output: check the last kernel result once more.
  info.run(src, dst);
  if (!same_bytes(out, want, elem_bytes, out_shape, "after timing")) return 1;

  std::string vec = std::string(info.isa) == "scalar" ? "" : ", " + std::to_string(info.vector_bits) + "-bit vectors";
  std::printf("gentt demo\n");
  std::printf("  kernel   %s\n", info.name);
  std::printf("  isa      %s%s\n", info.isa, vec.c_str());
  std::printf("  problem  shape %s perm %s -> %s, %zu-byte elements\n",
              join(shape).c_str(), join(perm).c_str(), join(out_shape).c_str(), elem_bytes);
  std::printf("  bytes    %zu (%.2f MiB)\n", bytes, double(bytes) / (1 << 20));
  std::printf("  check    bit-exact against gentt::reference_permute (%s)\n", checked.c_str());
  std::printf("  kernel   %8.2f GB/s  median of %d samples x %ld calls (best %.2f GB/s)\n", kernel_gbps,
              timings[0].samples, timings[0].calls_per_sample,
              gentt::bench::gbps(bytes, timings[0].min_seconds));
  std::printf("  memcpy   %8.2f GB/s  same bytes, same process (best %.2f GB/s)\n", memcpy_gbps,
              gentt::bench::gbps(bytes, timings[1].min_seconds));
  std::printf("  ratio    %8.2f  kernel / memcpy   (GB/s = 2 * bytes / seconds)\n",
              memcpy_gbps > 0 ? kernel_gbps / memcpy_gbps : 0.0);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse_options(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "demo: %s\n", e.what());
    return 2;
  }
}
