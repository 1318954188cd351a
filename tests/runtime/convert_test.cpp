// gentt/convert.h: element transforms against NumPy (a fixture made by NumPy), against exact
// references where one is easy (every float16 and bfloat16 bit pattern, float16 and bfloat16
// rounding ties), every instruction set of this CPU against the portable loops, and errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gentt/convert.h"
#include "gentt/error.h"
#include "runtime/row_kernels.h"

namespace {

using gentt::ElementType;
using gentt::RowTransform;
using gentt::ScalarKind;
using gentt::detail::KernelIsa;
using gentt::detail::RowMode;
using Bytes = std::vector<unsigned char>;

const char* isa_name(KernelIsa isa) {
  return isa == KernelIsa::avx512 ? "avx512" : isa == KernelIsa::avx2 ? "avx2" : "portable";
}

ElementType type_named(const std::string& name) {
  const std::optional<ElementType> type = gentt::element_type(name);
  REQUIRE(type.has_value());
  return *type;
}

const std::vector<std::string>& all_type_names() {
  static const std::vector<std::string> names = {
      "int8",    "uint8",    "int16",   "uint16",  "int32",     "uint32",     "int64", "uint64",
      "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "bool"};
  return names;
}

RowMode mode_of(std::complex<double> alpha, std::complex<double> beta) {
  return beta != 0.0 ? RowMode::accumulate : alpha != 1.0 ? RowMode::scaled : RowMode::plain;
}

// The transform of make_row_transform, but with the loop of a chosen instruction set.
RowTransform transform_on(KernelIsa isa, ElementType from, ElementType to,
                          std::complex<double> alpha = 1.0, std::complex<double> beta = 0.0) {
  RowTransform t = gentt::make_row_transform(from, to, alpha, beta);
  t.fn = gentt::detail::select_row_kernel(from.kind, to.kind, mode_of(alpha, beta), isa);
  REQUIRE(t.fn != nullptr);
  return t;
}

std::string hex(const unsigned char* bytes, int size) {
  std::ostringstream out;
  out << "0x" << std::hex;
  for (int b = size - 1; b >= 0; --b) out << ((bytes[b] >> 4) & 0xf) << (bytes[b] & 0xf);
  return out.str();
}

// How a scaled result may differ from NumPy's: not at all, except that
//   - which NaN an arithmetic operation returns depends on operand order, which compilers
//     (GCC vectorizing our loops, NumPy's own build) choose freely: any NaN matches a NaN;
//   - NumPy 1.24 multiplies complex128 with FMAs when the CPU has AVX-512F (its
//     avx512_cmul), so its result depends on the CPU; ours is the separately rounded textbook
//     formula on every CPU (NumPy's portable loop, and its complex64 loop on this machine).
//     The difference stays within a few ulps of the largest component.
enum class Compare { exact, scaled };

template <class T>
bool close_or_both_nan(const unsigned char* actual, const unsigned char* expected, int parts, double tolerance) {
  T a[2], e[2];
  std::memcpy(a, actual, sizeof(T) * static_cast<std::size_t>(parts));
  std::memcpy(e, expected, sizeof(T) * static_cast<std::size_t>(parts));
  double scale = 0;
  for (int p = 0; p < parts; ++p)
    if (std::isfinite(e[p])) scale = std::max(scale, std::fabs(static_cast<double>(e[p])));
  for (int p = 0; p < parts; ++p) {
    if (std::isnan(e[p]) || std::isnan(a[p])) {
      if (std::isnan(e[p]) != std::isnan(a[p])) return false;
    } else if (a[p] != e[p] && !(std::fabs(static_cast<double>(a[p]) - static_cast<double>(e[p])) <= tolerance * scale)) {
      return false;
    }
  }
  return true;
}

bool element_matches(ScalarKind kind, Compare compare, const unsigned char* actual,
                     const unsigned char* expected, int elem_bytes) {
  if (std::memcmp(actual, expected, static_cast<std::size_t>(elem_bytes)) == 0) return true;
  if (compare == Compare::exact) return false;
  switch (kind) {
    case ScalarKind::float16: {
      std::uint16_t a, e;
      std::memcpy(&a, actual, 2);
      std::memcpy(&e, expected, 2);
      return (a & 0x7fff) > 0x7c00 && (e & 0x7fff) > 0x7c00;
    }
    case ScalarKind::float32: return close_or_both_nan<float>(actual, expected, 1, 0);
    case ScalarKind::float64: return close_or_both_nan<double>(actual, expected, 1, 0);
    case ScalarKind::complex64: return close_or_both_nan<float>(actual, expected, 2, 0);
    case ScalarKind::complex128: return close_or_both_nan<double>(actual, expected, 2, 0x1p-50);
    default: return false;
  }
}

// Requires actual == expected element by element (see Compare); on failure names the first
// differing element.
void require_same_elements(const Bytes& actual, const Bytes& expected, int elem_bytes,
                           const Bytes& input, int in_bytes, ScalarKind kind = ScalarKind::uint8,
                           Compare compare = Compare::exact) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t e = 0; e * static_cast<std::size_t>(elem_bytes) < actual.size(); ++e) {
    const std::size_t at = e * static_cast<std::size_t>(elem_bytes);
    if (!element_matches(kind, compare, actual.data() + at, expected.data() + at, elem_bytes)) {
      FAIL_CHECK("element " << e << ": input " << hex(input.data() + e * static_cast<std::size_t>(in_bytes), in_bytes)
                      << " expected " << hex(expected.data() + at, elem_bytes) << " got "
                      << hex(actual.data() + at, elem_bytes));
      return;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The NumPy fixture (scripts/make_convert_fixtures.py)

struct FixtureCase {
  std::string from, to;
  int count = 0;
  std::complex<double> alpha, beta;
  Bytes input, initial, expected;
};

std::string field(const std::string& header, const std::string& key) {
  const std::size_t start = header.find(key + "=");
  REQUIRE(start != std::string::npos);
  const std::size_t value = start + key.size() + 1;
  return header.substr(value, header.find(' ', value) - value);
}

std::complex<double> complex_field(const std::string& header, const std::string& key) {
  const std::string value = field(header, key);
  const std::size_t comma = value.find(',');
  return {std::strtod(value.substr(0, comma).c_str(), nullptr),
          std::strtod(value.substr(comma + 1).c_str(), nullptr)};
}

std::vector<FixtureCase> read_fixture() {
  std::ifstream file(GENTT_SOURCE_DIR "/tests/runtime/convert_fixtures/convert_cases.bin", std::ios::binary);
  REQUIRE(file.good());
  std::string first;
  std::getline(file, first);
  REQUIRE(first.starts_with("gentt-convert-fixture v1 cases="));
  const int cases = std::stoi(field(first, "cases"));
  std::vector<FixtureCase> result;
  for (int c = 0; c < cases; ++c) {
    FixtureCase fc;
    std::string header;
    std::getline(file, header);
    fc.from = field(header, "from");
    fc.to = field(header, "to");
    fc.count = std::stoi(field(header, "count"));
    fc.alpha = complex_field(header, "alpha");
    fc.beta = complex_field(header, "beta");
    const auto read = [&](const std::string& type) {
      Bytes bytes(static_cast<std::size_t>(fc.count * type_named(type).bytes));
      file.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      REQUIRE(file.good());
      return bytes;
    };
    fc.input = read(fc.from);
    fc.initial = read(fc.to);
    fc.expected = read(fc.to);
    result.push_back(std::move(fc));
  }
  REQUIRE(file.peek() == std::char_traits<char>::eof());
  return result;
}

}  // namespace

TEST_CASE("conversions and scaling match NumPy bit for bit", "[convert][numpy]") {
  const std::vector<FixtureCase> cases = read_fixture();
  REQUIRE(cases.size() == 280);
  for (const KernelIsa isa : gentt::detail::available_kernel_isas()) {
    for (const FixtureCase& fc : cases) {
      INFO(isa_name(isa) << ": " << fc.from << " -> " << fc.to << " alpha " << fc.alpha.real() << ","
                         << fc.alpha.imag() << " beta " << fc.beta.real() << "," << fc.beta.imag());
      const ElementType from = type_named(fc.from);
      const ElementType to = type_named(fc.to);
      const RowTransform t = transform_on(isa, from, to, fc.alpha, fc.beta);
      const Compare compare = gentt::is_plain_move(to, to, fc.alpha, fc.beta) ? Compare::exact : Compare::scaled;
      // Whole row, then in pieces of 7 so that vector tails are exercised.
      Bytes out = fc.initial;
      t(fc.input.data(), out.data(), fc.count);
      require_same_elements(out, fc.expected, to.bytes, fc.input, from.bytes, to.kind, compare);
      out = fc.initial;
      for (int start = 0; start < fc.count; start += 7) {
        const int n = std::min(7, fc.count - start);
        t(fc.input.data() + start * from.bytes, out.data() + start * to.bytes, n);
      }
      require_same_elements(out, fc.expected, to.bytes, fc.input, from.bytes, to.kind, compare);
    }
  }
}

namespace {

// Runs t over inputs (raw bit patterns of t.from) and returns the output bits.
template <class Out, class In>
std::vector<Out> run(const RowTransform& t, const std::vector<In>& inputs) {
  std::vector<Out> out(inputs.size());
  t(inputs.data(), out.data(), static_cast<std::int64_t>(inputs.size()));
  return out;
}

std::vector<std::uint16_t> all_16_bit_patterns() {
  std::vector<std::uint16_t> bits(65536);
  for (std::uint32_t i = 0; i < 65536; ++i) bits[i] = static_cast<std::uint16_t>(i);
  return bits;
}

// float16 bits -> value, computed from the definition (exact in double).
double float16_value(std::uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const int fraction = h & 0x3ff;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0) return sign * std::ldexp(fraction, -24);
  return sign * std::ldexp(1024 + fraction, exponent - 25);
}

// The float16 nearest to x (ties to the even pattern), found by bisection over the 31744
// positive finite patterns in increasing order; x is finite. Overflow follows IEEE: from
// 65520 (halfway to the next binade) on the result is infinity.
std::uint16_t nearest_float16(double x) {
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(x);
  if (a >= 65520.0) return sign | 0x7c00;
  std::uint16_t lo = 0, hi = 0x7bff;  // invariant: value(lo) <= a
  if (a >= float16_value(hi)) {
    lo = hi;
  } else {
    while (hi - lo > 1) {
      const auto mid = static_cast<std::uint16_t>((lo + hi) / 2);
      (float16_value(mid) <= a ? lo : hi) = mid;
    }
  }
  if (lo == 0x7bff) return sign | lo;  // between max and 65520: rounds down
  const std::uint16_t up = static_cast<std::uint16_t>(lo + 1);
  const double below = a - float16_value(lo), above = float16_value(up) - a;
  const std::uint16_t nearest = below < above ? lo : above < below ? up : (lo & 1) ? up : lo;
  return sign | nearest;
}

// The bfloat16 nearest to a finite float (ties to even), from the two neighbours' values.
std::uint16_t nearest_bfloat16(float x) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
  const auto toward_zero = static_cast<std::uint16_t>(bits >> 16);
  const auto away = static_cast<std::uint16_t>(toward_zero + 1);
  const auto value = [](std::uint16_t b) {
    return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16));
  };
  const double a = std::fabs(static_cast<double>(x));
  // Past the largest finite bfloat16 the neighbour "away" is infinity; IEEE rounds to it from
  // max + half an ulp on, i.e. as if it were the next power of two.
  const double away_value = (away & 0x7fff) == 0x7f80 ? std::ldexp(1.0, 128) : std::fabs(value(away));
  const double below = a - std::fabs(value(toward_zero)), above = away_value - a;
  return below < above ? toward_zero : above < below ? away : (toward_zero & 1) ? away : toward_zero;
}

