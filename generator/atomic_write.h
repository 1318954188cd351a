// Files that appear complete or not at all.
//
// An AtomicFile creates a temporary file next to its destination (same directory, so the
// final rename is atomic), and commit() writes, syncs and renames it into place. If anything
// fails, or the AtomicFile is destroyed without commit(), the temporary is removed: a crash
// or an error never leaves a truncated output where a build expects a complete one.
//
// Creating the AtomicFile is also the honest writability check: it fails exactly when the
// real write would (missing directory, no permission, read-only file system), with the
// OS's reason, before any work is done.
#pragma once

#include <filesystem>
#include <string_view>

namespace gentt {

class AtomicFile {
 public:
  // Creates the temporary. Throws std::system_error (naming `path`) when it cannot, or when
  // `path` is an existing directory.
  explicit AtomicFile(std::filesystem::path path);
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&&) = delete;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();  // removes the temporary unless committed

  // Writes `contents`, flushes them to disk and renames the temporary over the destination
  // (replacing an existing file). Throws std::system_error on failure, after removing the
  // temporary. At most once.
  void commit(std::string_view contents);

  const std::filesystem::path& path() const { return path_; }

 private:
  void discard() noexcept;

  std::filesystem::path path_;  // destination
  std::filesystem::path temp_;  // the temporary; empty once committed or discarded
  int fd_ = -1;
};

// Writes `contents` to `path` atomically (AtomicFile + commit).
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

}  // namespace gentt
