// Tests of the AVX2 shuffle lowering (backends/avx2_shuffle.h): the chosen forms for the
// butterfly patterns the planner emits, and a lane-exact model of every intrinsic it may use,
// run on random byte maps (fixed seed); register layouts (backends/avx2_layout.h); and the
// AVX2 file's emitted text.
#include <catch2/catch.hpp>

#include <random>

#include "backends/avx2_layout.h"
#include "backends/avx2_shuffle.h"
#include "backends/backend.h"
#include "tests/backends/golden.h"
#include "tests/backends/unit.h"

using namespace gentt;
using Catch::Matchers::Contains;

namespace {

using Reg = std::array<int, 32>;  // byte values

// The intrinsics of Avx2Expr on byte arrays, as the Intel manual defines them.
Reg eval(const Avx2Expr& e, const Reg& a, const Reg& b) {
  if (e.op == "a") return a;
  if (e.op == "b") return b;
  std::vector<Reg> x;
  for (const auto& arg : e.args) x.push_back(eval(arg, a, b));
  Reg r{};
  auto dword = [](const Reg& v, int q, int c) { return v[4 * q + c]; };
  const std::string& op = e.op;
  for (int p = 0; p < 32; ++p) {
    const int half = p / 16, i = p % 16, c4 = p % 4, c8 = p % 8, q = p / 4, w = p / 8;
    if (op == "shuffle_epi8") {
      const int t = e.table[p];
      r[p] = t & 0x80 ? 0 : x[0][16 * half + (t & 15)];
    } else if (op == "shuffle_epi32") {
      r[p] = x[0][16 * half + 4 * ((e.imm >> (2 * (q % 4))) & 3) + c4];
    } else if (op == "permute4x64_epi64") {
      r[p] = x[0][8 * ((e.imm >> (2 * w)) & 3) + c8];
    } else if (op == "permutevar8x32_epi32") {
      r[p] = dword(x[0], e.table[q] & 7, c4);
    } else if (op == "permute2x128_si256") {
      const int sel = (e.imm >> (4 * half)) & 15;
      r[p] = sel & 8 ? 0 : (sel & 2 ? x[1] : x[0])[16 * (sel & 1) + i];
    } else if (op == "slli_epi64") {
      const int d = e.imm / 8;
      r[p] = c8 >= d ? x[0][p - d] : 0;
    } else if (op == "srli_epi64") {
      const int d = e.imm / 8;
      r[p] = c8 + d < 8 ? x[0][p + d] : 0;
    } else if (op == "blend_epi32") {
      r[p] = (e.imm >> q & 1 ? x[1] : x[0])[p];
    } else if (op == "blendv_epi8") {
      r[p] = (e.table[p] & 0x80 ? x[1] : x[0])[p];
    } else if (op == "or_si256") {
      r[p] = x[0][p] | x[1][p];
    } else if (op == "alignr_epi8") {
      const int j = i + e.imm;
      r[p] = j < 16 ? x[1][16 * half + j] : x[0][16 * half + j - 16];
    } else if (op.rfind("unpack", 0) == 0) {
      const bool high = op.rfind("unpackhi", 0) == 0;
      const int unit = std::stoi(op.substr(op.find("epi") + 3)) / 8;
      const int el = i / unit, k = el / 2 + (high ? 16 / unit / 2 : 0);
      r[p] = x[el % 2][16 * half + k * unit + i % unit];
    } else {
      FAIL("no model of " << op);
    }
  }
  return r;
}

Reg distinct(int base) {
  Reg r;
  for (int p = 0; p < 32; ++p) r[p] = base + p;  // never 0 (zeroing would look like a byte)
  return r;
}

// Whether lower(map) computes map; prints the expression on failure.
void check_lowering(const Avx2ByteMap& map) {
  const Avx2Expr e = lower_avx2_shuffle(map);
  const Reg a = distinct(1), b = distinct(33);
  const Reg r = eval(e, a, b);
  const std::string text = print_avx2_expr(e, "a", "b", [](const Avx2Expr&) { return std::string("T"); });
  for (int p = 0; p < 32; ++p) {
    if (map[p] < 0) continue;
    INFO("byte " << p << " of " << text);
    REQUIRE(r[p] == map[p] + 1);
  }
}

Avx2ByteMap map_of(const std::vector<int>& index, int elem_bytes) {
  return avx2_byte_map(index, static_cast<int>(index.size()), elem_bytes, false);
}

std::string lowered(const std::vector<int>& index, int elem_bytes) {
  const Avx2ByteMap map = map_of(index, elem_bytes);
  check_lowering(map);
  return print_avx2_expr(lower_avx2_shuffle(map), "a", "b", [](const Avx2Expr&) { return std::string("T"); });
}

}  // namespace