// float32 patterns covering every sign/exponent/high-mantissa combination with low bits
// chosen around the float16 (bit 13) and bfloat16 (bit 16) rounding points.
std::vector<std::uint32_t> float32_rounding_patterns() {
  const std::uint32_t low_bits[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x2000,
                                    0x3000, 0x7fff, 0x8000, 0x8001, 0xffff, 0x5a5a, 0xa5a5};
  std::vector<std::uint32_t> patterns;
  for (std::uint32_t high = 0; high < 65536; ++high)
    for (std::uint32_t low : low_bits) patterns.push_back(high << 16 | low);
  return patterns;
}

bool is_float32_nan(std::uint32_t bits) { return (bits & 0x7fffffffu) > 0x7f800000u; }

}  // namespace

TEST_CASE("every float16 pattern widens exactly and narrows back to itself", "[convert][float16]") {
  const std::vector<std::uint16_t> halves = all_16_bit_patterns();
  const ElementType f16 = type_named("float16"), f32 = type_named("float32"), f64 = type_named("float64");
  for (const KernelIsa isa : gentt::detail::available_kernel_isas()) {
    INFO(isa_name(isa));
    const auto floats = run<std::uint32_t>(transform_on(isa, f16, f32), halves);
    const auto doubles = run<std::uint64_t>(transform_on(isa, f16, f64), halves);
    const auto back = run<std::uint16_t>(transform_on(isa, f32, f16), floats);
    for (std::uint32_t h = 0; h < 65536; ++h) {
      INFO("float16 0x" << std::hex << h);
      const bool nan_or_inf = (h & 0x7c00) == 0x7c00;
      if (nan_or_inf) {  // payload moves up, nothing is quieted (NumPy)
        REQUIRE(floats[h] == ((h & 0x8000u) << 16 | 0x7f800000u | (h & 0x3ffu) << 13));
      } else {
        REQUIRE(std::bit_cast<float>(floats[h]) == static_cast<float>(float16_value(static_cast<std::uint16_t>(h))));
        REQUIRE(std::signbit(std::bit_cast<float>(floats[h])) == ((h & 0x8000) != 0));
        REQUIRE(doubles[h] == std::bit_cast<std::uint64_t>(static_cast<double>(std::bit_cast<float>(floats[h]))));
      }
      REQUIRE(back[h] == h);
    }
  }
}

