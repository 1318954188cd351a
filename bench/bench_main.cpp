// gentt_bench: throughput of generated kernels over a benchmark case set, next to memcpy of the
// same bytes, on 1 and 2 threads.
//
// The build turns each case file (bench/sets/*.txt, bench/smoke.txt) into a set directory
// <sets-dir>/<set>/ holding cases.tsv (the manifest, written by gentt_bench_cases) and one
// kernel module per ISA, <isa>.so, built from the same cases (bench/CMakeLists.txt). This
// program loads every module of the set with dlopen, finds kernel i of ISA x through its
// descriptor <set>_caseII_<x>_info (<gentt/kernel_info.h>), checks it against the manifest and
// bit for bit against gentt::reference_permute, then times, interleaved round by round:
//   memcpy and the streaming copy (stream_copy.h) of the same bytes, each ISA's kernel on 1
//   thread, and on 2 threads (NAME_part(in, out, 0, 2) on this thread and (1, 2) on a
//   persistent second thread; both copies on 2 threads copy the two halves in parallel).
// GB/s = 2 * bytes / seconds; x best copy = kernel GB/s / the faster copy's GB/s, x memcpy =
// kernel GB/s / memcpy GB/s, both with the same thread count.
// `gentt_bench --help` lists the options; bench/README.md describes the whole benchmark.
//
// Exit status: 0 measured, 1 a kernel's output differs from the reference, 2 bad arguments,
// a missing or stale build, or an I/O error.
#include <dlfcn.h>
#include <regex.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include <gentt/cpu.h>
#include <gentt/kernel_info.h>
#include <gentt/permute.h>
#include <gentt/reference.h>

#include "buffer.h"
#include "stream_copy.h"
#include "timing.h"

#ifndef GENTT_BENCH_SETS_DIR
#error "compile with -DGENTT_BENCH_SETS_DIR=\"<build dir>/bench/sets\""
#endif

namespace {

using gentt::bench::Buffer;
namespace fs = std::filesystem;

// The ISAs a set may have a module for, in the order the table shows them (widest first).
// avx512_256: the avx512 level's kernels with ymm blocks (vector_bits 256), built when
// GENTT_BENCH_ISAS names it.
const std::vector<std::string> kIsas = {"avx512", "avx512_256", "avx512skx", "avx2", "sve", "neon", "sunway", "scalar"};

// The ISA of a module name without its width (avx512_256 -> avx512).
std::string base_isa(const std::string& isa) {
  const size_t u = isa.rfind('_');
  return u != std::string::npos && u + 1 < isa.size() && std::isdigit(static_cast<unsigned char>(isa[u + 1]))
             ? isa.substr(0, u)
             : isa;
}

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ---- options --------------------------------------------------------------------------------

struct Options {
  std::string set = "gentt";
  std::string sets_dir = GENTT_BENCH_SETS_DIR;
  std::vector<std::string> isas;  // empty: every module the set has
  std::string filter;
  bool one_thread = true, two_threads = true;
  bool verify = true;
  bool runtime = true;  // also gentt::permute (the run-time library) with a plan made once per case
  std::string runtime_isa = "auto";  // PermuteDesc::isa of the run-time plans
  bool list = false;
  bool pin = true;
  gentt::bench::Pages pages = gentt::bench::Pages::huge;
  std::string csv;
  std::size_t out_offset = 0;  // bytes past the output buffer's (page-aligned) start
  gentt::bench::TimingOptions timing{.warmup_calls = 2, .samples = 11, .min_sample_seconds = 20e-3};
};

const char* kUsage =
    "usage: gentt_bench [--set NAME] [--isa LIST] [--threads 1|2|both] [--samples N]\n"
    "                   [--min-sample-ms X] [--filter REGEX] [--csv FILE] [--no-verify] [--list]\n"
    "                   [--no-pin] [--small-pages] [--no-runtime] [--runtime-isa ISA] [--sets-dir DIR]\n"
    "                   [--out-offset B]\n"
    "  --set NAME         case set: gentt (default), ttc, seed002, ttlg, ... = bench/sets/NAME.txt;\n"
    "                     smoke = bench/smoke.txt. Build it first: cmake --build BUILD --target gentt_bench_NAME\n"
    "  --isa LIST         comma-separated ISAs to measure (default: every ISA the set was built for)\n"
    "  --threads T        1, 2 or both (default both)\n"
    "  --samples N        timed samples per implementation, interleaved; the median is reported (default 11)\n"
    "  --min-sample-ms X  a sample repeats the call until it lasts X ms (default 20)\n"
    "  --filter REGEX     only cases whose 'name dtype shape axes' line matches (POSIX extended\n"
    "                     regex, searched; e.g. 'case0[1-5]', 'uint8', '4096x4096', 'case(01|22)')\n"
    "  --csv FILE         also write one CSV row per case, implementation and thread count\n"
    "  --no-verify        skip the check against gentt::reference_permute\n"
    "  --no-runtime       leave out gentt::permute (the run-time library; column \"runtime\")\n"
    "  --runtime-isa ISA  the run-time library's isa (auto, avx512, avx512skx, avx2, scalar; default auto)\n"
    "  --list             print the set's cases and modules, measure nothing\n"
    "  --no-pin           do not pin this thread and the second thread to the first two CPUs\n"
    "  --small-pages      4 KiB pages only (default: buffers >= 2 MiB are advised as transparent\n"
    "                     huge pages, as NumPy does for its arrays)\n"
    "  --sets-dir DIR     where the built sets are (default " GENTT_BENCH_SETS_DIR ")\n"
    "  --out-offset B     the output starts B bytes (0..63) into a line, as malloc's and NumPy's\n"
    "                     large buffers do (16); default 0 (on a line)\n";

long parse_long(const std::string& flag, const std::string& value, long lo, long hi) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end || errno || v < lo || v > hi)
    throw UsageError(flag + ": expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi) +
                     ", got '" + value + "'");
  return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) out.push_back(part);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

