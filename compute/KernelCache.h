#pragma once
// On-disk cache directory shared by compiled kernels, the tuning database and the measured bandwidth.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iso {

// $ISO3DFD_CACHE_DIR, else $XDG_CACHE_HOME/iso3dfd, else ~/.cache/iso3dfd, else <tmp>/iso3dfd-cache.
// The directory is created on first use; an empty string means no writable directory was found.
std::string cacheDirectory();

// 64-bit FNV-1a, printed as 16 hex digits: stable across runs and builds (std::hash is not).
std::string stableHash(const std::string& text);

// Binary cache of built programs; the key covers device, driver, source and options.
std::optional<std::vector<unsigned char>> loadCachedBinary(const std::string& key);
void storeCachedBinary(const std::string& key, const std::vector<unsigned char>& binary);

}  // namespace iso
