#include "core/TemporaryFiles.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <mutex>
#include <set>

#include "core/FileTarget.h"

namespace iso {

namespace {

namespace fs = std::filesystem;

constexpr char kTag[] = ".iso3dfd-";
constexpr std::time_t kStaleSeconds = 24 * 3600;
// The target's name is cut to this in the temporary's, which must stay within NAME_MAX (255).
constexpr std::size_t kMaxNameInTemporary = 200;

// The registry that the signal handler reads: fixed slots, lock-free, nothing allocated or locked.
enum SlotState : int { kFree, kFilling, kFile, kFolder };
struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slots");
constexpr int kSlots = 256;
Slot slots[kSlots];

int claim(const std::string& path, bool folder) {
  if (path.size() >= PATH_MAX) return -1;
  for (int s = 0; s < kSlots; ++s) {
    int expected = kFree;
    if (slots[s].state.compare_exchange_strong(expected, kFilling)) {
      std::memcpy(slots[s].path, path.c_str(), path.size() + 1);
      slots[s].state.store(folder ? kFolder : kFile, std::memory_order_release);
      return s;
    }
  }
  return -1;
}

// Async-signal-safe (raw getdents64, unlinkat, rmdir): a temporary folder holds files only.
void removeFolderNow(const char* path) {
  const int dir = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    alignas(8) char buffer[8192];
    long n = 0;
    // linux_dirent64: inode (8 bytes), offset (8), record length (2), type (1), name.
    while ((n = ::syscall(SYS_getdents64, dir, buffer, sizeof buffer)) > 0) {
      for (long at = 0; at < n;) {
        std::uint16_t length = 0;
        std::memcpy(&length, buffer + at + 16, sizeof length);
        const char* name = buffer + at + 19;
        if (std::strcmp(name, ".") != 0 && std::strcmp(name, "..") != 0) ::unlinkat(dir, name, 0);
        at += length == 0 ? n : length;
      }
    }
    ::close(dir);
  }
  ::rmdir(path);
}

void onSignal(int signal) {
  const int savedErrno = errno;
  for (Slot& slot : slots) {
    const int state = slot.state.load(std::memory_order_acquire);
    if (state == kFile) ::unlink(slot.path);
    if (state == kFolder) removeFolderNow(slot.path);
  }
  errno = savedErrno;
  // SA_RESETHAND put the default action back; the signal, blocked while this runs, is delivered when it
  // returns, and the process ends as it would have without this handler.
  ::raise(signal);
}

// Only where the signal still has its default action: a program's own handler is left alone.
void installSignalHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction current {};
      if (::sigaction(signal, nullptr, &current) != 0 || (current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL)
        continue;
      struct sigaction action {};
      action.sa_handler = onSignal;
      sigemptyset(&action.sa_mask);
      action.sa_flags = SA_RESETHAND;
      ::sigaction(signal, &action, nullptr);
    }
  });
}

void sweepOnce(const fs::path& folder) {
  static std::mutex mutex;
  static std::set<std::string> swept;
  std::error_code ec;
  const fs::path key = fs::weakly_canonical(folder, ec);
  {
    const std::lock_guard lock(mutex);
    if (!swept.insert(ec ? folder.string() : key.string()).second) return;
  }
  TemporaryFiles::sweepStale(folder);
}

bool allDigits(const std::string& s, std::size_t from, std::size_t to) {
  if (from >= to || to > s.size()) return false;
  for (std::size_t i = from; i < to; ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The writer's process id in a temporary's name; 0 when the name carries none (".NAME.partial-XXXXXX").
long writerOf(const std::string& name) {
  const std::size_t tag = name.rfind(kTag);
  if (tag != std::string::npos) return std::atol(name.c_str() + tag + sizeof kTag - 1);
  if (!endsWith(name, ".tmp")) return 0;
  const std::size_t counterDot = name.rfind('.', name.size() - 5);
  const std::size_t pidDot = counterDot == std::string::npos || counterDot == 0 ? std::string::npos : name.rfind('.', counterDot - 1);
  return pidDot == std::string::npos ? 0 : std::atol(name.c_str() + pidDot + 1);
}

bool writerRuns(long pid) { return pid > 0 && (::kill(pid_t(pid), 0) == 0 || errno == EPERM); }

// Removes a stale temporary folder, if it holds regular files only (as the frame writers leave it).
void removeFolderOfFiles(const fs::path& folder) {
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) return;
  if (!ec) removeFolderNow(folder.c_str());
}

}  // namespace

