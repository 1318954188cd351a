// reference_permute against NumPy, byte for byte: every fixture in tests/runtime/fixtures/
// (written by scripts/make_numpy_fixtures.py; format in fixtures/README.md).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gentt/reference.h"
#include "tests/runtime/guarded_buffer.h"
#include "tests/runtime/permute_test_util.h"

namespace {

namespace fs = std::filesystem;
using gentt::test::GuardedBuffer;

const fs::path kFixtureDir = fs::path(GENTT_SOURCE_DIR) / "tests" / "runtime" / "fixtures";

struct Fixture {
  std::string dtype;
  std::size_t elem_size = 0;
  gentt::test::Shape shape;
  gentt::test::Perm perm;
  std::vector<std::byte> input;
  std::vector<std::byte> output;
};

template <typename T>
std::vector<T> parse_list(const std::string& text) {
  std::vector<T> values;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) values.push_back(static_cast<T>(std::stoll(item)));
  return values;
}

// Parses "gentt-fixture v1 dtype=D elem_size=E shape=A,B perm=P,Q\n" + input + output.
Fixture read_fixture(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open " + path.string());
  std::string header;
  std::getline(file, header);
  std::istringstream fields(header);
  std::string magic, version;
  fields >> magic >> version;
  if (magic != "gentt-fixture" || version != "v1") {
    throw std::runtime_error(path.string() + ": not a gentt-fixture v1 file");
  }
  Fixture fixture;
  bool has_shape = false, has_perm = false;
  for (std::string field; fields >> field;) {
    const std::size_t eq = field.find('=');
    const std::string key = field.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : field.substr(eq + 1);
    if (key == "dtype") fixture.dtype = value;
    if (key == "elem_size") fixture.elem_size = std::stoul(value);
    if (key == "shape") {
      fixture.shape = parse_list<std::int64_t>(value);
      has_shape = true;
    }
    if (key == "perm") {
      fixture.perm = parse_list<int>(value);
      has_perm = true;
    }
  }
  if (fixture.elem_size == 0 || !has_shape || !has_perm) {
    throw std::runtime_error(path.string() + ": header lacks elem_size, shape or perm");
  }
  std::vector<char> data{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  const std::size_t tensor_bytes =
      static_cast<std::size_t>(gentt::test::element_count(fixture.shape)) * fixture.elem_size;
  if (data.size() != 2 * tensor_bytes) {
    throw std::runtime_error(path.string() + ": expected " + std::to_string(2 * tensor_bytes) +
                             " data bytes, found " + std::to_string(data.size()));
  }
  const auto* bytes = reinterpret_cast<const std::byte*>(data.data());
  fixture.input.assign(bytes, bytes + tensor_bytes);
  fixture.output.assign(bytes + tensor_bytes, bytes + 2 * tensor_bytes);
  return fixture;
}

std::vector<fs::path> fixture_paths() {
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(kFixtureDir)) {
    if (entry.path().extension() == ".bin") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

}  // namespace

TEST_CASE("the NumPy fixtures are present", "[reference][numpy]") {
  // Guards against an empty or misplaced folder turning the next test into a no-op.
  REQUIRE(fixture_paths().size() >= 40);
}

TEST_CASE("reference_permute matches NumPy on every fixture", "[reference][numpy]") {
  for (const fs::path& path : fixture_paths()) {
    DYNAMIC_SECTION(path.filename().string()) {
      const Fixture fixture = read_fixture(path);
      INFO("dtype " << fixture.dtype << ", elem_size " << fixture.elem_size << ", shape "
                    << gentt::test::to_string(fixture.shape) << ", perm "
                    << gentt::test::to_string(fixture.perm));
      const auto out_shape = gentt::permuted_shape(fixture.shape, fixture.perm);
      for (const auto align : {GuardedBuffer::Align::end, GuardedBuffer::Align::start}) {
        GuardedBuffer in(fixture.input.size(), align), out(fixture.output.size(), align);
        std::copy(fixture.input.begin(), fixture.input.end(), in.data());
        gentt::reference_permute(in.data(), out.data(), fixture.elem_size, fixture.shape,
                                 fixture.perm);
        const std::string difference = gentt::test::first_difference(
            fixture.output, out.bytes(), fixture.elem_size, out_shape);
        INFO(difference);
        CHECK(difference.empty());
      }
    }
  }
}
