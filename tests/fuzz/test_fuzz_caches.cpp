// Seeded mutation fuzzing of the cache files every run reads: the user's tuning database (tuning.json),
// the devices' measured ceilings (bandwidth.json) and the host's (host-bandwidth.json). A cache file is
// never fatal: a run uses what it can read, and a file it cannot read is set aside under a backup name
// (bandwidth caches) or left as it is (the tuning database, until `iso3dfd tune` keeps it aside). Here
// "refused" means the file was not used; any other exception, a crash, or a file lost fails the test.
#include <filesystem>
#include <limits>
#include <set>

#include "compute/Bandwidth.h"
#include "compute/TuningDatabase.h"
#include "core/HostBandwidth.h"
#include "core/JsonInput.h"
#include "core/Metrics.h"
#include "tests/fuzz/FuzzHarness.h"

namespace iso::fuzz {
namespace {

namespace fs = std::filesystem;

struct NotUsed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A cache folder of the test's own, empty.
fs::path freshCache(const std::string& name) {
  const fs::path dir = test::scratchPath(name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::owner_all);
  ::setenv("ISO3DFD_CACHE_DIR", dir.c_str(), 1);
  return dir;
}

// The backups setAsideDamagedCacheFile made of `file`, removed as they are counted; each must hold
// `original` exactly.
int backupsOf(const fs::path& file, const std::string& original) {
  int count = 0;
  for (const auto& e : fs::directory_iterator(file.parent_path()))
    if (e.path().filename().string().rfind(file.filename().string() + ".damaged-", 0) == 0) {
      EXPECT_EQ(test::readFileBytes(e.path().string()), original) << "a set-aside file lost its contents";
      fs::remove(e.path());
      ++count;
    }
  return count;
}

DeviceInfo fuzzDevice() {
  DeviceInfo d;
  d.name = "Fuzz GPU 9000";
  d.vendor = "NVIDIA Corporation";
  d.type = "GPU";
  d.driverVersion = "555.5";
  d.platformName = "Fuzz platform";
  d.nvComputeMajor = 9;
  return d;
}

TEST(Fuzz, TuningDatabase) {
  const fs::path cache = freshCache("tuning-cache"), file = cache / "tuning.json";
  const DeviceInfo device = fuzzDevice();
  const Grid grid(64, 64, 64);
  // Seeds: databases storeTuning writes, one entry and two.
  storeTuning("gpu-optimized", device, {{"tile_x", 32}, {"tile_y", 8}}, grid, 1234.5);
  const std::string one = test::readFileBytes(file.string());
  storeTuning("gpu-slm", device, {{"tile_x", 16}}, Grid(400, 400, 400), 99.0);
  const std::vector<std::string> corpus = {one, test::readFileBytes(file.string())};
  const QuietStandardError quiet;
  long n = 0;
  fuzz<NotUsed>("tuning database", corpus, [&](const std::string& bytes) {
    writeBytes(file.string(), bytes);
    const std::optional<TunedParams> tuned = lookupTuning("gpu-optimized", device, grid);
    if (tuned) {
      EXPECT_LT(tuned->origin.size(), kMaxMessage);
    }
    EXPECT_EQ(test::readFileBytes(file.string()), bytes) << "looking up changed the database";
    if (n++ % 8 == 0) {  // an eighth of the time: each store syncs a file to disk
      // Storing keeps what it cannot read: the old bytes under a backup name, or the old entries in the file.
      const std::string keptAs = storeTuning("gpu-optimized", device, {{"tile_x", 64}}, grid, 2000.0);
      EXPECT_EQ(backupsOf(file, bytes), keptAs.empty() ? 0 : 1);
      EXPECT_NE(test::readFileBytes(file.string()).find("\"tile_x\": 64"), std::string::npos) << "the new tuning was not stored";
      if (!keptAs.empty()) throw NotUsed("kept aside");
    }
    if (!tuned || tuned->shipped) throw NotUsed("the user's tuning is not used");
    return true;
  });
}

TEST(Fuzz, DeviceCeilingCache) {
  const fs::path cache = freshCache("ceiling-cache"), file = cache / "bandwidth.json";
  const DeviceInfo device = fuzzDevice();
  const std::string key = deviceKey(device);
  const std::string valid = "{\n  \"" + key +
                            "\": {\n    \"copy_gbs\": {\"date\": \"2026-11-27T10:00:00Z\", \"max\": 2900.5, \"median\": 2850.25, "
                            "\"min\": 2700.0, \"runs\": 7},\n    \"fma_gflops\": {\"date\": \"2026-11-27T10:00:01Z\", \"max\": 60000.0, "
                            "\"median\": 59000.0, \"min\": 58000.0, \"runs\": 7}\n  },\n  \"other device\": 12.5\n}\n";
  const QuietStandardError quiet;
  fuzz<NotUsed>("device ceiling cache", {valid}, [&](const std::string& bytes) {
    writeBytes(file.string(), bytes);
    const auto copy = storedCeiling(device, CeilingProbe::Copy);
    const auto fma = storedCeiling(device, CeilingProbe::Fma);
    for (const auto& m : {copy, fma})
      if (m) {
        EXPECT_TRUE(m->min > 0.0 && m->min <= m->median && m->median <= m->max && m->max <= kMaxPlausibleRate);
        EXPECT_TRUE(m->runs >= 1 && m->date.size() <= kExcerptChars);
      }
    const int backups = backupsOf(file, bytes);
    EXPECT_EQ(fs::exists(file), backups == 0) << "a damaged file is set aside, a readable one stays";
    if (!copy || !fma) throw NotUsed(backups ? "set aside" : "no measurement");
    return true;
  });
}

TEST(Fuzz, HostBandwidthCache) {
  const fs::path cache = freshCache("host-cache"), file = cache / "host-bandwidth.json";
  cachedHostBandwidth(file.string(), std::size_t(1) << 20, /*remeasure=*/true);  // the seed, for this machine
  const QuietStandardError quiet;
  fuzz<NotUsed>("host bandwidth cache", {test::readFileBytes(file.string())}, [&](const std::string& bytes) {
    writeBytes(file.string(), bytes);
    const std::optional<HostBandwidth> b = storedHostBandwidth(file.string());
    if (b) {
      EXPECT_TRUE(b->minGBs > 0.0 && b->minGBs <= b->medianGBs && b->medianGBs <= b->maxGBs && b->maxGBs <= kMaxPlausibleRate);
      EXPECT_TRUE(b->passes >= 1 && b->threads >= 1 && b->date.size() <= kExcerptChars);
    }
    const int backups = backupsOf(file, bytes);
    EXPECT_EQ(fs::exists(file), backups == 0);
    if (!b) throw NotUsed(backups ? "set aside" : "not this machine's, or incomplete");
    return true;
  });
}

}  // namespace
}  // namespace iso::fuzz