void TemporaryFiles::removeOnSignals() { installSignalHandlers(); }

TemporaryFiles::Created TemporaryFiles::create(const fs::path& target, bool folder) {
  installSignalHandlers();
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  sweepOnce(parent);
  static std::atomic<unsigned> counter{0};
  const std::string base = target.filename().string().substr(0, kMaxNameInTemporary);
  int error = 0;
  for (int attempt = 0; attempt < 100; ++attempt) {
    // Built by append: GCC 12 warns falsely (-Wrestrict) on "." + string.
    std::string name(1, '.');
    name.append(base).append(kTag).append(std::to_string(::getpid())).append("-");
    name.append(std::to_string(counter.fetch_add(1))).append(".tmp");
    Created c;
    c.path = (parent / name).string();
    // Registered before it exists: a signal in between removes nothing (no such file), never leaves it.
    c.slot = claim(c.path, folder);
    // 0666 and 0777 less the umask, as any new file or folder; a replaced file's mode is copied later.
    if (folder ? ::mkdir(c.path.c_str(), 0777) == 0
               : (c.fd = ::open(c.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) >= 0)
      return c;
    error = errno;
    release(c.slot);
    if (error != EEXIST) break;
  }
  throw FileWriteError("cannot write to the folder " + shownPath(parent.string()) + ": " + std::strerror(error));
}

void TemporaryFiles::release(int slot) noexcept {
  if (slot >= 0 && slot < kSlots) slots[slot].state.store(kFree, std::memory_order_release);
}

bool TemporaryFiles::isTemporaryName(const std::string& name) {
  if (name.size() < 2 || name[0] != '.') return false;
  // This version: .NAME.iso3dfd-PID-N.tmp
  if (const std::size_t tag = name.rfind(kTag); tag != std::string::npos && tag > 0 && endsWith(name, ".tmp")) {
    const std::size_t pid = tag + sizeof kTag - 1, dash = name.find('-', pid);
    return dash != std::string::npos && allDigits(name, pid, dash) && allDigits(name, dash + 1, name.size() - 4);
  }
  // Earlier versions: .NAME.PID.N.tmp (files) and .NAME.partial-XXXXXX (videos and frame folders).
  if (endsWith(name, ".tmp")) {
    const std::size_t counterDot = name.rfind('.', name.size() - 5);
    if (counterDot == std::string::npos || counterDot < 2) return false;
    const std::size_t pidDot = name.rfind('.', counterDot - 1);
    return pidDot != std::string::npos && pidDot > 0 && allDigits(name, pidDot + 1, counterDot) &&
           allDigits(name, counterDot + 1, name.size() - 4);
  }
  const std::size_t partial = name.rfind(".partial-");
  if (partial == std::string::npos || partial == 0 || name.size() != partial + 15) return false;
  for (std::size_t i = partial + 9; i < name.size(); ++i)
    if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9'))) return false;
  return true;
}

void TemporaryFiles::sweepStale(const fs::path& folder) {
  std::error_code ec;
  const std::time_t now = std::time(nullptr);
  for (fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!isTemporaryName(name)) continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || st.st_uid != ::geteuid() || now - st.st_mtime < kStaleSeconds ||
        writerRuns(writerOf(name)))
      continue;
    if (S_ISREG(st.st_mode)) ::unlink(it->path().c_str());
    else if (S_ISDIR(st.st_mode)) removeFolderOfFiles(it->path());
  }
}

}  // namespace iso
