// Kernel check for cross-compiled (ARM) kernels, run under qemu-aarch64: the same checks as
// kernel_check_test.cpp without dlopen or Catch2. The kernels are linked in statically with
// their case list (arm_cases.h: each kernel's NAME_info and its problem). Every kernel runs with guard pages on both sides of both
// tensors (an overrun or underrun crashes), whole, in parts in any order and from two threads,
// and must match gentt::reference_permute bit for bit.
//
//   arm_kernel_check            check every case; prints "N passed, M failed"; exit 1 on failure
//   arm_kernel_check --first    run the first kernel once (the SVE vector length test)
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gentt/kernel_info.h"
#include "gentt/reference.h"
#include "tests/e2e/arm_cases.h"
#include "tests/e2e/check_set.h"
#include "tests/runtime/guarded_buffer.h"

using gentt::test::GuardedBuffer;

namespace {

// The case running now, named by the crash handler: a guard page hit is a SIGSEGV.
const char* volatile g_current = "";

void report_crash(int signal) {
  const char* what = signal == SIGSEGV ? "FAILED (SIGSEGV: memory outside the tensors?) " : "FAILED (signal) ";
  (void)!write(2, what, std::strlen(what));
  (void)!write(2, g_current, std::strlen(g_current));
  (void)!write(2, "\n", 1);
  _exit(3);
}

// What is wrong with a case's descriptor, or "" when it matches the spec.
std::string check_info(const ArmCase& c) {
  const gentt_kernel_info& info = *c.info;
  if (info.version != GENTT_KERNEL_INFO_VERSION) return "descriptor version";
  if (std::string(info.name) != c.name) return "descriptor name";
  if (info.elem_bytes != c.elem_bytes) return "descriptor elem_bytes";
  if (info.rank != static_cast<int>(c.shape.size())) return "descriptor rank";
  for (int a = 0; a < info.rank; ++a)
    if (info.shape[a] != c.shape[a] || info.perm[a] != c.perm[a]) return "descriptor shape or perm";
  if (info.run == nullptr || info.run_part == nullptr) return "descriptor entry points";
  return "";
}

bool same(const GuardedBuffer& a, const std::vector<unsigned char>& b) {
  return std::memcmp(a.data(), b.data(), b.size()) == 0;
}

// Runs one case; returns "" or what failed.
std::string check_case(const ArmCase& c, std::mt19937_64& rng) {
  if (std::string what = check_info(c); !what.empty()) return what;
  std::int64_t n = 1;
  for (std::int64_t e : c.shape) n *= e;
  const std::size_t bytes = static_cast<std::size_t>(n * c.elem_bytes);
  std::vector<unsigned char> source(bytes), want(bytes);
  for (auto& b : source) b = static_cast<unsigned char>(rng());
  gentt::reference_permute(source.data(), want.data(), static_cast<std::size_t>(c.elem_bytes), c.shape, c.perm);

  const gentt::test::CheckSet checks = gentt::test::check_set(bytes);
  for (auto align : checks.aligns) {
    const char* where = align == GuardedBuffer::Align::end ? " (buffers end at a guard page)"
                                                           : " (buffers start at a guard page)";
    GuardedBuffer in(bytes, align), out(bytes, align);
    std::memcpy(in.data(), source.data(), bytes);
    std::memset(out.data(), 0xA5, bytes);
    c.info->run(in.data(), out.data());
    if (!same(out, want)) return std::string("whole") + where;

    for (int nparts : checks.part_counts) {
      std::memset(out.data(), 0x5A, bytes);
      for (int p = nparts - 1; p >= 0; --p) c.info->run_part(in.data(), out.data(), p, nparts);
      if (!same(out, want)) return "in " + std::to_string(nparts) + " parts" + where;
    }

    std::memset(out.data(), 0xC3, bytes);
    constexpr int kParts = 5;
    std::thread other([&] {
      for (int p = 1; p < kParts; p += 2) c.info->run_part(in.data(), out.data(), p, kParts);
    });
    for (int p = 0; p < kParts; p += 2) c.info->run_part(in.data(), out.data(), p, kParts);
    other.join();
    if (!same(out, want)) return std::string("from two threads") + where;
  }
  return "";
}

std::string join(const std::vector<std::int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (kArmCaseCount == 0) {
    std::fprintf(stderr, "arm_kernel_check: no cases were linked in\n");
    return 1;
  }
  const bool first_only = argc > 1 && std::string(argv[1]) == "--first";
  if (first_only) {
    const ArmCase& c = kArmCases[0];
    std::int64_t n = 1;
    for (std::int64_t e : c.shape) n *= e;
    std::vector<unsigned char> in(static_cast<std::size_t>(n * c.elem_bytes)), out(in.size());
    c.info->run(in.data(), out.data());
    std::printf("%s ran\n", c.name);
    return 0;
  }
  std::signal(SIGSEGV, report_crash);
  std::signal(SIGBUS, report_crash);
  std::mt19937_64 rng(99);
  int passed = 0, failed = 0;
  for (int i = 0; i < kArmCaseCount; ++i) {
    const ArmCase& c = kArmCases[i];
    g_current = c.name;
    const std::string what = check_case(c, rng);
    if (what.empty()) {
      ++passed;
      continue;
    }
    ++failed;
    std::vector<std::int64_t> perm(c.perm.begin(), c.perm.end());
    std::printf("FAILED %s: elem_bytes %lld shape (%s) perm (%s): %s\n", c.name, c.elem_bytes, join(c.shape).c_str(),
                join(perm).c_str(), what.c_str());
  }
  std::printf("%s: %d passed, %d failed\n", kArmCases[0].info->isa, passed, failed);
  return failed == 0 ? 0 : 1;
}
