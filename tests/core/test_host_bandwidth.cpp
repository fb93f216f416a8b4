// The host bandwidth probe: measured once per machine, stored with its spread, reused, re-measured when
// the stored file is damaged or from another machine; and sized to the memory that is available.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include "core/HostBandwidth.h"
#include "tests/ScratchDir.h"
#include "core/SystemMemory.h"

namespace iso {
namespace {

nlohmann::json readJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// Small buffers keep the test fast (first-touching 2 x 256 MiB takes seconds on a virtual machine);
// the size for real runs is checked on its own.
constexpr std::size_t kTestBuffer = std::size_t(4) << 20;

TEST(HostBandwidth, BuffersAreSizedToTheAvailableMemory) {
  const std::size_t bytes = hostBandwidthBufferBytes();
  EXPECT_GE(bytes, std::size_t(4) << 20);
  EXPECT_LE(bytes, std::size_t(256) << 20);
  if (availableMemoryBytes() >= (std::size_t(32) << 20)) {
    EXPECT_LE(bytes, availableMemoryBytes() / 8);
  }
}

TEST(HostBandwidth, MeasuredOnceStoredWithItsSpreadThenReused) {
  const std::string file = test::scratchPath("host-bandwidth.json").string();
  const HostBandwidth first = cachedHostBandwidth(file, kTestBuffer);
  EXPECT_GT(first.minGBs, 0.0);
  EXPECT_LE(first.minGBs, first.medianGBs);
  EXPECT_LE(first.medianGBs, first.maxGBs);
  EXPECT_GE(first.passes, 5);
  EXPECT_FALSE(first.date.empty());
  EXPECT_EQ(first.bufferBytes, kTestBuffer);

  nlohmann::json stored = readJson(file);
  EXPECT_EQ(stored.at("median_gbs").get<double>(), first.medianGBs);
  EXPECT_EQ(stored.at("machine").get<std::string>(), first.machine);

  // A stored value is reused as it is: a planted median comes back.
  stored["median_gbs"] = first.minGBs + (first.maxGBs - first.minGBs) / 3.0;
  std::ofstream(file) << stored.dump();
  EXPECT_EQ(cachedHostBandwidth(file, kTestBuffer).medianGBs, stored["median_gbs"].get<double>());

  // Another machine's measurement, or a damaged file, is measured again and replaced.
  stored["machine"] = "another machine";
  std::ofstream(file) << stored.dump();
  EXPECT_EQ(cachedHostBandwidth(file, kTestBuffer).machine, first.machine);
  EXPECT_EQ(readJson(file).at("machine").get<std::string>(), first.machine);
  std::ofstream(file) << "{\"median_gbs\": [[[";
  EXPECT_GT(cachedHostBandwidth(file, kTestBuffer).medianGBs, 0.0);
  EXPECT_EQ(readJson(file).at("machine").get<std::string>(), first.machine);
}

TEST(SystemMemory, AvailableMemoryIsKnownAndBelowPhysical) {
  const std::size_t available = availableMemoryBytes();
  ASSERT_GT(available, 0u) << "neither /proc/meminfo nor a cgroup limit could be read";
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  EXPECT_LE(available, std::size_t(pages) * std::size_t(pageSize));
  try {
    requireAvailableMemory(available + (std::size_t(1) << 40), "a test array");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("a test array needs "), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(requireAvailableMemory(1024, "a small array"));
}

}  // namespace
}  // namespace iso
