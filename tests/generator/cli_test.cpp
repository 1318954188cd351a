// Tests of the gentt-gen binary: exit codes, messages and files, one case per user error
// (the way Halide keeps one program per error in test/error).
//
// Every invalid input must exit with 2, print exactly one line "gentt-gen: error: ..." that
// names the offending field, and leave no output file behind.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "backends/backend.h"
#include "gentt/cpu.h"
#include "run_cli.h"
#include "temp_dir.h"

namespace gentt::test {
namespace {

using Catch::Contains;
using Catch::StartsWith;

// A kernel object; `extra` is spliced in as further fields.
std::string kernel(std::string_view shape, std::string_view perm, std::string_view extra = "",
                   std::string_view dtype = "float32") {
  return fmt::format(R"({{"dtype": "{}", "shape": {}, "perm": {}, "isa": "scalar"{}}})", dtype,
                     shape, perm, extra.empty() ? "" : ", " + std::string(extra));
}

std::string kernels(const std::vector<std::string>& objects) {
  std::string list;
  for (const std::string& o : objects) list += (list.empty() ? "" : ", ") + o;
  return R"({"kernels": [)" + list + "]}";
}

// A directory to run gentt-gen in.
struct Workspace {
  TempDir dir;
  CliResult run(const std::vector<std::string>& args) const {
    return run_gentt_gen(args, dir.path());
  }
};

void check_user_error(const CliResult& r, const std::vector<std::string>& fragments) {
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, StartsWith("gentt-gen: error: "));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);  // one paragraph, on one line
  for (const std::string& f : fragments) CHECK_THAT(r.err, Contains(f));
  CHECK(r.out.empty());
}

// An I/O error (exit 1), one line naming each of `fragments`.
void check_io_error(const CliResult& r, const std::vector<std::string>& fragments) {
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, StartsWith("gentt-gen: error: "));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  for (const std::string& f : fragments) CHECK_THAT(r.err, Contains(f));
  CHECK(r.out.empty());
}

// `gentt-gen generate a.json -o out.cpp [args]` on an invalid spec: a user error naming each
// of `fragments`, and nothing written.
void expect_spec_error(const std::string& spec, const std::vector<std::string>& fragments,
                       const std::vector<std::string>& args = {}) {
  Workspace w;
  w.dir.write("a.json", spec);
  std::vector<std::string> all = {"generate", "a.json", "-o", "out.cpp"};
  all.insert(all.end(), args.begin(), args.end());
  check_user_error(w.run(all), fragments);
  CHECK(w.dir.entries() == std::vector<std::string>{"a.json"});
}

// `gentt-gen generate <flags> -o out.cpp` with invalid flags.
void expect_flags_error(const std::vector<std::string>& flags,
                        const std::vector<std::string>& fragments) {
  Workspace w;
  std::vector<std::string> all = {"generate"};
  all.insert(all.end(), flags.begin(), flags.end());
  all.insert(all.end(), {"-o", "out.cpp"});
  check_user_error(w.run(all), fragments);
  CHECK(w.dir.entries().empty());
}

const std::vector<std::string> kFlagProblem = {"--shape", "8,6,4",   "--perm", "2,0,1",
                                               "--dtype", "float32", "--isa",  "scalar"};

// ---------------------------------------------------------------------------------------------
// Success paths

TEST_CASE("help and version exit 0", "[cli]") {
  Workspace w;
  const CliResult help = w.run({"--help"});
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Contains("generate") && Contains("list-isas"));
  const CliResult sub_help = w.run({"generate", "--help"});
  CHECK(sub_help.exit_code == 0);
  CHECK_THAT(sub_help.out, Contains("--out-dir") && Contains("--name-suffix"));
  const CliResult version = w.run({"--version"});
  CHECK(version.exit_code == 0);
  CHECK(version.out == std::string("gentt-gen ") + GENTT_PACKAGE_VERSION + "\n");
  CHECK(version.err.empty());
}

