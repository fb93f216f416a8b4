// A damaged kernel-cache entry (truncated, or one bit flipped) is discarded before it reaches the
// OpenCL driver, which may crash on a bad binary, and the program is rebuilt and cached again.
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

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

TEST(KernelCache, DamagedEntryIsDiscardedAndRebuilt) {
  if (listDevices().empty()) GTEST_SKIP() << "no OpenCL device on this machine";
  ::setenv("ISO3DFD_CACHE_DIR", test::scratchPath("rebuild-cache").c_str(), 1);
  const ClContext ctx(selectDevice(""));
  const BuildRequest request{"__kernel void twice(__global float* x) { x[get_global_id(0)] *= 2.0f; }", "",
                             "cache test"};
  EXPECT_FALSE(Program(ctx, request).fromCache());
  ASSERT_TRUE(Program(ctx, request).fromCache());

  // The entry's file: the only one in the kernel folder.
  std::string path;
  for (const auto& e : fs::directory_iterator(test::scratchPath("rebuild-cache") / "kernels")) path = e.path().string();
  ASSERT_FALSE(path.empty());
  const std::string good = readBytes(path);

  std::string flipped = good;
  flipped[good.size() / 2] ^= 0x10;
  for (const std::string& damaged : {good.substr(0, good.size() / 2), flipped}) {
    writeBytes(path, damaged);
    const Program rebuilt(ctx, request);
    EXPECT_FALSE(rebuilt.fromCache()) << "a damaged entry was handed to the driver";
    EXPECT_EQ(readBytes(path), good) << "the rebuilt program was not cached again";
    EXPECT_TRUE(Program(ctx, request).fromCache());
  }
}

}  // namespace
}  // namespace iso
