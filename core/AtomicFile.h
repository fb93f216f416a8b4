#pragma once
// Writes a file whole or not at all: the bytes go to a temporary file in the target's directory, which
// replaces the target (rename) only once every write, the flush to disk and the close have succeeded.
// A full disk, a quota or a killed process therefore leaves the previous file as it was, never a
// truncated one. Errors are FileWriteError naming the path and the operating system's reason.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace iso {

struct FileWriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class AtomicFile {
 public:
  // Creates the temporary file next to `path` (throws FileWriteError when it cannot).
  explicit AtomicFile(std::string path);
  // Without commit(), removes the temporary file: the target is left untouched.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, std::size_t bytes);  // buffered; throws FileWriteError
  void write(std::string_view text) { write(text.data(), text.size()); }
  // Flushes, syncs to disk, closes and renames over the target. Throws FileWriteError; after a
  // failure the temporary file is removed and the target is unchanged.
  void commit();

  const std::string& path() const { return path_; }

 private:
  void flushBuffer();
  void writeAll(const char* data, std::size_t bytes);
  [[noreturn]] void fail(const std::string& what, int error);
  void discard() noexcept;

  std::string path_;        // as the caller named it, for messages
  std::string targetPath_;  // the file replaced: path_ with a symbolic link resolved
  std::string tempPath_;
  int fd_ = -1;
  std::string buffer_;
};

// The whole of `contents` as the file at `path`, atomically (AtomicFile).
void writeFileAtomically(const std::string& path, std::string_view contents);

}  // namespace iso
