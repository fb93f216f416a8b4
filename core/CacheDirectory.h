#pragma once
// The on-disk cache shared by compiled kernels, the tuning database and measured bandwidths, the hash
// that names and checks its entries, and what is done with a cache file that cannot be read.
//
// The cache trusts only itself: a folder another user owns or can write could hold files planted to
// crash this program's runs or to be written through (a symbolic link in /tmp), so such a folder is
// never used.
#include <cstddef>
#include <cstdint>
#include <string>

namespace iso {

// The first usable of $ISO3DFD_CACHE_DIR, $XDG_CACHE_HOME/iso3dfd, $HOME/.cache/iso3dfd and
// <tmp>/iso3dfd-cache-<uid>, created with mode 0700 on first use. Usable: a folder owned by this user,
// writable by no other (not by others, and by its group only when that is the user's private group),
// reached through no symbolic link of another user, and writable by this process. Each refused candidate is named once on standard error with the reason
// (cacheNote). An empty string means none is usable: nothing is cached.
std::string cacheDirectory();

// Says `text` on standard error as "<program>: note: <text>", once per process for the same text.
void cacheNote(const std::string& text);

// A cache file that cannot be read (malformed, too large, too deep, a schema of another version) is set
// aside, not deleted and not fatal: renamed to "<path>.damaged-<UTC date and time>" in its folder (a
// number added if that exists), with a note naming both and `reason`, so that the cache is made again
// and nothing of the user's is lost. Returns the new name, or "" when the file could not be renamed
// (then it is left as it is).
std::string setAsideDamagedCacheFile(const std::string& path, const std::string& reason);

// 64-bit FNV-1a: stable across runs and builds (std::hash is not). Not a defence against forgery.
// Pass the previous result as `state` to hash several pieces as one.
std::uint64_t fnv1a64(const void* data, std::size_t bytes, std::uint64_t state = 1469598103934665603ull);
// fnv1a64 of `text`, printed as 16 hex digits.
std::string stableHash(const std::string& text);

}  // namespace iso
