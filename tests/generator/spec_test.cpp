// Tests of generator/spec.cpp: spec files -> validated problems.
#include "generator/spec.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "ir/error.h"
#include "temp_dir.h"

namespace gentt {
namespace {

// The message of the UserError that parsing `text` (as "a.json") throws, or "" if none.
std::string spec_error(std::string_view text, const SpecOverrides& overrides = {}) {
  try {
    parse_spec(text, "a.json", overrides);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

constexpr std::string_view kSimple =
    R"({"dtype": "float32", "shape": [64, 32, 32, 4], "perm": [2, 1, 0, 3], "isa": "avx512"})";

TEST_CASE("a single kernel object", "[spec]") {
  const std::vector<LocatedProblem> problems = parse_spec(kSimple, "a.json");
  REQUIRE(problems.size() == 1);
  const LocatedProblem& lp = problems[0];
  CHECK(lp.problem.name == "gentt_float32_s64x32x32x4_p2_1_0_3_avx512");
  CHECK(lp.problem.dtype.name == "float32");
  CHECK(lp.problem.dtype.bytes == 4);
  CHECK(lp.problem.shape == std::vector<int64_t>{64, 32, 32, 4});
  CHECK(lp.problem.perm == std::vector<int>{2, 1, 0, 3});
  CHECK(lp.problem.target.isa == Isa::avx512);
  CHECK(lp.problem.target.vector_bits == 512);  // resolved, never 0
  CHECK(lp.problem.threads);
  CHECK(lp.origin == "a.json");
  CHECK(lp.isa_field == "a.json: /isa");
  CHECK(lp.name_field == "a.json");  // derived name
}

TEST_CASE("a kernels array", "[spec]") {
  const std::vector<LocatedProblem> problems = parse_spec(R"({"kernels": [
      {"name": "a", "dtype": "bytes3", "shape": [5, 7], "perm": [1, 0], "isa": "scalar", "stores": "cached"},
      {"name": "b", "dtype": "int8", "shape": [4], "perm": [0], "isa": "sve",
       "vector_bits": 256, "threads": false}]})",
                                                          "dir/x.json");
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].problem.name == "a");
  CHECK(problems[0].problem.dtype.bytes == 3);
  CHECK(problems[0].origin == "dir/x.json: /kernels/0");
  CHECK(problems[0].name_field == "dir/x.json: /kernels/0/name");
  CHECK(problems[1].problem.target.isa == Isa::sve);
  CHECK(problems[1].problem.target.vector_bits == 256);
  CHECK_FALSE(problems[1].problem.threads);
  CHECK(problems[1].isa_field == "dir/x.json: /kernels/1/isa");
  CHECK(problems[0].problem.stores == StoreMode::cached);
  CHECK(problems[1].problem.stores == StoreMode::automatic);
}

TEST_CASE("the stores override replaces every kernel's and is checked against the ISA", "[spec]") {
  const char* text = R"({"kernels": [
      {"dtype": "int8", "shape": [4], "perm": [0], "isa": "avx512", "stores": "cached"},
      {"dtype": "int8", "shape": [4], "perm": [0], "isa": "scalar"}]})";
  SpecOverrides o;
  o.stores = StoreMode::streaming;
  CHECK_THROWS_WITH(parse_spec(text, "a.json", o),
                    Catch::StartsWith(R"(--stores: "streaming" stores are implemented for avx512, avx512skx and avx2 only, not scalar)"));
  o.isa = Isa::avx512;
  const auto problems = parse_spec(text, "a.json", o);
  CHECK(problems[0].problem.stores == StoreMode::streaming);
  CHECK(problems[1].problem.stores == StoreMode::streaming);
}

