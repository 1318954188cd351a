// The driver of bench/stores_ab.py: each case's generated kernel with cached stores and with
// `stores: auto`, the run-time library on the same ISA, and the best plain copy, interleaved in
// one process (1 thread, huge-page buffers, out on a line), as "x best copy". cases.h (written
// by the script) lists the cases and declares the kernels.
#include <gentt/permute.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "buffer.h"
#include "stream_copy.h"

struct StoresAbCase {
  const char* name;
  std::int64_t elem_bytes;
  std::vector<std::int64_t> shape;
  std::vector<int> perm;
  std::int64_t bytes;
  void (*cached)(const void*, void*);
  void (*automatic)(const void*, void*);
};

#include "cases.h"

namespace {

double seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  const char* isa = argc > 1 ? argv[1] : "auto";
  for (const StoresAbCase& c : kCases) {
    gentt::bench::Buffer in(static_cast<std::size_t>(c.bytes), 1), out(static_cast<std::size_t>(c.bytes), 2);
    gentt::PermuteDesc d;
    d.elem_bytes = c.elem_bytes;
    d.shape = c.shape;
    d.perm = c.perm;
    d.isa = isa;
    const gentt::PermutePlan plan = gentt::plan_permute(d);
    double copy = 1e30, cached = 1e30, automatic = 1e30, runtime = 1e30;
    auto time = [](double& best, auto&& f) {
      const double t = seconds();
      f();
      best = std::min(best, seconds() - t);
    };
    for (int round = 0; round < 5; ++round) {  // interleaved; the best of 5 each
      time(cached, [&] { c.cached(in.data(), out.data()); });
      time(automatic, [&] { c.automatic(in.data(), out.data()); });
      time(runtime, [&] { plan.execute(in.data(), out.data()); });
      time(copy, [&] { gentt::bench::stream_copy(out.data(), in.data(), static_cast<std::size_t>(c.bytes)); });
      time(copy, [&] { std::memcpy(out.data(), in.data(), static_cast<std::size_t>(c.bytes)); });
    }
    std::printf("%s\t%.2f\t%.2f\t%.2f\n", c.name, copy / cached, copy / automatic, copy / runtime);
    std::fflush(stdout);
  }
  return 0;
}
