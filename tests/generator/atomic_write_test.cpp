// Tests of generator/atomic_write.cpp: outputs appear complete or not at all.
#include "generator/atomic_write.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <system_error>

#include "temp_dir.h"

namespace gentt {
namespace {

TEST_CASE("write_file_atomically creates and replaces files", "[atomic_write]") {
  test::TempDir dir;
  write_file_atomically(dir / "out.cpp", "first");
  CHECK(test::read_file(dir / "out.cpp") == "first");
  write_file_atomically(dir / "out.cpp", "second, longer");
  CHECK(test::read_file(dir / "out.cpp") == "second, longer");
  CHECK(dir.entries() == std::vector<std::string>{"out.cpp"});  // no temporary left
}

TEST_CASE("an AtomicFile not committed leaves nothing", "[atomic_write]") {
  test::TempDir dir;
  dir.write("keep.cpp", "old");
  {
    AtomicFile a(dir / "new.cpp");
    AtomicFile b(dir / "keep.cpp");
    CHECK(dir.entries().size() == 3);  // keep.cpp and two temporaries
  }
  CHECK(dir.entries() == std::vector<std::string>{"keep.cpp"});
  CHECK(test::read_file(dir / "keep.cpp") == "old");
}

TEST_CASE("AtomicFile can be moved into a container", "[atomic_write]") {
  test::TempDir dir;
  std::vector<AtomicFile> files;
  files.emplace_back(dir / "a.cpp");
  files.emplace_back(dir / "b.cpp");
  files[1].commit("b");
  files.clear();
  CHECK(dir.entries() == std::vector<std::string>{"b.cpp"});
}

TEST_CASE("unwritable destinations fail before anything is written", "[atomic_write]") {
  test::TempDir dir;
  const auto reason = [](const std::filesystem::path& path) {
    try {
      AtomicFile file(path);
    } catch (const std::system_error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(reason(dir / "missing/out.cpp") ==
        "cannot write '" + (dir / "missing/out.cpp").string() + "': No such file or directory");
  dir.write("file", "");
  CHECK_THAT(reason(dir / "file/out.cpp"), Catch::EndsWith("Not a directory"));
  std::filesystem::create_directory(dir / "sub");
  CHECK_THAT(reason(dir / "sub"), Catch::EndsWith("Is a directory"));
  CHECK(dir.entries() == std::vector<std::string>{"file", "sub"});
}

TEST_CASE("committed files get the ordinary mode, not mkstemp's 0600", "[atomic_write]") {
  test::TempDir dir;
  const mode_t mask = ::umask(022);
  write_file_atomically(dir / "out.cpp", "x");
  ::umask(mask);
  struct stat st {};
  REQUIRE(::stat((dir / "out.cpp").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0644);
}

}  // namespace
}  // namespace gentt