TEST_CASE("tune: per kernel or overridden, AVX-512 levels only, the width left to it", "[spec]") {
  const char* text = R"({"kernels": [
      {"dtype": "uint8", "shape": [64, 64], "perm": [1, 0], "isa": "avx512", "tune": "znver4"},
      {"dtype": "uint8", "shape": [64, 64], "perm": [1, 0], "isa": "avx512skx"}]})";
  auto problems = parse_spec(text, "a.json");
  CHECK(problems[0].problem.target.tune == Tune::znver4);
  CHECK(problems[0].problem.name == "gentt_uint8_s64x64_p1_0_avx512_znver4");
  CHECK(problems[1].problem.target.tune == Tune::generic);
  CHECK(problems[1].problem.name == "gentt_uint8_s64x64_p1_0_avx512skx");
  SpecOverrides o;
  o.tune = Tune::znver4;
  problems = parse_spec(text, "a.json", o);
  CHECK(problems[1].problem.target.tune == Tune::znver4);
  o.isa = Isa::avx2;
  CHECK_THROWS_WITH(parse_spec(text, "a.json", o),
                    "--tune: tune znver4 applies to isa avx512 and avx512skx, not avx2");
  // The kernel's own tune is dropped for an ISA it does not apply to, kept for the other level.
  SpecOverrides isa_only;
  isa_only.isa = Isa::avx2;
  CHECK(parse_spec(text, "a.json", isa_only)[0].problem.target.tune == Tune::generic);
  isa_only.isa = Isa::avx512skx;
  CHECK(parse_spec(text, "a.json", isa_only)[0].problem.target.tune == Tune::znver4);
}

TEST_CASE("convention gentt is converted to NumPy axes", "[spec]") {
  // NCHW -> NHWC: NumPy axes (0, 2, 3, 1); GenTT positions (0, 3, 1, 2).
  const auto perm = [](std::string_view convention, std::string_view p) {
    const std::string text = fmt::format(
        R"({{"dtype": "float32", "shape": [2, 3, 4, 5], "perm": {}, "isa": "scalar"{}}})", p,
        convention.empty() ? "" : fmt::format(R"(, "convention": "{}")", convention));
    return parse_spec(text, "a.json").at(0).problem.perm;
  };
  CHECK(perm("gentt", "[0, 3, 1, 2]") == std::vector<int>{0, 2, 3, 1});
  CHECK(perm("numpy", "[0, 2, 3, 1]") == std::vector<int>{0, 2, 3, 1});
  CHECK(perm("", "[0, 2, 3, 1]") == std::vector<int>{0, 2, 3, 1});
  CHECK(perm("gentt", "[2, 0, 1, 3]") == std::vector<int>{1, 2, 0, 3});
  // Errors refer to the array as written.
  CHECK(spec_error(R"({"dtype": "float32", "shape": [2, 3], "perm": [1, 1], "isa": "scalar",
                       "convention": "gentt"})") ==
        "a.json: /perm/1: axis 1 appears twice (also at /perm/0); perm must list every axis "
        "0..1 once");
}

TEST_CASE("command-line overrides (--isa, --vector-bits) apply to every kernel", "[spec]") {
  constexpr std::string_view text = R"({"kernels": [
      {"dtype": "float32", "shape": [4], "perm": [0], "isa": "sunway", "vector_bits": 256},
      {"dtype": "float32", "shape": [8], "perm": [0], "isa": "avx2"},
      {"dtype": "float32", "shape": [16], "perm": [0]}]})";
  SpecOverrides o;
  o.isa = Isa::sunway;
  const std::vector<LocatedProblem> p = parse_spec(text, "a.json", o);
  CHECK(p[0].problem.target.vector_bits == 256);  // same isa: its width is kept
  CHECK(p[1].problem.target.vector_bits == 512);  // another isa's width does not carry over
  CHECK(p[2].problem.target.isa == Isa::sunway);  // isa may be left to --isa
  CHECK(p[2].isa_field == "--isa");
  CHECK(p[2].problem.name == "gentt_float32_s16_p0_sunway512");

  o.vector_bits = 256;
  for (const LocatedProblem& lp : parse_spec(text, "a.json", o))
    CHECK(lp.problem.target.vector_bits == 256);

  o.vector_bits = 384;
  CHECK(spec_error(text, o) ==
        "--vector-bits: isa sunway needs vector_bits 256 (SW26010) or 512 (SW26010-Pro), got "
        "384");

  SpecOverrides only_bits;
  only_bits.vector_bits = 1024;
  CHECK(spec_error(text, only_bits) ==
        "--vector-bits: isa sunway needs vector_bits 256 (SW26010) or 512 (SW26010-Pro), got "
        "1024");
}

