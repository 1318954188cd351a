// Tests of the NEON and SVE backends' emitted text (backends/neon.h, backends/sve.h). Whether
// the kernels are right is checked by running them: tests/e2e/arm.cmake cross-compiles them and
// runs them under qemu-aarch64 against the reference.
#include <catch2/catch.hpp>

#include "backends/backend.h"
#include "tests/backends/unit.h"

using namespace gentt;
using Catch::Matchers::Contains;

namespace {

std::string emit(const KernelUnit& unit) { return emit_file({unit}, "x"); }

// The kernel's section of an emitted file (without banner and prelude).
std::string kernel_text(const KernelUnit& unit) {
  const std::string text = emit(unit);
  return text.substr(text.find("// ---- kernel"));
}

}  // namespace

TEST_CASE("neon: butterflies as trn/zip, tails without masks", "[arm]") {
  const std::string t = emit(test::make_unit("t", Dtype{"float32", 4}, {4, 4}, {1, 0}, Isa::neon, 128));
  CHECK_THAT(t, Contains("#include <arm_neon.h>") && Contains("gentt_neon::trn1<4>(v0, v1)") &&
                    Contains("gentt_neon::zip1<8>(v4, v6)") && Contains("gentt_neon::store<16>(out + 0, v8);"));
  // 3 x 5 bytes: registers of 4 x 3 bytes move exactly 12 bytes, tails fewer.
  const std::string odd = kernel_text(test::make_unit("odd", Dtype{"bytes3", 3}, {5, 7}, {1, 0}, Isa::neon, 128));
  CHECK_THAT(odd, Contains("gentt_neon::load<12>(in + ") && Contains("gentt_neon::store<12>(out + ") &&
                      Contains("kIndex0[16] = {"));
  CHECK_THAT(odd, !Contains("vld1q_u8(in") && !Contains("load<16>"));
  // Elements wider than the register move with memcpy.
  const std::string wide = kernel_text(test::make_unit("wide", Dtype{"bytes24", 24}, {3, 2}, {1, 0}, Isa::neon, 128));
  CHECK_THAT(wide, Contains("std::memcpy(v0, in + ") && !Contains("uint8x16_t v"));
  CHECK(emit(test::make_unit("d", Dtype{"int16", 2}, {9, 10, 11}, {1, 2, 0}, Isa::neon, 128)) ==
        emit(test::make_unit("d", Dtype{"int16", 2}, {9, 10, 11}, {1, 2, 0}, Isa::neon, 128)));
}

TEST_CASE("sve: fixed length, predicated tails, entry check", "[arm]") {
  const std::string t = emit(test::make_unit("k", Dtype{"float32", 4}, {19, 21}, {1, 0}, Isa::sve, 256));
  CHECK_THAT(t, Contains("#include <arm_sve.h>") && Contains("arm_sve_vector_bits(__ARM_FEATURE_SVE_BITS)"));
  CHECK_THAT(t, Contains("static_assert(__ARM_FEATURE_SVE_BITS == 256, \"kernel k was generated for 256-bit SVE"));
  CHECK_THAT(t, Contains("extern \"C\" void k(const void* in, void* out) {\n"
                         "  gentt_sve::check_vector_length(\"k\");\n"));
  CHECK_THAT(t, Contains("extern \"C\" void k_part(const void* in, void* out, int part, int nparts) {\n"
                         "  gentt_sve::check_vector_length(\"k\");\n"));
  CHECK_THAT(t, Contains("const gentt_sve::u32 v0 = gentt_sve::load<std::uint32_t>(in + 0, ") &&
                    Contains("gentt_sve::store<std::uint32_t>(out + "));
  CHECK_THAT(t, !Contains("#error \"gentt isa sve2"));
  CHECK_THAT(t, Contains("//   compile with -march=armv8.2-a+sve -msve-vector-bits=256; runs only where the SVE "
                         "vector length is 256 bits"));
}

TEST_CASE("sve: two-source shuffles per form", "[arm]") {
  // A 3-byte element needs byte tables; at 2048 bits concat(a, b) has 512 bytes.
  const auto shuffles = [](Isa isa, int bits) {
    return kernel_text(test::make_unit("s", Dtype{"bytes3", 3}, {40, 37}, {1, 0}, isa, bits));
  };
  CHECK_THAT(shuffles(Isa::sve, 512), Contains("gentt_sve::shuffle2<std::uint8_t>(") && !Contains("shuffle2_sve2"));
  CHECK_THAT(shuffles(Isa::sve2, 512), Contains("gentt_sve::shuffle2_sve2<std::uint8_t>("));
  CHECK_THAT(emit(test::make_unit("s", Dtype{"bytes3", 3}, {4, 5}, {1, 0}, Isa::sve2, 512)),
             Contains("#error \"gentt isa sve2 kernels use SVE2"));
  CHECK_THAT(shuffles(Isa::sve, 2048), Contains("gentt_sve::shuffle2_select<std::uint8_t>(") &&
                                           !Contains("gentt_sve::shuffle2<std::uint8_t>("));
}