TEST_CASE("float32 -> float16 rounds to nearest even and keeps NaNs as NumPy", "[convert][float16]") {
  const std::vector<std::uint32_t> patterns = float32_rounding_patterns();
  const ElementType f16 = type_named("float16"), f32 = type_named("float32"), f64 = type_named("float64");
  std::vector<std::uint64_t> widened(patterns.size());
  for (std::size_t i = 0; i < patterns.size(); ++i)
    widened[i] = std::bit_cast<std::uint64_t>(static_cast<double>(std::bit_cast<float>(patterns[i])));
  for (const KernelIsa isa : gentt::detail::available_kernel_isas()) {
    INFO(isa_name(isa));
    const auto halves = run<std::uint16_t>(transform_on(isa, f32, f16), patterns);
    // float64 -> float16 of the same (exactly widened) values must agree: one rounding either way.
    const auto from_doubles = run<std::uint16_t>(transform_on(isa, f64, f16), widened);
    for (std::size_t i = 0; i < patterns.size(); ++i) {
      const std::uint32_t bits = patterns[i];
      INFO("float32 0x" << std::hex << bits);
      std::uint16_t expected = 0;
      if (is_float32_nan(bits)) {
        const auto payload = static_cast<std::uint16_t>((bits >> 13) & 0x3ff);
        expected = static_cast<std::uint16_t>((bits >> 16 & 0x8000) | 0x7c00 | (payload == 0 ? 1 : payload));
      } else if ((bits & 0x7fffffff) == 0x7f800000) {
        expected = static_cast<std::uint16_t>((bits >> 16 & 0x8000) | 0x7c00);
      } else {
        expected = nearest_float16(std::bit_cast<float>(bits));
      }
      REQUIRE(halves[i] == expected);
      if (!is_float32_nan(bits)) REQUIRE(from_doubles[i] == expected);
    }
  }
}

