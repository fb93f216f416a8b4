#include "KernelCache.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include <unistd.h>

namespace iso {

namespace fs = std::filesystem;

namespace {

bool usableDirectory(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir, ec)) return false;
  // create_directories succeeds on an existing read-only directory: probe that we can write.
  const fs::path probe = dir / ".write-probe";
  std::ofstream f(probe);
  if (!f) return false;
  f.close();
  fs::remove(probe, ec);
  return true;
}

}  // namespace

std::string cacheDirectory() {
  std::vector<fs::path> candidates;
  if (const char* d = std::getenv("ISO3DFD_CACHE_DIR"); d && *d) candidates.emplace_back(d);
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) candidates.push_back(fs::path(d) / "iso3dfd");
  if (const char* d = std::getenv("HOME"); d && *d) candidates.push_back(fs::path(d) / ".cache" / "iso3dfd");
  std::error_code ec;
  candidates.push_back(fs::temp_directory_path(ec) / "iso3dfd-cache");
  for (const auto& c : candidates)
    if (usableDirectory(c)) return c.string();
  return {};
}

std::string stableHash(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

namespace {
fs::path binaryPath(const std::string& key) {
  const std::string dir = cacheDirectory();
  if (dir.empty()) return {};
  return fs::path(dir) / "kernels" / (stableHash(key) + ".bin");
}
}  // namespace

std::optional<std::vector<unsigned char>> loadCachedBinary(const std::string& key) {
  const fs::path p = binaryPath(key);
  if (p.empty()) return std::nullopt;
  std::ifstream f(p, std::ios::binary);
  if (!f) return std::nullopt;
  std::vector<unsigned char> data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (data.empty()) return std::nullopt;
  return data;
}

void storeCachedBinary(const std::string& key, const std::vector<unsigned char>& binary) {
  const fs::path p = binaryPath(key);
  if (p.empty() || binary.empty()) return;  // caching is an optimisation: no directory, no cache
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  // Write to a temporary name and rename, so a concurrent reader never sees half a file.
  const fs::path tmp = p.string() + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f) return;
    f.write(reinterpret_cast<const char*>(binary.data()), std::streamsize(binary.size()));
    if (!f) {
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, p, ec);
  if (ec) fs::remove(tmp, ec);
}

}  // namespace iso
