// Argument validation: every invalid argument throws gentt::Error naming it, and
// reference_permute then leaves dst untouched.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "gentt/arguments.h"
#include "gentt/error.h"
#include "gentt/reference.h"

namespace {

using Shape = std::vector<std::int64_t>;
using Perm = std::vector<int>;

constexpr unsigned char kUntouched = 0xA5;

struct BadCall {
  const char* what;  // the case, for failure messages
  std::size_t elem_size;
  Shape shape;
  Perm perm;
  std::string argument;  // expected gentt::Error::argument()
  std::string message;   // expected what(), or its prefix when the test says so
};

// Calls reference_permute with a dst holding kUntouched, requires a gentt::Error, checks that
// dst was not written and returns the error.
gentt::Error call_expecting_error(const void* src, void* dst, std::size_t dst_bytes,
                                  std::size_t elem_size, const Shape& shape, const Perm& perm) {
  std::optional<gentt::Error> error;
  try {
    gentt::reference_permute(src, dst, elem_size, shape, perm);
  } catch (const gentt::Error& e) {
    error = e;
  }
  REQUIRE(error.has_value());
  const auto* bytes = static_cast<const unsigned char*>(dst);
  std::size_t written = 0;
  for (std::size_t b = 0; b < dst_bytes; ++b) written += bytes[b] != kUntouched;
  INFO(error->what());
  CHECK(written == 0);
  return *error;
}

}  // namespace

TEST_CASE("invalid arguments throw gentt::Error naming the argument", "[reference][errors]") {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  const std::vector<BadCall> cases = {
      {"zero element size", 0, {2, 3}, {1, 0}, "elem_size", "elem_size: must be >= 1"},
      {"perm too short", 4, {2, 3, 4, 5}, {2, 1, 0}, "perm",
       "perm: has 3 entries but shape has 4 axes"},
      {"perm too long", 4, {2, 3}, {0, 1, 2}, "perm", "perm: has 3 entries but shape has 2 axes"},
      {"perm for a scalar", 4, {}, {0}, "perm", "perm: has 1 entry but shape has 0 axes"},
      {"repeated axis", 4, {2, 3, 4, 5}, {3, 0, 3, 1}, "perm", "perm: axis 3 appears twice"},
      {"axis out of range", 4, {2, 3, 4}, {0, 7, 1}, "perm[1]",
       "perm[1]: axis 7 is out of range for 3 axes"},
      {"negative axis", 4, {2, 3}, {-1, 0}, "perm[0]", "perm[0]: axis -1 is out of range for 2 axes"},
      {"zero extent", 4, {2, 3, 0, 5}, {0, 1, 2, 3}, "shape[2]", "shape[2]: extent must be >= 1, got 0"},
      {"negative extent", 4, {-2, 3}, {1, 0}, "shape[0]", "shape[0]: extent must be >= 1, got -2"},
      {"element count overflows", 1, {kMax, 2}, {1, 0}, "shape",
       "shape: element count * elem_size overflows 64 bits"},
      {"bytes overflow", 8, {kMax / 4}, {0}, "shape",
       "shape: element count * elem_size overflows 64 bits"},
      {"huge element", std::numeric_limits<std::size_t>::max(), {1}, {0}, "shape",
       "shape: element count * elem_size overflows 64 bits"},
  };
  const std::vector<unsigned char> src(4096, 0x11);
  for (const BadCall& bad : cases) {
    DYNAMIC_SECTION(bad.what) {
      std::vector<unsigned char> dst(4096, kUntouched);
      const gentt::Error error = call_expecting_error(src.data(), dst.data(), dst.size(),
                                                      bad.elem_size, bad.shape, bad.perm);
      CHECK(error.argument() == bad.argument);
      CHECK(std::string(error.what()) == bad.message);
    }
  }
}

TEST_CASE("the first invalid argument is reported", "[reference][errors]") {
  // Checks run in a fixed order (elem_size, axis count, extents, axes, size), so a call with
  // several mistakes gets a predictable message.
  const std::vector<unsigned char> src(64, 0);
  std::vector<unsigned char> dst(64, kUntouched);
  CHECK(call_expecting_error(src.data(), dst.data(), dst.size(), 0, {0, 3}, {0, 0}).argument() ==
        "elem_size");
  CHECK(call_expecting_error(src.data(), dst.data(), dst.size(), 4, {0, 3}, {0, 0}).argument() ==
        "shape[0]");
  CHECK(call_expecting_error(src.data(), dst.data(), dst.size(), 4, {0, 3}, {0}).argument() ==
        "perm");
}

TEST_CASE("null and overlapping buffers are rejected", "[reference][errors]") {
  std::vector<unsigned char> buffer(64, kUntouched);
  const Shape shape{2, 3};
  const Perm perm{1, 0};
  SECTION("null src") {
    const auto error = call_expecting_error(nullptr, buffer.data(), buffer.size(), 4, shape, perm);
    CHECK(std::string(error.what()) == "src: must not be null");
  }
  SECTION("null dst") {
    CHECK_THROWS_WITH(gentt::reference_permute(buffer.data(), nullptr, 4, shape, perm),
                      "dst: must not be null");
  }
  SECTION("dst overlaps src") {
    // 24 bytes each: [0, 24) and [20, 44) share four bytes.
    CHECK_THROWS_WITH(gentt::reference_permute(buffer.data(), buffer.data() + 20, 4, shape, perm),
                      "dst: overlaps src");
    CHECK_THROWS_WITH(gentt::reference_permute(buffer.data() + 20, buffer.data(), 4, shape, perm),
                      "dst: overlaps src");
    CHECK_THROWS_WITH(gentt::reference_permute(buffer.data(), buffer.data(), 4, shape, perm),
                      "dst: overlaps src");
    for (const unsigned char byte : buffer) REQUIRE(byte == kUntouched);
  }
  SECTION("adjacent buffers do not overlap") {
    CHECK_NOTHROW(gentt::reference_permute(buffer.data(), buffer.data() + 24, 4, shape, perm));
  }
}

TEST_CASE("check_permute_arguments returns the tensor's size in bytes", "[errors]") {
  CHECK(gentt::check_permute_arguments(4, Shape{2, 3, 5}, Perm{2, 0, 1}) == 120);
  CHECK(gentt::check_permute_arguments(3, Shape{}, Perm{}) == 3);
  CHECK(gentt::check_permute_arguments(1, Shape{std::int64_t{1} << 62, 1}, Perm{1, 0}) ==
        std::int64_t{1} << 62);
}

TEST_CASE("permuted_shape rejects an invalid perm", "[reference][errors]") {
  CHECK_THROWS_WITH(gentt::permuted_shape(Shape{2, 3}, Perm{0}),
                    "perm: has 1 entry but shape has 2 axes");
  CHECK_THROWS_WITH(gentt::permuted_shape(Shape{2}, Perm{}),
                    "perm: has 0 entries but shape has 1 axis");
  CHECK_THROWS_WITH(gentt::permuted_shape(Shape{2, 3}, Perm{1, 1}), "perm: axis 1 appears twice");
  CHECK_THROWS_AS(gentt::permuted_shape(Shape{2, 3}, Perm{2, 0}), gentt::Error);
}

TEST_CASE("gentt::Error is a std::invalid_argument", "[errors]") {
  CHECK_THROWS_AS(gentt::permuted_shape(Shape{2}, Perm{1}), std::invalid_argument);
}
