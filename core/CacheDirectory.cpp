#include "core/CacheDirectory.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>
#include <system_error>
#include <vector>

#include "core/Format.h"

namespace iso {

namespace fs = std::filesystem;

namespace {

std::string octal(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", unsigned(mode & 07777));
  return text;
}

// Whether `gid` is this user's private group (the user's primary group, of the user's name, with no other
// member): a folder writable by it is writable by no one else. Systems that give each user such a group
// create folders group-writable (umask 002).
bool ownGroup(gid_t gid) {
  if (gid != ::getegid()) return false;
  char buffer[16384];
  struct passwd user {};
  struct passwd* u = nullptr;
  struct group grp {};
  struct group* g = nullptr;
  if (::getpwuid_r(::geteuid(), &user, buffer, sizeof buffer / 2, &u) != 0 || u == nullptr ||
      ::getgrgid_r(gid, &grp, buffer + sizeof buffer / 2, sizeof buffer / 2, &g) != 0 || g == nullptr)
    return false;
  if (std::strcmp(g->gr_name, u->pw_name) != 0) return false;
  for (char** member = g->gr_mem; member && *member; ++member)
    if (std::strcmp(*member, u->pw_name) != 0) return false;
  return true;
}

// Why `dir` is not a cache folder of this user's ("" when it is one), creating it (mode 0700) if missing.
std::string whyNotUsable(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir.parent_path(), ec);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return std::string("it cannot be created: ") + std::strerror(errno);
  const uid_t me = ::geteuid();
  struct stat link {}, folder {};
  if (::lstat(dir.c_str(), &link) != 0 || ::stat(dir.c_str(), &folder) != 0)
    return std::string("it cannot be examined: ") + std::strerror(errno);
  if (S_ISLNK(link.st_mode) && link.st_uid != me && link.st_uid != 0)
    return "it is a symbolic link of user " + std::to_string(link.st_uid) + ", not yours";
  if (!S_ISDIR(folder.st_mode)) return "it is not a folder";
  if (folder.st_uid != me)
    return "it belongs to user " + std::to_string(folder.st_uid) + ", not to you (user " + std::to_string(me) + ")";
  if ((folder.st_mode & S_IWOTH) || ((folder.st_mode & S_IWGRP) && !ownGroup(folder.st_gid)))
    return "other users can write to it (mode " + octal(folder.st_mode) + ")";
  if (::access(dir.c_str(), W_OK | X_OK) != 0) return std::string("it is not writable: ") + std::strerror(errno);
  return "";
}

std::string programName() {
  return program_invocation_short_name && *program_invocation_short_name ? program_invocation_short_name : "iso3dfd";
}

// The UTC date and time for a file name: 20261127T101500Z (no colons, which some file systems refuse).
std::string utcStamp() {
  std::string stamp = utcNow();
  std::erase(stamp, ':');
  std::erase(stamp, '-');
  return stamp;
}

}  // namespace

std::string cacheDirectory() {
  std::vector<fs::path> candidates;
  if (const char* d = std::getenv("ISO3DFD_CACHE_DIR"); d && *d) candidates.emplace_back(d);
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) candidates.push_back(fs::path(d) / "iso3dfd");
  if (const char* d = std::getenv("HOME"); d && *d) candidates.push_back(fs::path(d) / ".cache" / "iso3dfd");
  std::error_code ec;
  const fs::path tmp = fs::temp_directory_path(ec);
  // One per user: a shared name would be whoever made it first's.
  candidates.push_back((ec ? fs::path("/tmp") : tmp) / ("iso3dfd-cache-" + std::to_string(::geteuid())));
  for (const auto& c : candidates) {
    const std::string why = whyNotUsable(c);
    if (why.empty()) return c.string();
    cacheNote("not using " + c.string() + " as the cache folder: " + why);
  }
  return {};
}

void cacheNote(const std::string& text) {
  static std::mutex mutex;
  static std::set<std::string> said;
  const std::lock_guard lock(mutex);
  if (said.insert(text).second) std::fprintf(stderr, "%s: note: %s\n", programName().c_str(), text.c_str());
}

std::string setAsideDamagedCacheFile(const std::string& path, const std::string& reason) {
  const std::string base = path + ".damaged-" + utcStamp();
  std::string backup = base;
  for (int n = 2; fs::exists(fs::symlink_status(backup)) && n < 1000; ++n) backup = base + "-" + std::to_string(n);
  if (::rename(path.c_str(), backup.c_str()) != 0) {
    cacheNote("the cache file " + path + " cannot be read (" + reason + ") and cannot be set aside (" +
              std::strerror(errno) + "): it is ignored");
    return "";
  }
  cacheNote("the cache file " + path + " cannot be read (" + reason + "): kept as " + backup + ", and made again");
  return backup;
}

std::uint64_t fnv1a64(const void* data, std::size_t bytes, std::uint64_t state) {
  std::uint64_t h = state;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t n = 0; n < bytes; ++n) {
    h ^= p[n];
    h *= 1099511628211ull;
  }
  return h;
}

std::string stableHash(const std::string& text) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a64(text.data(), text.size())));
  return buf;
}

}  // namespace iso