Options parse_options(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    if (arg == "--no-verify") { opt.verify = false; continue; }
    if (arg == "--no-runtime") { opt.runtime = false; continue; }
    if (arg == "--list") { opt.list = true; continue; }
    if (arg == "--no-pin") { opt.pin = false; continue; }
    if (arg == "--small-pages") { opt.pages = gentt::bench::Pages::small; continue; }
    if (i + 1 >= argc) throw UsageError("unknown argument or missing value: " + arg);
    const std::string value = argv[++i];
    if (arg == "--set") {
      opt.set = value;
    } else if (arg == "--runtime-isa") {
      opt.runtime_isa = value;  // checked by gentt::plan_permute ("isa: ...")
    } else if (arg == "--sets-dir") {
      opt.sets_dir = value;
    } else if (arg == "--isa") {
      opt.isas.clear();
      for (const std::string& isa : split(value, ',')) {
        if (std::find(kIsas.begin(), kIsas.end(), isa) == kIsas.end())
          throw UsageError("--isa: unknown ISA '" + isa + "' (known: avx512 avx512_256 avx512skx avx2 sve neon sunway scalar)");
        if (std::find(opt.isas.begin(), opt.isas.end(), isa) == opt.isas.end()) opt.isas.push_back(isa);
      }
    } else if (arg == "--threads") {
      if (value == "1") opt.two_threads = false;
      else if (value == "2") opt.one_thread = false;
      else if (value != "both") throw UsageError("--threads: expected 1, 2 or both, got '" + value + "'");
    } else if (arg == "--samples") {
      opt.timing.samples = int(parse_long(arg, value, 1, 100000));
    } else if (arg == "--min-sample-ms") {
      char* end = nullptr;
      const double v = std::strtod(value.c_str(), &end);
      if (value.empty() || *end || !(v >= 0) || v > 60000)
        throw UsageError("--min-sample-ms: expected a number of milliseconds >= 0, got '" + value + "'");
      opt.timing.min_sample_seconds = v * 1e-3;
    } else if (arg == "--filter") {
      opt.filter = value;
    } else if (arg == "--csv") {
      opt.csv = value;
    } else if (arg == "--out-offset") {
      opt.out_offset = static_cast<std::size_t>(parse_long(arg, value, 0, 63));
    } else {
      throw UsageError("unknown argument: " + arg);
    }
  }
  return opt;
}

// ---- the set: manifest and modules ----------------------------------------------------------

struct Case {
  std::string name;  // kernel name without the ISA suffix, e.g. gentt_case07
  std::string dtype;
  std::size_t elem_bytes = 0;
  std::vector<std::int64_t> shape;
  std::vector<int> perm;
  std::size_t bytes = 0;
  int line = 0;      // line in the case file
  std::string note;  // e.g. how the case was scaled down
};

