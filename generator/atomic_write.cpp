#include "generator/atomic_write.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>
#include <utility>

#include "ir/error.h"

namespace gentt {

namespace {

[[noreturn]] void throw_errno(int err, std::string_view action, const std::filesystem::path& path) {
  throw std::system_error(err, std::generic_category(),
                          fmt::format("cannot {} '{}'", action, path.string()));
}

// The mode a plain open(O_CREAT, 0666) would give, rather than mkstemp's 0600: outputs are
// ordinary build products.
mode_t default_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path path) : path_(std::move(path)) {
  std::error_code ec;
  if (std::filesystem::is_directory(path_, ec)) throw_errno(EISDIR, "write", path_);

  const std::filesystem::path dir = path_.has_parent_path() ? path_.parent_path() : ".";
  std::string pattern = (dir / ("." + path_.filename().string() + ".tmp-XXXXXX")).string();
  fd_ = ::mkstemp(pattern.data());
  if (fd_ < 0) throw_errno(errno, "write", path_);
  temp_ = pattern;
  if (::fchmod(fd_, default_file_mode()) != 0) {
    const int err = errno;
    discard();
    throw_errno(err, "write", path_);
  }
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)),
      temp_(std::exchange(other.temp_, {})),
      fd_(std::exchange(other.fd_, -1)) {}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
}

void AtomicFile::commit(std::string_view contents) {
  GENTT_CHECK(fd_ >= 0 && !temp_.empty(), "AtomicFile::commit called twice");
  const auto fail = [&](std::string_view action) {
    const int err = errno;
    discard();
    throw_errno(err, action, path_);
  };
  while (!contents.empty()) {
    const ssize_t n = ::write(fd_, contents.data(), contents.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("write");
    contents.remove_prefix(static_cast<size_t>(n));
  }
  if (::fsync(fd_) != 0) fail("write");
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) fail("write");
  if (::rename(temp_.c_str(), path_.c_str()) != 0) fail("replace");
  temp_.clear();
}

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  AtomicFile(path).commit(contents);
}

}  // namespace gentt