TEST_CASE("float64 -> float16 rounds once (ties between float16 neighbours)", "[convert][float16]") {
  // For every pair of adjacent positive float16 values: the midpoint (a tie, to even), and the
  // doubles just beside it, which a detour through float32 would round to the midpoint.
  std::vector<double> values;
  for (std::uint16_t h = 0; h < 0x7bff; ++h) {
    const double mid = (float16_value(h) + float16_value(static_cast<std::uint16_t>(h + 1))) / 2;
    values.push_back(mid);
    values.push_back(std::nextafter(mid, 0.0));
    values.push_back(std::nextafter(mid, 1e9));
    values.push_back(-mid);
  }
  values.push_back(65520.0);
  values.push_back(std::nextafter(65520.0, 0.0));
  values.push_back(1e300);
  values.push_back(std::ldexp(1.0, -25));
  values.push_back(std::nextafter(std::ldexp(1.0, -25), 1.0));
  values.push_back(5e-324);
  for (const KernelIsa isa : gentt::detail::available_kernel_isas()) {
    INFO(isa_name(isa));
    const auto halves = run<std::uint16_t>(transform_on(isa, type_named("float64"), type_named("float16")), values);
    for (std::size_t i = 0; i < values.size(); ++i) {
      INFO("float64 " << values[i]);
      REQUIRE(halves[i] == nearest_float16(values[i]));
    }
  }
}