TEST_CASE("list-isas prints two lines per ISA: widths, backend, this CPU; features, CPUs", "[cli]") {
  const CliResult r = Workspace().run({"list-isas"});
  CHECK(r.exit_code == 0);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 16);
  CHECK_THAT(r.out, StartsWith("scalar ") && Contains("backend: implemented") &&
                        Contains("\nsve        vector bits: 128..2048 (default 512)") &&
                        Contains("\nsve2       vector bits: 128..2048 (default 512)") &&
                        Contains("\nsunway     vector bits: 256 or 512 (default 512)") &&
                        Contains("\navx512skx  vector bits: 256 or 512 (default 512)") &&
                        Contains("features: avx512f, avx512bw, avx512vl; for Skylake-SP") &&
                        Contains("features: avx512f, avx512bw, avx512vl, avx512vbmi; for Ice Lake-SP") &&
                        Contains("qemu-aarch64"));
  // This CPU's answer per level follows its features (a CPU with F/BW/VL but no VBMI says yes to
  // avx512skx and "no (lacks avx512vbmi)" to avx512).
  auto this_cpu = [&](const std::string& isa) {
    const size_t line = r.out.find("\n" + isa + " ");
    const size_t at = r.out.find("this CPU: ", line);
    return r.out.substr(at + 10, r.out.find('\n', at) - at - 10);
  };
  CHECK(this_cpu("avx512skx") == (gentt::cpu_supports("avx512skx") ? "yes" : "no (lacks avx512f, avx512bw, avx512vl)"));
  if (gentt::cpu_supports("avx512skx"))
    CHECK(this_cpu("avx512") == (gentt::cpu_supports("avx512") ? "yes" : "no (lacks avx512vbmi)"));
}

TEST_CASE("generate from flags writes one file", "[cli]") {
  Workspace w;
  std::vector<std::string> args = {"generate"};
  args.insert(args.end(), kFlagProblem.begin(), kFlagProblem.end());
  args.insert(args.end(), {"--name", "my_kernel", "-o", "out.cpp"});
  const CliResult r = w.run(args);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(w.dir.entries() == std::vector<std::string>{"out.cpp"});
  CHECK_THAT(read_file(w.dir / "out.cpp"), Contains("my_kernel(") && Contains("my_kernel_part("));
}

TEST_CASE("generate output is deterministic and records the command as given", "[cli]") {
  const std::string spec = kernels({kernel("[5, 7, 3]", "[2, 0, 1]", R"("name": "k1")", "bytes3"),
                                    kernel("[16, 16]", "[1, 0]", R"("name": "k2")")});
  const std::vector<std::string> args = {"generate", "a.json", "--isa", "scalar", "-o", "out.cpp"};
  Workspace first, second;
  first.dir.write("a.json", spec);
  second.dir.write("a.json", spec);
  REQUIRE(first.run(args).exit_code == 0);
  const std::string once = read_file(first.dir / "out.cpp");
  REQUIRE(first.run(args).exit_code == 0);
  CHECK(read_file(first.dir / "out.cpp") == once);  // same run twice
  REQUIRE(second.run(args).exit_code == 0);
  CHECK(read_file(second.dir / "out.cpp") == once);  // elsewhere: no absolute paths leak in
  CHECK_THAT(once, Contains("gentt-gen generate a.json --isa scalar -o out.cpp"));
  CHECK(first.dir.entries() == std::vector<std::string>{"a.json", "out.cpp"});
}

