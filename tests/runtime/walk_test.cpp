// runtime/engine/walk.h: the loop-nest walk against a model that decodes every flat iteration by
// division, on random nests (tail bits on any loop, depths 0-6) and random ranges [begin, end),
// as the parts of a plan call it.
#include "runtime/engine/walk.h"

#include <catch2/catch.hpp>

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
    INFO("trial " << trial << " depth " << depth << " range [" << begin << ", " << end << ")");
    REQUIRE(calls == model(loops, begin, end));
    REQUIRE(one_site == calls);
  }
}
