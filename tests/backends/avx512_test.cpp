// The AVX-512 backend's emitted text: a kernel with its streaming variant (ir/stream.h).
// Correctness of every form is checked end to end (tests/e2e, e2e_avx512_test).
#include <catch2/catch.hpp>

#include "backends/backend.h"
#include "backends/lane_unit.h"
#include "tests/backends/golden.h"
#include "tests/backends/unit.h"

using namespace gentt;
using Catch::Matchers::Contains;

TEST_CASE("avx512: a kernel with a streaming variant", "[avx512][golden]") {
  const std::string golden = std::string(GENTT_SOURCE_DIR) + "/tests/backends/golden/";
  const auto unit = test::make_unit("avx512_stream", Dtype{"float32", 4}, {32, 48}, {1, 0}, Isa::avx512, 512,
                                    StoreMode::streaming);
  REQUIRE(unit.stream_kernel);
  const std::string text = emit_file({unit}, "gentt-gen generate --shape 32,48 --perm 1,0 --dtype float32 --isa avx512 "
                                              "--stores streaming --name avx512_stream -o x.cpp");
  CHECK(test::matches_golden(golden + "avx512_stream.cpp", text));
  // Both variants, chosen by the alignment of `out`; the streaming one ends with a fence.
  CHECK_THAT(text, Contains("void avx512_stream_run(") && Contains("void avx512_stream_stream_run("));
  CHECK_THAT(text, Contains("if (reinterpret_cast<std::uintptr_t>(out) % 64 == 0) {"));
  CHECK_THAT(text, Contains("_mm512_stream_si512(reinterpret_cast<__m512i*>(out + 0), "));
  CHECK_THAT(text, Contains("_mm_sfence();"));

  // auto: a 6 KiB output stays in the cache, no streaming variant.
  const auto small = test::make_unit("avx512_small", Dtype{"float32", 4}, {32, 48}, {1, 0}, Isa::avx512, 512);
  CHECK_FALSE(small.stream_kernel);
  CHECK_THAT(emit_file({small}, "x"), !Contains("_mm512_stream_si512") && !Contains("_mm_sfence"));
}

TEST_CASE("avx512 at 256 bits: ymm blocks with AVX-512VL's instructions", "[avx512]") {
  // Bytes with VBMI: vpermt2b on ymm where a shuffle is no plain exchange ((24,7,3) reversed compacts
  // 7 of 8 lanes; a 32-register transpose block exchanges in fixed forms); masked loads and stores
  // of the tails in 32-lane masks.
  const auto bytes = test::make_unit("ymm_u8", Dtype{"uint8", 1}, {40, 33}, {1, 0}, Isa::avx512, 256);
  CHECK(bytes.kernel.lanes == 32);
  const std::string b = emit_file({bytes}, "x");
  CHECK_THAT(b, Contains("__mmask32") && Contains("_mm256_maskz_loadu_epi8(") && Contains("_mm256_mask_storeu_epi8(") &&
                    !Contains("__m512i v"));
  CHECK_THAT(b, Contains("_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + "));
  const auto packed = test::make_unit("ymm_u8p", Dtype{"uint8", 1}, {24, 7, 3}, {2, 1, 0}, Isa::avx512, 256);
  CHECK_THAT(emit_file({packed}, "x"), Contains("_mm256_permutex2var_epi8(") && !Contains("__m512i v"));
  // Without VBMI: word permutes and in-lane byte shuffles, on ymm.
  const auto skx = test::make_unit("ymm_skx", Dtype{"uint8", 1}, {40, 33}, {1, 0}, Isa::avx512skx, 256);
  CHECK_THAT(emit_file({skx}, "x"), (Contains("_mm256_shuffle_epi8(") || Contains("_mm256_mask_blend_epi8(")) &&
                                        !Contains("_mm256_permutex2var_epi8"));
  // Streaming stores of ymm registers (two per line).
  const auto stream = test::make_unit("ymm_stream", Dtype{"float32", 4}, {32, 48}, {1, 0}, Isa::avx512, 256,
                                      StoreMode::streaming);
  REQUIRE(stream.stream_kernel);
  CHECK_THAT(emit_file({stream}, "x"), Contains("_mm256_stream_si256(reinterpret_cast<__m256i*>(out + "));
}

