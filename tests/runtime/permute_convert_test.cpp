// Fused conversion and scaling through gentt::permute (runtime/engine/transform.cpp over the row
// transforms of <gentt/convert.h>, whose own tests are convert_test.cpp), against values NumPy
// 1.24 gives on x86-64 (noted next to each case), and the SIMD engines against the portable one.
#include <catch2/catch.hpp>

#include <gentt/permute.h>
#include <gentt/reference.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>


namespace {

// Converts a row of values with a 1-D identity permutation (the conversion alone).
template <class To, class From>
std::vector<To> convert(const char* from, const char* to, const std::vector<From>& values,
                        std::complex<double> alpha = 1.0, std::complex<double> beta = 0.0,
                        std::vector<To> out = {}) {
  gentt::PermuteDesc d;
  d.dtype = from;
  d.out_dtype = to;
  d.shape = {static_cast<std::int64_t>(values.size())};
  d.perm = {0};
  d.alpha = alpha;
  d.beta = beta;
  out.resize(values.size());
  gentt::plan_permute(d).execute(values.data(), out.data());
  return out;
}

}  // namespace

TEST_CASE("convert: float16 from float64 and float32 rounds like NumPy", "[convert]") {
  // np.array([0.1, 0.2, 1e-5, 65519.99, 70000, -3.3e-8]).astype(np.float16).view(np.uint16)
  const std::vector<std::uint16_t> expected = {11878, 12902, 168, 31743, 31744, 32769};
  CHECK(convert<std::uint16_t>("float64", "float16", std::vector<double>{0.1, 0.2, 1e-5, 65519.99, 70000, -3.3e-8}) ==
        expected);
  CHECK(convert<std::uint16_t>("float32", "float16", std::vector<float>{0.1f, 0.2f, 1e-5f, 65519.99f, 70000.f, -3.3e-8f}) ==
        expected);
  // NaN payloads: float32 0x7f802000 -> 0x7c01; float64 0xfff8000000000001 -> 0xfe00.
  CHECK(convert<std::uint16_t>("float32", "float16", std::vector<float>{std::bit_cast<float>(0x7f802000u)})[0] == 0x7c01);
  CHECK(convert<std::uint16_t>("float64", "float16",
                               std::vector<double>{std::bit_cast<double>(0xfff8000000000001ull)})[0] == 0xfe00);
}

TEST_CASE("convert: bfloat16 rounds to nearest even, NaN to 0x7fc0 (PyTorch)", "[convert]") {
  const std::vector<float> in = {1.0f, std::bit_cast<float>(0x3f808000u), std::bit_cast<float>(0x3f818000u),
                                 std::bit_cast<float>(0x3f808001u), NAN, -0.0f};
  CHECK(convert<std::uint16_t>("float32", "bfloat16", in) ==
        std::vector<std::uint16_t>{0x3f80, 0x3f80, 0x3f82, 0x3f81, 0x7fc0, 0x8000});
}

TEST_CASE("convert: integers wrap, floats truncate, as NumPy astype on x86-64", "[convert]") {
  const std::vector<double> v = {300.0, -1.0, 3e9, -3e9, 1e19, NAN, INFINITY, -0.7, 2.5};
  CHECK(convert<std::int8_t>("float64", "int8", v) == std::vector<std::int8_t>{44, -1, 0, 0, 0, 0, 0, 0, 2});
  CHECK(convert<std::uint16_t>("float64", "uint16", v) == std::vector<std::uint16_t>{300, 65535, 0, 0, 0, 0, 0, 0, 2});
  CHECK(convert<std::int32_t>("float64", "int32", v) ==
        std::vector<std::int32_t>{300, -1, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, 0, 2});
  CHECK(convert<std::int64_t>("float64", "int64", v) ==
        std::vector<std::int64_t>{300, -1, 3000000000, -3000000000, INT64_MIN, INT64_MIN, INT64_MIN, 0, 2});
  CHECK(convert<std::uint64_t>("float64", "uint64", v) ==
        std::vector<std::uint64_t>{300, 18446744073709551615ull, 3000000000, 18446744070709551616ull,
                                   10000000000000000000ull, 9223372036854775808ull, 0, 0, 2});
  CHECK(convert<std::uint8_t>("int32", "uint8", std::vector<std::int32_t>{256 + 7, -1, 128}) ==
        std::vector<std::uint8_t>{7, 255, 128});
  // int64 -> float32 rounds once: 2^53 + 1 -> 2^53 (0x5a000000).
  CHECK(std::bit_cast<std::uint32_t>(convert<float>("int64", "float32", std::vector<std::int64_t>{(1ll << 53) + 1})[0]) ==
        0x5a000000u);
  CHECK(convert<float>("uint8", "float32", std::vector<std::uint8_t>{0, 255, 7}) == std::vector<float>{0, 255, 7});
}

