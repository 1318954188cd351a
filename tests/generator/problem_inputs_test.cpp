// Tests of generator/problem_inputs.cpp: spec files or flags -> problems with unique names.
#include "generator/problem_inputs.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "ir/error.h"
#include "temp_dir.h"

namespace gentt {
namespace {

std::string kernel(std::string_view name, std::string_view extra = "") {
  return fmt::format(R"({{"name": "{}", "dtype": "int8", "shape": [4, 2], "perm": [1, 0],
                          "isa": "scalar"{}}})",
                     name, extra);
}

std::string collect_error(const ProblemInputs& inputs) {
  try {
    collect_problems(inputs);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("collect_problems reads spec files in order and applies the name suffix",
          "[problem_inputs]") {
  test::TempDir dir;
  ProblemInputs in;
  in.spec_files = {
      dir.write("a.json", kernel("a")).string(),
      dir.write("b.json", R"({"kernels": [)" + kernel("b") + "," + kernel("c") + "]}").string()};
  in.name_suffix = "_x86";
  const std::vector<LocatedProblem> problems = collect_problems(in);
  REQUIRE(problems.size() == 3);
  CHECK(problems[0].problem.name == "a_x86");
  CHECK(problems[1].problem.name == "b_x86");
  CHECK(problems[2].problem.name == "c_x86");
}

TEST_CASE("collect_problems rejects clashing kernel symbols", "[problem_inputs]") {
  test::TempDir dir;
  ProblemInputs in;
  const std::string a = dir.write("a.json", kernel("k")).string();
  const std::string b =
      dir.write("b.json", R"({"kernels": [)" + kernel("j") + "," + kernel("k") + "]}").string();
  in.spec_files = {a, b};
  CHECK(collect_error(in) == b + ": /kernels/1/name: kernel name \"k\" is already used by " + a +
                                 ": /name; give each kernel a distinct \"name\"");

  in.spec_files = {
      dir.write("c.json", R"({"kernels": [)" + kernel("k_part") + "," + kernel("k") + "]}")
          .string()};
  CHECK_THAT(collect_error(in), Catch::Contains("kernel \"k\" and kernel \"k_part\"") &&
                                    Catch::Contains("would both define the symbol \"k_part\""));

  // Derived names collide too when the same problem appears twice.
  const std::string unnamed = R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "scalar"})";
  in.spec_files = {dir.write("d.json", unnamed).string(), dir.write("e.json", unnamed).string()};
  CHECK_THAT(collect_error(in),
             Catch::Contains("kernel name \"gentt_int8_s4_p0_scalar\" (derived name) is already "
                             "used by") &&
                 Catch::Contains("d.json (derived name)"));
}

TEST_CASE("collect_problems: inputs missing or mixed", "[problem_inputs]") {
  ProblemInputs none;
  CHECK_THAT(collect_error(none), Catch::StartsWith("no problem given"));

  ProblemInputs mixed;
  mixed.spec_files = {"a.json"};
  mixed.problem.shape = "4";
  CHECK_THAT(collect_error(mixed), Catch::StartsWith("give either spec files (a.json) or problem "
                                                     "flags"));

  ProblemInputs bad_suffix;
  bad_suffix.problem.shape = "4";
  bad_suffix.problem.perm = "0";
  bad_suffix.problem.dtype = "int8";
  bad_suffix.target.isa = "scalar";
  bad_suffix.name_suffix = "-x";
  CHECK_THAT(collect_error(bad_suffix), Catch::StartsWith("--name-suffix: \"-x\" may hold only"));
  bad_suffix.name_suffix = "_x";
  CHECK(collect_problems(bad_suffix).at(0).problem.name == "gentt_int8_s4_p0_scalar_x");
}

TEST_CASE("select_problem", "[problem_inputs]") {
  std::vector<LocatedProblem> two(2);
  two[0].problem.name = "a";
  two[1].problem.name = "b";
  CHECK(select_problem(two, std::string("b"), "ir").problem.name == "b");
  CHECK_THROWS_WITH(
      select_problem(two, std::nullopt, "ir"),
      "ir works on one kernel but the inputs define 2; choose one with --kernel NAME");
  CHECK_THROWS_WITH(select_problem(two, std::string("c"), "ir"),
                    "--kernel: no kernel named \"c\"; the inputs define a, b");
  CHECK(select_problem({two[0]}, std::nullopt, "explain").problem.name == "a");
}

}  // namespace
}  // namespace gentt