TEST_CASE("avx512: plain lane exchanges without index tables, in kernels under 4 MiB", "[avx512]") {
  // float32 2^10 reversed: exchanges of 32-, 16- and 8-byte units, and 4-byte ones (vpermt2d).
  const std::vector<int64_t> all2(10, 2);
  const std::vector<int> reversed = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
  const std::string small = emit_file({test::make_unit("x4k", Dtype{"float32", 4}, all2, reversed, Isa::avx512, 512)}, "x");
  CHECK_THAT(small, Contains("_mm512_mask_shuffle_i64x2(") && Contains("_mm512_mask_permutex_epi64(") &&
                        Contains("_mm512_mask_unpacklo_epi64(") && Contains("_mm512_mask_unpackhi_epi64(") &&
                        Contains("_mm512_permutex2var_epi32(") && !Contains("_mm512_permutex2var_epi64("));
  // ymm: vperm2i128 for 16-byte units.
  const std::string ymm = emit_file({test::make_unit("y4k", Dtype{"float32", 4}, all2, reversed, Isa::avx512, 256)}, "x");
  CHECK_THAT(ymm, Contains("_mm256_permute2x128_si256(") && Contains("_mm256_unpacklo_epi64("));
  // 2- and 1-byte units: a shift and a masked blend.
  const std::string words = emit_file({test::make_unit("w", Dtype{"uint16", 2}, {64, 64}, {1, 0}, Isa::avx512, 512)}, "x");
  CHECK_THAT(words, Contains("_mm512_mask_blend_epi16(") && Contains("_mm512_mask_slli_epi32("));
  const std::string bytes = emit_file({test::make_unit("b", Dtype{"uint8", 1}, {64, 64}, {1, 0}, Isa::avx512, 512)}, "x");
  CHECK_THAT(bytes, Contains("_mm512_mask_blend_epi8(") && Contains("_mm512_mask_srli_epi16("));
  // From 4 MiB of output (bound by memory, where the forms measured both ways) every shuffle is
  // an index-table permute but the exchange of the registers' halves (no index register) and, in
  // blocks of 32 registers (split byte rows), every plain exchange.
  const std::string large =
      emit_file({test::make_unit("big", Dtype{"float32", 4}, {1024, 1024}, {1, 0}, Isa::avx512, 512)}, "x");
  CHECK_THAT(large, Contains("_mm512_permutex2var_epi") && !Contains("_mm512_mask_unpack") &&
                        Contains("_mm512_mask_shuffle_i64x2") && !Contains("_mm512_mask_permutex_epi64"));
  const std::string big_bytes =
      emit_file({test::make_unit("bb", Dtype{"uint8", 1}, {2048, 2080}, {1, 0}, Isa::avx512, 512)}, "x");
  CHECK_THAT(big_bytes, !Contains("_mm512_permutex2var_epi") && Contains("_mm512_mask_blend_epi8(") &&
                            Contains("_mm512_mask_moveldup_ps(") && Contains("_mm512_castsi256_si512(_mm256_loadu_si256("));
}

TEST_CASE("shuffles move in the widest exact unit", "[avx512][lane_unit]") {
  // 64 bytes: lanes in aligned groups of 8 from one source become qword units.
  std::vector<int> index(64);
  for (int l = 0; l < 64; ++l) index[l] = (l / 8) % 2 ? 64 + (l / 16) * 8 + l % 8 : (l / 16) * 8 + l % 8;
  const WideShuffle q = widest_shuffle(index, 64, 1, 64);
  CHECK(q.unit.bytes == 8);
  CHECK(q.index == std::vector<int>{0, 8, 1, 9, 2, 10, 3, 11});
  // Don't-cares fit any group; a group off its unit boundary stays in bytes.
  index[1] = -1;
  CHECK(widest_shuffle(index, 64, 1, 64).unit.bytes == 8);
  for (int l = 0; l < 64; ++l) index[l] = (l + 1) % 64;
  const WideShuffle b = widest_shuffle(index, 64, 1, 64);
  CHECK(b.unit.bytes == 1);
  CHECK(b.index[0] == 1);
  // A group whose first lane is a don't-care and whose others take elements 0, 1, 2 starts at
  // element -1: not a unit, so no widening.
  std::vector<int> shifted(64);
  for (int l = 0; l < 64; ++l) shifted[l] = l % 4 == 0 ? -1 : l - 1;
  CHECK(widest_shuffle(shifted, 64, 1, 64).unit.bytes == 1);
  // Pairs of float32 swapped as pairs: qwords; odd element sizes never widen.
  std::vector<int> pairs(16);
  for (int l = 0; l < 16; ++l) pairs[l] = l ^ 2;
  CHECK(widest_shuffle(pairs, 16, 4, 64).unit.bytes == 8);
  std::vector<int> odd(16);
  for (int l = 0; l < 16; ++l) odd[l] = l ^ 2;
  CHECK(widest_shuffle(odd, 16, 3, 64).unit.bytes == 1);
}

TEST_CASE("avx512: a banded streaming variant and its unbanded twin, chosen at run time", "[avx512]") {
  // 17 MB of rows of 16 KiB: the streaming variant walks bands (ir/band.h); gentt_bands_pay()
  // (templates/x86_bands_prelude.h) picks it or the twin, whole and in parts.
  const auto unit = test::make_unit("band", Dtype{"float32", 4}, {1040, 4100}, {1, 0}, Isa::avx512, 512);
  REQUIRE(unit.stream_kernel);
  REQUIRE(unit.unbanded_stream_kernel);
  const std::string text = emit_file({unit}, "x");
  CHECK_THAT(text, Contains("static inline bool gentt_bands_pay() {") && Contains("std::getenv(\"GENTT_BANDS\")"));
  CHECK_THAT(text, Contains("void band_stream_run(") && Contains("void band_stream_unbanded_run("));
  CHECK_THAT(text, Contains("if (gentt_bands_pay()) {\n      band_stream_run(") && Contains("} else {\n      band_stream_unbanded_run("));
  CHECK_THAT(text, Contains("//   unbanded twin band_stream_unbanded (run instead on CPUs other than AMD's"));
}