TEST_CASE("spec errors name the file and the JSON pointer", "[spec]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      // document structure
      {"", "a.json: malformed JSON at byte 1: "},
      {R"({"dtype": "float32",})",
       "a.json: malformed JSON at byte 21: parse error at line 1, column 21"},
      {"[1, 2]", R"(a.json: expected a kernel object or {"kernels": [...]}, got an array)"},
      {R"({"kernels": []})",
       "a.json: /kernels: expected a non-empty array of kernel objects, got an empty array"},
      {R"({"kernels": {}})",
       "a.json: /kernels: expected a non-empty array of kernel objects, got an object"},
      {R"({"kernels": [3]})", "a.json: /kernels/0: expected a kernel object, got 3"},
      {R"({"kernels": [], "isa": "avx2"})",
       R"(a.json: /isa: unknown field "isa" next to "kernels")"},
      // unknown and repeated fields
      {R"({"dtype": "float32", "shpae": [4], "perm": [0], "isa": "scalar"})",
       R"(a.json: /shpae: unknown field "shpae" (did you mean "shape"?); a kernel has the )"
       "fields name, dtype, shape, perm, isa, vector_bits, tune, threads, stores, convention"},
      {R"({"dtype": "float32", "shape": [4], "perm": [0], "perm": [0], "isa": "scalar"})",
       "a.json: /perm: duplicate key; each field may appear once per object"},
      {R"({"dtype": "float32", "shape": [4], "perm": [0], "isa": "scalar", "a/b~": 1})",
       R"(a.json: /a~1b~0: unknown field "a/b~")"},
      // control characters in a key come back escaped: the message stays one line (found by
      // tests/fuzz/spec_parser_fuzz.cpp)
      {R"({"dtype": "float32", "shape": [4], "perm": [0], "isa": "scalar", "dt\nype": 1})",
       R"(a.json: /dt\nype: unknown field "dt\nype" (did you mean "dtype"?); a kernel has the )"
       "fields name, dtype, shape, perm, isa, vector_bits, tune, threads, stores, convention"},
      {R"({"kernels": [], "a\u0000\tb": 1})",
       R"(a.json: /a\x00\tb: unknown field "a\x00\tb" next to "kernels")"},
      // required fields
      {R"({"shape": [4], "perm": [0], "isa": "scalar"})",
       R"(a.json: missing required field "dtype")"},
      {R"({"kernels": [{"dtype": "int8", "shape": [4], "isa": "scalar"}]})",
       R"(a.json: /kernels/0: missing required field "perm")"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0]})",
       R"(a.json: missing required field "isa" (or give --isa))"},
      // types
      {R"({"dtype": 4, "shape": [4], "perm": [0], "isa": "scalar"})",
       "a.json: /dtype: expected a dtype name, got 4"},
      {R"({"dtype": "int8", "shape": 4, "perm": [0], "isa": "scalar"})",
       "a.json: /shape: expected an array of positive integers, got 4"},
      {R"({"dtype": "int8", "shape": [4, "3"], "perm": [0, 1], "isa": "scalar"})",
       R"(a.json: /shape/1: expected a positive integer, got string "3")"},
      {R"({"dtype": "int8", "shape": [4, 2.5], "perm": [0, 1], "isa": "scalar"})",
       "a.json: /shape/1: expected a positive integer, got 2.5"},
      {R"({"dtype": "int8", "shape": [1e3], "perm": [0], "isa": "scalar"})",
       "a.json: /shape/0: expected a positive integer, got 1000.0 (write integers without a "
       "decimal point or exponent)"},
      // beyond int64_t: no conversion to it (undefined; found by tests/fuzz/spec_parser_fuzz.cpp)
      {R"({"dtype": "int8", "shape": [1e20], "perm": [0], "isa": "scalar"})",
       "a.json: /shape/0: expected a positive integer, got 1e+20 (write integers without a "
       "decimal point or exponent)"},
      {R"({"dtype": "int8", "shape": [118446744073709551616], "perm": [0], "isa": "scalar"})",
       "a.json: /shape/0: expected a positive integer, got 1.1844674407370955e+20 (write integers "
       "without a decimal point or exponent)"},
      {R"({"dtype": "int8", "shape": [null], "perm": [0], "isa": "scalar"})",
       "a.json: /shape/0: expected a positive integer, got null"},
      {R"({"dtype": "int8", "shape": [18446744073709551615], "perm": [0], "isa": "scalar"})",
       "a.json: /shape/0: 18446744073709551615 is too large"},
      {R"({"dtype": "int8", "shape": [4], "perm": [true], "isa": "scalar"})",
       "a.json: /perm/0: expected an axis index (an integer), got true"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "scalar", "threads": 1})",
       "a.json: /threads: expected true or false, got 1"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "sve", "vector_bits": "256"})",
       R"(a.json: /vector_bits: expected an integer, got string "256")"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": ["scalar"]})",
       "a.json: /isa: expected an isa name, got an array"},
      // values
      {R"({"dtype": "int8", "shape": [4, 0], "perm": [0, 1], "isa": "scalar"})",
       "a.json: /shape/1: extent must be at least 1, got 0"},
      {R"({"dtype": "int8", "shape": [-4], "perm": [0], "isa": "scalar"})",
       "a.json: /shape/0: extent must be at least 1, got -4"},
      {R"({"dtype": "int8", "shape": [], "perm": [], "isa": "scalar"})",
       "a.json: /shape: shape must have at least one axis"},
      {R"({"dtype": "int8", "shape": [4, 3, 2, 1], "perm": [0, 1, 2], "isa": "scalar"})",
       "a.json: /perm: has 3 entries but shape has 4 axes"},
      {R"({"kernels": [{"dtype": "int8", "shape": [4], "perm": [0], "isa": "scalar"},
                       {"dtype": "int8", "shape": [4], "perm": [0], "isa": "scalar"},
                       {"dtype": "int8", "shape": [4, 3, 2, 1], "perm": [0, 5, 1, 2], "isa": "scalar"}]})",
       "a.json: /kernels/2/perm/1: axis 5 is out of range for rank 4"},
      {R"({"dtype": "int8", "shape": [4, 3], "perm": [0, 99999999999], "isa": "scalar"})",
       "a.json: /perm/1: axis 99999999999 is out of range for rank 2"},
      {R"({"dtype": "float32", "shape": [4294967296, 4294967296], "perm": [1, 0], "isa": "scalar"})",
       "a.json: /shape: 4294967296 x 4294967296 elements of 4 bytes do not fit in 64-bit byte "
       "offsets"},
      {R"({"dtype": "float31", "shape": [4], "perm": [0], "isa": "scalar"})",
       R"(a.json: /dtype: unknown dtype "float31" (did you mean "float32"?); expected one of )"},
      {R"({"dtype": "bytes0", "shape": [4], "perm": [0], "isa": "scalar"})",
       R"(a.json: /dtype: unknown dtype "bytes0")"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "avx5112"})",
       R"(a.json: /isa: unknown isa "avx5112" (did you mean "avx512"?); expected one of )"
       "scalar, avx2, avx512, avx512skx, neon, sve, sve2, sunway"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "sve", "vector_bits": 100})",
       "a.json: /vector_bits: isa sve needs vector_bits in 128..2048 and a multiple of 128, got "
       "100"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "sunway", "vector_bits": 384})",
       "a.json: /vector_bits: isa sunway needs vector_bits 256 (SW26010) or 512 (SW26010-Pro), "
       "got 384"},
      {R"({"kernels": [{"dtype": "int8", "shape": [4], "perm": [0], "isa": "avx512", "vector_bits": 384}]})",
       "a.json: /kernels/0/vector_bits: isa avx512 needs vector_bits 512 (zmm blocks, the default) or 256 (ymm "
       "blocks), got 384"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "scalar", "vector_bits": 128})",
       "a.json: /vector_bits: vector_bits is not configurable for isa scalar"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "sve", "vector_bits": 1e400})",
       "a.json: malformed JSON"},  // nlohmann rejects numbers beyond double
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "sve", "vector_bits": 99999999999})",
       "a.json: /vector_bits: 99999999999 is not a vector width"},
      {R"({"name": "1abc", "dtype": "int8", "shape": [4], "perm": [0], "isa": "scalar"})",
       R"(a.json: /name: "1abc" is not a C identifier)"},
      {R"({"name": "my-kernel", "dtype": "int8", "shape": [4], "perm": [0], "isa": "scalar"})",
       R"(a.json: /name: "my-kernel" is not a C identifier)"},
      {R"({"name": "", "dtype": "int8", "shape": [4], "perm": [0], "isa": "scalar"})",
       R"(a.json: /name: "" is not a C identifier)"},
      {R"({"name": "double", "dtype": "int8", "shape": [4], "perm": [0], "isa": "scalar"})",
       R"(a.json: /name: "double" is a C/C++ keyword and cannot name a kernel)"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "avx512", "stores": "streamin"})",
       R"(a.json: /stores: unknown store mode "streamin" (did you mean "streaming"?); expected one of auto, )"
       R"(streaming, cached)"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "avx512", "tune": "zen4"})",
       R"(a.json: /tune: unknown tune "zen4"; expected one of generic, znver4)"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "neon", "tune": "znver4"})",
       R"(a.json: /tune: tune znver4 applies to isa avx512 and avx512skx, not neon)"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "avx512", "vector_bits": 256, "tune": "znver4"})",
       R"(a.json: /tune: tune znver4 chooses the vector width itself; leave vector_bits out (or give vector_bits )"
       R"(without tune))"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "avx512", "stores": true})",
       R"(a.json: /stores: expected a store mode, got true)"},
      {R"({"kernels": [{"dtype": "int8", "shape": [4], "perm": [0], "isa": "neon", "stores": "streaming"}]})",
       R"(a.json: /kernels/0/stores: "streaming" stores are implemented for avx512, avx512skx and avx2 only, not neon)"},
      {R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "scalar", "convention": "torch"})",
       R"(a.json: /convention: unknown convention "torch"; expected "numpy")"},
  };
  for (const auto& [text, message] : cases) {
    INFO(text);
    CHECK_THAT(spec_error(text), Catch::StartsWith(message));
  }
}

