#include "generator/exit_status.h"

#include <catch2/catch.hpp>

#include <new>
#include <stdexcept>
#include <string>
#include <system_error>

#include "ir/error.h"

namespace {

template <class E>
gentt::ExitStatus status_of(const E& error) {
  return gentt::exit_status_for(std::make_exception_ptr(error));
}

}  // namespace

TEST_CASE("invalid input exits 2 with the error's message, which names the field", "[exit]") {
  std::string field = "--shape";
  field.push_back(' ');  // built at run time: GCC 12 warns wrongly on a literal field + ": " + literal
  field.pop_back();
  const gentt::ExitStatus s = status_of(gentt::UserError(field, "entry 2 \"0\" must be positive"));
  CHECK(s.code == gentt::kExitUser);
  CHECK(s.message == "--shape: entry 2 \"0\" must be positive");
}

TEST_CASE("I/O errors exit 1: a failed write, and memory running out", "[exit]") {
  const gentt::ExitStatus io =
      status_of(std::system_error(std::make_error_code(std::errc::no_space_on_device), "cannot write 'k.cpp'"));
  CHECK(io.code == gentt::kExitIo);
  CHECK_THAT(io.message, Catch::StartsWith("cannot write 'k.cpp'"));
  const gentt::ExitStatus memory = status_of(std::bad_alloc());
  CHECK(memory.code == gentt::kExitIo);
  CHECK(memory.message == "out of memory");
}

TEST_CASE("a broken invariant or any other exception exits 3 and asks for a report", "[exit]") {
  const gentt::ExitStatus internal = status_of(gentt::InternalError("lower.cpp:12: a valid element was lost"));
  CHECK(internal.code == gentt::kExitInternal);
  CHECK(internal.message == "internal error, please report: lower.cpp:12: a valid element was lost");
  const gentt::ExitStatus other = status_of(std::out_of_range("vector::at"));
  CHECK(other.code == gentt::kExitInternal);
  CHECK(other.message == "internal error, please report: unexpected exception: vector::at");
  const gentt::ExitStatus unknown = gentt::exit_status_for(std::make_exception_ptr(42));
  CHECK(unknown.code == gentt::kExitInternal);
  CHECK(unknown.message == "internal error, please report: unexpected exception of unknown type");
}
