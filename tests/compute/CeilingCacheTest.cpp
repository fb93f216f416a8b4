// The device's roofline ceilings: each probe measured with its spread and date, stored in the cache's
// bandwidth.json, read back instead of measured again, and measured again when asked, when the entry is
// damaged or in another form (a bare number per device).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "compute/Bandwidth.h"
#include "compute/StageParams.h"
#include "core/SystemMemory.h"
#include "tests/ScratchDir.h"
#include "tests/compute/OpenClTestSupport.h"

namespace iso {
namespace {

using nlohmann::json;

json readJson(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

// Points the cache directory at a private folder for one test, and back.
class PrivateCache {
 public:
  explicit PrivateCache(const std::string& name) : dir_(test::scratchPath(name).string()) {
    if (const char* old = std::getenv("ISO3DFD_CACHE_DIR")) saved_ = old, hadOld_ = true;
    setenv("ISO3DFD_CACHE_DIR", dir_.c_str(), 1);
  }
  ~PrivateCache() {
    if (hadOld_)
      setenv("ISO3DFD_CACHE_DIR", saved_.c_str(), 1);
    else
      unsetenv("ISO3DFD_CACHE_DIR");
  }
  std::string file() const { return dir_ + "/bandwidth.json"; }

 private:
  std::string dir_, saved_;
  bool hadOld_ = false;
};

void expectSpread(const CeilingMeasurement& m, const char* what) {
  EXPECT_GT(m.min, 0.0) << what;
  EXPECT_LE(m.min, m.median) << what;
  EXPECT_LE(m.median, m.max) << what;
  EXPECT_EQ(m.runs, 7) << what;
  EXPECT_EQ(m.date.size(), 20u) << what << ": " << m.date;  // 2026-11-24T14:41:37Z
}

TEST(CeilingCache, BothProbesAreStoredWithSpreadAndDateThenReused) {
  ISO_REQUIRE_DEVICE();
  const PrivateCache cache("ceilings");
  const CeilingMeasurement copy = measuredCeiling(*device, CeilingProbe::Copy);
  const CeilingMeasurement fma = measuredCeiling(*device, CeilingProbe::Fma);
  expectSpread(copy, "copy");
  expectSpread(fma, "fma");
  EXPECT_EQ(copyBandwidthGBs(*device), copy.median) << "the cached median, not a new measurement";

  json stored = readJson(cache.file());
  const std::string key = deviceKey(*device);
  ASSERT_TRUE(stored.contains(key)) << stored.dump();
  EXPECT_EQ(stored[key]["copy_gbs"]["median"].get<double>(), copy.median);
  EXPECT_EQ(stored[key]["fma_gflops"]["max"].get<double>(), fma.max);
  EXPECT_EQ(stored[key]["fma_gflops"]["date"].get<std::string>(), fma.date);

  // A stored value is what comes back: a planted median (inside the range) is returned as it is.
  const double planted = copy.min + (copy.max - copy.min) / 3.0;
  stored[key]["copy_gbs"]["median"] = planted;
  std::ofstream(cache.file()) << stored.dump();
  EXPECT_EQ(measuredCeiling(*device, CeilingProbe::Copy).median, planted);
  EXPECT_EQ(measuredCeiling(*device, CeilingProbe::Fma).median, fma.median) << "the other probe's entry is kept";

  // Re-measure replaces it and stores the new one.
  const CeilingMeasurement again = measuredCeiling(*device, CeilingProbe::Copy, /*remeasure=*/true);
  expectSpread(again, "copy again");
  EXPECT_EQ(readJson(cache.file())[key]["copy_gbs"]["median"].get<double>(), again.median);
  EXPECT_EQ(readJson(cache.file())[key]["fma_gflops"]["median"].get<double>(), fma.median);
}

TEST(CeilingCache, ABareNumberOrDamagedEntryIsMeasuredAgain) {
  ISO_REQUIRE_DEVICE();
  const PrivateCache cache("ceilings-bare");
  const std::string key = deviceKey(*device);
  std::filesystem::create_directories(std::filesystem::path(cache.file()).parent_path());
  std::ofstream(cache.file()) << json{{key, 1234.5}, {"another device", 99.0}}.dump();  // no spread, no date
  const CeilingMeasurement copy = measuredCeiling(*device, CeilingProbe::Copy);
  expectSpread(copy, "copy over a bare number");
  EXPECT_NE(copy.median, 1234.5);
  const json stored = readJson(cache.file());
  EXPECT_TRUE(stored[key].is_object());
  EXPECT_EQ(stored["another device"].get<double>(), 99.0) << "other devices' entries stay";

  // An entry whose figures are out of order, or a file that is not JSON, is measured again.
  json bad = stored;
  bad[key]["copy_gbs"]["min"] = copy.max * 2.0;
  std::ofstream(cache.file()) << bad.dump();
  const CeilingMeasurement remeasured = measuredCeiling(*device, CeilingProbe::Copy);
  expectSpread(remeasured, "copy over an entry out of order");
  EXPECT_NE(remeasured.min, copy.max * 2.0);
  std::ofstream(cache.file()) << "{\"" << key << "\": [[[";
  expectSpread(measuredCeiling(*device, CeilingProbe::Copy), "copy over a damaged file");
  EXPECT_TRUE(readJson(cache.file())[key]["copy_gbs"].is_object());
}

TEST(CeilingCache, ADeeplyNestedCacheIsSetAsideNotFatal) {
  // 2 MB of nesting: every OpenCL run, bench, tune and studio session crashed on it until it was deleted.
  const PrivateCache cache("ceilings-deep");
  const auto folder = std::filesystem::path(cache.file()).parent_path();
  std::filesystem::create_directories(folder);
  const std::string deep = std::string(1000000, '{') + std::string(1000000, '}');
  std::ofstream(cache.file()) << deep;
  DeviceInfo d;
  d.name = "a device";
  EXPECT_FALSE(storedCeiling(d, CeilingProbe::Copy).has_value());
  EXPECT_FALSE(std::filesystem::exists(cache.file()));
  int kept = 0;
  for (const auto& e : std::filesystem::directory_iterator(folder))
    kept += e.path().filename().string().rfind("bandwidth.json.damaged-", 0) == 0;
  EXPECT_EQ(kept, 1);
}

TEST(CeilingCache, TheCopyProbeOfAHostDeviceFitsInWhatIsFree) {
  // 2 x 256 MiB made a 12^3 run fail under a 300 MB memory limit.
  DeviceInfo cpu;
  cpu.type = "CPU";
  cpu.maxAllocBytes = cpu.globalMemBytes = std::uint64_t(1) << 40;
  const std::size_t available = availableMemoryBytes();
  if (available == 0) GTEST_SKIP() << "this machine does not say how much memory is free";
  EXPECT_LE(copyProbeBytes(cpu), std::max<std::size_t>(available / 4, std::size_t(2) << 20));
  DeviceInfo gpu = cpu;
  gpu.type = "GPU";
  gpu.globalMemBytes = std::uint64_t(80) << 30;
  EXPECT_EQ(copyProbeBytes(gpu), std::size_t(2) << 30) << "a GPU's buffers are its own memory: 1 GiB each";
}

}  // namespace
}  // namespace iso