TEST_CASE("bfloat16 rounds to nearest even; NaN becomes 0x7fc0 with its sign", "[convert][bfloat16]") {
  const ElementType bf16 = type_named("bfloat16"), f32 = type_named("float32");
  const std::vector<std::uint32_t> patterns = float32_rounding_patterns();
  const std::vector<std::uint16_t> all = all_16_bit_patterns();
  for (const KernelIsa isa : gentt::detail::available_kernel_isas()) {
    INFO(isa_name(isa));
    const auto narrowed = run<std::uint16_t>(transform_on(isa, f32, bf16), patterns);
    for (std::size_t i = 0; i < patterns.size(); ++i) {
      const std::uint32_t bits = patterns[i];
      INFO("float32 0x" << std::hex << bits);
      if (is_float32_nan(bits)) REQUIRE(narrowed[i] == ((bits >> 16 & 0x8000) | 0x7fc0));
      else if ((bits & 0x7fffffff) == 0x7f800000) REQUIRE(narrowed[i] == bits >> 16);
      else REQUIRE(narrowed[i] == nearest_bfloat16(std::bit_cast<float>(bits)));
    }
    // Widening is exact, NaN payloads included.
    const auto widened = run<std::uint32_t>(transform_on(isa, bf16, f32), all);
    for (std::uint32_t b = 0; b < 65536; ++b) REQUIRE(widened[b] == b << 16);
  }
  // PyTorch's reference values (c10::BFloat16 round_to_nearest_even).
  const std::vector<float> samples = {1.0f, 1.00390625f /* tie, to even */, 1.01171875f /* tie, up */,
                                      3.14159265f, -0.0f, 65504.0f, 3.4e38f};
  const std::vector<std::uint16_t> expected = {0x3f80, 0x3f80, 0x3f82, 0x4049, 0x8000, 0x4780, 0x7f80};
  REQUIRE(run<std::uint16_t>(gentt::make_row_transform(f32, bf16, 1.0, 0.0), samples) == expected);
}

TEST_CASE("bfloat16 converts to and from other types through float32", "[convert][bfloat16]") {
  const ElementType bf16 = type_named("bfloat16"), f32 = type_named("float32");
  const std::vector<std::uint16_t> all = all_16_bit_patterns();
  const auto as_float = run<std::uint32_t>(gentt::make_row_transform(bf16, f32, 1.0, 0.0), all);
  for (const std::string& name : all_type_names()) {
    if (name == "bfloat16" || name == "float32") continue;
    INFO("bfloat16 <-> " << name);
    const ElementType other = type_named(name);
    const auto size = static_cast<std::size_t>(65536 * other.bytes);
    Bytes direct(size), via_float(size);
    gentt::make_row_transform(bf16, other, 1.0, 0.0)(all.data(), direct.data(), 65536);
    gentt::make_row_transform(f32, other, 1.0, 0.0)(as_float.data(), via_float.data(), 65536);
    REQUIRE(direct == via_float);
    // Back: other -> bfloat16 equals other -> float32 -> bfloat16 (for NaN-free other values).
    Bytes back_direct(65536 * 2), back_via(65536 * 2), floats(65536 * 4);
    gentt::make_row_transform(other, bf16, 1.0, 0.0)(direct.data(), back_direct.data(), 65536);
    gentt::make_row_transform(other, f32, 1.0, 0.0)(direct.data(), floats.data(), 65536);
    gentt::make_row_transform(f32, bf16, 1.0, 0.0)(floats.data(), back_via.data(), 65536);
    REQUIRE(back_direct == back_via);
  }
}