TEST_CASE("generate --out-dir writes NAME.cpp per kernel, with --name-suffix", "[cli]") {
  Workspace w;
  w.dir.write("a.json",
              kernels({kernel("[4, 3]", "[1, 0]", R"("name": "a")"), kernel("[4, 3]", "[0, 1]")}));
  std::filesystem::create_directory(w.dir / "out");
  const CliResult r = w.run({"generate", "a.json", "--out-dir", "out", "--name-suffix", "_s"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::vector<std::string> files = TempDir::entries_of(w.dir / "out");
  CHECK(files == std::vector<std::string>{"a_s.cpp", "gentt_float32_s4x3_p0_1_scalar_s.cpp"});
  CHECK_THAT(read_file(w.dir / "out/a_s.cpp"), Contains("a_s("));
}

TEST_CASE("ir and explain print one kernel", "[cli]") {
  Workspace w;
  w.dir.write("a.json", kernels({kernel("[4, 3]", "[1, 0]", R"("name": "a")"),
                                 kernel("[8, 2]", "[1, 0]", R"("name": "b")")}));
  const CliResult text = w.run({"ir", "a.json", "--kernel", "b"});
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.out, Contains("b"));
  const CliResult json = w.run({"ir", "a.json", "--kernel", "a", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  CHECK(nlohmann::json::parse(json.out).at("name") == "a");
  std::vector<std::string> args = {"explain"};
  args.insert(args.end(), kFlagProblem.begin(), kFlagProblem.end());
  const CliResult explain = w.run(args);
  CHECK(explain.exit_code == 0);
  CHECK_FALSE(explain.out.empty());
  check_user_error(w.run({"ir", "a.json"}), {"ir works on one kernel", "--kernel"});
  check_user_error(w.run({"ir", "a.json", "--kernel", "c", "--format", "json"}), {"--kernel"});
  check_user_error(w.run({"ir", "a.json", "--kernel", "a", "--format", "xml"}), {"--format"});
}

TEST_CASE("stores flag: ir shows the streaming variant, explain says why, errors name the flag", "[cli]") {
  Workspace w;
  const std::vector<std::string> problem = {"--shape", "64,64", "--perm", "1,0", "--dtype", "float32", "--isa",
                                            "avx512", "--stores", "streaming"};
  std::vector<std::string> args = {"ir", "--format", "json"};
  args.insert(args.end(), problem.begin(), problem.end());
  const CliResult json = w.run(args);
  REQUIRE(json.exit_code == 0);
  const auto j = nlohmann::json::parse(json.out);
  CHECK(j.at("stream_variant").at("name") == j.at("name").get<std::string>() + "_stream");
  args = {"ir"};
  args.insert(args.end(), problem.begin(), problem.end());
  CHECK_THAT(w.run(args).out, Contains("store.stream out[+0] x16"));
  args = {"explain"};
  args.insert(args.end(), problem.begin(), problem.end());
  CHECK_THAT(w.run(args).out, Contains("stores: streaming when `out` is 64-byte aligned"));
  check_user_error(w.run({"generate", "--shape", "4", "--perm", "0", "--dtype", "int8", "--isa", "neon", "--stores",
                          "streaming", "-o", "x.cpp"}),
                   {"--stores", "avx512, avx512skx and avx2 only"});
  check_user_error(w.run({"generate", "--shape", "4", "--perm", "0", "--dtype", "int8", "--isa", "avx512",
                          "--stores", "nt", "-o", "x.cpp"}),
                   {"--stores", "unknown store mode"});
}

TEST_CASE("a failed write to stdout is an I/O error (exit 1)", "[cli]") {
  const std::string command =
      GENTT_BINARY_DIR "/generator/gentt-gen list-isas >/dev/full 2>/dev/null";
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
}

// ---------------------------------------------------------------------------------------------
// One test per user error

TEST_CASE("error: perm repeats an axis", "[cli][error]") {
  expect_spec_error(kernel("[4, 3, 2]", "[2, 0, 2]"), {"a.json: /perm/2", "axis 2 appears twice"});
  expect_flags_error({"--shape", "4,3", "--perm", "1,1", "--dtype", "int8", "--isa", "scalar"},
                     {"--perm", "appears twice"});
}

TEST_CASE("error: perm axis out of range", "[cli][error]") {
  expect_spec_error(kernels({kernel("[4]", "[0]"), kernel("[4, 3]", "[1, 0]", R"("name": "b")"),
                             kernel("[4, 3, 2, 1]", "[0, 5, 1, 2]", R"("name": "c")")}),
                    {"a.json: /kernels/2/perm/1: axis 5 is out of range for rank 4"});
  expect_spec_error(kernel("[4, 3]", "[0, -1]"), {"a.json: /perm/1", "out of range"});
}

TEST_CASE("error: perm and shape differ in rank", "[cli][error]") {
  expect_spec_error(kernel("[4, 3, 2, 1]", "[0, 1, 2]"),
                    {"a.json: /perm: has 3 entries but shape has 4 axes"});
  expect_flags_error({"--shape", "4,3", "--perm", "0", "--dtype", "int8", "--isa", "scalar"},
                     {"--perm", "has 1 entries but shape has 2 axes"});
}

TEST_CASE("error: zero extent", "[cli][error]") {
  expect_spec_error(kernel("[4, 0]", "[1, 0]"), {"a.json: /shape/1", "at least 1, got 0"});
  expect_flags_error({"--shape", "0", "--perm", "0", "--dtype", "int8", "--isa", "scalar"},
                     {"--shape", "got 0"});
}

TEST_CASE("error: negative extent", "[cli][error]") {
  expect_spec_error(kernel("[-4, 3]", "[1, 0]"), {"a.json: /shape/0", "got -4"});
}

TEST_CASE("error: non-integer extent", "[cli][error]") {
  expect_spec_error(kernel("[4, 2.5]", "[1, 0]"),
                    {"a.json: /shape/1: expected a positive integer, got 2.5"});
  expect_spec_error(kernel("[4, 1e3]", "[1, 0]"), {"a.json: /shape/1", "1000.0"});
  expect_spec_error(kernel(R"([4, "3"])", "[1, 0]"), {"a.json: /shape/1", "got string \"3\""});
  expect_flags_error({"--shape", "4,x", "--perm", "1,0", "--dtype", "int8", "--isa", "scalar"},
                     {"--shape", "\"x\" is not an integer"});
}

TEST_CASE("error: element count overflows 64-bit byte offsets", "[cli][error]") {
  expect_spec_error(kernel("[4294967296, 4294967296]", "[1, 0]"),
                    {"a.json: /shape", "do not fit in 64-bit byte offsets"});
}

TEST_CASE("error: unknown field", "[cli][error]") {
  expect_spec_error(kernel("[4]", "[0]", R"("thread": false)"),
                    {"a.json: /thread: unknown field \"thread\" (did you mean \"threads\"?)"});
}

TEST_CASE("error: unknown dtype", "[cli][error]") {
  expect_spec_error(kernel("[4]", "[0]", "", "float128"),
                    {"a.json: /dtype: unknown dtype \"float128\"", "bytesN"});
  expect_flags_error({"--shape", "4", "--perm", "0", "--dtype", "bytes0", "--isa", "scalar"},
                     {"--dtype", "unknown dtype \"bytes0\""});
}

TEST_CASE("error: unknown isa", "[cli][error]") {
  expect_spec_error(R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "altivec"})",
                    {"a.json: /isa: unknown isa \"altivec\"", "scalar, avx2"});
  expect_spec_error(kernel("[4]", "[0]"), {"--isa: unknown isa \"avx9\""}, {"--isa", "avx9"});
}

TEST_CASE("error: ISA without a backend yet", "[cli][error]") {
  for (Isa isa : all_isas()) {
    if (backend_implemented(isa)) continue;
    const std::string spec = fmt::format(R"({{"dtype": "int8", "shape": [4], "perm": [0],
                                              "isa": "{}"}})",
                                         isa_name(isa));
    expect_spec_error(spec, {"a.json: /isa", std::string(isa_name(isa))});
    return;
  }
  WARN("every ISA has a backend: nothing to test");
}