std::string shape_text(const std::vector<std::int64_t>& shape) {
  // Rank >= 5 with one extent throughout: 2^10 rather than 2x2x2x2x2x2x2x2x2x2.
  if (shape.size() >= 5 && std::all_of(shape.begin(), shape.end(), [&](auto e) { return e == shape[0]; }))
    return std::to_string(shape[0]) + "^" + std::to_string(shape.size());
  std::string s;
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

template <class T>
std::string join(const std::vector<T>& v, const char* sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

std::string problem_text(const Case& c) {
  return c.dtype + " " + shape_text(c.shape) + " axes " + join(c.perm, ",");
}

struct Set {
  std::string name;
  fs::path dir;
  std::string source;  // the manifest's first line: where the cases come from
  std::vector<Case> cases;
};

Set read_set(const Options& opt) {
  Set set;
  set.name = opt.set;
  set.dir = fs::path(opt.sets_dir) / opt.set;
  const fs::path manifest = set.dir / "cases.tsv";
  std::ifstream in(manifest);
  if (!in) {
    std::string known;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(opt.sets_dir, ec))
      if (fs::exists(entry.path() / "cases.tsv")) known += " " + entry.path().filename().string();
    throw UsageError("set '" + opt.set + "' is not built: " + manifest.string() + " is missing. Build it with\n"
                     "  cmake --build <build dir> --target gentt_bench_" + opt.set +
                     "\nbuilt sets:" + (known.empty() ? std::string(" none") : known));
  }
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    if (line[0] == '#') {
      if (set.source.empty()) set.source = line.substr(line.find_first_not_of("# "));
      continue;
    }
    const auto f = split(line, '\t');
    if (f.size() != 8) throw std::runtime_error(manifest.string() + ":" + std::to_string(n) + ": expected 8 fields");
    Case c;
    c.name = f[0];
    c.dtype = f[1];
    c.elem_bytes = std::stoul(f[2]);
    for (const auto& e : split(f[3], ',')) c.shape.push_back(std::stoll(e));
    for (const auto& a : split(f[4], ',')) c.perm.push_back(std::stoi(a));
    c.bytes = std::stoull(f[5]);
    c.line = std::stoi(f[6]);
    c.note = f[7];
    set.cases.push_back(std::move(c));
  }
  return set;
}

struct Module {
  std::string isa;
  fs::path path;
  void* handle = nullptr;
};

// Opens the set's module for each ISA; prints why an ISA is left out.
std::vector<Module> open_modules(const Set& set, const Options& opt) {
  std::vector<Module> modules;
  for (const std::string& isa : kIsas) {
    const bool requested = std::find(opt.isas.begin(), opt.isas.end(), isa) != opt.isas.end();
    if (!opt.isas.empty() && !requested) continue;
    const fs::path path = set.dir / (isa + ".so");
    if (!fs::exists(path)) {
      if (requested)
        throw UsageError("set '" + set.name + "' has no " + isa + " module (" + path.string() +
                         "); GENTT_BENCH_ISAS chooses the ISAs the build makes modules for");
      continue;
    }
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw std::runtime_error("dlopen " + path.string() + ": " + dlerror());
    if (const auto* why = static_cast<const char*>(dlsym(handle, "gentt_bench_unavailable"))) {
      std::printf("  %-10s skipped: %s\n", isa.c_str(), why);
      dlclose(handle);
      continue;
    }
    if (!gentt::cpu_supports(base_isa(isa))) {
      std::printf("  %-10s skipped: this CPU cannot run %s kernels\n", isa.c_str(), isa.c_str());
      dlclose(handle);
      continue;
    }
    std::printf("  %-10s %s\n", isa.c_str(), path.c_str());
    modules.push_back({isa, path, handle});
  }
  if (modules.empty()) throw UsageError("no kernels to measure in set '" + set.name + "'");
  return modules;
}

// The kernel of case c in module m, checked against the manifest.
const gentt_kernel_info& find_kernel(const Module& m, const Case& c) {
  const std::string symbol = c.name + "_" + m.isa + "_info";
  const auto* info = static_cast<const gentt_kernel_info*>(dlsym(m.handle, symbol.c_str()));
  const std::string stale = "; the module is stale: rebuild the set (cmake --build <build dir> --target gentt_bench_<set>)";
  if (!info) throw UsageError(m.path.string() + " has no " + symbol + stale);
  if (info->version != GENTT_KERNEL_INFO_VERSION)
    throw UsageError(symbol + " has descriptor version " + std::to_string(info->version) + ", this program reads " +
                     std::to_string(GENTT_KERNEL_INFO_VERSION) + stale);
  const bool same = std::size_t(info->elem_bytes) == c.elem_bytes && std::size_t(info->rank) == c.shape.size() &&
                    std::equal(c.shape.begin(), c.shape.end(), info->shape) &&
                    std::equal(c.perm.begin(), c.perm.end(), info->perm);
  if (!same) throw UsageError(symbol + " is not the problem cases.tsv lists for " + c.name + stale);
  if (!info->run_part) throw UsageError(symbol + " was generated without NAME_part (\"threads\": false)");
  return *info;
}

// ---- two threads ----------------------------------------------------------------------------

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Pins the calling thread to one CPU; false if that is not possible.
bool pin_to_cpu(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

// The first two CPUs this process may run on, or {-1, -1}.
std::pair<int, int> two_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return {-1, -1};
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE && cpus.size() < 2; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus.size() == 2 ? std::pair{cpus[0], cpus[1]} : std::pair{-1, -1};
}