TEST_CASE("bfloat16 scaling rounds every operation to bfloat16", "[convert][bfloat16]") {
  const ElementType bf16 = type_named("bfloat16"), f32 = type_named("float32");
  const std::vector<float> x = {1.0f, -3.5f, 1000.25f, 7.0e-3f, 250.0f};
  std::vector<std::uint16_t> out = {0x4000, 0x3f80, 0xc2c8, 0x0000, 0x7fc0};  // 2, 1, -100, 0, NaN
  const std::vector<std::uint16_t> initial = out;
  const double alpha = 0.3, beta = -2.5;
  gentt::make_row_transform(f32, bf16, alpha, beta)(x.data(), out.data(), 5);
  const auto round = [](float v) {  // nearest even, finite values only
    const std::uint32_t b = std::bit_cast<std::uint32_t>(v);
    return static_cast<std::uint16_t>((b + 0x7fff + (b >> 16 & 1)) >> 16);
  };
  const auto value = [](std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); };
  const float a = value(round(static_cast<float>(alpha))), b = value(round(static_cast<float>(beta)));
  for (std::size_t i = 0; i < 4; ++i) {
    const float product = value(round(a * value(round(x[i]))));
    const float scaled_out = value(round(b * value(initial[i])));
    REQUIRE(out[i] == round(product + scaled_out));
  }
  REQUIRE((out[4] & 0x7fff) > 0x7f80);  // NaN in out propagates when beta != 0
}