TEST_CASE("avx2: byte maps of element shuffles", "[avx2]") {
  // 12-byte elements, 2 lanes: 24 bytes used, the rest don't care.
  const Avx2ByteMap m = avx2_byte_map({3, 0}, 2, 12, false);
  for (int c = 0; c < 12; ++c) {
    CHECK(m[c] == 32 + 12 + c);
    CHECK(m[12 + c] == c);
  }
  for (int p = 24; p < 32; ++p) CHECK(m[p] == -1);
  // Don't-care lanes, and b renamed to a when both sources are one value.
  const Avx2ByteMap s = avx2_byte_map({-1, 2, 1, 0}, 4, 4, true);
  CHECK(s[0] == -1);
  CHECK(s[4] == 8);
  CHECK(s[8] == 4);
}

TEST_CASE("avx2: the planner's butterfly steps get their cheapest forms", "[avx2]") {
  // 8x8 float transpose, step 1: blend with a 64-bit shift, no shuffle-port uop.
  CHECK(lowered({0, 8, 2, 10, 4, 12, 6, 14}, 4) == "_mm256_blend_epi32(a, _mm256_slli_epi64(b, 32), 0xaa)");
  CHECK(lowered({1, 9, 3, 11, 5, 13, 7, 15}, 4) == "_mm256_blend_epi32(_mm256_srli_epi64(a, 32), b, 0xaa)");
  // Steps 2 and 3: unpack and 128-bit half moves.
  CHECK(lowered({0, 1, 8, 9, 4, 5, 12, 13}, 4) == "_mm256_unpacklo_epi64(a, b)");
  CHECK(lowered({2, 3, 10, 11, 6, 7, 14, 15}, 4) == "_mm256_unpackhi_epi64(a, b)");
  CHECK(lowered({0, 1, 2, 3, 8, 9, 10, 11}, 4) == "_mm256_permute2x128_si256(a, b, 0x20)");
  CHECK(lowered({4, 5, 6, 7, 12, 13, 14, 15}, 4) == "_mm256_permute2x128_si256(a, b, 0x31)");
  // Halves of a one-source shuffle: a permute of whole qwords needs no table.
  CHECK(lowered({2, 3, 0, 1}, 8) == "_mm256_permute4x64_epi64(a, 0x4e)");
  // 16-byte elements: always one permute2x128 (or nothing).
  CHECK(lowered({1, 2}, 16) == "_mm256_permute2x128_si256(a, b, 0x21)");
  CHECK(lowered({0, 3}, 16) == "_mm256_blend_epi32(a, b, 0xf0)");
}

TEST_CASE("avx2: one-source shuffles", "[avx2]") {
  CHECK(lowered({0, 1, 2, 3, 4, 5, 6, 7}, 4) == "a");
  CHECK(lowered({1, 0, 3, 2, 5, 4, 7, 6}, 4) == "_mm256_shuffle_epi32(a, 0xb1)");
  CHECK(lowered({7, 6, 5, 4, 3, 2, 1, 0}, 4) == "_mm256_permutevar8x32_epi32(a, gentt_avx2_table(T))");
  // Bytes within their 128-bit half: one pshufb.
  std::vector<int> in_half(32);
  for (int l = 0; l < 32; ++l) in_half[l] = (l / 16) * 16 + 15 - l % 16;
  CHECK(lowered(in_half, 1) == "_mm256_shuffle_epi8(a, gentt_avx2_table(T))");
  // Bytes reversed across the whole register: swap the halves, then pshufb.
  std::vector<int> reversed(32);
  for (int l = 0; l < 32; ++l) reversed[l] = 31 - l;
  CHECK(lowered(reversed, 1) == "_mm256_shuffle_epi8(_mm256_permute4x64_epi64(a, 0x4e), gentt_avx2_table(T))");
}

TEST_CASE("avx2: every random byte map is lowered correctly", "[avx2]") {
  std::mt19937_64 rng(20261124);
  for (int trial = 0; trial < 20000; ++trial) {
    Avx2ByteMap map;
    const int kind = trial % 4;
    const int elem = 1 << (rng() % 5);  // 1..16-byte moves
    const int lanes = 32 / elem;
    // kind 0: one source; 1: two sources; 2: with don't cares; 3: element-structured, two sources
    std::vector<int> index(lanes);
    for (int l = 0; l < lanes; ++l) {
      index[l] = static_cast<int>(rng() % (kind == 0 ? lanes : 2 * lanes));
      if (kind == 2 && rng() % 3 == 0) index[l] = -1;
    }
    map = avx2_byte_map(index, lanes, elem, false);
    if (kind == 3) {  // odd element sizes with padding
      const int e = 3 + static_cast<int>(rng() % 14);
      const int n = 32 / e >= 16 ? 16 : 32 / e >= 8 ? 8 : 32 / e >= 4 ? 4 : 32 / e >= 2 ? 2 : 1;
      std::vector<int> idx(n);
      for (int l = 0; l < n; ++l) idx[l] = static_cast<int>(rng() % (2 * n));
      map = avx2_byte_map(idx, n, e, false);
    }
    check_lowering(map);
  }
}