TEST_CASE("convert: permutation and conversion in one pass", "[convert]") {
  gentt::PermuteDesc d;
  d.dtype = "uint16";
  d.out_dtype = "float32";
  d.shape = {3, 5, 7};
  d.perm = {2, 0, 1};
  std::vector<std::uint16_t> in(105);
  for (int i = 0; i < 105; ++i) in[i] = static_cast<std::uint16_t>(i * 601);
  std::vector<float> out(105);
  gentt::plan_permute(d).execute(in.data(), out.data());
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 5; ++b)
      for (int c = 0; c < 7; ++c) REQUIRE(out[(c * 3 + a) * 5 + b] == static_cast<float>(in[(a * 5 + b) * 7 + c]));
}

TEST_CASE("scale: out = alpha * x + beta * out, beta = 0 never reads out", "[convert]") {
  std::vector<float> out(4, NAN);
  out = convert<float>("float32", "float32", std::vector<float>{1, 2, 3, 4}, 2.0, 0.0, out);
  CHECK(out == std::vector<float>{2, 4, 6, 8});
  out = convert<float>("float32", "float32", std::vector<float>{1, 2, 3, 4}, 1.0, 0.5, out);
  CHECK(out == std::vector<float>{2, 4, 6, 8});
  const auto c = convert<std::complex<double>>("complex128", "complex128",
                                               std::vector<std::complex<double>>{{1, 2}}, std::complex<double>(0, 1));
  CHECK(c[0] == std::complex<double>(-2, 1));
  // float16: the scalar is rounded to float16 first, each operation rounded (NumPy: 0.1 * x).
  const auto h = convert<std::uint16_t>("float16", "float16", std::vector<std::uint16_t>{0x4200 /* 3.0 */}, 0.1);
  CHECK(h[0] == 0x34cc);  // (np.array([3.0], np.float16) * 0.1).view(np.uint16)
}

TEST_CASE("convert: unsupported pairs and scaling are errors naming the argument", "[convert]") {
  auto error_of = [](gentt::PermuteDesc d) -> std::string {
    try {
      (void)gentt::plan_permute(d);
    } catch (const gentt::Error& e) {
      return e.argument();
    }
    return "(no error)";
  };
  gentt::PermuteDesc d;
  d.dtype = "float32";
  d.shape = {4};
  d.perm = {0};
  d.out_dtype = "bytes4";
  CHECK(error_of(d) == "out_dtype");
  d.out_dtype = "int32";
  d.alpha = 2.0;
  CHECK(error_of(d) == "alpha");
  d.out_dtype = "float64";
  d.alpha = std::complex<double>(1, 1);
  CHECK(error_of(d) == "alpha");
  d.alpha = 1.0;
  d.beta = std::complex<double>(0, 1);
  CHECK(error_of(d) == "beta");
  gentt::PermuteDesc opaque;
  opaque.elem_bytes = 4;
  opaque.shape = {4};
  opaque.perm = {0};
  opaque.out_dtype = "float32";
  CHECK(error_of(opaque) == "dtype");
}

TEST_CASE("convert: the SIMD engines' conversion path equals the portable one on random problems", "[convert]") {
  const char* types[] = {"uint8", "int16", "uint16", "int32", "float16", "bfloat16", "float32", "float64", "complex64"};
  const int bytes[] = {1, 2, 2, 4, 2, 2, 4, 8, 8};
  std::uint64_t state = 12345;
  auto next = [&] { return state = state * 6364136223846793005ull + 1442695040888963407ull, state >> 33; };
  for (int i = 0; i < 150; ++i) {
    const int from = static_cast<int>(next() % 9), to = static_cast<int>(next() % 9);
    gentt::PermuteDesc d;
    d.dtype = types[from];
    d.out_dtype = types[to];
    const int rank = 1 + static_cast<int>(next() % 4);
    std::int64_t n = 1;
    for (int a = 0; a < rank; ++a) {
      d.shape.push_back(1 + static_cast<std::int64_t>(next() % (rank <= 2 ? 70 : 12)));
      n *= d.shape.back();
      d.perm.push_back(a);
    }
    for (int a = rank - 1; a > 0; --a) std::swap(d.perm[a], d.perm[next() % (a + 1)]);
    if (to >= 4 && next() % 3 == 0) {  // scaling for float outputs
      d.alpha = 0.5;
      d.beta = next() % 2 ? 0.0 : 2.0;
    }
    std::vector<unsigned char> in(static_cast<std::size_t>(n * bytes[from]));
    for (auto& b : in) b = static_cast<unsigned char>(next());
    if (std::string(types[from]).find("float") != std::string::npos || std::string(types[from]) == "complex64")
      for (std::size_t b = 0; b < in.size(); ++b) in[b] &= 0x3f;  // finite values (no NaN payload questions)
    std::vector<unsigned char> simd(static_cast<std::size_t>(n * bytes[to]), 7), portable(simd);
    gentt::plan_permute(d).execute(in.data(), simd.data());
    d.isa = "scalar";
    gentt::plan_permute(d).execute(in.data(), portable.data());
    INFO(d.dtype << " -> " << d.out_dtype << " rank " << rank);
    REQUIRE(simd == portable);
  }
}

