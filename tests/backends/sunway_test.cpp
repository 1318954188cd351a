// Tests of the Sunway backend's emitted text (backends/sunway.h): which chip and path each
// element size takes, the banner notes, tails, and that every emitted simd_vshfw control
// decodes (by the emulation header's own simd_vshfw) to the selectors its comment states.
// Running the kernels is the end-to-end suite's job (tests/e2e, e2e_sunway512/256_test).
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <regex>
#include <sstream>

#include "backends/backend.h"
#include "runtime/include/gentt/sunway_emu.h"
#include "tests/backends/unit.h"

using namespace gentt;
using Catch::Matchers::Contains;

namespace {

std::string emit(const std::string& dtype, int64_t bytes, std::vector<int64_t> shape, std::vector<int> perm,
                 int vector_bits) {
  const auto unit = test::make_unit("k", Dtype{dtype, bytes}, std::move(shape), std::move(perm), Isa::sunway,
                                    vector_bits);
  return emit_file({unit}, "x");
}

}  // namespace

TEST_CASE("sunway files include simd.h on Sunway and the emulation header elsewhere", "[sunway]") {
  const std::string text = emit("float32", 4, {16, 16}, {1, 0}, 512);
  CHECK_THAT(text, Contains("#if defined(__sw_64__) || defined(__sw_slave__)\n#include <simd.h>\n#else\n"
                            "#include <gentt/sunway_emu.h>\n#endif"));
  CHECK(text == emit("float32", 4, {16, 16}, {1, 0}, 512));  // deterministic
}

TEST_CASE("SW26010-Pro moves word-multiple elements with simd_vshfw", "[sunway]") {
  for (int64_t bytes : {4, 8, 12, 16}) {
    INFO("bytes " << bytes);
    const std::string text = emit("bytes" + std::to_string(bytes), bytes, {16, 9, 5}, {2, 0, 1}, 512);
    CHECK_THAT(text, Contains(fmt::format("//   SW26010-Pro (intv16, simd_vshfw): {}-byte elements as {} 32-bit lane",
                                          bytes, bytes / 4)));
    CHECK_THAT(text, Contains("= simd_vshfw(v") && !Contains("gentt_scalar::shuffle"));
  }
}

TEST_CASE("full registers load and store directly, unaligned", "[sunway]") {
  for (int bits : {512, 256}) {
    const std::string text = emit("float64", 8, {16, 16}, {1, 0}, bits);
    const std::string view = bits == 512 ? "gentt_sw_words" : "gentt_sw_lanes";
    CHECK_THAT(text, Contains("simd_loadu(v0, " + view + "(in + 0));"));
    CHECK_THAT(text, Contains("simd_storeu(v") && Contains(", " + view + "(out + "));
    CHECK_THAT(text, !Contains("(no masked loads on Sunway)"));
  }
}

TEST_CASE("SW26010 moves 8-byte-multiple elements with simd_vshff", "[sunway]") {
  for (int64_t bytes : {8, 16}) {
    INFO("bytes " << bytes);
    const std::string text = emit("bytes" + std::to_string(bytes), bytes, {8, 8, 3}, {1, 2, 0}, 256);
    CHECK_THAT(text, Contains("//   SW26010 (doublev4, simd_vshff)"));
    CHECK_THAT(text, Contains("= simd_vshff(v") && Contains("doublev4 v"));
    CHECK_THAT(text, !Contains("intv16 v") && !Contains("= simd_vshfw("));
  }
}

TEST_CASE("sub-word elements fall back to scalar code, documented in the banner", "[sunway]") {
  const std::vector<std::pair<int64_t, int>> cases = {{1, 512}, {2, 512}, {3, 512}, {6, 512},
                                                      {4, 256}, {2, 256}, {12, 256}};
  for (const auto& [bytes, bits] : cases) {
    INFO("bytes " << bytes << " vector_bits " << bits);
    const std::string text = emit("bytes" + std::to_string(bytes), bytes, {8, 8, 3}, {1, 2, 0}, bits);
    CHECK_THAT(text, Contains("sub-word elements are moved with scalar code on Sunway"));
    CHECK_THAT(text, Contains("gentt_scalar::shuffle") && !Contains("= simd_vsh"));
  }
}

TEST_CASE("elements wider than a register move with memcpy", "[sunway]") {
  const std::string text = emit("bytes72", 72, {3, 4}, {1, 0}, 512);
  CHECK_THAT(text, Contains("72-byte elements are wider than the 64-byte register: moved with memcpy"));
}

TEST_CASE("partial registers go through zeroed stack buffers", "[sunway]") {
  // 5 x 7 float32 transpose: no full 64-byte register anywhere.
  const std::string text = emit("float32", 4, {5, 7}, {1, 0}, 512);
  CHECK_THAT(text, Contains("= {};  // v") && Contains("(no masked loads on Sunway)"));
  CHECK_THAT(text, Contains("(no masked stores on Sunway)"));
  CHECK_THAT(text, Contains("simd_load(v") && Contains("simd_store(v") && Contains("std::memcpy(out + "));
}

TEST_CASE("every emitted vshfw control decodes to the selectors its comment states", "[sunway]") {
  // A few kernels with different step structures.
  std::string text = emit("float32", 4, {16, 16}, {1, 0}, 512) + emit("float64", 8, {4, 8, 2}, {2, 1, 0}, 512) +
                     emit("bytes12", 12, {4, 4, 3}, {1, 0, 2}, 512) + emit("float32", 4, {3, 5, 7}, {2, 0, 1}, 512);
  const std::regex control(
      R"(// control \d+: word selectors ([0-9_ ]+) \(5 bits each[^\n]*\n\s*alignas\(64\) static const unsigned )"
      R"(kControl\d+\[16\] = \{0x([0-9a-f]{8})u, 0x([0-9a-f]{8})u, 0x([0-9a-f]{8})u\};)");
  intv16 a, b;
  for (int i = 0; i < 16; ++i) {
    a.w[i] = i;
    b.w[i] = 16 + i;
  }
  int checked = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), control); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    intv16 ctl{};
    for (int w = 0; w < 3; ++w) ctl.w[w] = static_cast<std::int32_t>(std::stoul(m[2 + w].str(), nullptr, 16));
    const intv16 r = simd_vshfw(a, b, ctl);
    std::istringstream selectors(m[1].str());
    std::string sel;
    for (int i = 0; selectors >> sel; ++i) {
      INFO("control " << m[0].str() << " word " << i);
      REQUIRE(i < 16);
      CHECK(r.w[i] == (sel == "_" ? 0 : std::stoi(sel)));
    }
    ++checked;
  }
  CHECK(checked >= 4);
}
