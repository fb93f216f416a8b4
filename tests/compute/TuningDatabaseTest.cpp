// The tuning databases: the shipped one (resources/tuning/) chosen by device, architecture and grid-size
// class, the user's own over it, damaged or foreign files ignored. No OpenCL device is needed: devices
// are described by hand, as a driver would report them.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "compute/KernelSources.h"
#include "compute/StageParams.h"
#include "compute/TuningDatabase.h"
#include "compute/stages/OpenClStage.h"
#include "tests/ScratchDir.h"
#include "tests/core/ChildProcess.h"

namespace iso {
namespace {

DeviceInfo nvidia(const std::string& name, int major, int minor) {
  DeviceInfo d;
  d.name = name;
  d.type = "GPU";
  d.vendor = "NVIDIA Corporation";
  d.driverVersion = "580.159.04";
  d.nvComputeMajor = major;
  d.nvComputeMinor = minor;
  d.maxWorkGroupSize = 1024;
  d.maxWorkItemSizes = {1024, 1024, 64};
  d.localMemBytes = 48 * 1024;
  return d;
}

const DeviceInfo kH100 = nvidia("NVIDIA H100 80GB HBM3", 9, 0);
const Grid kLarge(512, 512, 512), kMedium(256, 256, 256), kSmall(64, 64, 64);

// A private cache directory for the user's database, restored afterwards.
class TuningDatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* old = std::getenv("ISO3DFD_CACHE_DIR");
    saved_ = old ? std::optional<std::string>(old) : std::nullopt;
    dir_ = test::scratchPath("tuning-db");
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    setenv("ISO3DFD_CACHE_DIR", dir_.c_str(), 1);
  }
  void TearDown() override {
    if (saved_) setenv("ISO3DFD_CACHE_DIR", saved_->c_str(), 1);
    else unsetenv("ISO3DFD_CACHE_DIR");
  }
  void writeUserDatabase(const std::string& text) { std::ofstream(dir_ / "tuning.json") << text; }

  std::filesystem::path dir_;
  std::optional<std::string> saved_;
};

TEST(TuningDatabase, GridSizeClassesAndArchitecture) {
  EXPECT_EQ(gridSizeClass(kSmall), "small");
  EXPECT_EQ(gridSizeClass(Grid(161, 161, 161)), "small");   // 4 173 281 < 2^22
  EXPECT_EQ(gridSizeClass(Grid(162, 162, 162)), "medium");  // 4 251 528
  EXPECT_EQ(gridSizeClass(kMedium), "medium");
  EXPECT_EQ(gridSizeClass(Grid(323, 323, 323)), "large");
  EXPECT_EQ(gridSizeClass(kLarge), "large");
  EXPECT_EQ(deviceArchitecture(kH100), "sm_90");
  DeviceInfo cpu;
  cpu.type = "CPU";
  EXPECT_EQ(deviceArchitecture(cpu), "");
}

TEST_F(TuningDatabaseTest, TheShippedEntryFollowsTheDeviceAndTheGridSize) {
  const auto large = lookupTuning("gpu-optimized", kH100, kLarge);
  const auto medium = lookupTuning("gpu-optimized", kH100, kMedium);
  ASSERT_TRUE(large && medium);
  EXPECT_TRUE(large->shipped);
  EXPECT_EQ(large->params.at("z_chunk"), 128);
  EXPECT_EQ(medium->params.at("z_chunk"), 64);
  EXPECT_NE(large->origin.find("shipped tuning for NVIDIA H100 80GB HBM3, large grids"), std::string::npos)
      << large->origin;
  // The H100's size classes do not reach an A100: it gets the compute-capability entry.
  const auto a100 = lookupTuning("gpu-optimized", nvidia("NVIDIA A100-SXM4-80GB", 8, 0), kLarge);
  ASSERT_TRUE(a100);
  EXPECT_EQ(a100->params.at("async_copy"), 1);
  EXPECT_NE(a100->origin.find("compute capability 8.0+"), std::string::npos) << a100->origin;
  // Older NVIDIA GPUs and other vendors keep the built-in defaults.
  EXPECT_FALSE(lookupTuning("gpu-optimized", nvidia("Tesla V100", 7, 0), kLarge));
  DeviceInfo amd = kH100;
  amd.vendor = "Advanced Micro Devices, Inc.";
  amd.name = "gfx90a";
  amd.nvComputeMajor = 0;
  EXPECT_FALSE(lookupTuning("gpu-optimized", amd, kLarge));
  EXPECT_EQ(defaultStageParams(openClStage("gpu-optimized"), amd, kLarge), builtinStageDefaults(openClStage("gpu-optimized"), amd));
  EXPECT_NE(stageParamsOrigin(openClStage("gpu-optimized"), amd, kLarge, {}).find("built-in defaults for a GPU"), std::string::npos);
}

