// Tests of generator/field_parsers.cpp and generator/suggest.cpp.
#include "generator/field_parsers.h"

#include <catch2/catch.hpp>

#include "generator/suggest.h"
#include "ir/error.h"

namespace gentt {
namespace {

TEST_CASE("is_identifier", "[field_parsers]") {
  for (const char* ok :
       {"a", "_", "_x1", "Kernel_9", "gentt_float32_s4_p0_scalar", "int8", "integer", "classic"})
    CHECK(is_identifier(ok));
  for (const char* bad : {"", "1a", "a-b", "a b", "a.b", "é", "int", "class", "void", "_Bool",
                          "and", "co_await", "restrict"})
    CHECK_FALSE(is_identifier(bad));
}

TEST_CASE("check_kernel_name explains what is wrong", "[field_parsers]") {
  CHECK_NOTHROW(check_kernel_name("k", "--name"));
  CHECK_THROWS_WITH(check_kernel_name("9k", "--name"),
                    "--name: \"9k\" is not a C identifier (letters, digits and underscores, not "
                    "starting with a digit)");
  CHECK_THROWS_WITH(check_kernel_name("float", "/name"),
                    "/name: \"float\" is a C/C++ keyword and cannot name a kernel");
}

TEST_CASE("parse_isa_field and parse_dtype_field", "[field_parsers]") {
  CHECK(parse_isa_field("neon", "f") == Isa::neon);
  CHECK(parse_dtype_field("bytes12", "f").bytes == 12);
  CHECK_THROWS_WITH(parse_isa_field("avx", "--isa"),
                    "--isa: unknown isa \"avx\" (did you mean \"avx2\"?); expected one of scalar, "
                    "avx2, avx512, avx512skx, neon, sve, sve2, sunway");
  CHECK_THROWS_WITH(parse_isa_field("x86", "--isa"),
                    "--isa: unknown isa \"x86\"; expected one of scalar, avx2, avx512, avx512skx, neon, sve, "
                    "sve2, sunway");
  CHECK_THROWS_WITH(parse_dtype_field("flaot32", "--dtype"),
                    Catch::StartsWith("--dtype: unknown dtype \"flaot32\" (did you mean "
                                      "\"float32\"?); expected one of int8, uint8,"));
  CHECK_THROWS_WITH(parse_dtype_field("bytes5000", "--dtype"),
                    Catch::EndsWith("or bytesN for an opaque N-byte element (1 <= N <= 4096)"));
}

TEST_CASE("closest_match suggests only plausible typos", "[suggest]") {
  const std::vector<std::string> fields = {"name", "dtype", "shape", "perm", "isa"};
  CHECK(closest_match("shpae", fields) == "shape");
  CHECK(closest_match("type", fields) == "dtype");
  CHECK(closest_match("perms", fields) == "perm");
  CHECK(closest_match("isa", fields) == "isa");
  CHECK_FALSE(closest_match("vector_width", fields));
  CHECK_FALSE(closest_match("x", fields));
  CHECK(did_you_mean("nmae", fields) == " (did you mean \"name\"?)");
  CHECK(did_you_mean("zzzzzz", fields).empty());
}

}  // namespace
}  // namespace gentt
