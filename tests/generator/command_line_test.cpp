// Tests of generator/command_line.cpp: the regenerate command recorded in banners.
#include "generator/command_line.h"

#include <catch2/catch.hpp>

namespace gentt {
namespace {

TEST_CASE("shell_quote", "[command_line]") {
  CHECK(shell_quote("specs/a.json") == "specs/a.json");
  CHECK(shell_quote("--shape") == "--shape");
  CHECK(shell_quote("64,32,32,4") == "64,32,32,4");
  CHECK(shell_quote("") == "''");
  CHECK(shell_quote("my file.json") == "'my file.json'");
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_quote("$HOME") == "'$HOME'");
  CHECK(shell_quote("a\nb") == "$'a\\nb'");
  CHECK(shell_quote("a'\t\x01") == "$'a\\'\\t\\x01'");
}

TEST_CASE("regenerate_command keeps arguments as given", "[command_line]") {
  CHECK(regenerate_command({"generate", "specs/a.json", "--isa", "scalar", "-o", "out.cpp"}) ==
        "gentt-gen generate specs/a.json --isa scalar -o out.cpp");
  CHECK(regenerate_command({}) == "gentt-gen");
}

}  // namespace
}  // namespace gentt
