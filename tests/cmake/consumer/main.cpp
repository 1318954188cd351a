// Runs every generated variant of specs/transpose.json (float32, shape [4, 6, 5], perm [2, 0, 1])
// and compares it with gentt::reference_permute, whole and in parts. Exit 0 only if all match.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

#include <gentt/reference.h>

#include "kernels.h"

// The ISA flags of gentt_add_kernels() apply to the generated sources only.
#if defined(CONSUMER_CHECK_PRIVATE_ISA_FLAGS) && \
    (defined(__AVX2__) || defined(__AVX512F__) || defined(__ARM_FEATURE_SVE))
#error "the ISA compile flags of the generated kernels leaked into code that links them"
#endif

namespace {

bool cpu_runs(std::string_view isa) {
#if defined(__x86_64__) || defined(__i386__)
  if (isa == "avx2") return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (isa == "avx512")
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vbmi");
  if (isa == "neon" || isa == "sve" || isa == "sve2") return false;
#endif
  // On ARM (natively or under qemu-aarch64 with the right vector length) every variant runs;
  // SVE kernels check the vector length themselves.
  return true;
}

}  // namespace

int main() {
  const std::array<std::int64_t, 3> shape = {4, 6, 5};
  const std::array<int, 3> perm = {2, 0, 1};
  const std::size_t n = 4 * 6 * 5;

  std::vector<float> in(n), want(n), got(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = float(i) + 0.25f;
  gentt::reference_permute(in.data(), want.data(), sizeof(float), shape, perm);

  int failures = 0, ran = 0;
  for (const ConsumerKernel& k : kKernels) {
    if (!cpu_runs(k.isa)) {
      std::printf("skip %s: this CPU cannot run %s\n", k.name, k.isa);
      continue;
    }
    ++ran;
    std::fill(got.begin(), got.end(), -1.0f);
    k.run(in.data(), got.data());
    bool ok = std::memcmp(got.data(), want.data(), n * sizeof(float)) == 0;
    for (int nparts : {1, 2, 5, 200}) {
      std::fill(got.begin(), got.end(), -1.0f);
      for (int p = 0; p < nparts; ++p) k.run_part(in.data(), got.data(), p, nparts);
      ok = ok && std::memcmp(got.data(), want.data(), n * sizeof(float)) == 0;
    }
    std::printf("%s %s (%s)\n", ok ? "ok  " : "FAIL", k.name, k.isa);
    failures += !ok;
  }
  if (ran == 0) {
    std::printf("FAIL: no kernel variant could run on this CPU\n");
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