TEST_CASE("integer and bool sources convert exactly over their whole range", "[convert]") {
  std::vector<std::uint8_t> bytes(256);
  for (int i = 0; i < 256; ++i) bytes[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
  std::vector<std::uint16_t> shorts = all_16_bit_patterns();
  for (const KernelIsa isa : gentt::detail::available_kernel_isas()) {
    INFO(isa_name(isa));
    const auto u8 = run<float>(transform_on(isa, type_named("uint8"), type_named("float32")), bytes);
    const auto i8 = run<double>(transform_on(isa, type_named("int8"), type_named("float64")), bytes);
    const auto u16 = run<float>(transform_on(isa, type_named("uint16"), type_named("float32")), shorts);
    const auto i16 = run<float>(transform_on(isa, type_named("int16"), type_named("float32")), shorts);
    for (int i = 0; i < 256; ++i) {
      REQUIRE(u8[static_cast<std::size_t>(i)] == static_cast<float>(i));
      REQUIRE(i8[static_cast<std::size_t>(i)] == static_cast<double>(static_cast<std::int8_t>(i)));
    }
    for (std::uint32_t i = 0; i < 65536; ++i) {
      REQUIRE(u16[i] == static_cast<float>(i));
      REQUIRE(i16[i] == static_cast<float>(static_cast<std::int16_t>(i)));
    }
  }
  // bool sources: any nonzero byte is true.
  const auto ints = run<std::int32_t>(gentt::make_row_transform(type_named("bool"), type_named("int32"), 1.0, 0.0), bytes);
  for (int i = 0; i < 256; ++i) REQUIRE(ints[static_cast<std::size_t>(i)] == (i != 0 ? 1 : 0));
}

TEST_CASE("every instruction set agrees with the portable loops on random bits", "[convert]") {
  std::mt19937_64 rng(20240917);
  constexpr std::int64_t kCount = 1000;
  const std::vector<KernelIsa> isas = gentt::detail::available_kernel_isas();
  const std::vector<std::pair<std::complex<double>, std::complex<double>>> scalars = {
      {1.0, 0.0}, {0.75, 0.0}, {-1.5, 0.25}, {{0.5, -2.0}, {1.0, 3.0}}};
  for (const std::string& from_name : all_type_names()) {
    for (const std::string& to_name : all_type_names()) {
      const ElementType from = type_named(from_name), to = type_named(to_name);
      Bytes input(static_cast<std::size_t>(kCount * from.bytes)), initial(static_cast<std::size_t>(kCount * to.bytes));
      for (auto& b : input) b = static_cast<unsigned char>(rng());
      for (auto& b : initial) b = static_cast<unsigned char>(rng());
      for (const auto& [alpha, beta] : scalars) {
        const bool complex_target = to.kind == ScalarKind::complex64 || to.kind == ScalarKind::complex128;
        const bool scalable = complex_target || to_name.starts_with("float") || to_name == "bfloat16";
        if ((alpha != 1.0 || beta != 0.0) && !scalable) continue;
        if ((alpha.imag() != 0 || beta.imag() != 0) && !complex_target) continue;
        INFO(from_name << " -> " << to_name << " alpha " << alpha << " beta " << beta);
        Bytes expected = initial;
        transform_on(KernelIsa::portable, from, to, alpha, beta)(input.data(), expected.data(), kCount);
        for (const KernelIsa isa : isas) {
          INFO(isa_name(isa));
          const RowTransform t = transform_on(isa, from, to, alpha, beta);
          Bytes out = initial;
          // Odd lengths at odd offsets: heads and tails of every vector loop.
          std::int64_t start = 0;
          for (std::int64_t n = 0; start < kCount; ++n) {
            const std::int64_t take = std::min(n, kCount - start);
            t(input.data() + start * from.bytes, out.data() + start * to.bytes, take);
            start += take;
          }
          // Arithmetic may return either operand's NaN (see Compare), so compare as scaled.
          const Compare compare = alpha == 1.0 && beta == 0.0 ? Compare::exact : Compare::scaled;
          require_same_elements(out, expected, to.bytes, input, from.bytes, to.kind, compare);
        }
      }
    }
  }
}

TEST_CASE("beta == 0 never reads out", "[convert]") {
  const std::vector<float> x = {1.0f, -2.0f, 0.0f, 3.0f};
  for (const char* to_name : {"float16", "bfloat16", "float32", "float64", "complex64", "complex128"}) {
    INFO(to_name);
    const ElementType to = type_named(to_name);
    Bytes out(static_cast<std::size_t>(4 * to.bytes), 0xff);  // NaN in every float type
    gentt::make_row_transform(type_named("float32"), to, 2.0, 0.0)(x.data(), out.data(), 4);
    Bytes as_float(16);
    gentt::make_row_transform(to, type_named("float32"), 1.0, 0.0)(out.data(), as_float.data(), 4);
    std::vector<float> values(4);
    std::memcpy(values.data(), as_float.data(), 16);
    REQUIRE(values == std::vector<float>{2.0f, -4.0f, 0.0f, 6.0f});
  }
}

TEST_CASE("element types by name", "[convert]") {
  for (const std::string& name : all_type_names()) {
    const ElementType type = type_named(name);
    CHECK(type.name == name);
  }
  CHECK(type_named("bool").bytes == 1);
  CHECK(type_named("bfloat16").bytes == 2);
  CHECK(type_named("complex128").bytes == 16);
  CHECK(type_named("complex128").kind == ScalarKind::complex128);
  CHECK_FALSE(gentt::element_type("bytes4").has_value());
  CHECK_FALSE(gentt::element_type("float").has_value());
  CHECK_FALSE(gentt::element_type("").has_value());

  const ElementType f32 = type_named("float32");
  CHECK(gentt::is_plain_move(f32, f32));
  CHECK(gentt::is_plain_move(f32, f32, 1.0, 0.0));
  CHECK_FALSE(gentt::is_plain_move(f32, type_named("int32")));
  CHECK_FALSE(gentt::is_plain_move(f32, f32, 2.0, 0.0));
  CHECK_FALSE(gentt::is_plain_move(f32, f32, 1.0, 1.0));
  CHECK_FALSE(gentt::is_plain_move(f32, f32, {1.0, 1.0}, 0.0));
}

// The AVX2 row kernels need F16C too. The library asks CPUID for it (Clang 14's
// __builtin_cpu_supports does not know "f16c"); the kernel's own flags line must agree.
TEST_CASE("the AVX2 row kernels are offered exactly on CPUs with AVX2 and F16C", "[convert]") {
#if defined(__x86_64__) && defined(__linux__)
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line) && !line.starts_with("flags")) {
  }
  REQUIRE(line.starts_with("flags"));
  const auto has = [&](const std::string& flag) { return (line + " ").find(" " + flag + " ") != std::string::npos; };
  const std::vector<KernelIsa> isas = gentt::detail::available_kernel_isas();
  const bool offered = std::find(isas.begin(), isas.end(), KernelIsa::avx2) != isas.end();
  INFO("avx2 " << has("avx2") << ", f16c " << has("f16c"));
  CHECK(offered == (has("avx2") && has("f16c")));
