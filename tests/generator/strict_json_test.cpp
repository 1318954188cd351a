// Tests of generator/strict_json.cpp.
#include "generator/strict_json.h"

#include <catch2/catch.hpp>

#include "ir/error.h"

namespace gentt {
namespace {

std::string json_error(std::string_view text) {
  try {
    parse_strict_json(text);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("parse_strict_json parses and keeps key order", "[strict_json]") {
  const nlohmann::ordered_json j = parse_strict_json(R"({"b": 1, "a": [true, {"c": null}]})");
  CHECK(j.dump() == R"({"b":1,"a":[true,{"c":null}]})");
}

TEST_CASE("duplicate keys are named by JSON pointer", "[strict_json]") {
  CHECK(json_error(R"({"a": 1, "a": 2})") ==
        "/a: duplicate key; each field may appear once per object");
  CHECK_THAT(json_error(R"({"kernels": [{"x": 1}, {"y": [1, {"z": 0}], "y": 2}]})"),
             Catch::StartsWith("/kernels/1/y: duplicate key"));
  // Array indices advance past scalars and containers alike.
  CHECK_THAT(json_error(R"([1, [2, 3], {"k": 4}, "s", {"k": 5, "k": 6}])"),
             Catch::StartsWith("/4/k: duplicate key"));
  CHECK_THAT(json_error(R"({"a/b": {"~": 1, "~": 2}})"),
             Catch::StartsWith("/a~1b/~0: duplicate key"));
  // The same key in different objects is fine.
  CHECK(json_error(R"([{"a": 1}, {"a": 2}, {"o": {"a": 3}}])").empty());
}

TEST_CASE("malformed JSON gives the byte position", "[strict_json]") {
  CHECK(json_error(R"({"a": 1,})") ==
        "malformed JSON at byte 9: parse error at line 1, column 9: syntax error while parsing "
        "object key - unexpected '}'; expected string literal");
  CHECK_THAT(json_error("{\n  \"a\": tru }"), Catch::StartsWith("malformed JSON at byte "));
  CHECK_THAT(json_error("{\n  \"a\": tru }"), Catch::Contains("line 2"));
  CHECK_THAT(json_error(""), Catch::StartsWith("malformed JSON at byte 1:"));
  CHECK_THAT(json_error("[1e400]"), Catch::StartsWith("malformed JSON: number overflow"));
}

TEST_CASE("json_pointer_token escapes ~ and /", "[strict_json]") {
  CHECK(json_pointer_token("plain") == "plain");
  CHECK(json_pointer_token("a/b~c") == "a~1b~0c");
}

}  // namespace
}  // namespace gentt
