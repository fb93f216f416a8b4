#include "core/InputFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace iso {

namespace {

std::string quoted(const std::string& what, const std::string& path) { return what + " '" + shownPath(path) + "'"; }

std::string sizeLimit(std::size_t bytes) {
  return bytes >= (std::size_t(1) << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

// Throws FileReadError for what is never read: nothing, a folder, a refused device.
void refuseUnreadable(const FileTarget& target, const std::string& path, const std::string& what) {
  switch (target.kind) {
    case FileTargetKind::Missing: throw FileReadError("cannot open " + quoted(what, path) + " (no such file)");
    case FileTargetKind::Directory: throw FileReadError(quoted(what, path) + " is a directory");
    case FileTargetKind::Refused: throw FileReadError(quoted(what, path) + " is " + target.description + ": not read");
    default: break;
  }
}

int openForReading(const FileTarget& target, const std::string& path, const std::string& what) {
  refuseUnreadable(target, path, what);
  const int fd = target.kind == FileTargetKind::Descriptor
                     ? ::fcntl(target.descriptor, F_DUPFD_CLOEXEC, 3)
                     // O_NONBLOCK: opening a FIFO would wait for a writer; reads below wait again.
                     : ::open(target.resolved.c_str(), O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw FileReadError("cannot open " + quoted(what, path) + " (" + std::strerror(errno) + ")");
  if (target.kind != FileTargetKind::Descriptor) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

}  // namespace

std::string readInputFile(const std::string& path, std::size_t maxBytes, const std::string& what) {
  const int fd = openForReading(inspectFileTarget(path), path, what);
  std::string text;
  char block[1 << 16];
  int error = 0;
  // At most one block past the limit: a huge file, or a device that never ends, is refused unread.
  while (text.size() <= maxBytes) {
    const ssize_t n = ::read(fd, block, sizeof block);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) error = errno;
    if (n <= 0) break;
    text.append(block, std::size_t(n));
  }
  ::close(fd);
  if (error != 0) throw FileReadError("cannot read " + quoted(what, path) + " (" + std::strerror(error) + ")");
  if (text.size() > maxBytes)
    throw FileReadError(quoted(what, path) + " is larger than " + sizeLimit(maxBytes) + ", more than such a file ever holds");
  return text;
}

std::uint64_t regularInputSize(const std::string& path, const std::string& what) {
  const FileTarget target = inspectFileTarget(path);
  if (target.kind != FileTargetKind::Regular) {
    refuseUnreadable(target, path, what);
    throw FileReadError(quoted(what, path) + " is " + target.description + ", not a regular file");
  }
  struct stat st {};
  if (::stat(target.resolved.c_str(), &st) != 0)
    throw FileReadError("cannot open " + quoted(what, path) + " (" + std::strerror(errno) + ")");
  return std::uint64_t(st.st_size);
}

}  // namespace iso
