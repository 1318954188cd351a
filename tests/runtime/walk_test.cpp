// runtime/engine/walk.h: the loop-nest walk against a model that decodes every flat iteration by
// division, on random nests (tail bits on any loop, depths 0-6) and random ranges [begin, end),
// as the parts of a plan call it; with block types that take one block per call and several.
#include "runtime/engine/walk.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

namespace {

using gentt::engine::WalkLoop;
using Call = std::tuple<int, std::int64_t, std::int64_t>;  // program, in offset, out offset

std::vector<Call> model(const std::vector<WalkLoop>& loops, std::int64_t begin, std::int64_t end) {
  std::vector<Call> calls;
  for (std::int64_t it = begin; it < end; ++it) {
    std::int64_t rest = it, in = 0, out = 0;
    int program = 0;
    for (int d = static_cast<int>(loops.size()) - 1; d >= 0; --d) {
      const std::int64_t i = rest % loops[d].count;
      rest /= loops[d].count;
      in += i * loops[d].in_step;
      out += i * loops[d].out_step;
      if (loops[d].tail_bit >= 0 && i == loops[d].count - 1) program |= 1 << loops[d].tail_bit;
    }
    calls.emplace_back(program, in, out);
  }
  return calls;
}

struct Recorder {
  const char* in0;
  char* out0;
  std::vector<Call>* calls;
  void operator()(int program, const char* in, char* out) { calls->emplace_back(program, in - in0, out - out0); }
};

// A block type that also takes several iterations per call (walk.h's protocol, as LeanBody with
// Fixed): whole runs of full blocks over up to three loops (run_full) and runs of one program
// (run_program), recorded block by block.
struct BatchRecorder : Recorder {
  bool full0 = true;
  void run_full(const char* in, char* out, std::int64_t nc, std::int64_t c_in, std::int64_t c_out, std::int64_t na,
                std::int64_t a_in, std::int64_t a_out, std::int64_t n, std::int64_t in_step,
                std::int64_t out_step) const {
    REQUIRE((nc >= 1 && na >= 1 && n >= 1));
    for (std::int64_t c = 0; c < nc; ++c)
      for (std::int64_t a = 0; a < na; ++a)
        for (std::int64_t i = 0; i < n; ++i)
          calls->emplace_back(0, in + c * c_in + a * a_in + i * in_step - in0,
                              out + c * c_out + a * a_out + i * out_step - out0);
  }
  void run_program(int program, const char* in, char* out, std::int64_t n, std::int64_t in_step,
                   std::int64_t out_step) const {
    REQUIRE(n >= 1);
    for (std::int64_t i = 0; i < n; ++i) calls->emplace_back(program, in + i * in_step - in0, out + i * out_step - out0);
  }
};

}  // namespace

TEST_CASE("walk: every flat iteration of a part once, in order, with its program and offsets", "[walk]") {
  std::mt19937_64 rng(20261123);
  static char in_base[1], out_base[1];
  for (int trial = 0; trial < 3000; ++trial) {
    const int depth = static_cast<int>(rng() % 7);
    std::vector<WalkLoop> loops(depth);
    std::int64_t total = 1;
    int bit = 0;
    for (auto& l : loops) {
      l.count = 1 + static_cast<std::int64_t>(rng() % 5);
      l.in_step = static_cast<std::int64_t>(rng() % 2001) - 1000;
      l.out_step = static_cast<std::int64_t>(rng() % 2001) - 1000;
      l.tail_bit = rng() % 2 ? bit++ : -1;
      total *= l.count;
    }
    std::int64_t begin = static_cast<std::int64_t>(rng() % (total + 1)), end = static_cast<std::int64_t>(rng() % (total + 1));
    if (begin > end) std::swap(begin, end);
    if (trial % 5 == 0) begin = 0, end = total;
    std::vector<Call> calls;
    Recorder rec{in_base, out_base, &calls};
    // Offsets are taken relative to the bases: the walk's pointers never need to point anywhere.
    gentt::engine::walk(loops.data(), depth, begin, end, in_base, out_base, rec);
    std::vector<Call> one_site;
    Recorder rec1{in_base, out_base, &one_site};
    gentt::engine::walk<false>(loops.data(), depth, begin, end, in_base, out_base, rec1);
    // ... and with a block type that takes whole runs (run_full over the three innermost loops,
    // run_program), with full0 set and not.
    std::vector<Call> batched, batched_not_full;
    BatchRecorder brec{{in_base, out_base, &batched}};
    gentt::engine::walk(loops.data(), depth, begin, end, in_base, out_base, brec);
    BatchRecorder brec0{{in_base, out_base, &batched_not_full}};
    brec0.full0 = false;
    gentt::engine::walk(loops.data(), depth, begin, end, in_base, out_base, brec0);
    INFO("trial " << trial << " depth " << depth << " range [" << begin << ", " << end << ")");
    REQUIRE(calls == model(loops, begin, end));
    REQUIRE(one_site == calls);
    REQUIRE(batched_not_full == calls);
    // The batched walk takes the tail blocks of short runs after the full blocks of the runs
    // it batches with them: the same blocks, each once, in the loop order otherwise.
    std::vector<Call> sorted_batched = batched, sorted_calls = calls;
    std::sort(sorted_batched.begin(), sorted_batched.end());
    std::sort(sorted_calls.begin(), sorted_calls.end());
    REQUIRE(sorted_batched == sorted_calls);
    const bool short_tail_runs = depth >= 1 && loops.back().tail_bit >= 0 &&
                                 loops.back().count <= gentt::engine::kShortTailRunBlocks;
    if (!short_tail_runs) REQUIRE(batched == calls);
  }
}
