// ir/error.h: a UserError's message is one line whatever the input it quotes.
#include <catch2/catch.hpp>

#include <string>

#include "ir/error.h"

using namespace gentt;

TEST_CASE("UserError escapes control characters in its field and problem", "[error]") {
  using namespace std::string_literals;
  const UserError e("/dt\nype", "unknown field \"dt\nype\", \x01, \t, \r, \x7f and \0"s);
  CHECK(std::string(e.what()) == R"(/dt\nype: unknown field "dt\nype", \x01, \t, \r, \x7f and \x00)");
  CHECK(e.field() == R"(/dt\nype)");
  CHECK(std::string(UserError("", "a\nb").what()) == R"(a\nb)");
  // Printable text, UTF-8 included, is kept as it is.
  CHECK(std::string(UserError("--name", "\"Größe\" is not a C identifier").what()) ==
        "--name: \"Größe\" is not a C identifier");
  // Escaping twice changes nothing (in_context makes a UserError of another's parts).
  CHECK(one_line(one_line("a\nb\x02")) == one_line("a\nb\x02"));
}
