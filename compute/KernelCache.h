#pragma once
// Binary cache of built OpenCL programs, under cacheDirectory()/kernels (CacheDirectory.h).
//
// A driver handed a damaged binary may crash rather than return an error, so every entry carries a
// header that is checked before the binary reaches the driver: magic, payload length, FNV-1a 64 of
// the payload and of the key. A damaged or foreign entry is deleted and the program rebuilt.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/CacheDirectory.h"

namespace iso {

// The key covers device, driver, source and options.
std::optional<std::vector<unsigned char>> loadCachedBinary(const std::string& key);
// Best effort: caching is an optimisation, so a failure to write (no directory, full disk) is ignored.
void storeCachedBinary(const std::string& key, const std::vector<unsigned char>& binary);

// The file an entry for `key` lives in; empty when there is no cache directory.
std::string cachedBinaryPath(const std::string& key);

// An entry's bytes: the 32-byte header, then the binary.
std::vector<unsigned char> encodeCacheEntry(const std::string& key, const std::vector<unsigned char>& binary);
// The binary of an entry written for `key`, or nothing when the entry is damaged (truncated, bit
// flips, wrong magic) or belongs to another key.
std::optional<std::vector<unsigned char>> decodeCacheEntry(const std::string& key,
                                                           const std::vector<unsigned char>& entry);

}  // namespace iso
