#include "core/SystemMemory.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>

#include <sys/resource.h>

#include "core/Allocation.h"
#include "core/Format.h"
#include "core/Scenario.h"

namespace iso {

namespace {

constexpr std::size_t kUnknown = std::numeric_limits<std::size_t>::max();

// The first number in a file, or nothing ("max" in cgroup v2 means no limit).
std::optional<std::size_t> readNumber(const std::filesystem::path& path) {
  std::ifstream in(path);
  unsigned long long value = 0;
  if (!(in >> value)) return std::nullopt;
  return std::size_t(value);
}

std::size_t memAvailable() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  unsigned long long kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return std::size_t(kib) * 1024;
  return kUnknown;
}

// The smallest room (limit - usage) over `group` and its ancestors under `root`.
std::size_t cgroupRoom(const std::filesystem::path& root, std::string group, const char* limitFile,
                       const char* usageFile) {
  std::size_t room = kUnknown;
  for (;;) {
    const std::filesystem::path dir = root / std::filesystem::path(group).relative_path();
    const auto limit = readNumber(dir / limitFile), usage = readNumber(dir / usageFile);
    // v1 writes "no limit" as a number near 2^63: any limit beyond the machine is no limit.
    if (limit && usage && *limit < (std::size_t(1) << 62)) room = std::min(room, *limit > *usage ? *limit - *usage : 0);
    if (group.empty() || group == "/") break;
    group = std::filesystem::path(group).parent_path().string();
  }
  return room;
}

std::size_t cgroupRoom() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  std::size_t room = kUnknown;
  while (std::getline(in, line)) {
    // "0::/path" (v2) or "4:memory:/path" (v1).
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1), group = line.substr(second + 1);
    if (line.compare(0, first, "0") == 0 && controllers.empty())
      room = std::min(room, cgroupRoom("/sys/fs/cgroup", group, "memory.max", "memory.current"));
    else if (("," + controllers + ",").find(",memory,") != std::string::npos)
      room = std::min(room, cgroupRoom("/sys/fs/cgroup/memory", group, "memory.limit_in_bytes",
                                       "memory.usage_in_bytes"));
  }
  return room;
}

// The room under this process's address-space limit (`ulimit -v`, common on shared clusters): the limit
// less the address space already mapped (VmSize in /proc/self/status).
std::size_t addressSpaceRoom() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return kUnknown;
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == "VmSize:") {
      unsigned long long kib = 0;
      if (!(in >> kib)) return kUnknown;
      const std::size_t mapped = std::size_t(kib) * 1024;
      return limit.rlim_cur > mapped ? std::size_t(limit.rlim_cur) - mapped : 0;
    }
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return kUnknown;
}

}  // namespace

std::size_t availableMemoryBytes() {
  const std::size_t available = std::min({memAvailable(), cgroupRoom(), addressSpaceRoom()});
  return available == kUnknown ? 0 : available;
}

void requireAvailableMemory(std::size_t bytes, const std::string& what) {
  const std::size_t available = availableMemoryBytes();
  if (available == 0 || bytes <= available) return;
  throw ScenarioError(what + " needs " + byteSize(double(bytes)) + " of memory, but only " +
                      byteSize(double(available)) + " is available on this machine (free memory, the " +
                      "container's limit and the process's address-space limit); use a smaller grid");
}

}  // namespace iso