// A persistent second thread: run(a, b) runs a here and b there and returns when both are done.
// With pinning, this thread and the worker each own one CPU (on a loaded machine the scheduler
// otherwise often queues both on one CPU, where a waiting thread spins away the other's turn).
// A waiting side spins for kSpinSeconds (a round trip then costs ~150 ns, so small tensors
// measure the kernel rather than the scheduler; a futex wake-up on a loaded machine can take
// milliseconds), then yields the CPU until kYieldSeconds, then sleeps on a futex
// (std::atomic::wait) so that an idle worker takes no CPU from the 1-thread measurements.
class ThreadPair {
 public:
  explicit ThreadPair(std::pair<int, int> cpus) : cpus_(cpus), worker_([this] { loop(); }) {
    if (cpus_.first >= 0 && !pin_to_cpu(cpus_.first)) cpus_ = {-1, -1};
  }
  bool pinned() const { return cpus_.first >= 0; }
  std::pair<int, int> cpus() const { return cpus_; }
  ~ThreadPair() {
    stop_.store(true, std::memory_order_relaxed);
    post(nullptr);
    worker_.join();
  }
  ThreadPair(const ThreadPair&) = delete;
  ThreadPair& operator=(const ThreadPair&) = delete;

  void run(const std::function<void()>& a, const std::function<void()>& b) {
    const unsigned round = post(&b);
    a();
    wait_for(done_, round);
  }

 private:
  static constexpr double kSpinSeconds = 100e-6, kYieldSeconds = 2e-3;

  unsigned post(const std::function<void()>* job) {
    job_ = job;
    const unsigned round = go_.load(std::memory_order_relaxed) + 1;
    go_.store(round, std::memory_order_release);
    go_.notify_one();
    return round;
  }

  static void wait_for(std::atomic<unsigned>& counter, unsigned value) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto stop_spinning = start + std::chrono::duration<double>(kSpinSeconds);
    const auto stop_yielding = start + std::chrono::duration<double>(kYieldSeconds);
    enum { spin, yield, sleep } mode = spin;
    for (unsigned i = 1;; ++i) {
      const unsigned now = counter.load(std::memory_order_acquire);
      if (now == value) return;
      switch (mode) {
        case spin:
          cpu_relax();
          if (i % 64 == 0 && Clock::now() > stop_spinning) mode = yield;
          break;
        case yield:
          sched_yield();
          if (Clock::now() > stop_yielding) mode = sleep;
          break;
        case sleep:
          counter.wait(now, std::memory_order_acquire);
          break;
      }
    }
  }

  void loop() {
    if (cpus_.second >= 0) pin_to_cpu(cpus_.second);
    for (unsigned round = 1;; ++round) {
      wait_for(go_, round);
      if (stop_.load(std::memory_order_relaxed)) return;
      (*job_)();
      done_.store(round, std::memory_order_release);
      done_.notify_one();
    }
  }

  std::atomic<unsigned> go_{0}, done_{0};
  std::atomic<bool> stop_{false};
  const std::function<void()>* job_ = nullptr;
  std::pair<int, int> cpus_;  // this thread's and the worker's CPU; -1: not pinned
  std::thread worker_;
};

// ---- measuring ------------------------------------------------------------------------------

// The sequential order of the streaming copy while both orders are measured (stream_copy.h).
constexpr const char* kStreamSeq = "stream_copy_sequential";

struct Result {
  std::string impl;  // "memcpy", "stream_copy" (the faster of its two orders) or "gentt_<isa>"
  std::string isa;   // "" for the copies
  int threads = 1;
  gentt::bench::Timing timing;
  double gbps = 0, best_gbps = 0;  // median and fastest sample
  double ratio = 0;       // to memcpy with the same thread count
  double ratio_best = 0;  // to the faster of memcpy and stream_copy with the same thread count
};

struct CaseResult {
  const Case* c = nullptr;
  std::vector<Result> results;
  const Result* find(const std::string& impl, int threads) const {
    for (const Result& r : results)
      if (r.impl == impl && r.threads == threads) return &r;
    return nullptr;
  }
  // The faster copy's GB/s with this thread count (0 if neither was measured).
  double best_copy(int threads) const {
    const Result *mc = find("memcpy", threads), *st = find("stream_copy", threads);
    return std::max(mc ? mc->gbps : 0.0, st ? st->gbps : 0.0);
  }
};

bool verify_output(const unsigned char* got, const Buffer& want, const Case& c, const std::string& what) {
  if (std::memcmp(got, want.data(), want.size()) == 0) return true;
  std::size_t byte = 0;
  while (got[byte] == want.data()[byte]) ++byte;
  std::fprintf(stderr, "gentt_bench: MISMATCH %s (%s): output byte %zu (element %zu) is 0x%02x, the reference has 0x%02x\n",
               c.name.c_str(), what.c_str(), byte, byte / c.elem_bytes, got[byte], want.data()[byte]);
  return false;
}

// ---- output ---------------------------------------------------------------------------------

