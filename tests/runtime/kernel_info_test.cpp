// gentt_kernel_info: a descriptor defined in C (kernel_info_c_kernel.c) reads the same from
// C++, describes its kernel correctly, and its entry points obey the ABI (run_part: any number
// of parts, disjoint, union = whole), checked against reference_permute.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gentt/kernel_info.h"
#include "gentt/reference.h"
#include "tests/runtime/permute_test_util.h"

extern "C" const gentt_kernel_info gentt_test_c_kernel_info;
extern "C" const std::size_t gentt_test_c_kernel_info_layout[13];

TEST_CASE("C and C++ agree on the gentt_kernel_info layout", "[kernel_info]") {
  const std::size_t cxx_layout[13] = {
      offsetof(gentt_kernel_info, version),    offsetof(gentt_kernel_info, name),
      offsetof(gentt_kernel_info, isa),        offsetof(gentt_kernel_info, vector_bits),
      offsetof(gentt_kernel_info, elem_bytes), offsetof(gentt_kernel_info, rank),
      offsetof(gentt_kernel_info, shape),      offsetof(gentt_kernel_info, perm),
      offsetof(gentt_kernel_info, run),        offsetof(gentt_kernel_info, run_part),
      offsetof(gentt_kernel_info, features),   offsetof(gentt_kernel_info, feature_names),
      sizeof(gentt_kernel_info)};
  for (int i = 0; i < 13; ++i) {
    INFO("layout entry " << i);
    CHECK(gentt_test_c_kernel_info_layout[i] == cxx_layout[i]);
  }
}

TEST_CASE("a kernel is described and called through its descriptor", "[kernel_info]") {
  const gentt_kernel_info& info = gentt_test_c_kernel_info;
  REQUIRE(info.version == GENTT_KERNEL_INFO_VERSION);
  CHECK(std::string(info.name) == "gentt_test_c_kernel");
  CHECK(std::string(info.isa) == "scalar");
  CHECK(info.features == 0);
  CHECK(std::string(info.feature_names) == "");
  REQUIRE(info.rank == 3);
  REQUIRE(info.run != nullptr);
  REQUIRE(info.run_part != nullptr);

  const std::vector<std::int64_t> shape(info.shape, info.shape + info.rank);
  const std::vector<int> perm(info.perm, info.perm + info.rank);
  const auto elem_size = static_cast<std::size_t>(info.elem_bytes);
  std::mt19937_64 rng(5);
  const auto in = gentt::test::random_bytes(
      rng, static_cast<std::size_t>(gentt::test::element_count(shape)) * elem_size);
  std::vector<std::byte> expected(in.size());
  gentt::reference_permute(in.data(), expected.data(), elem_size, shape, perm);
  const auto out_shape = gentt::permuted_shape(shape, perm);

  SECTION("run") {
    std::vector<std::byte> out(in.size());
    info.run(in.data(), out.data());
    CHECK(gentt::test::first_difference(expected, out, elem_size, out_shape) == "");
  }
  SECTION("run_part, with more or fewer parts than elements") {
    for (int nparts = 1; nparts <= 30; ++nparts) {
      // Each part writes its own byte value into a marker copy: a byte written twice or never
      // shows up as a wrong marker.
      std::vector<std::byte> out(in.size());
      std::vector<int> writer(in.size(), -1);
      for (int part = nparts - 1; part >= 0; --part) {  // any order is allowed
        std::vector<std::byte> marker(in.size(), std::byte{0});
        std::vector<std::byte> ones(in.size(), std::byte{1});
        info.run_part(ones.data(), marker.data(), part, nparts);
        for (std::size_t b = 0; b < marker.size(); ++b) {
          if (marker[b] == std::byte{0}) continue;
          INFO("nparts " << nparts << ": byte " << b << " written by parts " << writer[b]
                         << " and " << part);
          REQUIRE(writer[b] == -1);
          writer[b] = part;
        }
        info.run_part(in.data(), out.data(), part, nparts);
      }
      for (std::size_t b = 0; b < writer.size(); ++b) {
        INFO("nparts " << nparts << ": byte " << b << " written by no part");
        REQUIRE(writer[b] != -1);
      }
      CHECK(gentt::test::first_difference(expected, out, elem_size, out_shape) == "");
    }
  }
}
