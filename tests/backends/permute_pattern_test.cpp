// Tests of backends/permute_pattern.h against a model of the ARM instructions written from the
// architecture manual's definitions (independently of the recognizer's own formulas): every
// pattern is found, what is found is always right (random index lists, fixed seed), and the
// planner's butterflies map to the expected instructions.
#include <catch2/catch.hpp>

#include <random>

#include "backends/permute_pattern.h"

using namespace gentt;
using Op = PermutePattern::Op;

namespace {

// The result of a pattern as concat(a, b) slot indices, for registers of n slots. x and y are
// the registers a (slots 0..n-1) or b (n..2n-1); elements are w slots.
std::vector<int> model(Op op, int w, bool x_is_b, bool y_is_b, int ext, int n) {
  std::vector<int> X(n), Y(n), XY;
  for (int j = 0; j < n; ++j) X[j] = (x_is_b ? n : 0) + j, Y[j] = (y_is_b ? n : 0) + j;
  XY = X;
  XY.insert(XY.end(), Y.begin(), Y.end());
  std::vector<int> r(n);
  const int m = n / w;
  // Element e of the result is element s of the source register `src` (or of XY).
  auto put = [&](int e, const std::vector<int>& src, int s) {
    for (int k = 0; k < w; ++k) r[e * w + k] = src[s * w + k];
  };
  for (int i = 0; i < m / 2; ++i) {
    switch (op) {
      case Op::zip1: put(2 * i, X, i), put(2 * i + 1, Y, i); break;
      case Op::zip2: put(2 * i, X, m / 2 + i), put(2 * i + 1, Y, m / 2 + i); break;
      case Op::trn1: put(2 * i, X, 2 * i), put(2 * i + 1, Y, 2 * i); break;
      case Op::trn2: put(2 * i, X, 2 * i + 1), put(2 * i + 1, Y, 2 * i + 1); break;
      default: break;
    }
  }
  for (int i = 0; i < m; ++i) {
    if (op == Op::uzp1) put(i, XY, 2 * i);
    if (op == Op::uzp2) put(i, XY, 2 * i + 1);
  }
  for (int l = 0; l < n; ++l) {
    if (op == Op::copy) r[l] = X[l];
    if (op == Op::ext) r[l] = XY[ext + l];
  }
  return r;
}

std::vector<int> model(const PermutePattern& p, int n) {
  return model(p.op, p.width, p.x_is_b, p.y_is_b, p.ext_slots, n);
}

// Whether `got` (a model result) gives every slot `want` asks for.
bool satisfies(const std::vector<int>& got, const std::vector<int>& want, bool one_source) {
  const int n = static_cast<int>(want.size());
  for (int l = 0; l < n; ++l)
    if (want[l] >= 0 && want[l] != (one_source ? got[l] % n : got[l])) return false;
  return true;
}

}  // namespace

TEST_CASE("permute patterns: every instruction is recognized", "[permute_pattern]") {
  for (int n : {4, 16, 64}) {
    for (Op op : {Op::zip1, Op::zip2, Op::uzp1, Op::uzp2, Op::trn1, Op::trn2}) {
      for (int w = 1; w <= 8 && w < n; w *= 2) {
        const std::vector<int> want = model(op, w, false, true, 0, n);
        const auto p = recognize_permute(want, 8, false);
        INFO("n " << n << " op " << PermutePattern::name(op) << " width " << w);
        REQUIRE(p.has_value());
        CHECK(model(*p, n) == want);
      }
    }
    for (int k = 1; k < n; ++k) {
      const auto p = recognize_permute(model(Op::ext, 1, false, true, k, n), 8, false);
      REQUIRE(p.has_value());
      CHECK(p->op == Op::ext);
      CHECK(p->ext_slots == k);
    }
  }
}

TEST_CASE("permute patterns: whatever is recognized is right", "[permute_pattern]") {
  std::mt19937_64 rng(7);
  int found = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const int n = 4 << (rng() % 3);
    const bool one_source = rng() % 3 == 0;
    std::vector<int> want;
    if (rng() % 2) {  // a pattern with some slots don't care
      const Op op = static_cast<Op>(rng() % 8);
      int w = 1 << (rng() % 3);
      if (w >= n) w = 1;
      want = model(op, w, rng() % 2, rng() % 2, 1 + static_cast<int>(rng() % (n - 1)), n);
      if (one_source)
        for (int& i : want) i %= n;
    } else {  // anything
      want.resize(n);
      for (int& i : want) i = static_cast<int>(rng() % (one_source ? n : 2 * n));
    }
    for (int& i : want)
      if (rng() % 4 == 0) i = -1;
    const int max_width = 1 << (rng() % 4);
    const auto p = recognize_permute(want, max_width, one_source);
    if (!p) continue;
    ++found;
    INFO("trial " << trial);
    CHECK(p->width <= max_width);
    CHECK(satisfies(model(*p, n), want, one_source));
  }
  CHECK(found > 5000);
}

TEST_CASE("permute patterns: butterflies of a 4 x 4 float transpose", "[permute_pattern]") {
  // Element indices of the planner's two steps, 4 lanes of 4 bytes, expanded to bytes.
  const auto step1 = expand_to_slots({0, 4, 2, 6}, 4, 4, 16);
  const auto step2 = expand_to_slots({0, 1, 4, 5}, 4, 4, 16);
  const auto p1 = recognize_permute(step1, 8, false);
  const auto p2 = recognize_permute(step2, 8, false);
  REQUIRE(p1);
  REQUIRE(p2);
  CHECK((p1->op == Op::trn1 && p1->width == 4 && !p1->x_is_b && p1->y_is_b));
  CHECK((p2->op == Op::zip1 && p2->width == 8 && !p2->x_is_b && p2->y_is_b));
  // Don't-care lanes and padding slots stay don't care.
  CHECK(expand_to_slots({1, -1}, 2, 3, 8) == std::vector<int>{3, 4, 5, -1, -1, -1, -1, -1});
  CHECK(expand_to_slots({3, 0}, 2, 2, 4) == std::vector<int>{6, 7, 0, 1});
  // A general permutation is no pattern.
  CHECK_FALSE(recognize_permute({3, 0, 2, 1}, 1, true));
}
