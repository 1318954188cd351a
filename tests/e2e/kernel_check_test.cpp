// Kernel check: every kernel that the real gentt-gen generated from the given specs is loaded
// from the compiled module (gentt_kernel_module, specs gentt_kernel_specs: kernel_check_config.h)
// and run with guard pages on both sides of both tensors (overruns and
// underruns crash), whole, in parts in any order, and from two threads; every result must be
// the reference's bit for bit.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "gentt/cpu.h"
#include "gentt/kernel_info.h"
#include "gentt/reference.h"
#include "ir/problem.h"
#include "tests/e2e/check_set.h"
#include "tests/e2e/kernel_check_config.h"
#include "tests/runtime/guarded_buffer.h"

using gentt::test::check_set;
using gentt::test::CheckSet;
using gentt::test::GuardedBuffer;

namespace {

struct Case {
  std::string name;
  int64_t elem_bytes;
  std::vector<int64_t> shape;
  std::vector<int> perm;
};

std::vector<Case> read_cases() {
  std::vector<Case> cases;
  std::stringstream paths(gentt_kernel_specs);
  for (std::string path; std::getline(paths, path, '|');) {
    std::ifstream f(path);
    REQUIRE(f.good());
    const auto spec = nlohmann::json::parse(f);
    for (const auto& k : spec.at("kernels")) {
      const auto dtype = gentt::parse_dtype(k.at("dtype").get<std::string>());
      REQUIRE(dtype.has_value());
      cases.push_back({k.at("name"), dtype->bytes, k.at("shape"), k.at("perm")});
    }
  }
  return cases;
}

class Module {
 public:
  Module() : handle_(dlopen(gentt_kernel_module, RTLD_NOW | RTLD_LOCAL)) {
    if (!handle_) FAIL(fmt::format("dlopen failed: {}", dlerror()));
  }
  ~Module() { dlclose(handle_); }
  void* symbol(const std::string& name) const { return dlsym(handle_, name.c_str()); }

 private:
  void* handle_;
};

void fill(GuardedBuffer& b, unsigned char value) { std::memset(b.data(), value, b.size()); }

bool same(const GuardedBuffer& a, const std::vector<unsigned char>& b) {
  return std::memcmp(a.data(), b.data(), b.size()) == 0;
}

}  // namespace

TEST_CASE("generated kernels match the reference, whole, in parts and threaded", "[kernels]") {
  const Module module;
  const auto cases = read_cases();
  REQUIRE(!cases.empty());
  {
    const auto* first = static_cast<const gentt_kernel_info*>(module.symbol(cases.front().name + "_info"));
    REQUIRE(first != nullptr);
    // Kernels built against an emulation header (gentt_kernel_emulated) are plain C++; others
    // run where the CPU has every feature they declare.
    if (!gentt_kernel_emulated && !gentt::cpu_has(first->features)) {
      WARN(fmt::format("skipped: this CPU cannot run {} kernels", first->isa));
      return;
    }
  }
  std::mt19937_64 rng(99);
  for (const Case& c : cases) {
    INFO(fmt::format("{}: elem_bytes {} shape ({}) perm ({})", c.name, c.elem_bytes, fmt::join(c.shape, ","),
                     fmt::join(c.perm, ",")));
    const auto* info = static_cast<const gentt_kernel_info*>(module.symbol(c.name + "_info"));
    REQUIRE(info != nullptr);
    REQUIRE(info->version == GENTT_KERNEL_INFO_VERSION);
    CHECK(std::string(info->name) == c.name);
    CHECK(info->elem_bytes == c.elem_bytes);
    REQUIRE(info->rank == static_cast<int>(c.shape.size()));
    CHECK(std::vector<int64_t>(info->shape, info->shape + info->rank) == c.shape);
    CHECK(std::vector<int>(info->perm, info->perm + info->rank) == c.perm);
    REQUIRE(info->run == module.symbol(c.name));
    REQUIRE(info->run_part == module.symbol(c.name + "_part"));

    int64_t n = 1;
    for (int64_t e : c.shape) n *= e;
    const size_t bytes = static_cast<size_t>(n * c.elem_bytes);
    std::vector<unsigned char> source(bytes), want(bytes);
    for (auto& b : source) b = static_cast<unsigned char>(rng());
    gentt::reference_permute(source.data(), want.data(), c.elem_bytes, c.shape, c.perm);

    const CheckSet checks = check_set(bytes);
    for (auto align : checks.aligns) {
      GuardedBuffer in(bytes, align), out(bytes, align);
      std::memcpy(in.data(), source.data(), bytes);
      fill(out, 0xA5);
      info->run(in.data(), out.data());
      REQUIRE(same(out, want));

      for (int nparts : checks.part_counts) {
        fill(out, 0x5A);
        for (int p = nparts - 1; p >= 0; --p) info->run_part(in.data(), out.data(), p, nparts);
        INFO("parts: " << nparts);
        REQUIRE(same(out, want));
      }

      fill(out, 0xC3);
      constexpr int kParts = 5;
      std::thread other([&] {
        for (int p = 1; p < kParts; p += 2) info->run_part(in.data(), out.data(), p, kParts);
      });
      for (int p = 0; p < kParts; p += 2) info->run_part(in.data(), out.data(), p, kParts);
      other.join();
      REQUIRE(same(out, want));
    }

    // `out` one element off a 64-byte line: kernels with a streaming variant (avx512,
    // ir/stream.h) take their cached variant then. The guard is an element further away here.
    if (c.elem_bytes < 64) {
      GuardedBuffer in(bytes), spare(bytes + static_cast<size_t>(c.elem_bytes));
      std::memcpy(in.data(), source.data(), bytes);
      std::memset(spare.data(), 0x3C, spare.size());
      const bool on_line = reinterpret_cast<std::uintptr_t>(spare.data()) % 64 == 0;
      std::byte* out = spare.data() + (on_line ? c.elem_bytes : 0);
      info->run(in.data(), out);
      INFO("out misaligned by " << reinterpret_cast<std::uintptr_t>(out) % 64 << " bytes");
      REQUIRE(std::memcmp(out, want.data(), bytes) == 0);
      for (int p = 2; p >= 0; --p) info->run_part(in.data(), out, p, 3);
      REQUIRE(std::memcmp(out, want.data(), bytes) == 0);
    }
  }
}