TEST_CASE("convert: rows of a kept innermost axis convert as the same elements converted, then permuted", "[convert]") {
  const char* types[] = {"uint8", "int16", "float16", "bfloat16", "float32", "float64", "complex64"};
  const int bytes[] = {1, 2, 2, 2, 4, 8, 8};
  std::uint64_t state = 777;
  auto next = [&] { return state = state * 6364136223846793005ull + 1442695040888963407ull, state >> 33; };
  for (int i = 0; i < 60; ++i) {
    const int from = static_cast<int>(next() % 7), to = static_cast<int>(next() % 7);
    const int rank = 2 + static_cast<int>(next() % 3);
    std::vector<std::int64_t> shape;
    std::vector<int> perm;
    std::int64_t n = 1;
    for (int a = 0; a < rank; ++a) {
      shape.push_back(a + 1 == rank ? 20 + static_cast<std::int64_t>(next() % 300) : 1 + static_cast<std::int64_t>(next() % 9));
      n *= shape.back();
      perm.push_back(a);
    }
    for (int a = rank - 2; a > 0; --a) std::swap(perm[a], perm[next() % (a + 1)]);
    std::vector<unsigned char> in(static_cast<std::size_t>(n * bytes[from]));
    for (auto& b : in) b = static_cast<unsigned char>(next() & 0x3f);  // finite floats
    // Fused: the row engine converts each row.
    gentt::PermuteDesc d;
    d.dtype = types[from];
    d.out_dtype = types[to];
    d.shape = shape;
    d.perm = perm;
    const gentt::PermutePlan fused = gentt::plan_permute(d);
    INFO(d.dtype << " -> " << d.out_dtype << "\n" << fused.describe());
    std::vector<unsigned char> got(static_cast<std::size_t>(n * bytes[to]), 7);
    fused.execute(in.data(), got.data());
    // Separately: the whole tensor converted as one row, then permuted by the reference.
    gentt::PermuteDesc flat;
    flat.dtype = types[from];
    flat.out_dtype = types[to];
    flat.shape = {n};
    flat.perm = {0};
    std::vector<unsigned char> converted(got.size()), want(got.size());
    gentt::plan_permute(flat).execute(in.data(), converted.data());
    gentt::reference_permute(converted.data(), want.data(), static_cast<std::size_t>(bytes[to]), shape, perm);
    REQUIRE(got == want);
  }
}

TEST_CASE("convert: bool elements, as NumPy's bool (any nonzero byte is true)", "[convert]") {
  gentt::PermuteDesc d;
  d.dtype = "bool";
  d.out_dtype = "int32";
  d.shape = {2, 3};
  d.perm = {1, 0};
  const std::vector<std::uint8_t> in = {0, 1, 2, 0, 255, 0};
  std::vector<std::int32_t> out(6, -7);
  gentt::plan_permute(d).execute(in.data(), out.data());
  CHECK(out == std::vector<std::int32_t>{0, 0, 1, 1, 1, 0});
  d.out_dtype.clear();  // a plain move of 1-byte elements
  std::vector<std::uint8_t> moved(6);
  gentt::plan_permute(d).execute(in.data(), moved.data());
  CHECK(moved == std::vector<std::uint8_t>{0, 0, 1, 255, 2, 0});
  d.elem_bytes = 2;
  CHECK_THROWS_WITH(gentt::plan_permute(d), "elem_bytes: 2 disagrees with dtype bool (1 byte)");
}
