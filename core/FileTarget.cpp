#include "core/FileTarget.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

namespace iso {

namespace {

namespace fs = std::filesystem;

constexpr int kMaxLinkHops = 40;  // the kernel's own limit (ELOOP)

FileTarget refused(std::string resolved, std::string why) {
  FileTarget t;
  t.kind = FileTargetKind::Refused;
  t.resolved = std::move(resolved);
  t.description = std::move(why);
  return t;
}

std::string deviceNumbers(const struct stat& st) {
  return std::to_string(major(st.st_rdev)) + ":" + std::to_string(minor(st.st_rdev));
}

// Character devices that only swallow or produce bytes (null 1:3, zero 1:5, full 1:7) and terminals
// (virtual consoles and serial lines 4:*, /dev/tty 5:0, the console 5:1, pseudo-terminals 136-143:*).
// Writing to any other one may act on the machine (/dev/mem, /dev/port, a watchdog that reboots when
// written, SCSI generic, flash memory), and even opening some does: such targets are refused unopened.
const char* harmlessDevice(const struct stat& st) {
  const unsigned maj = major(st.st_rdev), min = minor(st.st_rdev);
  if (maj == 1 && min == 3) return "the null device";
  if (maj == 1 && min == 5) return "the zero device";
  if (maj == 1 && min == 7) return "the full device";
  if (maj == 4 || (maj == 5 && min <= 1) || (maj >= 136 && maj <= 143)) return "a terminal";
  return nullptr;
}

FileTarget classify(const std::string& path, const struct stat& st) {
  FileTarget t;
  t.resolved = path;
  if (S_ISREG(st.st_mode)) {
    t.kind = FileTargetKind::Regular;
    t.description = "a file";
  } else if (S_ISDIR(st.st_mode)) {
    t.kind = FileTargetKind::Directory;
    t.description = "a folder";
  } else if (S_ISFIFO(st.st_mode)) {
    t.kind = FileTargetKind::Fifo;
    t.description = "a FIFO (named pipe)";
  } else if (S_ISCHR(st.st_mode) && harmlessDevice(st)) {
    t.kind = FileTargetKind::Device;
    t.description = std::string(harmlessDevice(st)) + " (" + deviceNumbers(st) + ")";
  } else if (S_ISCHR(st.st_mode)) {
    return refused(path, "a character device (" + deviceNumbers(st) + ") that is neither a sink like /dev/null nor a terminal");
  } else if (S_ISBLK(st.st_mode)) {
    return refused(path, "a block device (" + deviceNumbers(st) + ")");
  } else {
    return refused(path, S_ISSOCK(st.st_mode) ? "a socket" : "not a file, folder, FIFO or device");
  }
  return t;
}

// The descriptor number when `path` names an entry of this process's descriptor folder (/proc/self/fd,
// /proc/<pid>/fd, /proc/<pid>/task/<tid>/fd, or /dev/fd, which links there); -2 when it names another
// process's descriptor.
std::optional<int> descriptorName(const std::string& path) {
  const fs::path p(path);
  const std::string name = p.filename().string();
  if (name.empty() || name.size() > 9 || name.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  char folder[PATH_MAX];
  const std::string parent = p.has_parent_path() ? p.parent_path().string() : ".";
  if (::realpath(parent.c_str(), folder) == nullptr) return std::nullopt;
  const std::string f = folder;
  if (f.rfind("/proc/", 0) != 0 || f.size() < 9 || f.compare(f.size() - 3, 3, "/fd") != 0) return std::nullopt;
  const std::string owner = f.substr(6, f.find('/', 6) - 6);  // the pid after /proc/
  if (owner.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const std::string rest = f.substr(6 + owner.size());
  if (rest != "/fd" && !(rest.rfind("/task/", 0) == 0 && rest.find('/', 6) == rest.size() - 3)) return std::nullopt;
  if (owner != std::to_string(::getpid())) return -2;
  return std::stoi(name);
}

FileTarget descriptorTarget(const std::string& path, int fd) {
  struct stat st {};
  if (fd == -2) return refused(path, "a descriptor of another process");
  if (::fstat(fd, &st) != 0) return refused(path, "descriptor " + std::to_string(fd) + ", which is not open");
  if (S_ISDIR(st.st_mode)) return refused(path, "descriptor " + std::to_string(fd) + ", a folder");
  FileTarget t;
  t.kind = FileTargetKind::Descriptor;
  t.resolved = path;
  t.descriptor = fd;
  static const char* const kStandard[] = {"standard input", "standard output", "standard error"};
  t.description = fd <= 2 ? kStandard[fd] : "descriptor " + std::to_string(fd);
  return t;
}

}  // namespace

FileTarget inspectFileTarget(const std::string& path) {
  std::string current = path;
  for (int hop = 0; hop <= kMaxLinkHops; ++hop) {
    if (const auto fd = descriptorName(current)) return descriptorTarget(current, *fd);
    struct stat st {};
    if (::lstat(current.c_str(), &st) != 0) {
      const int error = errno;
      if (error == ENOENT || error == ENOTDIR) {  // creating it will say which folder is missing
        FileTarget t;
        t.resolved = current;
        t.description = "a new file";
        return t;
      }
      return refused(current, "cannot be examined (" + std::string(std::strerror(error)) + ")");
    }
    if (!S_ISLNK(st.st_mode)) return classify(current, st);
    std::string target(std::size_t(st.st_size > 0 ? st.st_size : PATH_MAX) + 1, '\0');
    const ssize_t n = ::readlink(current.c_str(), target.data(), target.size());
    if (n < 0 || std::size_t(n) >= target.size()) return refused(current, "a symbolic link that cannot be read");
    target.resize(std::size_t(n));
    const fs::path link(current);
    current = fs::path(target).is_absolute() || !link.has_parent_path() ? target : (link.parent_path() / target).string();
  }
  return refused(path, "a loop of symbolic links");
}

std::string shownPath(const std::string& path) {
  constexpr std::size_t kMax = 200, kHead = 60;
  if (path.size() <= kMax) return path;
  // Cut at UTF-8 character boundaries.
  std::size_t head = kHead, tail = path.size() - (kMax - kHead - 3);
  while (head > 0 && (static_cast<unsigned char>(path[head]) & 0xC0) == 0x80) --head;
  while (tail < path.size() && (static_cast<unsigned char>(path[tail]) & 0xC0) == 0x80) ++tail;
  return path.substr(0, head) + "..." + path.substr(tail);
}

}  // namespace iso
