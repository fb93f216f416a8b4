#include "core/CacheDirectory.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

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
