// GuardedBuffer: the usable bytes sit exactly against a guard page, every usable byte can be
// read and written, and touching the first byte beyond either end crashes (checked in a forked
// child, so the crash does not take the test runner down).
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <functional>

#include "tests/runtime/guarded_buffer.h"

namespace {

using gentt::test::GuardedBuffer;

// Runs touch() in a forked child and reports whether the child died of a memory fault.
// Under AddressSanitizer the fault is reported by its handler, which exits non-zero instead.
bool faults(const std::function<void()>& touch) {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);  // an expected crash should not leave a core file
    // Catch2's fatal-signal handler would report a failure and carry on running tests here.
    std::signal(SIGSEGV, SIG_DFL);
    std::signal(SIGBUS, SIG_DFL);
    touch();
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  if (WIFSIGNALED(status)) return WTERMSIG(status) == SIGSEGV || WTERMSIG(status) == SIGBUS;
#if defined(__SANITIZE_ADDRESS__)
  return WIFEXITED(status) && WEXITSTATUS(status) != 0;
#else
  return false;
#endif
}

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

}  // namespace

TEST_CASE("GuardedBuffer places its bytes against a guard page", "[guarded_buffer]") {
  const std::size_t page = GuardedBuffer::page_size();
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{3}, std::size_t{12}, page - 1, page,
                                  page + 1, 3 * page + 5}) {
    DYNAMIC_SECTION(bytes << " bytes") {
      GuardedBuffer end(bytes, GuardedBuffer::Align::end);
      GuardedBuffer start(bytes, GuardedBuffer::Align::start);
      CHECK(end.size() == bytes);
      CHECK(start.size() == bytes);
      CHECK(address(end.data() + bytes) % page == 0);  // ends at a page boundary
      CHECK(address(start.data()) % page == 0);        // starts at a page boundary
      for (GuardedBuffer* buffer : {&end, &start}) {
        for (std::byte b : buffer->bytes()) REQUIRE(b == std::byte{0});
        buffer->data()[0] = std::byte{0x5A};
        buffer->data()[bytes - 1] = std::byte{0xA5};
        CHECK(buffer->data()[0] == (bytes == 1 ? std::byte{0xA5} : std::byte{0x5A}));
        CHECK(buffer->data()[bytes - 1] == std::byte{0xA5});
      }
    }
  }
}

TEST_CASE("GuardedBuffer keeps element alignment at the end", "[guarded_buffer]") {
  // 7 doubles end at a page boundary, so they start 8-byte aligned.
  GuardedBuffer buffer(7 * sizeof(double));
  CHECK(address(buffer.data()) % alignof(double) == 0);
}

TEST_CASE("GuardedBuffer can be moved", "[guarded_buffer]") {
  GuardedBuffer a(100);
  std::byte* data = a.data();
  GuardedBuffer b(std::move(a));
  CHECK(b.data() == data);
  CHECK(b.size() == 100);
  CHECK(a.size() == 0);
  GuardedBuffer c(10);
  c = std::move(b);
  CHECK(c.data() == data);
  c.data()[99] = std::byte{1};
}

TEST_CASE("GuardedBuffer faults one byte beyond either end", "[guarded_buffer]") {
  for (const auto align : {GuardedBuffer::Align::end, GuardedBuffer::Align::start}) {
    GuardedBuffer buffer(100, align);
    volatile std::byte* data = buffer.data();
    // The fenced side faults at the very next byte; the other side after at most a page of slack.
    const std::ptrdiff_t past_end = align == GuardedBuffer::Align::end
                                        ? 100
                                        : static_cast<std::ptrdiff_t>(GuardedBuffer::page_size());
    const std::ptrdiff_t before_start =
        align == GuardedBuffer::Align::start
            ? -1
            : -static_cast<std::ptrdiff_t>(GuardedBuffer::page_size() - 100) - 1;
    CHECK_FALSE(faults([&] { data[0] = data[99]; }));
    CHECK(faults([&] { data[past_end] = std::byte{1}; }));
    CHECK(faults([&] { (void)data[past_end]; }));
    CHECK(faults([&] { data[before_start] = std::byte{1}; }));
    CHECK(faults([&] { (void)data[before_start]; }));
  }
}
