// GuardedBuffer: test memory fenced by inaccessible pages, so that a kernel reading or writing
// even one byte outside its tensor crashes (SIGSEGV) at the faulty access instead of silently
// corrupting a neighbour.
//
// Layout of the mapping, each cell one page:
//   [ guard | body ... body | guard ]      guards are PROT_NONE, body pages read/write.
// Align::end   puts the buffer's last byte immediately before the trailing guard page,
//              catching overruns (the usual bug). The first byte is then at the page end
//              minus size(), so alignment is whatever size() leaves: a buffer of N elements of
//              E bytes (E a power of two <= page size) is E-aligned.
// Align::start puts the buffer's first byte immediately after the leading guard page,
//              catching underruns; data() is page-aligned.
// The other end is fenced too, by up to a page of slack and then the other guard page.
// Contents start zeroed. Linux/POSIX only. For use by every test folder:
//   #include "tests/runtime/guarded_buffer.h"
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <span>
#include <system_error>
#include <utility>

namespace gentt::test {

class GuardedBuffer {
 public:
  enum class Align { end, start };

  explicit GuardedBuffer(std::size_t bytes, Align align = Align::end) : size_(bytes) {
    const std::size_t page = page_size();
    const std::size_t body = (bytes + page - 1) / page * page;
    mapping_size_ = body + 2 * page;
    void* mapping = ::mmap(nullptr, mapping_size_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap");
    mapping_ = static_cast<std::byte*>(mapping);
    if (body != 0 && ::mprotect(mapping_ + page, body, PROT_READ | PROT_WRITE) != 0) {
      const int error = errno;
      ::munmap(mapping_, mapping_size_);
      throw std::system_error(error, std::generic_category(), "mprotect");
    }
    data_ = align == Align::start ? mapping_ + page : mapping_ + page + body - bytes;
  }

  GuardedBuffer(GuardedBuffer&& other) noexcept
      : mapping_(std::exchange(other.mapping_, nullptr)),
        mapping_size_(std::exchange(other.mapping_size_, 0)),
        data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)) {}

  GuardedBuffer& operator=(GuardedBuffer&& other) noexcept {
    if (this != &other) {
      release();
      mapping_ = std::exchange(other.mapping_, nullptr);
      mapping_size_ = std::exchange(other.mapping_size_, 0);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }

  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;

  ~GuardedBuffer() { release(); }

  std::byte* data() { return data_; }
  const std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::span<std::byte> bytes() { return {data_, size_}; }
  std::span<const std::byte> bytes() const { return {data_, size_}; }

  static std::size_t page_size() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

 private:
  void release() {
    if (mapping_ != nullptr) ::munmap(mapping_, mapping_size_);
    mapping_ = nullptr;
  }

  std::byte* mapping_ = nullptr;
  std::size_t mapping_size_ = 0;
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace gentt::test
