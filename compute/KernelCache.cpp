#include "compute/KernelCache.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "compute/KernelSources.h"
#include "core/InputFile.h"
#include "core/OutputFile.h"

namespace iso {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'I', 'S', 'O', 'K', 'C', 'B', '0', '2'};
constexpr std::size_t kMacBytes = 32;                      // HMAC-SHA256
constexpr std::size_t kHeaderBytes = 16 + kMacBytes;       // magic, binary length, MAC
constexpr std::size_t kSecretBytes = 32;
constexpr const char* kSecretFile = ".entry-key";
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

std::string fullKey(const std::string& key) { return kernelCacheBuildIdentity() + "\n" + key; }

// HMAC-SHA256 of (the key's length, the key, the binary): unambiguous however the two are split.
std::vector<unsigned char> mac(const std::string& key, const unsigned char* binary, std::size_t bytes,
                               const std::string& secret) {
  const std::string full = fullKey(key);
  std::vector<unsigned char> message(8 + full.size() + bytes);
  putU64(message.data(), full.size());
  std::memcpy(message.data() + 8, full.data(), full.size());
  if (bytes > 0) std::memcpy(message.data() + 8 + full.size(), binary, bytes);
  std::vector<unsigned char> out(EVP_MAX_MD_SIZE);
  unsigned length = 0;
  if (secret.empty() || HMAC(EVP_sha256(), secret.data(), int(secret.size()), message.data(), message.size(), out.data(),
                             &length) == nullptr)
    return {};
  out.resize(length);
  return out;
}

fs::path kernelFolder() {
  const std::string dir = cacheDirectory();
  return dir.empty() ? fs::path() : fs::path(dir) / "kernels";
}

// The stored secret, when it is one: 32 bytes in a regular file of this user's that no one else can read.
std::string storedSecret(const fs::path& file) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & 077) != 0 ||
      st.st_size != off_t(kSecretBytes))
    return {};
  try {
    return readInputFile(file.string(), kSecretBytes, "kernel cache key");
  } catch (const FileReadError&) {
    return {};
  }
}

}  // namespace

std::string kernelCacheBuildIdentity() {
  static const std::string identity = [] {
    std::uint64_t sources = fnv1a64(nullptr, 0);
    for (const auto& [name, text] : embeddedKernelFiles()) {
      sources = fnv1a64(name.data(), name.size(), sources);
      sources = fnv1a64(text.data(), text.size(), sources);
    }
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(sources));
    return std::string("iso3dfd ") + ISO_VERSION + ", " + __VERSION__ + ", kernels " + hash;
  }();
  return identity;
}

std::string kernelCacheSecret() {
  const fs::path folder = kernelFolder();
  if (folder.empty()) return {};
  std::error_code ec;
  fs::create_directories(folder, ec);
  const fs::path file = folder / kSecretFile;
  if (std::string secret = storedSecret(file); !secret.empty()) return secret;
  // A new secret (any entries made under an older one are rebuilt once). Two processes making one at
  // the same time: the second rename wins, and the first one's entries are rebuilt, no more.
  std::string secret(kSecretBytes, '\0');
  if (::getrandom(secret.data(), secret.size(), 0) != ssize_t(secret.size())) return {};
  try {
    OutputFile out(file.string(), /*ownerOnly=*/true);
    out.write(secret);
    out.commit();
  } catch (const FileWriteError&) {
    return {};
  }
  return storedSecret(file) == secret ? secret : std::string();
}

std::string cachedBinaryPath(const std::string& key) {
  const fs::path folder = kernelFolder();
  return folder.empty() ? std::string() : (folder / (stableHash(fullKey(key)) + ".bin")).string();
}

std::vector<unsigned char> encodeCacheEntry(const std::string& key, const std::vector<unsigned char>& binary,
                                            const std::string& secret) {
  std::vector<unsigned char> entry(kHeaderBytes + binary.size());
  std::memcpy(entry.data(), kMagic, sizeof kMagic);
  putU64(entry.data() + 8, binary.size());
  const std::vector<unsigned char> tag = mac(key, binary.data(), binary.size(), secret);
  if (tag.size() == kMacBytes) std::memcpy(entry.data() + 16, tag.data(), kMacBytes);
  if (!binary.empty()) std::memcpy(entry.data() + kHeaderBytes, binary.data(), binary.size());
  return entry;
}

std::optional<std::vector<unsigned char>> decodeCacheEntry(const std::string& key, const std::vector<unsigned char>& entry,
                                                           const std::string& secret) {
  if (entry.size() <= kHeaderBytes || std::memcmp(entry.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
  if (getU64(entry.data() + 8) != entry.size() - kHeaderBytes) return std::nullopt;
  const std::vector<unsigned char> tag = mac(key, entry.data() + kHeaderBytes, entry.size() - kHeaderBytes, secret);
  if (tag.size() != kMacBytes || CRYPTO_memcmp(tag.data(), entry.data() + 16, kMacBytes) != 0) return std::nullopt;
  return std::vector<unsigned char>(entry.begin() + std::ptrdiff_t(kHeaderBytes), entry.end());
}

std::optional<std::vector<unsigned char>> loadCachedBinary(const std::string& key) {
  const std::string path = cachedBinaryPath(key);
  if (path.empty()) return std::nullopt;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec))) return std::nullopt;  // no entry yet
  std::optional<std::vector<unsigned char>> binary;
  try {
    const std::uint64_t bytes = regularInputSize(path, "kernel cache entry");
    if (bytes <= kHeaderBytes + kMaxBinaryBytes) {
      std::vector<unsigned char> entry(bytes);
      std::ifstream f(path, std::ios::binary);
      if (f.read(reinterpret_cast<char*>(entry.data()), std::streamsize(bytes)) && f.peek() == std::char_traits<char>::eof())
        binary = decodeCacheEntry(key, entry, kernelCacheSecret());
    }
  } catch (const FileReadError&) {  // not a regular file: removed like a damaged one
  }
  // A damaged entry would fail the same way on every run: remove it, so that the rebuild replaces it.
  if (!binary) fs::remove(path, ec);
  return binary;
}

void storeCachedBinary(const std::string& key, const std::vector<unsigned char>& binary) {
  const std::string path = cachedBinaryPath(key);
  if (path.empty() || binary.empty() || binary.size() > kMaxBinaryBytes) return;
  const std::string secret = kernelCacheSecret();
  if (secret.empty()) return;
  // Atomic, so a concurrent reader or a crash never leaves half an entry; any failure only means the
  // next run builds again.
  try {
    const std::vector<unsigned char> entry = encodeCacheEntry(key, binary, secret);
    OutputFile file(path);
    file.write(entry.data(), entry.size());
    file.commit();
  } catch (const FileWriteError&) {
  }
}

}  // namespace iso
