// The driver of bench/stores_ab.py: each case's generated kernel with cached stores and with
// `stores: auto`, the run-time library on the same ISA, and the best plain copy, interleaved in
// one process (timing.h; 1 thread, huge-page buffers, out on a line), as "x best copy" of the
// medians of 5 rounds. cases.h (written
// by the script) lists the cases and declares the kernels.
#include <gentt/permute.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "buffer.h"
#include "stream_copy.h"
#include "timing.h"

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
    const auto n = static_cast<std::size_t>(c.bytes);
    // Interleaved rounds (timing.h): cached, auto, runtime, streaming copy, memcpy.
    const auto t = gentt::bench::time_interleaved(
        {[&] { c.cached(in.data(), out.data()); }, [&] { c.automatic(in.data(), out.data()); },
         [&] { plan.execute(in.data(), out.data()); }, [&] { gentt::bench::stream_copy(out.data(), in.data(), n); },
         [&] { std::memcpy(out.data(), in.data(), n); }},
        gentt::bench::TimingOptions{1, 5, 1e-3});
    const double copy = std::min(t[3].median_seconds, t[4].median_seconds);
    const double cached = t[0].median_seconds, automatic = t[1].median_seconds, runtime = t[2].median_seconds;
    std::printf("%s\t%.2f\t%.2f\t%.2f\n", c.name, copy / cached, copy / automatic, copy / runtime);
    std::fflush(stdout);
  }
  return 0;
}
