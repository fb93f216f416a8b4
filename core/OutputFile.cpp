#include "core/OutputFile.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/TemporaryFiles.h"

namespace iso {

namespace {

namespace fs = std::filesystem;

// Writes are gathered into blocks of this size: few system calls for CSV rows, no copy of large arrays.
constexpr std::size_t kBufferBytes = std::size_t(1) << 20;
constexpr const char* kUnchanged = " (nothing was written; any previous file is unchanged)";
constexpr const char* kStreamed = " (written in place as a stream: what came before the failure stays written)";

// One write(2). On a stream, SIGPIPE is blocked around it, so that a reader that went away is the error
// EPIPE, reported like any other, and not the end of the process.
ssize_t writeOnce(int fd, const char* data, std::size_t bytes, bool stream) {
  if (!stream) return ::write(fd, data, bytes);
  sigset_t pipe, previous;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, &previous);
  const ssize_t n = ::write(fd, data, bytes);
  const int error = errno;
  if (n < 0 && error == EPIPE) {
    const timespec now{};
    sigtimedwait(&pipe, nullptr, &now);  // takes the SIGPIPE this write raised, before it is unblocked
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  errno = error;
  return n;
}

// Writes everything or returns the error (0: all written).
int writeFully(int fd, const char* data, std::size_t bytes, bool stream) {
  while (bytes > 0) {
    // One call writes at most ~2 GiB on Linux; a short write (disk nearly full) is followed by one
    // that reports the error.
    const ssize_t n = writeOnce(fd, data, std::min<std::size_t>(bytes, std::size_t(1) << 30), stream);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return EIO;
    data += n;
    bytes -= std::size_t(n);
  }
  return 0;
}

std::string withFolder(const std::string& resolved) {
  const fs::path p(resolved);
  return p.has_parent_path() ? resolved : (fs::path(".") / p).string();
}

void syncFolderOf(const std::string& path) {
  // Best effort: the rename reaches the disk with the folder's metadata, and some file systems refuse
  // to sync a folder.
  const int dirFd = ::open(fs::path(path).parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirFd >= 0) {
    ::fsync(dirFd);
    ::close(dirFd);
  }
}

bool writable(const std::string& path) { return ::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) == 0; }

// "frames/" names the folder "frames": without the trailing slashes a path's file name is its last part.
std::string withoutTrailingSlashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

}  // namespace

OutputFile::OutputFile(std::string path, bool ownerOnly) : path_(std::move(path)) {
  if (path_.empty()) throw FileWriteError("cannot write a file with an empty name");
  const FileTarget target = inspectFileTarget(path_);
  switch (target.kind) {
    case FileTargetKind::Missing:
    case FileTargetKind::Regular: openTemporary(target, ownerOnly); break;
    case FileTargetKind::Directory: throw FileWriteError("'" + shownPath(path_) + "': is a folder, not a file");
    case FileTargetKind::Refused: throw FileWriteError("'" + shownPath(path_) + "' is " + target.description + ": not written to");
    default: openStream(target); break;
  }
}

void OutputFile::openTemporary(const FileTarget& target, bool ownerOnly) {
  targetPath_ = withFolder(target.resolved);
  struct stat existing {};
  const bool replacing = target.kind == FileTargetKind::Regular && ::stat(targetPath_.c_str(), &existing) == 0;
  if (replacing && !writable(targetPath_)) fail("the file is read-only to this user", errno);
  try {
    const TemporaryFiles::Created created = TemporaryFiles::create(targetPath_, /*folder=*/false);
    tempPath_ = created.path;
    tempSlot_ = created.slot;
    fd_ = created.fd;
  } catch (const FileWriteError& e) {
    throw FileWriteError("'" + shownPath(path_) + "': " + e.what() + kUnchanged);
  }
  if (ownerOnly) {
    if (::fchmod(fd_, 0600) != 0) fail("cannot make the file private", errno);
    return;
  }
  if (!replacing) return;
  // The replacement keeps the file's owner (only root may give it away) and permissions: a
  // group-writable scenario stays group-writable. Best effort: the content matters, these are courtesies.
  if (::geteuid() == 0 && (existing.st_uid != 0 || existing.st_gid != 0))
    (void)!::fchown(fd_, existing.st_uid, existing.st_gid);
  (void)!::fchmod(fd_, existing.st_mode & 07777);
}