TEST_F(TuningDatabaseTest, YourTuningWinsForItsSizeClassOnly) {
  StageParamMap mine = defaultStageParams(openClStage("gpu-optimized"), kH100, kLarge);
  mine["z_chunk"] = 256;
  storeTuning("gpu-optimized", kH100, mine, kLarge, 150000.0);
  const auto large = lookupTuning("gpu-optimized", kH100, kLarge);
  ASSERT_TRUE(large);
  EXPECT_FALSE(large->shipped);
  EXPECT_EQ(large->params.at("z_chunk"), 256);
  EXPECT_NE(large->origin.find("your tuning for NVIDIA H100 80GB HBM3, large grids (150000 Mpts/s at 512x512x512"),
            std::string::npos)
      << large->origin;
  // The 256³ grid is another class: the shipped medium entry still applies.
  EXPECT_EQ(lookupTuning("gpu-optimized", kH100, kMedium)->params.at("z_chunk"), 64);
  // A new driver is another device as far as tuning goes.
  DeviceInfo updated = kH100;
  updated.driverVersion = "590.1";
  EXPECT_TRUE(lookupTuning("gpu-optimized", updated, kLarge)->shipped);
  // Storing again replaces the entry instead of adding one.
  mine["z_chunk"] = 32;
  storeTuning("gpu-optimized", kH100, mine, Grid(400, 400, 400), 151000.0);
  std::ifstream f(dir_ / "tuning.json");
  const nlohmann::json db = nlohmann::json::parse(f);
  EXPECT_EQ(db.at("schema"), kTuningSchema);
  EXPECT_EQ(db.at("entries").size(), 1u);
  EXPECT_EQ(lookupTuning("gpu-optimized", kH100, kLarge)->params.at("z_chunk"), 32);
  // A manual override names itself in the origin.
  EXPECT_NE(stageParamsOrigin(openClStage("gpu-optimized"), kH100, kLarge, {{"tile_x", 16}}).find("tile_x set by you"),
            std::string::npos);
}

TEST_F(TuningDatabaseTest, DamagedOrForeignUserDatabasesAreIgnored) {
  for (const std::string text : {"{ not json", "[]", R"({"NVIDIA H100 80GB HBM3 | x | y": {"gpu-optimized": {}}})",
                                 R"({"schema": "iso3dfd-tuning/1", "entries": {"not": "a list"}})",
                                 R"({"schema": "iso3dfd-tuning/1", "entries": [3, {"stage": 4}, {"stage": "gpu-optimized",
                                     "match": {"device": 7}, "params": {"z_chunk": 8}},
                                     {"stage": "gpu-optimized", "match": {"colour": "blue"}, "params": {"z_chunk": 8}}]})"}) {
    writeUserDatabase(text);
    const auto tuned = lookupTuning("gpu-optimized", kH100, kLarge);
    ASSERT_TRUE(tuned) << text;
    EXPECT_TRUE(tuned->shipped) << text;
    EXPECT_EQ(tuned->params.at("z_chunk"), 128) << text;
  }
}

TEST_F(TuningDatabaseTest, TuneKeepsADatabaseItCannotReadUnderABackupName) {
  // Truncated, another version's schema, null, nested 2 MB deep: storing overwrote each, entries and all.
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  for (const std::string& text : {std::string(R"({"schema": "iso3dfd-tuning/1", "entries": [{"stage": "gpu-slm", "ma)"),
                                 std::string(R"({"schema": "iso3dfd-tuning/2", "entries": []})"), std::string("null"), deep}) {
    writeUserDatabase(text);
    const std::string keptAs = storeTuning("gpu-slm", kH100, {{"tile_x", 16}}, kSmall, 1.0);
    ASSERT_FALSE(keptAs.empty()) << text.substr(0, 80);
    EXPECT_EQ(std::filesystem::path(keptAs).parent_path(), dir_);
    EXPECT_EQ(std::filesystem::path(keptAs).filename().string().rfind("tuning.json.damaged-", 0), 0u) << keptAs;
    std::ifstream in(keptAs);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), text)
        << "the backup does not hold the old database whole";
    EXPECT_EQ(lookupTuning("gpu-slm", kH100, kSmall)->params.at("tile_x"), 16) << "the new database lacks the tuning";
    std::filesystem::remove(keptAs);
  }
  // A readable database keeps its other entries, and nothing is set aside.
  EXPECT_EQ(storeTuning("gpu-optimized", kH100, {{"z_chunk", 8}}, kLarge, 2.0), "");
  EXPECT_EQ(lookupTuning("gpu-slm", kH100, kSmall)->params.at("tile_x"), 16);
}

