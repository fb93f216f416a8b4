#include "core/AtomicFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace iso {

namespace {

// Writes are gathered into blocks of this size: few system calls for CSV rows, no copy of large arrays.
constexpr std::size_t kBufferBytes = std::size_t(1) << 20;

std::string reason(int error) { return std::strerror(error); }

// A name in the target's directory (rename only replaces atomically within one file system), hidden,
// and unique among the processes and threads that write the same target at once.
std::string temporaryName(const std::filesystem::path& target) {
  static std::atomic<unsigned> counter{0};
  std::string name(1, '.');  // built by append: GCC 12 warns falsely (-Wrestrict) on "." + string
  name.append(target.filename().string())
      .append(".")
      .append(std::to_string(::getpid()))
      .append(".")
      .append(std::to_string(counter.fetch_add(1)))
      .append(".tmp");
  return (target.parent_path() / name).string();
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) throw FileWriteError("cannot write a file with an empty name");
  std::filesystem::path target(path_);
  // Writing through a symbolic link replaces the file it points to, not the link.
  std::error_code ec;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(target, ec))) {
    target = std::filesystem::weakly_canonical(target, ec);
    if (ec) fail("cannot resolve the symbolic link", ec.value());
  }
  if (std::filesystem::is_directory(target, ec)) throw FileWriteError("'" + path_ + "': is a directory");
  if (!target.has_parent_path()) target = std::filesystem::path(".") / target;
  targetPath_ = target.string();
  for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
    tempPath_ = temporaryName(target);
    fd_ = ::open(tempPath_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // umask applies
    if (fd_ < 0 && errno != EEXIST) break;
  }
  if (fd_ < 0) {
    const int error = errno;
    tempPath_.clear();
    fail("cannot create a file in its folder", error);
  }
  // Replacing a file keeps its permissions (a group-writable scenario stays group-writable).
  struct stat existing {};
  if (::stat(targetPath_.c_str(), &existing) == 0 && S_ISREG(existing.st_mode))
    ::fchmod(fd_, existing.st_mode & 07777);  // best effort: the content matters, the mode is a courtesy
}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::write(const void* data, std::size_t bytes) {
  if (fd_ < 0) throw FileWriteError("'" + path_ + "': write after the file was committed or failed");
  const char* p = static_cast<const char*>(data);
  if (buffer_.size() + bytes <= kBufferBytes) {
    buffer_.append(p, bytes);
    return;
  }
  flushBuffer();
  if (bytes < kBufferBytes)
    buffer_.append(p, bytes);
  else
    writeAll(p, bytes);
}

void AtomicFile::flushBuffer() {
  writeAll(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void AtomicFile::writeAll(const char* data, std::size_t bytes) {
  while (bytes > 0) {
    // One call writes at most ~2 GiB on Linux; a short write (disk nearly full) is followed by one
    // that reports the error.
    const ssize_t n = ::write(fd_, data, std::min<std::size_t>(bytes, std::size_t(1) << 30));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write failed", errno);
    }
    if (n == 0) fail("write failed", EIO);
    data += n;
    bytes -= std::size_t(n);
  }
}

void AtomicFile::commit() {
  if (fd_ < 0) throw FileWriteError("'" + path_ + "': commit after the file was committed or failed");
  flushBuffer();
  if (::fsync(fd_) != 0) fail("flushing to disk failed", errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("closing failed", errno);
  if (::rename(tempPath_.c_str(), targetPath_.c_str()) != 0) fail("replacing the file failed", errno);
  tempPath_.clear();
  // The rename itself reaches the disk with the folder's metadata. Best effort: the new file is in
  // place whatever happens here, and some file systems refuse to sync a folder.
  const std::string folder = std::filesystem::path(targetPath_).parent_path().string();
  const int dirFd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirFd >= 0) {
    ::fsync(dirFd);
    ::close(dirFd);
  }
}

void AtomicFile::fail(const std::string& what, int error) {
  discard();
  throw FileWriteError("'" + path_ + "': " + what + ": " + reason(error) + " (nothing was written; " +
                       "any previous file is unchanged)");
}

void AtomicFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!tempPath_.empty()) ::unlink(tempPath_.c_str());
  tempPath_.clear();
  buffer_.clear();
}

void writeFileAtomically(const std::string& path, std::string_view contents) {
  AtomicFile file(path);
  file.write(contents);
  file.commit();
}

}  // namespace iso