TEST_CASE("avx2: costs prefer shifts and blends over the shuffle port", "[avx2]") {
  const Avx2Expr e = lower_avx2_shuffle(map_of({0, 8, 2, 10, 4, 12, 6, 14}, 4));
  CHECK(avx2_cost(e).port5 == 0);
  CHECK(avx2_cost(e).uops == 2);
  CHECK(avx2_cost(e).tables == 0);
}

TEST_CASE("avx2: the halves layout of 16..31 bytes", "[avx2]") {
  const Avx2Layout h = Avx2Layout::halves(24);  // low half: bytes 0..15, high half: bytes 8..23
  CHECK(h.byte_at(3) == 3);
  CHECK(h.byte_at(16) == 8);
  CHECK(h.byte_at(31) == 23);
  CHECK(h.position_of(20, 0) == 28);  // only in the high half
  CHECK(h.position_of(10, 0) == 10);  // in both halves: the one asked for
  CHECK(h.position_of(10, 1) == 18);
  CHECK(h.position_of(24, 0) == -1);  // past the loaded bytes
  const Avx2Layout n = Avx2Layout::natural();
  CHECK(n.byte_at(31) == 31);
  CHECK(n.position_of(31, 0) == 31);
}

TEST_CASE("avx2: layouts compose with the IR's byte map", "[avx2]") {
  // uint8 (.., 3) -> (3, ..) first step: 24-byte loads. In the IR's order, result byte 16
  // needs source byte 12 (other half); loaded as halves, every byte is in its own half.
  const Avx2ByteMap logical = avx2_byte_map({0, 32, 2, 34, 3, 35, 5, 37, 6, 38, 8, 40, 9, 41, 11, 43,
                                             12, 44, 14, 46, 15, 47, 17, 49, 18, 50, 20, 52, 21, 53, 23, 55},
                                            32, 1, false);
  const Avx2Layout h = Avx2Layout::halves(24), n = Avx2Layout::natural();
  const Avx2ByteMap natural = avx2_register_map(logical, n, n, n);
  CHECK(natural == logical);
  const Avx2ByteMap split = avx2_register_map(logical, h, h, n);
  for (int p = 0; p < 32; ++p) {
    REQUIRE(split[p] >= 0);
    CHECK((split[p] % 32) / 16 == p / 16);
  }
  check_lowering(split);
  CHECK(avx2_cost(lower_avx2_shuffle(split)).port5 < avx2_cost(lower_avx2_shuffle(natural)).port5);
  // A result stored as halves: register byte 16 holds result byte 8 (halves of 24).
  const Avx2ByteMap to_halves = avx2_register_map(logical, n, n, h);
  CHECK(to_halves[16] == logical[8]);
}

TEST_CASE("avx2: emitted kernels", "[avx2][golden]") {
  const std::string golden = std::string(GENTT_SOURCE_DIR) + "/tests/backends/golden/";
  const auto unit = test::make_unit("avx2_example", Dtype{"float32", 4}, {8, 8}, {1, 0}, Isa::avx2, 256);
  const std::string text = emit_file(
      {unit}, "gentt-gen generate --shape 8,8 --perm 1,0 --dtype float32 --isa avx2 --name avx2_example -o x.cpp");
  CHECK(test::matches_golden(golden + "avx2_example.cpp", text));
  CHECK_THAT(text, Contains("#pragma GCC target(\"avx2\")") && Contains("GENTT_AVX2_END"));

  // Odd elements: 18-byte rows as halves, 9-byte tails through a byte copy.
  const auto odd = test::make_unit("avx2_odd", Dtype{"bytes3", 3}, {5, 7, 3}, {2, 0, 1}, Isa::avx2, 256);
  const std::string odd_text = emit_file({odd}, "x");
  CHECK(test::matches_golden(golden + "avx2_odd_bytes3.cpp", odd_text));
  CHECK_THAT(odd_text, Contains("gentt_avx2_load_halves(in + 0, 18)") && Contains("gentt_avx2_store_bytes("));

  // Elements wider than 16 bytes: one lane, memcpy.
  const auto wide = test::make_unit("avx2_wide", Dtype{"bytes40", 40}, {3, 5}, {1, 0}, Isa::avx2, 256);
  CHECK_THAT(emit_file({wide}, "x"), Contains("std::memcpy(v0, in + 0, 40);"));
}