TEST_CASE("error: malformed JSON", "[cli][error]") {
  expect_spec_error(R"({"dtype": "int8", "shape": [4] "perm": [0]})",
                    {"a.json: malformed JSON at byte 37", "line 1, column 37"});
  expect_spec_error("", {"a.json: malformed JSON at byte 1"});
}

TEST_CASE("error: an unwritable output path is an I/O error (exit 1), and no file appears", "[cli][error]") {
  Workspace w;
  w.dir.write("a.json", kernel("[4]", "[0]"));
  check_io_error(w.run({"generate", "a.json", "-o", "missing/out.cpp"}),
                 {"-o: cannot write 'missing/out.cpp': No such file or directory"});
  check_io_error(w.run({"generate", "a.json", "-o", "a.json/out.cpp"}),
                 {"-o: cannot write 'a.json/out.cpp': Not a directory"});
  check_io_error(w.run({"generate", "a.json", "--out-dir", "missing"}),
                 {"--out-dir: cannot write 'missing/", "No such file or directory"});
  std::filesystem::create_directory(w.dir / "dir.cpp");
  check_io_error(w.run({"generate", "a.json", "-o", "dir.cpp"}),
                 {"-o: cannot write 'dir.cpp': Is a directory"});
  CHECK(w.dir.entries() == std::vector<std::string>{"a.json", "dir.cpp"});
  CHECK(TempDir::entries_of(w.dir / "dir.cpp").empty());
}

