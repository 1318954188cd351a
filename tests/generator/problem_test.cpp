// Tests of ir/problem.cpp: ISA and dtype names, vector widths, problem validation, default
// kernel names. (They live with the generator tests because the spec parser is their user.)
#include "ir/problem.h"

#include <catch2/catch.hpp>

#include "generator/field_parsers.h"
#include "ir/error.h"

namespace gentt {
namespace {

// The message of the UserError `f` throws, or "" when it throws none.
template <typename F>
std::string user_error(F&& f) {
  try {
    f();
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("isa names round-trip in documentation order", "[problem]") {
  const std::vector<std::string> expected = {"scalar", "avx2", "avx512", "avx512skx", "neon", "sve", "sve2", "sunway"};
  REQUIRE(all_isas().size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    CHECK(isa_name(all_isas()[i]) == expected[i]);
    CHECK(parse_isa(expected[i]) == all_isas()[i]);
  }
  CHECK_FALSE(parse_isa("AVX512"));
  CHECK_FALSE(parse_isa(""));
  CHECK_FALSE(parse_isa("avx512 "));
}

TEST_CASE("resolve_vector_bits: defaults", "[problem]") {
  CHECK(resolve_vector_bits({Isa::scalar, 0}, "f") == 128);
  CHECK(resolve_vector_bits({Isa::avx2, 0}, "f") == 256);
  CHECK(resolve_vector_bits({Isa::avx512, 0}, "f") == 512);
  CHECK(resolve_vector_bits({Isa::neon, 0}, "f") == 128);
  CHECK(resolve_vector_bits({Isa::sve, 0}, "f") == 512);
  CHECK(resolve_vector_bits({Isa::sve2, 0}, "f") == 512);
  CHECK(resolve_vector_bits({Isa::sunway, 0}, "f") == 512);
}

TEST_CASE("resolve_vector_bits: fixed widths may be repeated, not changed", "[problem]") {
  CHECK(resolve_vector_bits({Isa::avx2, 256}, "f") == 256);
  CHECK(resolve_vector_bits({Isa::avx512, 512}, "f") == 512);
  CHECK(resolve_vector_bits({Isa::neon, 128}, "f") == 128);
  // AVX-512 levels: zmm blocks by default, ymm blocks (AVX-512VL) on request.
  CHECK(resolve_vector_bits({Isa::avx512, 0}, "f") == 512);
  CHECK(resolve_vector_bits({Isa::avx512, 256}, "f") == 256);
  CHECK(resolve_vector_bits({Isa::avx512skx, 256}, "f") == 256);
  CHECK(user_error([] {
          resolve_vector_bits({Isa::avx512, 128}, "/vector_bits");
        }) ==
        "/vector_bits: isa avx512 needs vector_bits 512 (zmm blocks, the default) or 256 (ymm blocks), got 128");
  CHECK_THAT(user_error([] {
               resolve_vector_bits({Isa::avx2, 512}, "--vector-bits");
             }),
             Catch::StartsWith("--vector-bits: isa avx2 has 256-bit vectors"));
  CHECK_THAT(user_error([] {
               resolve_vector_bits({Isa::neon, 256}, "f");
             }),
             Catch::Contains("must be 128"));
}

TEST_CASE("resolve_vector_bits: scalar has no configurable width", "[problem]") {
  CHECK_THAT(user_error([] {
               resolve_vector_bits({Isa::scalar, 128}, "f");
             }),
             Catch::Contains("vector_bits is not configurable for isa scalar"));
}

TEST_CASE("resolve_vector_bits: sve widths", "[problem]") {
  for (int bits = 128; bits <= 2048; bits += 128)
    CHECK(resolve_vector_bits({Isa::sve, bits}, "f") == bits);
  for (int bits : {100, 64, -128, 2176, 4096, 192})
    CHECK_THAT(user_error([&] {
                 resolve_vector_bits({Isa::sve, bits}, "/vector_bits");
               }),
               Catch::StartsWith("/vector_bits: isa sve needs vector_bits in 128..2048"));
  CHECK(resolve_vector_bits({Isa::sve2, 256}, "f") == 256);
  CHECK_THAT(user_error([] {
               resolve_vector_bits({Isa::sve2, 100}, "f");
             }),
             Catch::StartsWith("f: isa sve2 needs vector_bits in 128..2048"));
}

TEST_CASE("resolve_vector_bits: sunway widths", "[problem]") {
  CHECK(resolve_vector_bits({Isa::sunway, 256}, "f") == 256);
  CHECK(resolve_vector_bits({Isa::sunway, 512}, "f") == 512);
  for (int bits : {128, 384, 1024})
    CHECK_THAT(user_error([&] {
                 resolve_vector_bits({Isa::sunway, bits}, "f");
               }),
               Catch::Contains("256 (SW26010) or 512 (SW26010-Pro)"));
}

TEST_CASE("parse_dtype: named dtypes and their sizes", "[problem]") {
  const std::vector<std::pair<std::string, int64_t>> expected = {
      {"int8", 1},     {"uint8", 1},   {"int16", 2},     {"uint16", 2},     {"float16", 2},
      {"bfloat16", 2}, {"int32", 4},   {"uint32", 4},    {"float32", 4},    {"int64", 8},
      {"uint64", 8},   {"float64", 8}, {"complex64", 8}, {"complex128", 16}};
  REQUIRE(named_dtypes().size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    CHECK(named_dtypes()[i].name == expected[i].first);
    const std::optional<Dtype> d = parse_dtype(expected[i].first);
    REQUIRE(d);
    CHECK(d->name == expected[i].first);
    CHECK(d->bytes == expected[i].second);
  }
}

TEST_CASE("parse_dtype: bytesN", "[problem]") {
  CHECK(parse_dtype("bytes1")->bytes == 1);
  CHECK(parse_dtype("bytes3")->bytes == 3);
  CHECK(parse_dtype("bytes3")->name == "bytes3");
  CHECK(parse_dtype("bytes4096")->bytes == 4096);
  for (const char* bad :
       {"bytes", "bytes0", "bytes4097", "bytes03", "bytes-1", "bytes+3", "bytes3x", "bytes 3",
        "bytes99999999999999999999", "Float32", "float", ""})
    CHECK_FALSE(parse_dtype(bad));
}

TEST_CASE("validate_problem_shape accepts valid problems", "[problem]") {
  CHECK_NOTHROW(validate_problem_shape({64, 32, 32, 4}, {2, 1, 0, 3}, 4, ""));
  CHECK_NOTHROW(validate_problem_shape({1}, {0}, 1, ""));
  CHECK_NOTHROW(validate_problem_shape(
      std::vector<int64_t>(kMaxRank, 1),
      [] {
        std::vector<int> p(kMaxRank);
        for (int i = 0; i < kMaxRank; ++i) p[i] = kMaxRank - 1 - i;
        return p;
      }(),
      kMaxElemBytes, ""));
}

TEST_CASE("validate_problem_shape names the field at fault", "[problem]") {
  const auto error = [](std::vector<int64_t> shape, std::vector<int> perm, int64_t bytes = 4) {
    return user_error([&] { validate_problem_shape(shape, perm, bytes, "/kernels/2"); });
  };
  CHECK(error({}, {}) == "/kernels/2/shape: shape must have at least one axis");
  CHECK(error(std::vector<int64_t>(kMaxRank + 1, 1), std::vector<int>(kMaxRank + 1, 0)) ==
        "/kernels/2/shape: shape has 65 axes; gentt supports at most 64");
  CHECK(error({4, 0, 3}, {0, 1, 2}) == "/kernels/2/shape/1: extent must be at least 1, got 0");
  CHECK(error({-4, 2}, {0, 1}) == "/kernels/2/shape/0: extent must be at least 1, got -4");
  CHECK(error({4, 3, 2, 1}, {0, 1, 2}) == "/kernels/2/perm: has 3 entries but shape has 4 axes");
  CHECK(error({4, 3, 2, 1}, {0, 5, 2, 1}) ==
        "/kernels/2/perm/1: axis 5 is out of range for rank 4");
  CHECK(error({4, 3}, {-1, 0}) == "/kernels/2/perm/0: axis -1 is out of range for rank 2");
  CHECK(error({4, 3, 2}, {2, 0, 2}) ==
        "/kernels/2/perm/2: axis 2 appears twice (also at /kernels/2/perm/0); perm must list "
        "every axis 0..2 once");
  CHECK(error({4}, {0}, 0) == "/kernels/2/dtype: element size must be 1..4096 bytes, got 0");
}

TEST_CASE("validate_problem_shape: byte size must fit in int64", "[problem]") {
  const auto fits = [](std::vector<int64_t> shape, int64_t bytes) {
    std::vector<int> perm(shape.size());
    for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int>(i);
    return user_error([&] { validate_problem_shape(shape, perm, bytes, ""); }).empty();
  };
  constexpr int64_t k2to31 = int64_t{1} << 31;
  constexpr int64_t k2to32 = int64_t{1} << 32;
  CHECK(fits({int64_t{1} << 62}, 1));
  CHECK(fits({k2to31, k2to31}, 1));                       // 2^62 bytes
  CHECK_FALSE(fits({int64_t{1} << 62}, 2));               // 2^63 bytes
  CHECK_FALSE(fits({k2to32, k2to32}, 4));                 // 2^66
  CHECK_FALSE(fits({k2to32, k2to32, k2to32}, 1));         // overflows the count
  CHECK(fits({std::numeric_limits<int64_t>::max()}, 1));  // 2^63 - 1 bytes
  CHECK(user_error([] {
          validate_problem_shape({k2to32, k2to32}, {1, 0}, 4, "");
        }) ==
        "/shape: 4294967296 x 4294967296 elements of 4 bytes do not fit in 64-bit byte "
        "offsets (at most 2^63 - 1 bytes)");
}

TEST_CASE("element_count", "[problem]") {
  CHECK(element_count({64, 32, 32, 4}) == 262144);
  CHECK(element_count({7}) == 7);
  CHECK(element_count({1, 1, 1}) == 1);
}

TEST_CASE("default_kernel_name", "[problem]") {
  Problem p;
  p.dtype = *parse_dtype("float32");
  p.shape = {64, 32, 32, 4};
  p.perm = {2, 1, 0, 3};
  p.target = {Isa::avx512, 512};
  CHECK(default_kernel_name(p) == "gentt_float32_s64x32x32x4_p2_1_0_3_avx512");
  p.target = {Isa::avx512, 256};
  CHECK(default_kernel_name(p) == "gentt_float32_s64x32x32x4_p2_1_0_3_avx512_256");
  p.target = {Isa::avx512skx, 256};
  CHECK(default_kernel_name(p) == "gentt_float32_s64x32x32x4_p2_1_0_3_avx512skx_256");
  p.target = {Isa::sve, 256};
  CHECK(default_kernel_name(p) == "gentt_float32_s64x32x32x4_p2_1_0_3_sve256");
  p.target = {Isa::sve2, 256};
  CHECK(default_kernel_name(p) == "gentt_float32_s64x32x32x4_p2_1_0_3_sve2_256");
  p.target = {Isa::sunway, 0};
  CHECK(default_kernel_name(p) == "gentt_float32_s64x32x32x4_p2_1_0_3_sunway512");
  p.dtype = *parse_dtype("bytes3");
  p.shape = {5};
  p.perm = {0};
  p.target = {Isa::scalar, 128};
  CHECK(default_kernel_name(p) == "gentt_bytes3_s5_p0_scalar");
  CHECK(is_identifier(default_kernel_name(p)));
}

}  // namespace
}  // namespace gentt
