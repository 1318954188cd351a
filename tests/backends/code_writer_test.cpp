#include <catch2/catch.hpp>

#include "backends/code_writer.h"

using gentt::CodeWriter;

TEST_CASE("nested blocks indent themselves", "[code_writer]") {
  CodeWriter w;
  w.block("void f()", [&] {
    w.line("int x = 0;");
    w.block("if (x)", [&] { w.linef("x = {};", 1); });
    w.line("");
  });
  CHECK(w.str() == "void f() {\n  int x = 0;\n  if (x) {\n    x = 1;\n  }\n\n}\n");
}

TEST_CASE("comments: one line per line, empty lines as //", "[code_writer]") {
  CodeWriter w;
  w.comment("a\n\nb\n");
  w.comment("");
  CHECK(w.str() == "// a\n//\n// b\n//\n");
}
