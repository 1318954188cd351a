// How an IR shuffle becomes AVX2 intrinsics. AVX2 has no general two-source permute (and no
// one-source byte permute across its two 128-bit halves), so a shuffle is lowered to a small
// expression of intrinsics chosen by cost among a few recognized forms:
//   - whole-shuffle forms: one permute2x128 / unpack / alignr of the two sources, or both
//     gathered by pshufb into disjoint units, blended, and moved by one unit permute;
//   - otherwise each source is "placed" (moved to the output bytes it supplies: nothing,
//     a 64-bit shift, pshufd, permute4x64, permutevar8x32, pshufb, or pshufb combinations)
//     and the two placed sources are merged (blend_epi32, OR of zeroing pshufbs, blendv).
// The cost is (shuffle-port uops, uops, constant tables), compared in that order: on Intel
// cores every AVX2 permute and pshufb runs on port 5, while shifts and blends do not.
// Everything works on a byte map, so every element size (1, 3, 12, 16 bytes ...) is lowered
// by the same code.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gentt {

// Byte p of the result takes byte map[p] of concat(a, b): 0..31 from a, 32..63 from b;
// -1 = don't care.
using Avx2ByteMap = std::array<int, 32>;

// The byte map of an IR shuffle (`index` of `lanes` elements of `elem_bytes`; lanes *
// elem_bytes <= 32). Bytes past the last lane and don't-care lanes become -1. With
// `same_sources` (a and b name one value) b's bytes are renamed to a's.
Avx2ByteMap avx2_byte_map(const std::vector<int>& index, int lanes, int64_t elem_bytes, bool same_sources);

// One node of the lowered expression: a source ("a", "b") or an AVX2 intrinsic named without
// its "_mm256_" prefix, applied to `args`, an immediate and/or a constant register.
struct Avx2Expr {
  std::string op;
  std::vector<Avx2Expr> args;
  int imm = -1;             // immediate operand (-1: none)
  std::vector<int> table;   // constant register operand in lane order (empty: none)
  int table_bytes = 0;      // its entry size: 1 (pshufb indices, blendv masks) or 4 (dword indices)
};

struct Avx2Cost {
  int port5 = 0;   // shuffle-port uops (permutes, pshufb, unpack, alignr)
  int uops = 0;
  int tables = 0;  // constant registers loaded
  auto operator<=>(const Avx2Cost&) const = default;
};
Avx2Cost avx2_cost(const Avx2Expr& e);

// The cheapest expression computing `map` (every byte that is not -1) from sources a and b.
Avx2Expr lower_avx2_shuffle(const Avx2ByteMap& map);

// C++ text of one node whose operands print as `args`: `_mm256_OP(args..., table, imm)`, the
// table as `gentt_avx2_table(table)` (the caller declares the tables); sources print as args[0].
std::string print_avx2_call(const Avx2Expr& e, const std::vector<std::string>& args, const std::string& table);
// C++ text of the whole expression: the sources print as `a` and `b`, a table as
// table_name(node).
std::string print_avx2_expr(const Avx2Expr& e, const std::string& a, const std::string& b,
                            const std::function<std::string(const Avx2Expr&)>& table_name);

}  // namespace gentt