#else
  SUCCEED("not x86-64 Linux: no AVX2 row kernels");
#endif
}

TEST_CASE("a plain transform with n == 0 touches nothing", "[convert]") {
  const RowTransform t = gentt::make_row_transform(type_named("float32"), type_named("float16"));
  t(nullptr, nullptr, 0);
  SUCCEED();
}

TEST_CASE("unsupported scaling throws gentt::Error naming the argument", "[convert][errors]") {
  struct Bad {
    const char* from;
    const char* to;
    std::complex<double> alpha, beta;
    const char* argument;
    const char* message;
  };
  const std::vector<Bad> cases = {
      {"float32", "float32", {1.0, 0.5}, 0.0, "alpha",
       "alpha: has an imaginary part but out_dtype float32 is not complex"},
      {"complex64", "float64", 1.0, {0.0, -1.0}, "beta",
       "beta: has an imaginary part but out_dtype float64 is not complex"},
      {"int32", "int32", 2.0, 0.0, "alpha",
       "alpha: scaling needs a float or complex out_dtype, got int32 (alpha must be 1)"},
      {"float32", "uint8", 1.0, 1.0, "beta",
       "beta: scaling needs a float or complex out_dtype, got uint8 (beta must be 0)"},
      {"float32", "bool", 0.0, 0.0, "alpha",
       "alpha: scaling needs a float or complex out_dtype, got bool (alpha must be 1)"},
      {"float32", "int64", {1.0, 2.0}, 0.0, "alpha",
       "alpha: has an imaginary part but out_dtype int64 is not complex"},
  };
  for (const Bad& bad : cases) {
    INFO(bad.message);
    try {
      gentt::make_row_transform(type_named(bad.from), type_named(bad.to), bad.alpha, bad.beta);
      FAIL("no gentt::Error");
    } catch (const gentt::Error& e) {
      CHECK(e.argument() == bad.argument);
      CHECK(std::string(e.what()) == bad.message);
    }
  }
  // Complex scalars are fine for complex targets, real ones for every float target.
  CHECK_NOTHROW(gentt::make_row_transform(type_named("int8"), type_named("complex64"), {0.0, 1.0}, {2.0, -1.0}));
  CHECK_NOTHROW(gentt::make_row_transform(type_named("int8"), type_named("float16"), 0.5, 2.0));
}

TEST_CASE("every float32 pattern converts to float16 like the portable code", "[.exhaustive][convert][float16]") {
  // Hidden (run with "[.exhaustive]"): 2^32 patterns, a few seconds per instruction set.
  const ElementType f16 = type_named("float16"), f32 = type_named("float32"), bf16 = type_named("bfloat16");
  constexpr std::int64_t kBlock = 1 << 20;
  std::vector<std::uint32_t> in(kBlock);
  std::vector<std::uint16_t> expected(kBlock), actual(kBlock);
  for (const KernelIsa isa : gentt::detail::available_kernel_isas()) {
    if (isa == KernelIsa::portable) continue;
    for (const ElementType& to : {f16, bf16}) {
      const RowTransform reference = transform_on(KernelIsa::portable, f32, to);
      const RowTransform t = transform_on(isa, f32, to);
      for (std::uint64_t base = 0; base < (std::uint64_t{1} << 32); base += kBlock) {
        for (std::int64_t i = 0; i < kBlock; ++i) in[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(base + static_cast<std::uint64_t>(i));
        reference(in.data(), expected.data(), kBlock);
        t(in.data(), actual.data(), kBlock);
        if (expected != actual) FAIL(isa_name(isa) << " differs in block 0x" << std::hex << base);
      }
    }
  }
}