TEST_CASE("error: vector bits invalid for the ISA", "[cli][error]") {
  expect_spec_error(kernel("[4]", "[0]"), {"--vector-bits: isa sve", "got 100"},
                    {"--isa", "sve", "--vector-bits", "100"});
  expect_spec_error(R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "sunway",
                        "vector_bits": 384})",
                    {"a.json: /vector_bits: isa sunway needs vector_bits 256 (SW26010) or 512 "
                     "(SW26010-Pro), got 384"});
  expect_spec_error(R"({"dtype": "int8", "shape": [4], "perm": [0], "isa": "avx512",
                        "vector_bits": 1024})",
                    {"a.json: /vector_bits: isa avx512 needs vector_bits 512 (zmm blocks, the default) or 256"});
  expect_flags_error(
      {"--shape", "4", "--perm", "0", "--dtype", "int8", "--isa", "scalar", "--vector-bits", "256"},
      {"--vector-bits: vector_bits is not configurable for isa scalar"});
}

TEST_CASE("error: empty kernels list", "[cli][error]") {
  expect_spec_error(R"({"kernels": []})", {"a.json: /kernels: expected a non-empty array"});
}

TEST_CASE("error: more kernels than one run generates", "[cli][error]") {
  const int limit = 4096;  // kMaxKernelsPerRun (generator/problem_inputs.h)
  std::vector<std::string> many;
  for (int i = 0; i <= limit; ++i) many.push_back(kernel("[4]", "[0]", fmt::format(R"("name": "k{}")", i)));
  expect_spec_error(kernels(many), {"a.json: the spec files ask for 4097 kernels; one run generates at most 4096"});
}

TEST_CASE("error: duplicate kernel names", "[cli][error]") {
  expect_spec_error(
      kernels({kernel("[4]", "[0]", R"("name": "k")"), kernel("[8]", "[0]", R"("name": "k")")}),
      {"a.json: /kernels/1/name: kernel name \"k\" is already used by a.json: "
       "/kernels/0/name"});
  Workspace w;  // across files
  w.dir.write("a.json", kernel("[4]", "[0]", R"("name": "k")"));
  w.dir.write("b.json", kernel("[8]", "[0]", R"("name": "k")"));
  check_user_error(w.run({"generate", "a.json", "b.json", "-o", "out.cpp"}),
                   {"b.json: /name: kernel name \"k\" is already used by a.json: /name"});
  CHECK(w.dir.entries() == std::vector<std::string>{"a.json", "b.json"});
}

