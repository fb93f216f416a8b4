// A damaged kernel-cache entry (truncated, or one bit flipped) or a forged one is discarded before it
// reaches the OpenCL driver, which may crash on a bad binary, and the program is rebuilt and cached again.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "compute/ClHost.h"
#include "compute/DeviceRegistry.h"
#include "compute/KernelCache.h"
#include "tests/ScratchDir.h"

namespace iso {
namespace {

namespace fs = std::filesystem;

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

// The one entry in a fresh cache folder after `request` was built once (beside the cache's secret).
std::string builtEntry(const std::string& folder, const ClContext& ctx, const BuildRequest& request) {
  ::setenv("ISO3DFD_CACHE_DIR", test::scratchPath(folder).c_str(), 1);
  EXPECT_FALSE(Program(ctx, request).fromCache());
  std::string path;
  for (const auto& e : fs::directory_iterator(test::scratchPath(folder) / "kernels"))
    if (e.path().extension() == ".bin") path = e.path().string();
  return path;
}

TEST(KernelCache, DamagedEntryIsDiscardedAndRebuilt) {
  if (listDevices().empty()) GTEST_SKIP() << "no OpenCL device on this machine";
  const ClContext ctx(selectDevice(""));
  const BuildRequest request{"__kernel void twice(__global float* x) { x[get_global_id(0)] *= 2.0f; }", "",
                             "cache test"};
  const std::string path = builtEntry("rebuild-cache", ctx, request);
  ASSERT_FALSE(path.empty());
  ASSERT_TRUE(Program(ctx, request).fromCache());
  const std::string good = test::readFileBytes(path);

  std::string flipped = good;
  flipped[good.size() / 2] ^= 0x10;
  for (const std::string& damaged : {good.substr(0, good.size() / 2), flipped}) {
    writeBytes(path, damaged);
    const Program rebuilt(ctx, request);
    EXPECT_FALSE(rebuilt.fromCache()) << "a damaged entry was handed to the driver";
    EXPECT_EQ(test::readFileBytes(path), good) << "the rebuilt program was not cached again";
    EXPECT_TRUE(Program(ctx, request).fromCache());
  }
}

TEST(KernelCache, AForgedEntryNeverReachesTheDriver) {
  // An entry planted with a made-up binary and a MAC computed without the cache's secret (the way a
  // forger recomputes a checksum): refused before the driver parses it (PoCL aborted on such binaries),
  // and the program is built from source.
  if (listDevices().empty()) GTEST_SKIP() << "no OpenCL device on this machine";
  const ClContext ctx(selectDevice(""));
  const BuildRequest request{"__kernel void thrice(__global float* x) { x[get_global_id(0)] *= 3.0f; }", "",
                             "forgery test"};
  const std::string path = builtEntry("forged-cache", ctx, request);
  ASSERT_FALSE(path.empty());
  const std::string good = test::readFileBytes(path);
  std::vector<unsigned char> garbage(4096);
  for (std::size_t n = 0; n < garbage.size(); ++n) garbage[n] = static_cast<unsigned char>(n * 37 + 11);
  for (const std::string& secret : {std::string(32, '\0'), std::string("a guessed secret"), std::string()}) {
    // The key as the entry's file name says it is not known to the forger either: any key will do here,
    // since the MAC covers the key and the binary together.
    const std::vector<unsigned char> forged = encodeCacheEntry("some key", garbage, secret);
    writeBytes(path, std::string(forged.begin(), forged.end()));
    const Program rebuilt(ctx, request);
    EXPECT_FALSE(rebuilt.fromCache()) << "a forged entry was handed to the driver";
    EXPECT_EQ(test::readFileBytes(path), good) << "the rebuilt program was not cached again";
  }
}

}  // namespace
}  // namespace iso