TEST_F(TuningDatabaseTest, AParameterBeyondIntIsDamageNotANegativeNumber) {
  // 2^31 was read as -2147483648 and shown as the tuned value.
  writeUserDatabase(R"({"schema": "iso3dfd-tuning/1", "entries": [
      {"stage": "gpu-slm", "match": {"device": "NVIDIA H100 80GB HBM3"}, "params": {"tile_x": 2147483648}},
      {"stage": "gpu-slm", "match": {"device": "NVIDIA H100 80GB HBM3", "nv_compute_min": 18446744073709551615},
       "params": {"tile_x": 8}}]})");
  const auto tuned = lookupTuning("gpu-slm", kH100, kSmall);
  EXPECT_TRUE(!tuned || tuned->shipped) << "a damaged entry was used: tile_x = " << tuned->params.at("tile_x");
}

TEST_F(TuningDatabaseTest, AFullDiskKeepsTheDatabaseAndSaysSo) {
  storeTuning("gpu-slm", kH100, {{"tile_x", 16}}, kSmall, 1.0);
  std::ifstream in(dir_ / "tuning.json");
  const std::string before((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const test::ChildResult child = test::runInChild([&](std::string& report) {
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{rlim_t(64), rlim_t(64)};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) return 2;
    try {
      storeTuning("gpu-optimized", kH100, {{"z_chunk", 32}}, kLarge, 2.0);
    } catch (const std::exception& e) {
      report = e.what();
      return 0;
    }
    report = "no error";
    return 1;
  });
  ASSERT_TRUE(child.exited);
  EXPECT_EQ(child.status, 0) << child.report;
  EXPECT_NE(child.report.find("the tuning database was not updated"), std::string::npos) << child.report;
  EXPECT_NE(child.report.find("File too large"), std::string::npos) << child.report;
  std::ifstream after(dir_ / "tuning.json");
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(after)), std::istreambuf_iterator<char>()), before);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_), std::filesystem::directory_iterator()), 1)
      << "a temporary file was left behind";
}

// Every shipped entry is valid JSON of the schema, names a stage, and its parameters run on a device it
// matches: a typo in resources/tuning/ fails here, not on a user's GPU.
TEST_F(TuningDatabaseTest, EveryShippedEntryResolvesOnADeviceItMatches) {
  ASSERT_FALSE(embeddedTuningFiles().empty());
  for (const auto& [file, text] : embeddedTuningFiles()) {
    const nlohmann::json db = nlohmann::json::parse(text);
    ASSERT_EQ(db.at("schema"), kTuningSchema) << file;
    for (const nlohmann::json& e : db.at("entries")) {
      const std::string stage = e.at("stage");
      const nlohmann::json& match = e.at("match");
      DeviceInfo d = kH100;
      if (match.contains("device")) d.name = match["device"];
      if (match.contains("vendor")) d.vendor = match["vendor"];
      if (match.contains("type")) d.type = match["type"];
      if (match.contains("nv_compute_min")) d.nvComputeMajor = match["nv_compute_min"];
      Grid grid = kLarge;
      if (match.value("size_class", "") == "medium") grid = kMedium;
      if (match.value("size_class", "") == "small") grid = kSmall;
      const auto tuned = lookupTuning(stage, d, grid);
      ASSERT_TRUE(tuned) << e.dump();
      EXPECT_TRUE(tuned->shipped);
      StageParamMap params;
      for (const auto& [k, v] : e.at("params").items()) params[k] = v.get<int>();
      EXPECT_NO_THROW(resolveStageParams(openClStage(stage), d, grid, params, /*useDatabase=*/false)) << e.dump();
      EXPECT_GT(e.at("measured").at("mpts_per_s").get<double>(), 0.0) << e.dump();
    }
  }
}

}  // namespace
}  // namespace iso