TEST_CASE("error: missing required field", "[cli][error]") {
  expect_spec_error(R"({"dtype": "int8", "perm": [0], "isa": "scalar"})",
                    {"a.json: missing required field \"shape\""});
  expect_spec_error(kernels({R"({"dtype": "int8", "shape": [4], "perm": [0]})"}),
                    {"a.json: /kernels/0: missing required field \"isa\" (or give --isa)"});
  expect_flags_error({"--shape", "4", "--perm", "0", "--isa", "scalar"}, {"--dtype: missing"});
}

TEST_CASE("error: name is not a C identifier", "[cli][error]") {
  expect_spec_error(kernel("[4]", "[0]", R"("name": "my-kernel")"),
                    {"a.json: /name: \"my-kernel\" is not a C identifier"});
  expect_spec_error(kernel("[4]", "[0]", R"("name": "int")"), {"a.json: /name", "keyword"});
  expect_flags_error(
      {"--shape", "4", "--perm", "0", "--dtype", "int8", "--isa", "scalar", "--name", "9lives"},
      {"--name: \"9lives\" is not a C identifier"});
}

TEST_CASE("error: -o and --out-dir both, or neither", "[cli][error]") {
  Workspace w;
  w.dir.write("a.json", kernel("[4]", "[0]"));
  check_user_error(w.run({"generate", "a.json", "-o", "out.cpp", "--out-dir", "."}),
                   {"-o", "--out-dir", "not both"});
  check_user_error(w.run({"generate", "a.json"}), {"generate needs -o", "--out-dir"});
  CHECK(w.dir.entries() == std::vector<std::string>{"a.json"});
}

TEST_CASE("error: -o with kernels of different targets", "[cli][error]") {
  expect_spec_error(kernels({kernel("[4]", "[0]", R"("name": "a")"),
                             R"({"name": "b", "dtype": "int8", "shape": [4], "perm": [0],
                                 "isa": "sve", "vector_bits": 256})"}),
                    {"-o: the kernels of one file must share one target",
                     "a.json: /kernels/0 is "
                     "scalar",
                     "a.json: /kernels/1 is sve (256-bit)", "--out-dir"});
}

TEST_CASE("error: a bad later kernel means no file at all", "[cli][error]") {
  Workspace w;
  w.dir.write("a.json", kernels({kernel("[4, 3]", "[1, 0]", R"("name": "a")"),
                                 kernel("[4, 3]", "[0, 1]", R"("name": "b")"),
                                 kernel("[4, 3]", "[0, 0]", R"("name": "c")")}));
  check_user_error(w.run({"generate", "a.json", "--out-dir", "."}), {"a.json: /kernels/2/perm/1"});
  w.dir.write("b.json", kernel("[2]", "[3]"));
  check_user_error(w.run({"generate", "a.json", "b.json", "-o", "out.cpp"}),
                   {"a.json: /kernels/2/perm/1"});
  CHECK(w.dir.entries() == std::vector<std::string>{"a.json", "b.json"});
}

TEST_CASE("error: spec files and problem flags together, or no problem", "[cli][error]") {
  Workspace w;
  w.dir.write("a.json", kernel("[4]", "[0]"));
  check_user_error(w.run({"generate", "a.json", "--shape", "4", "-o", "out.cpp"}),
                   {"give either spec files (a.json) or problem flags"});
  check_user_error(w.run({"generate", "-o", "out.cpp"}), {"no problem given"});
  check_user_error(w.run({"generate", "missing.json", "-o", "out.cpp"}),
                   {"missing.json: cannot read the spec: No such file or directory"});
  CHECK(w.dir.entries() == std::vector<std::string>{"a.json"});
}

TEST_CASE("error: command-line syntax", "[cli][error]") {
  Workspace w;
  check_user_error(w.run({}), {"A subcommand is required", "gentt-gen --help"});
  check_user_error(w.run({"frobnicate"}), {"frobnicate"});
  check_user_error(w.run({"generate", "--bogus"}), {"--bogus", "gentt-gen generate --help"});
  check_user_error(w.run({"generate", "--vector-bits", "wide"}), {"--vector-bits"});
}

}  // namespace
}  // namespace gentt::test