TEST_CASE("load_spec reads files and names them as given", "[spec]") {
  test::TempDir dir;
  dir.write("k.json", kSimple);
  const std::vector<LocatedProblem> problems = load_spec((dir / "k.json").string());
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].origin == (dir / "k.json").string());

  const std::string missing = (dir / "missing.json").string();
  CHECK_THROWS_WITH(load_spec(missing),
                    missing + ": cannot read the spec: No such file or directory");
  CHECK_THROWS_WITH(load_spec(dir.path().string()),
                    dir.path().string() + ": cannot read the spec: Is a directory");
}

TEST_CASE("the example specs parse", "[spec]") {
  const std::filesystem::path examples = std::filesystem::path(GENTT_SOURCE_DIR) / "specs/examples";
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(examples)) {
    INFO(entry.path());
    CHECK_FALSE(load_spec(entry.path().string()).empty());
    ++files;
  }
  CHECK(files >= 4);

  // The GenTT-convention kernel of attention_heads.json is the NumPy one written the other way.
  const std::vector<LocatedProblem> heads = load_spec((examples / "attention_heads.json").string());
  REQUIRE(heads.size() == 4);
  CHECK(heads[2].problem.name == "keys_transposed_f16");
  CHECK(heads[3].problem.name == "keys_transposed_f16_gentt_form");
  CHECK(heads[2].problem.perm == heads[3].problem.perm);
  CHECK(heads[2].problem.shape == heads[3].problem.shape);
}

}  // namespace
}  // namespace gentt