std::string size_text(std::size_t bytes) {
  char buf[32];
  if (bytes < (1u << 20)) std::snprintf(buf, sizeof buf, "%.4g KiB", double(bytes) / 1024);
  else std::snprintf(buf, sizeof buf, "%.4g MiB", double(bytes) / (1 << 20));
  return buf;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

class Table {
 public:
  Table(const std::vector<Module>& modules, const Options& opt) : opt_(opt) {
    for (const Module& m : modules) isas_.push_back(m.isa);
    if (opt.runtime) isas_.push_back("runtime");
  }

  void header() const {
    std::string top = std::string(25, ' '), mid = pad("case", 14) + pad("size", 11), low = std::string(25, ' ');
    for (int t : threads()) {
      const std::string block = t == 1 ? "| 1 thread" : "| 2 threads";
      std::string m = "|  memcpy  stream", l = "|    GB/s    GB/s";
      for (const std::string& isa : isas_) {
        m += "  " + pad(isa, 18);
        l += "    GB/s  x mc  x bc";
      }
      top += pad(block, m.size() + 1);
      mid += m + " ";
      low += l + " ";
    }
    std::printf("%s\n%s| problem\n%s|\n", top.c_str(), mid.c_str(), low.c_str());
  }

  void row(const CaseResult& r) const {
    std::string line = pad(r.c->name, 14) + pad(size_text(r.c->bytes), 11);
    char buf[64];
    for (int t : threads()) {
      const Result *mc = r.find("memcpy", t), *st = r.find("stream_copy", t);
      std::snprintf(buf, sizeof buf, "|%8.2f%8.2f", mc ? mc->gbps : 0.0, st ? st->gbps : 0.0);
      line += buf;
      for (const std::string& isa : isas_) {
        const Result* k = r.find("gentt_" + isa, t);
        if (k) std::snprintf(buf, sizeof buf, "  %6.2f %5.2f %5.2f", k->gbps, k->ratio, k->ratio_best);
        else std::snprintf(buf, sizeof buf, "  %6s %5s %5s", "-", "-", "-");
        line += buf;
      }
      line += " ";
    }
    std::printf("%s| %s\n", line.c_str(), problem_text(*r.c).c_str());
    std::fflush(stdout);
  }

  void summary(const std::vector<CaseResult>& all) const {
    if (all.empty()) return;
    std::printf("\nsummary over %zu case%s: x bc = GB/s / best copy GB/s (the faster of memcpy and the streaming copy),\n"
                "x mc = GB/s / memcpy GB/s (same bytes, same run, same thread count)\n",
                all.size(), all.size() == 1 ? "" : "s");
    std::printf("%-11s %-7s %7s %-28s %7s %5s %7s %9s  %s\n", "impl", "threads", "median", "  min (case)", "max",
                "below", "median", "geomean", "faster than scalar");
    std::printf("%-11s %-7s %7s %-28s %7s %5s %7s %9s\n", "", "", "x bc", "  x bc", "x bc", "0.6", "x mc", "GB/s");
    for (int t : threads()) {
      auto line = [&](const std::string& impl, const std::string& label) {
        std::vector<double> best, mc, rates;
        double lo = 1e300, hi = 0;
        std::string lo_case;
        int below = 0, faster = 0, compared = 0;
        for (const CaseResult& r : all) {
          const Result* k = r.find(impl, t);
          if (!k) continue;
          best.push_back(k->ratio_best);
          mc.push_back(k->ratio);
          rates.push_back(k->gbps);
          below += k->ratio_best < 0.6;
          if (k->ratio_best < lo) lo = k->ratio_best, lo_case = r.c->name;
          hi = std::max(hi, k->ratio_best);
          if (const Result* s = r.find("gentt_scalar", t); s && impl.starts_with("gentt_") && impl != "gentt_scalar") {
            ++compared;
            faster += k->gbps > s->gbps;
          }
        }
        if (best.empty()) return;
        const std::string vs = compared ? std::to_string(faster) + "/" + std::to_string(compared) : "-";
        std::printf("%-11s %-7d %7.2f   %-26s %7.2f %5d %7.2f %9.2f  %s\n", label.c_str(), t,
                    gentt::bench::detail::median(best), (fmt2(lo) + " (" + lo_case + ")").c_str(), hi, below,
                    gentt::bench::detail::median(mc), geomean(rates), vs.c_str());
      };
      line("memcpy", "memcpy");
      line("stream_copy", "stream_copy");
      for (const std::string& isa : isas_) line("gentt_" + isa, isa);
      // The run-time library against the fastest generated kernel of the same case.
      std::vector<double> vs_generated;
      double worst = 1e300;
      std::string worst_case;
      for (const CaseResult& r : all) {
        const Result* rt = r.find("gentt_runtime", t);
        double generated = 0;
        for (const std::string& isa : isas_)
          if (const Result* k = r.find("gentt_" + isa, t); k && isa != "runtime") generated = std::max(generated, k->gbps);
        if (!rt || generated <= 0) continue;
        vs_generated.push_back(rt->gbps / generated);
        if (vs_generated.back() < worst) worst = vs_generated.back(), worst_case = r.c->name;
      }
      if (!vs_generated.empty())
        std::printf("runtime / fastest generated kernel, %d thread%s: median %.2f, min %.2f (%s), %zu of %zu below 0.7\n", t,
                    t == 1 ? "" : "s", gentt::bench::detail::median(vs_generated), worst, worst_case.c_str(),
                    static_cast<std::size_t>(std::count_if(vs_generated.begin(), vs_generated.end(),
                                                           [](double x) { return x < 0.7; })),
                    vs_generated.size());
      int stream_faster = 0, n = 0;
      for (const CaseResult& r : all) {
        const Result *mc = r.find("memcpy", t), *st = r.find("stream_copy", t);
        if (mc && st) ++n, stream_faster += st->gbps > mc->gbps;
      }
      std::printf("%-11s %-7d the streaming copy is the best copy in %d of %d cases\n", "best copy", t, stream_faster, n);
    }
    if (opt_.one_thread && opt_.two_threads) {
      for (const std::string& isa : isas_) {
        std::vector<double> speedup;
        for (const CaseResult& r : all) {
          const Result *a = r.find("gentt_" + isa, 1), *b = r.find("gentt_" + isa, 2);
          if (a && b && a->gbps > 0) speedup.push_back(b->gbps / a->gbps);
        }
        if (!speedup.empty())
          std::printf("%s: 2 threads / 1 thread, median over cases: %.2fx\n", isa.c_str(),
                      gentt::bench::detail::median(speedup));
      }
    }
  }

  std::vector<int> threads() const {
    std::vector<int> t;
    if (opt_.one_thread) t.push_back(1);
    if (opt_.two_threads) t.push_back(2);
    return t;
  }

 private:
  static std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
  }
  static std::string fmt2(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
  }
  static double geomean(const std::vector<double>& v) {
    if (v.empty()) return 0;
    double s = 0;
    for (double x : v) s += std::log(std::max(x, 1e-12));
    return std::exp(s / double(v.size()));
  }

  const Options& opt_;
  std::vector<std::string> isas_;
};

