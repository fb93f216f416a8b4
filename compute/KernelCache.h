#pragma once
// Binary cache of built OpenCL programs, under cacheDirectory()/kernels (CacheDirectory.h).
//
// A driver handed a damaged or forged binary may crash rather than return an error (PoCL aborts the
// process), so an entry reaches the driver only when this build of the program wrote it, for this
// device, driver, source and options, in this user's cache: each entry carries an HMAC-SHA256 of its key
// and binary under a secret that only the cache's owner can read (kernels/.entry-key, 32 random bytes,
// mode 0600, made on first use). A checksum would not do: whoever plants an entry recomputes it. The key
// also holds the program's build (kernelCacheBuildIdentity), so another build's entries are never
// used. An entry that fails the check is deleted, and the program is built from source and cached again.
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
// The secret of the current cache directory's entries, made on first use; empty without a cache.
std::string kernelCacheSecret();
// This build: the program's version, the compiler, and a hash of the embedded kernel sources.
std::string kernelCacheBuildIdentity();

// An entry's bytes: the 48-byte header (magic, binary length, MAC of key and binary), then the binary.
std::vector<unsigned char> encodeCacheEntry(const std::string& key, const std::vector<unsigned char>& binary,
                                            const std::string& secret);
// The binary of an entry written for `key` under `secret`, or nothing when it is damaged (truncated,
// bit flips, wrong magic), forged, or written for another key, build or cache.
std::optional<std::vector<unsigned char>> decodeCacheEntry(const std::string& key, const std::vector<unsigned char>& entry,
                                                           const std::string& secret);

}  // namespace iso
