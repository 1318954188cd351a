// Tests of generator/flags.cpp: a problem given by command-line flags.
#include "generator/flags.h"

#include <catch2/catch.hpp>

#include "ir/error.h"

namespace gentt {
namespace {

ProblemFlags flags(std::string shape, std::string perm, std::string dtype = "float32") {
  ProblemFlags f;
  f.shape = std::move(shape);
  f.perm = std::move(perm);
  f.dtype = std::move(dtype);
  return f;
}

TargetFlags target(std::string isa, std::optional<int> bits = std::nullopt) {
  return TargetFlags{std::move(isa), bits};
}

std::string flags_error(const ProblemFlags& f, const TargetFlags& t) {
  try {
    problem_from_flags(f, t);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("problem_from_flags builds a validated problem", "[flags]") {
  const LocatedProblem lp = problem_from_flags(flags("64,32,32,4", "2,1,0,3"), target("avx512"));
  CHECK(lp.problem.shape == std::vector<int64_t>{64, 32, 32, 4});
  CHECK(lp.problem.perm == std::vector<int>{2, 1, 0, 3});
  CHECK(lp.problem.dtype.bytes == 4);
  CHECK(lp.problem.target.isa == Isa::avx512);
  CHECK(lp.problem.target.vector_bits == 512);
  CHECK(lp.problem.threads);
  CHECK(lp.problem.name == "gentt_float32_s64x32x32x4_p2_1_0_3_avx512");
  CHECK(lp.origin == "the command line");
  CHECK(lp.isa_field == "--isa");
}

TEST_CASE("problem flags: name, threads, vector bits, spaces", "[flags]") {
  ProblemFlags f = flags(" 8, 6 ", "1 ,0", "bytes3");
  f.name = "my_kernel";
  f.no_threads = true;
  const LocatedProblem lp = problem_from_flags(f, target("sve", 1024));
  CHECK(lp.problem.shape == std::vector<int64_t>{8, 6});
  CHECK(lp.problem.perm == std::vector<int>{1, 0});
  CHECK(lp.problem.name == "my_kernel");
  CHECK(lp.name_field == "--name");
  CHECK_FALSE(lp.problem.threads);
  CHECK(lp.problem.target.vector_bits == 1024);
}

TEST_CASE("problem flag errors name the flag", "[flags]") {
  CHECK(flags_error(flags("4,0", "0,1"), target("scalar")) ==
        "--shape: /shape/1: extent must be at least 1, got 0");
  CHECK(flags_error(flags("4,-3", "0,1"), target("scalar")) ==
        "--shape: /shape/1: extent must be at least 1, got -3");
  CHECK(flags_error(flags("", ""), target("scalar")) ==
        "--shape: /shape: shape must have at least one axis");
  CHECK(flags_error(flags("4,3", "0,0"), target("scalar")) ==
        "--perm: /perm/1: axis 0 appears twice (also at /perm/0); perm must list every axis 0..1 "
        "once");
  CHECK(flags_error(flags("4,3", "0,2"), target("scalar")) ==
        "--perm: /perm/1: axis 2 is out of range for rank 2");
  CHECK(flags_error(flags("4,3,2", "0,1"), target("scalar")) ==
        "--perm: /perm: has 2 entries but shape has 3 axes");
  CHECK(flags_error(flags("4294967296,4294967296", "1,0"), target("scalar")) ==
        "--shape: /shape: 4294967296 x 4294967296 elements of 4 bytes do not fit in 64-bit byte "
        "offsets (at most 2^63 - 1 bytes)");
  CHECK(flags_error(flags("4,2.5", "0,1"), target("scalar")) ==
        "--shape: entry 1 \"2.5\" is not an integer (expected a comma-separated list such as "
        "64,32,4)");
  CHECK(flags_error(flags("4,,3", "0,1,2"), target("scalar")) ==
        "--shape: entry 1 \"\" is not an integer (expected a comma-separated list such as "
        "64,32,4)");
  CHECK(flags_error(flags("99999999999999999999", "0"), target("scalar")) ==
        "--shape: entry 0 \"99999999999999999999\" is too large");
  CHECK(flags_error(flags("4", "99999999999"), target("scalar")) ==
        "--perm: entry 0: axis 99999999999 is out of range");
  CHECK_THAT(flags_error(flags("4", "0", "float128"), target("scalar")),
             Catch::StartsWith("--dtype: unknown dtype \"float128\""));
  CHECK_THAT(flags_error(flags("4", "0"), target("arm")),
             Catch::StartsWith("--isa: unknown isa \"arm\""));
  CHECK_THAT(flags_error(flags("4", "0"), target("sve", 100)),
             Catch::StartsWith("--vector-bits: isa sve needs vector_bits in 128..2048"));
  CHECK_THAT(flags_error(flags("4", "0"), target("avx512", 384)),
             Catch::StartsWith("--vector-bits: isa avx512 needs vector_bits 512 (zmm blocks, the default) or 256"));
  TargetFlags tuned = target("avx512", 256);
  tuned.tune = "znver4";
  CHECK_THAT(flags_error(flags("4", "0"), tuned),
             Catch::StartsWith("--tune: tune znver4 chooses the vector width itself"));
  tuned = target("avx2");
  tuned.tune = "znver4";
  CHECK_THAT(flags_error(flags("4", "0"), tuned),
             Catch::StartsWith("--tune: tune znver4 applies to isa avx512 and avx512skx, not avx2"));
  tuned.tune = "zen4";
  CHECK_THAT(flags_error(flags("4", "0"), tuned), Catch::StartsWith("--tune: unknown tune \"zen4\""));
  CHECK_THAT(flags_error(flags("4", "0"), TargetFlags{}),
             Catch::StartsWith("--isa: missing; a problem given by flags needs --shape, --perm, "
                               "--dtype and --isa"));
  ProblemFlags no_perm = flags("4", "0");
  no_perm.perm.reset();
  CHECK_THAT(flags_error(no_perm, target("scalar")), Catch::StartsWith("--perm: missing"));
  ProblemFlags bad_name = flags("4", "0");
  bad_name.name = "a b";
  CHECK_THAT(flags_error(bad_name, target("scalar")),
             Catch::StartsWith("--name: \"a b\" is not a C identifier"));
}

TEST_CASE("ProblemFlags::any and spec_overrides", "[flags]") {
  CHECK_FALSE(ProblemFlags{}.any());
  ProblemFlags f;
  f.no_threads = true;
  CHECK(f.any());

  const SpecOverrides o = spec_overrides(target("sunway", 256));
  CHECK(o.isa == Isa::sunway);
  CHECK(o.vector_bits == 256);
  CHECK_FALSE(spec_overrides(TargetFlags{}).isa);
  CHECK_THROWS_WITH(spec_overrides(target("avx1024")),
                    Catch::StartsWith("--isa: unknown isa \"avx1024\""));
}

}  // namespace
}  // namespace gentt