// ---- the run --------------------------------------------------------------------------------

int run(const Options& opt) {
  const Set set = read_set(opt);
  std::vector<const Case*> cases;
  {
    regex_t filter;
    if (!opt.filter.empty()) {
      if (const int rc = regcomp(&filter, opt.filter.c_str(), REG_EXTENDED | REG_NOSUB)) {
        char why[256];
        regerror(rc, &filter, why, sizeof why);
        throw UsageError("--filter: invalid regex '" + opt.filter + "': " + why);
      }
    }
    for (const Case& c : set.cases)
      if (opt.filter.empty() || regexec(&filter, (c.name + " " + problem_text(c)).c_str(), 0, nullptr, 0) == 0)
        cases.push_back(&c);
    if (!opt.filter.empty()) regfree(&filter);
  }

  std::printf("gentt_bench: set %s, %zu of %zu cases (%s)\n", set.name.c_str(), cases.size(), set.cases.size(),
              set.source.c_str());
  std::printf("cpu: %s, %u logical CPUs\n", cpu_model().c_str(), std::thread::hardware_concurrency());
  std::printf("kernels:\n");
  const std::vector<Module> modules = open_modules(set, opt);
  for (const Case* c : cases)
    if (!c->note.empty()) std::printf("note: %s (case file line %d) %s\n", c->name.c_str(), c->line, c->note.c_str());

  if (opt.list) {
    for (const Case* c : cases)
      std::printf("  %-16s %10s  %s\n", c->name.c_str(), size_text(c->bytes).c_str(), problem_text(*c).c_str());
    return 0;
  }
  std::printf("timing: median of %d samples, each >= %g ms, all implementations of a case interleaved round by round;\n"
              "        GB/s = 2 * bytes / s; x mc = kernel GB/s / memcpy GB/s, x bc = kernel GB/s / best copy GB/s\n"
              "        (the faster of memcpy and stream; same bytes, same run, same thread count)\n",
              opt.timing.samples, opt.timing.min_sample_seconds * 1e3);
  std::printf("stream: streaming copy, whole 64-byte lines of the output written with %s non-temporal stores\n"
              "        (head up to the first line and tail copied with memcpy), the input read four pages at a time\n"
              "        or in address order, whichever is faster (both timed; stream_copy.h)\n",
              gentt::bench::stream_copy_isa());
  if (opt.two_threads)
    std::printf("2 threads: NAME_part(in, out, 0, 2) here and (1, 2) on a persistent second thread; memcpy and stream copy the two halves\n");
  const std::string thp = gentt::bench::thp_mode();
  if (opt.pages == gentt::bench::Pages::huge)
    std::printf("pages: buffers >= 2 MiB 2 MiB-aligned and advised as transparent huge pages (system THP mode: %s)\n",
                thp.empty() ? "unknown" : thp.c_str());
  else
    std::printf("pages: 4 KiB (--small-pages; system THP mode: %s)\n", thp.empty() ? "unknown" : thp.c_str());
  if (opt.out_offset) std::printf("output: %zu bytes into a line (--out-offset)\n", opt.out_offset);
  std::printf("verify: %s\n", opt.verify ? "every kernel, whole and in 2 parts on 2 threads, bit for bit against gentt::reference_permute"
                                           : "off (--no-verify)");

  std::FILE* csv = nullptr;
  if (!opt.csv.empty()) {
    csv = std::fopen(opt.csv.c_str(), "w");
    if (!csv) throw std::runtime_error("cannot write " + opt.csv);
    std::fprintf(csv, "tool,set,case,dtype,shape,axes,bytes,impl,threads,gbps,ratio_memcpy,ratio_best_copy,memcpy_gbps,"
                      "stream_gbps,best_gbps,samples,calls_per_sample,note\n");
  }

  ThreadPair pair(opt.pin ? two_cpus() : std::pair{-1, -1});
  if (pair.pinned())
    std::printf("pinning: this thread on CPU %d, the second thread on CPU %d (--no-pin: leave them to the scheduler)\n",
                pair.cpus().first, pair.cpus().second);
  std::printf("\n");
  Table table(modules, opt);
  table.header();
  std::vector<CaseResult> all;
  int mismatches = 0;
  for (const Case* c : cases) {
    std::vector<const gentt_kernel_info*> kernels;
    for (const Module& m : modules) kernels.push_back(&find_kernel(m, *c));

    Buffer in(c->bytes, 0xCD, opt.pages), out(c->bytes + opt.out_offset, 0xCD, opt.pages);
    in.fill_random(0x67656E7474ULL + std::hash<std::string>{}(c->name));
    const void* src = in.data();
    void* dst = out.data() + opt.out_offset;

    // The run-time library: a plan made once, as a caller in a loop would use it; on 2 threads
    // its execute_part halves on this thread and the second one, exactly as the kernels' parts.
    std::optional<gentt::PermutePlan> rt1;
    if (opt.runtime) {
      gentt::PermuteDesc d;
      d.elem_bytes = static_cast<std::int64_t>(c->elem_bytes);
      d.shape = c->shape;
      d.perm = c->perm;
      d.isa = opt.runtime_isa;
      rt1 = gentt::plan_permute(d);
    }
    bool rt_ok = true;

    std::vector<bool> ok(kernels.size(), true);
    if (opt.verify) {
      Buffer want(c->bytes, 0xCD, opt.pages);
      gentt::reference_permute(src, want.data(), c->elem_bytes, c->shape, c->perm);
      for (std::size_t k = 0; k < kernels.size(); ++k) {
        std::memset(dst, 0xA5, c->bytes);
        kernels[k]->run(src, dst);
        ok[k] = verify_output(static_cast<const unsigned char*>(dst), want, *c, modules[k].isa + ", 1 thread");
        std::memset(dst, 0x5A, c->bytes);
        pair.run([&] { kernels[k]->run_part(src, dst, 0, 2); }, [&] { kernels[k]->run_part(src, dst, 1, 2); });
        ok[k] = verify_output(static_cast<const unsigned char*>(dst), want, *c, modules[k].isa + ", 2 parts on 2 threads") && ok[k];
        mismatches += !ok[k];
      }
      if (rt1) {
        std::memset(dst, 0xA5, c->bytes);
        rt1->execute(src, dst);
        rt_ok = verify_output(static_cast<const unsigned char*>(dst), want, *c, "runtime, 1 thread");
        std::memset(dst, 0x5A, c->bytes);
        const gentt::PermutePlan* plan = &*rt1;
        pair.run([&] { plan->execute_part(src, dst, 0, 2); }, [&] { plan->execute_part(src, dst, 1, 2); });
        rt_ok = verify_output(static_cast<const unsigned char*>(dst), want, *c, "runtime, 2 parts on 2 threads") && rt_ok;
        mismatches += !rt_ok;
      }
    }

    // Everything measured for this case, interleaved.
    std::vector<std::function<void()>> fns;
    // The two halves of each 2-thread call, made once here: building std::function objects
    // inside the timed loop would add an allocation to every call of a tiny case.
    std::vector<std::unique_ptr<std::function<void()>[]>> halves;
    auto on_two_threads = [&](std::function<void()> a, std::function<void()> b) {
      halves.emplace_back(new std::function<void()>[2]{std::move(a), std::move(b)});
      std::function<void()>* h = halves.back().get();
      return [h, &pair] { pair.run(h[0], h[1]); };
    };
    CaseResult cr;
    cr.c = c;
    const std::size_t half = c->bytes / 2 / 64 * 64;
    for (int t : table.threads()) {
      if (t == 1) {
        fns.push_back([=] { std::memcpy(dst, src, c->bytes); });
      } else {
        fns.push_back(on_two_threads(
            [=] { std::memcpy(dst, src, half); },
            [=] { std::memcpy(static_cast<char*>(dst) + half, static_cast<const char*>(src) + half, c->bytes - half); }));
      }
      cr.results.push_back({"memcpy", "", t, {}, 0, 0, 0, 0});
      // The streaming copy in both orders (stream_copy.h); the faster stands for it below.
      for (const auto order : {gentt::bench::StreamOrder::four_pages, gentt::bench::StreamOrder::sequential}) {
        if (t == 1) {
          fns.push_back([=] { gentt::bench::stream_copy(dst, src, c->bytes, order); });
        } else {
          fns.push_back(on_two_threads(
              [=] { gentt::bench::stream_copy(dst, src, half, order); },
              [=] {
                gentt::bench::stream_copy(static_cast<char*>(dst) + half, static_cast<const char*>(src) + half,
                                          c->bytes - half, order);
              }));
        }
        cr.results.push_back({order == gentt::bench::StreamOrder::sequential ? kStreamSeq : "stream_copy", "", t, {},
                              0, 0, 0, 0});
      }
      for (std::size_t k = 0; k < kernels.size(); ++k) {
        if (!ok[k]) continue;
        const gentt_kernel_info* info = kernels[k];
        if (t == 1) fns.push_back([=] { info->run(src, dst); });
        else
          fns.push_back(on_two_threads([=] { info->run_part(src, dst, 0, 2); },
                                       [=] { info->run_part(src, dst, 1, 2); }));
        cr.results.push_back({"gentt_" + modules[k].isa, modules[k].isa, t, {}, 0, 0, 0, 0});
      }
      if (rt1 && rt_ok) {
        const gentt::PermutePlan* plan = &*rt1;
        if (t == 1) fns.push_back([=] { plan->execute(src, dst); });
        else
          fns.push_back(on_two_threads([=] { plan->execute_part(src, dst, 0, 2); },
                                       [=] { plan->execute_part(src, dst, 1, 2); }));
        cr.results.push_back({"gentt_runtime", "runtime", t, {}, 0, 0, 0, 0});
      }
    }
    const auto timings = gentt::bench::time_interleaved(fns, opt.timing);
    for (std::size_t i = 0; i < timings.size(); ++i) {
      Result& r = cr.results[i];
      r.timing = timings[i];
      r.gbps = gentt::bench::gbps(c->bytes, r.timing.median_seconds);
      r.best_gbps = gentt::bench::gbps(c->bytes, r.timing.min_seconds);
    }
    // "stream_copy": the faster of the streaming copy's two orders.
    for (Result& r : cr.results) {
      const Result* seq = r.impl == "stream_copy" ? cr.find(kStreamSeq, r.threads) : nullptr;
      if (seq && seq->gbps > r.gbps) {
        r.timing = seq->timing;
        r.gbps = seq->gbps;
        r.best_gbps = seq->best_gbps;
      }
    }
    cr.results.erase(std::remove_if(cr.results.begin(), cr.results.end(),
                                    [](const Result& r) { return r.impl == kStreamSeq; }),
                     cr.results.end());
    for (Result& r : cr.results) {
      const Result* mc = cr.find("memcpy", r.threads);
      r.ratio = mc && mc->gbps > 0 ? r.gbps / mc->gbps : 0;
      const double best = cr.best_copy(r.threads);
      r.ratio_best = best > 0 ? r.gbps / best : 0;
    }
    table.row(cr);
    if (csv) {
      for (const Result& r : cr.results) {
        const Result *mc = cr.find("memcpy", r.threads), *st = cr.find("stream_copy", r.threads);
        std::fprintf(csv, "gentt_bench,%s,%s,%s,%s,%s,%zu,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%d,%ld,%s\n",
                     set.name.c_str(), c->name.c_str(), c->dtype.c_str(), join(c->shape, " ").c_str(),
                     join(c->perm, " ").c_str(), c->bytes, r.impl.c_str(), r.threads, r.gbps, r.ratio, r.ratio_best,
                     mc ? mc->gbps : 0.0, st ? st->gbps : 0.0, r.best_gbps, r.timing.samples,
                     r.timing.calls_per_sample, csv_field(c->note).c_str());
      }
      std::fflush(csv);
    }
    all.push_back(std::move(cr));
  }
  table.summary(all);
  if (csv) std::fclose(csv);
  if (mismatches) {
    std::fprintf(stderr, "gentt_bench: %d kernel%s differ from the reference (left out of the timings)\n", mismatches,
                 mismatches == 1 ? "" : "s");
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse_options(argc, argv));
  } catch (const UsageError& e) {
    std::fprintf(stderr, "gentt_bench: %s\n", e.what());
    if (std::string_view(e.what()).starts_with("unknown argument")) std::fputs(kUsage, stderr);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gentt_bench: error: %s\n", e.what());
    return 2;
  }
}
