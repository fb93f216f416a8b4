#include "compute/KernelCache.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "core/OutputFile.h"

namespace iso {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'I', 'S', 'O', 'K', 'C', 'B', '0', '1'};
constexpr std::size_t kHeaderBytes = 32;  // magic, payload length, payload hash, key hash
// No program binary comes near this; a larger file is damaged and is not read into memory.
constexpr std::uint64_t kMaxBinaryBytes = std::uint64_t(256) << 20;

void putU64(unsigned char* out, std::uint64_t v) {
  for (int b = 0; b < 8; ++b) out[b] = static_cast<unsigned char>(v >> (8 * b));
}

std::uint64_t getU64(const unsigned char* in) {
  std::uint64_t v = 0;
  for (int b = 0; b < 8; ++b) v |= std::uint64_t(in[b]) << (8 * b);
  return v;
}

}  // namespace

std::string cachedBinaryPath(const std::string& key) {
  const std::string dir = cacheDirectory();
  if (dir.empty()) return {};
  return (fs::path(dir) / "kernels" / (stableHash(key) + ".bin")).string();
}

std::vector<unsigned char> encodeCacheEntry(const std::string& key, const std::vector<unsigned char>& binary) {
  std::vector<unsigned char> entry(kHeaderBytes + binary.size());
  std::memcpy(entry.data(), kMagic, sizeof kMagic);
  putU64(entry.data() + 8, binary.size());
  putU64(entry.data() + 16, fnv1a64(binary.data(), binary.size()));
  putU64(entry.data() + 24, fnv1a64(key.data(), key.size()));
  if (!binary.empty()) std::memcpy(entry.data() + kHeaderBytes, binary.data(), binary.size());
  return entry;
}

std::optional<std::vector<unsigned char>> decodeCacheEntry(const std::string& key,
                                                           const std::vector<unsigned char>& entry) {
  if (entry.size() <= kHeaderBytes || std::memcmp(entry.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
  const std::uint64_t length = getU64(entry.data() + 8);
  if (length != entry.size() - kHeaderBytes) return std::nullopt;
  if (getU64(entry.data() + 24) != fnv1a64(key.data(), key.size())) return std::nullopt;
  std::vector<unsigned char> binary(entry.begin() + std::ptrdiff_t(kHeaderBytes), entry.end());
  if (getU64(entry.data() + 16) != fnv1a64(binary.data(), binary.size())) return std::nullopt;
  return binary;
}

std::optional<std::vector<unsigned char>> loadCachedBinary(const std::string& key) {
  const std::string path = cachedBinaryPath(key);
  if (path.empty()) return std::nullopt;
  std::error_code ec;
  const std::uintmax_t bytes = fs::file_size(path, ec);
  if (ec) return std::nullopt;  // no entry yet
  std::optional<std::vector<unsigned char>> binary;
  if (bytes <= kHeaderBytes + kMaxBinaryBytes) {
    std::vector<unsigned char> entry(bytes);
    std::ifstream f(path, std::ios::binary);
    if (f.read(reinterpret_cast<char*>(entry.data()), std::streamsize(bytes)) && f.peek() == std::char_traits<char>::eof())
      binary = decodeCacheEntry(key, entry);
  }
  // A damaged entry would fail the same way on every run: remove it, so that the rebuild replaces it.
  if (!binary) fs::remove(path, ec);
  return binary;
}

void storeCachedBinary(const std::string& key, const std::vector<unsigned char>& binary) {
  const std::string path = cachedBinaryPath(key);
  if (path.empty() || binary.empty() || binary.size() > kMaxBinaryBytes) return;
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  // Atomic, so a concurrent reader or a crash never leaves half an entry; any failure only means the
  // next run builds again.
  try {
    const std::vector<unsigned char> entry = encodeCacheEntry(key, binary);
    OutputFile file(path);
    file.write(entry.data(), entry.size());
    file.commit();
  } catch (const FileWriteError&) {
  }
}

}  // namespace iso