void OutputFile::openStream(const FileTarget& target) {
  stream_ = true;
  if (target.kind == FileTargetKind::Descriptor) {
    std::fflush(nullptr);  // what this process printed there before comes first
    fd_ = ::fcntl(target.descriptor, F_DUPFD_CLOEXEC, 3);
    if (fd_ < 0) fail("cannot use " + target.description, errno);
    if ((::fcntl(fd_, F_GETFL) & O_ACCMODE) == O_RDONLY) fail(target.description + " is not open for writing", 0);
    return;
  }
  // Without O_NONBLOCK, opening a FIFO waits for a reader, for ever if none comes.
  fd_ = ::open(target.resolved.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0 && errno == ENXIO && target.kind == FileTargetKind::Fifo)
    fail("is a FIFO that no process reads: start its reader first", 0);
  if (fd_ < 0) fail("cannot open " + target.description, errno);
  // Once open, writes wait for a slow reader as any writer's do.
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::write(const void* data, std::size_t bytes) {
  if (fd_ < 0) throw FileWriteError("'" + shownPath(path_) + "': write after the file was committed or failed");
  const char* p = static_cast<const char*>(data);
  position_ += bytes;
  size_ = std::max(size_, position_);
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

void OutputFile::seek(std::uint64_t offset) {
  if (fd_ < 0) throw FileWriteError("'" + shownPath(path_) + "': seek after the file was committed or failed");
  if (stream_) fail("cannot seek in a stream", ESPIPE);
  flushBuffer();
  if (::lseek(fd_, off_t(offset), SEEK_SET) < 0) fail("seeking failed", errno);
  position_ = offset;
}

void OutputFile::flushBuffer() {
  writeAll(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void OutputFile::writeAll(const char* data, std::size_t bytes) {
  if (const int error = writeFully(fd_, data, bytes, stream_)) fail("write failed", error);
}

void OutputFile::commit() {
  if (fd_ < 0) throw FileWriteError("'" + shownPath(path_) + "': commit after the file was committed or failed");
  flushBuffer();
  if (!stream_ && ::fsync(fd_) != 0) fail("flushing to disk failed", errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("closing failed", errno);
  if (stream_) return;
  if (::rename(tempPath_.c_str(), targetPath_.c_str()) != 0) fail("replacing the file failed", errno);
  TemporaryFiles::release(tempSlot_);
  tempSlot_ = -1;
  tempPath_.clear();
  syncFolderOf(targetPath_);
}

void OutputFile::fail(const std::string& what, int error) {
  discard();
  throw FileWriteError("'" + shownPath(path_) + "': " + what + (error != 0 ? ": " + std::string(std::strerror(error)) : "") +
                       (stream_ ? kStreamed : kUnchanged));
}

void OutputFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!tempPath_.empty()) ::unlink(tempPath_.c_str());
  TemporaryFiles::release(tempSlot_);
  tempSlot_ = -1;
  tempPath_.clear();
  buffer_.clear();
}

OutputFolder::OutputFolder(std::string path) : path_(withoutTrailingSlashes(std::move(path))) {
  if (path_.empty()) throw FileWriteError("cannot write a folder with an empty name");
  const FileTarget target = inspectFileTarget(path_);
  std::error_code ec;
  if (target.kind == FileTargetKind::Directory && !fs::is_empty(target.resolved, ec))
    throw FileWriteError("'" + shownPath(path_) + "': the folder is not empty (its files are kept)");
  if (target.kind != FileTargetKind::Directory && target.kind != FileTargetKind::Missing)
    throw FileWriteError("'" + shownPath(path_) + "' is " + target.description + ", not a folder");
  targetPath_ = withFolder(target.resolved);
  try {
    const TemporaryFiles::Created created = TemporaryFiles::create(targetPath_, /*folder=*/true);
    tempPath_ = created.path;
    tempSlot_ = created.slot;
  } catch (const FileWriteError& e) {
    throw FileWriteError("'" + shownPath(path_) + "': " + e.what());
  }
}

OutputFolder::~OutputFolder() { discard(); }

void OutputFolder::writeFile(const std::string& name, const void* data, std::size_t bytes) {
  if (tempPath_.empty()) throw FileWriteError("'" + shownPath(path_) + "': write after the folder was committed or failed");
  const std::string file = tempPath_ + "/" + name;
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  int error = fd < 0 ? errno : writeFully(fd, static_cast<const char*>(data), bytes, false);
  if (fd >= 0 && ::close(fd) != 0 && error == 0) error = errno;
  if (error == 0) return;
  discard();
  throw FileWriteError("'" + shownPath(path_) + "': writing " + name + " failed: " + std::strerror(error) + kUnchanged);
}

void OutputFolder::commit() {
  if (tempPath_.empty()) throw FileWriteError("'" + shownPath(path_) + "': commit after the folder was committed or failed");
  // rename() replaces an empty folder, and refuses one that gained files since the check at opening.
  if (::rename(tempPath_.c_str(), targetPath_.c_str()) != 0) {
    const int error = errno;
    discard();
    throw FileWriteError("'" + shownPath(path_) + "': renaming the finished folder failed: " + std::strerror(error) + kUnchanged);
  }
  TemporaryFiles::release(tempSlot_);
  tempSlot_ = -1;
  tempPath_.clear();
  syncFolderOf(targetPath_);
}

void OutputFolder::discard() noexcept {
  if (!tempPath_.empty()) {
    std::error_code ec;
    fs::remove_all(tempPath_, ec);
  }
  TemporaryFiles::release(tempSlot_);
  tempSlot_ = -1;
  tempPath_.clear();
}

void writeWholeFile(const std::string& path, std::string_view contents) {
  OutputFile file(path);
  file.write(contents);
  file.commit();
}

std::string outputTargetProblem(const std::string& path, bool needsSeeking) {
  if (path.empty()) return "needs a file name (got an empty one)";
  const FileTarget target = inspectFileTarget(path);
  switch (target.kind) {
    case FileTargetKind::Directory: return shownPath(path) + " is a folder, not a file";
    case FileTargetKind::Refused: return shownPath(path) + " is " + target.description + ": not written to";
    case FileTargetKind::Missing:
    case FileTargetKind::Regular: {
      const std::string folder = fs::path(withFolder(target.resolved)).parent_path().string();
      std::error_code ec;
      if (!fs::is_directory(folder, ec)) return shownPath(path) + ": the folder " + shownPath(folder) + " does not exist";
      if (::faccessat(AT_FDCWD, folder.c_str(), W_OK | X_OK, AT_EACCESS) != 0)
        return shownPath(path) + ": the folder " + shownPath(folder) + " is not writable";
      if (target.kind == FileTargetKind::Regular && !writable(target.resolved))
        return shownPath(path) + " is read-only to this user";
      return "";
    }
    default:
      return needsSeeking ? shownPath(path) + " is " + target.description + ", and this format needs a file it can seek in" : "";
  }
}

bool samePath(const fs::path& a, const fs::path& b) {
  const FileTarget ta = inspectFileTarget(a.string()), tb = inspectFileTarget(b.string());
  if (ta.kind == FileTargetKind::Descriptor || tb.kind == FileTargetKind::Descriptor)
    return ta.kind == tb.kind && ta.descriptor == tb.descriptor;
  std::error_code ec;
  if (fs::exists(ta.resolved, ec) && fs::exists(tb.resolved, ec)) return fs::equivalent(ta.resolved, tb.resolved, ec);
  return fs::weakly_canonical(fs::absolute(ta.resolved, ec), ec) == fs::weakly_canonical(fs::absolute(tb.resolved, ec), ec);
}

}  // namespace iso
