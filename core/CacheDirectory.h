#pragma once
// The on-disk cache shared by compiled kernels, the tuning database and measured bandwidths, and the
// hash that names and checks its entries.
#include <cstddef>
#include <cstdint>
#include <string>

namespace iso {

// $ISO3DFD_CACHE_DIR, else $XDG_CACHE_HOME/iso3dfd, else ~/.cache/iso3dfd, else <tmp>/iso3dfd-cache.
// The directory is created on first use; an empty string means no writable directory was found.
std::string cacheDirectory();

// 64-bit FNV-1a: stable across runs and builds (std::hash is not).
// Pass the previous result as `state` to hash several pieces as one.
std::uint64_t fnv1a64(const void* data, std::size_t bytes, std::uint64_t state = 1469598103934665603ull);
// fnv1a64 of `text`, printed as 16 hex digits.
std::string stableHash(const std::string& text);

}  // namespace iso
