// gentt_plan_time: how long gentt::plan_permute takes for a problem it has not seen (by rank),
// and what gentt::permute's plan cache adds to a call (issue 10's targets: planning under 100
// microseconds for rank <= 8, a cached lookup under 1 microsecond).
//
//   build/bench/gentt_plan_time [--problems N] [--seed S]
//
// Planning: N random problems (rank 1-8, extents 1-64 with at most 2^24 elements, element sizes
// 1-16 bytes, random axes, ISA auto), each planned once, median and 90th percentile per rank.
// The cache: gentt::permute on a (2, 3) float32 array, against PermutePlan::execute of the same
// plan, medians of batches of back-to-back calls; the difference is the cache's cost per call.
#include <gentt/permute.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(p * static_cast<double>(v.size() - 1))];
}

// Median over `rounds` batches of the time per call of f (each batch `calls` calls).
template <class F>
double per_call_us(F f, int calls, int rounds) {
  std::vector<double> t;
  for (int r = 0; r < rounds; ++r) {
    const double start = now_us();
    for (int i = 0; i < calls; ++i) f();
    t.push_back((now_us() - start) / calls);
  }
  return percentile(t, 0.5);
}

}  // namespace

int main(int argc, char** argv) {
  int problems = 2000;
  unsigned seed = 2026;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--problems" && i + 1 < argc) {
      problems = std::atoi(argv[++i]);
    } else if (a == "--seed" && i + 1 < argc) {
      seed = static_cast<unsigned>(std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: gentt_plan_time [--problems N] [--seed S]\n");
      return 2;
    }
  }
  if (problems < 1) {
    std::fprintf(stderr, "gentt_plan_time: --problems must be at least 1\n");
    return 2;
  }

  std::mt19937_64 rng(seed);
  static const std::int64_t sizes[] = {1, 2, 4, 8, 16, 3, 12};
  std::vector<std::vector<double>> by_rank(9), by_size(17);
  std::vector<double> all;
  for (int p = 0; p < problems; ++p) {
    gentt::PermuteDesc d;
    d.elem_bytes = sizes[rng() % std::size(sizes)];
    const int rank = 1 + static_cast<int>(rng() % 8);
    std::int64_t n = 1;
    for (int a = 0; a < rank; ++a) {
      const std::int64_t room = std::max<std::int64_t>(1, std::min<std::int64_t>(64, (std::int64_t{1} << 24) / n));
      d.shape.push_back(1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(room)));
      n *= d.shape.back();
      d.perm.push_back(a);
    }
    for (int a = rank - 1; a > 0; --a) std::swap(d.perm[a], d.perm[rng() % static_cast<std::uint64_t>(a + 1)]);
    const double start = now_us();
    const gentt::PermutePlan plan = gentt::plan_permute(d);
    const double t = now_us() - start;
    if (plan.out_bytes() < 0) return 1;  // keep the plan alive until here
    by_rank[rank].push_back(t);
    by_size[d.elem_bytes].push_back(t);
    all.push_back(t);
  }
  std::printf("plan_permute of a new problem (%d random problems, seed %u), microseconds:\n", problems, seed);
  std::printf("  rank  problems  median    p90\n");
  for (int r = 1; r <= 8; ++r)
    if (!by_rank[r].empty())
      std::printf("  %4d  %8zu  %6.1f  %6.1f\n", r, by_rank[r].size(), percentile(by_rank[r], 0.5),
                  percentile(by_rank[r], 0.9));
  std::printf("  all   %8zu  %6.1f  %6.1f\n", all.size(), percentile(all, 0.5), percentile(all, 0.9));
  std::printf("  by element size:\n  bytes problems  median    p90\n");
  for (int b = 1; b <= 16; ++b)
    if (!by_size[b].empty())
      std::printf("  %5d  %7zu  %6.1f  %6.1f\n", b, by_size[b].size(), percentile(by_size[b], 0.5),
                  percentile(by_size[b], 0.9));

  gentt::PermuteDesc tiny;
  tiny.dtype = "float32";
  tiny.shape = {2, 3};
  tiny.perm = {1, 0};
  const float in[6] = {1, 2, 3, 4, 5, 6};
  float out[6] = {};
  const gentt::PermutePlan plan = gentt::plan_permute(tiny);
  gentt::permute(in, out, tiny);  // fills the cache
  const double direct = per_call_us([&] { plan.execute(in, out); }, 20000, 15);
  const double cached = per_call_us([&] { gentt::permute(in, out, tiny); }, 20000, 15);
  std::printf("a (2, 3) float32 transpose, microseconds per call: PermutePlan::execute %.3f, gentt::permute "
              "(plan cache) %.3f: the cache adds %.3f\n",
              direct, cached, cached - direct);
  return 0;
}
