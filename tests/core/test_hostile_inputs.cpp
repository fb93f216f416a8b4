// Inputs made to hurt, each once a crash, a hang or memory exhausted: a checkpoint whose scenario nests
// deeply, one whose step overflows step x receivers, one of a huge grid in a small sparse file; a sparse
// SEG-Y with huge dims; traces of 300,000 receivers; a cache folder others can write or own; a damaged
// host bandwidth cache. Each is refused at once with its own error, or set aside, and never crashes.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/CacheDirectory.h"
#include "core/Checkpoint.h"
#include "core/Grid.h"
#include "core/HostBandwidth.h"
#include "core/ModelFile.h"
#include "core/Problem.h"
#include "core/SystemMemory.h"
#include "tests/ScratchDir.h"
#include "tests/core/ChildProcess.h"
#include "tests/core/SegyBytes.h"

namespace iso {
namespace {

namespace fs = std::filesystem;

// A checkpoint file of this header (JSON text) and `dataBytes` bytes of data that were never written:
// a sparse file, as large as the header says, holding almost nothing.
fs::path checkpointWithHeader(const std::string& name, const std::string& header, std::uint64_t dataBytes) {
  const fs::path path = test::scratchPath(name);
  std::string prefix("ISO3DCKP\x03\0\0\0", 12);
  for (int b = 0; b < 4; ++b) prefix.push_back(char((header.size() >> (8 * b)) & 0xffu));
  std::ofstream(path, std::ios::binary) << prefix << header;
  fs::resize_file(path, prefix.size() + header.size() + dataBytes);
  return path;
}

std::string refusal(const fs::path& checkpoint) {
  try {
    loadCheckpoint(checkpoint.string());
  } catch (const CheckpointError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(HostileInputs, ACheckpointWhoseScenarioNestsDeeplyIsRefused) {
  // 600 KB of nesting in the scenario: dumping it recursed until the stack overflowed.
  std::string deep;
  for (int d = 0; d < 100000; ++d) deep += "{\"a\":";
  deep += "1" + std::string(100000, '}');
  const fs::path path = checkpointWithHeader("deep.ckp", "{\"scenario\": " + deep + ", \"step\": 0}", 0);
  EXPECT_NE(refusal(path).find("nested more than 64 levels"), std::string::npos) << refusal(path).substr(0, 300);
}

nlohmann::json headerOf(const Scenario& s, long step, std::size_t receivers) {
  const Grid g(s.n1, s.n2, s.n3);
  return {{"scenario", nlohmann::json::parse(scenarioToJson(s))},
          {"step", step},
          {"arrays",
           {{{"name", "u_current"}, {"count", g.paddedSize()}},
            {{"name", "u_previous"}, {"count", g.paddedSize()}},
            {{"name", "velocity"}, {"count", g.interiorSize()}},
            {{"name", "traces"}, {"count", std::size_t(step) * receivers}},
            {{"name", "boundary_memory"}, {"count", 0}}}},
          {"dtype", "float32 little-endian"},
          {"checksum_fnv1a64", "0000000000000000"}};
}

TEST(HostileInputs, ACheckpointStepThatOverflowsTheTracesIsRefused) {
  Scenario s = presetScenario("default");
  s.n1 = s.n2 = s.n3 = 12;
  s.source.i = s.source.j = s.source.k = -1;
  s.model.kind = ModelKind::Constant;
  s.receivers = {{1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {4, 4, 4}, {5, 5, 5}, {6, 6, 6}, {7, 7, 7}, {8, 8, 8}};
  nlohmann::json header = headerOf(s, 0, s.receivers.size());
  // 2^61 + 5 steps of 8 receivers: 2^64 + 40 trace values, 40 once it wrapped.
  header["step"] = (std::uint64_t(1) << 61) + 5;
  header["arrays"][3]["count"] = 40;
  const std::string message = refusal(checkpointWithHeader("step.ckp", header.dump(), 0));
  EXPECT_NE(message.find("'step' is 2305843009213693957, not an integer from 0 to"), std::string::npos) << message;
}

TEST(HostileInputs, AHugeGridInASparseCheckpointIsRefusedBeforeAllocating) {
  // 4000^3 in a file that holds only its header: 770 GB of arrays, past any machine's free memory.
  Scenario s = presetScenario("default");
  s.n1 = s.n2 = s.n3 = 4000;
  s.receivers.clear();
  const Grid g(4000, 4000, 4000);
  const std::uint64_t dataBytes = (2 * g.paddedSize() + g.interiorSize()) * sizeof(float);
  const auto start = std::chrono::steady_clock::now();
  const std::string message = refusal(checkpointWithHeader("huge.ckp", headerOf(s, 0, 0).dump(), dataBytes));
  EXPECT_NE(message.find("of memory, but only"), std::string::npos) << message;
  EXPECT_NE(message.find("huge.ckp's arrays"), std::string::npos) << message;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
}

TEST(HostileInputs, ASparseSegyWithHugeDimsIsRefusedAtItsFirstEmptyTrace) {
  // A few KB written, 16384 x 16384 traces by its size: it was read trace by trace for minutes.
  const fs::path path = test::scratchPath("sparse.sgy");
  {
    std::ofstream(path, std::ios::binary) << test::segyBytes(4, 1, 1, [](int, int, int) { return 2000.0f; }, false, 1);
  }
  // One sample per trace: the model is 1 GiB, which the memory check lets through where it is free.
  if (availableMemoryBytes() < (std::size_t(3) << 29)) GTEST_SKIP() << "needs 1.5 GiB of free memory";
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t traceBytes = 240 + 4;
  fs::resize_file(path, 3600 + 16384ull * 16384ull * traceBytes);
  const test::ChildResult child = test::runInChild(
      [&](std::string& report) {
        try {
          loadModelFile(path.string(), 16384, 16384);
        } catch (const ScenarioError& e) {
          report = e.what();
          return 0;
        }
        return 1;
      },
      /*timeoutSeconds=*/20);
  ASSERT_TRUE(child.exited) << "killed by signal " << child.status << " (20 s alarm: still reading)";
  EXPECT_EQ(child.status, 0) << child.report;
  // Refused by a trace sampled before the 1 GiB is allocated (the first empty one is trace 4).
  EXPECT_NE(child.report.find(" is 0; velocities are positive"), std::string::npos) << child.report;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
}

TEST(HostileInputs, TheTracesOfManyReceiversAreInTheMemoryCheck) {
  if (availableMemoryBytes() == 0) GTEST_SKIP() << "this machine does not say how much memory is free";
  Scenario s = presetScenario("default");
  s.n1 = s.n2 = s.n3 = 12;
  s.source.i = s.source.j = s.source.k = -1;
  s.model.kind = ModelKind::Constant;
  s.steps = 100000;
  s.receivers.assign(300000, {3, 4, 5});  // 300,000 x 10^5 samples: 240 GB with their copy
  try {
    buildProblem(s);
    FAIL() << "a run of 240 GB of traces was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("the traces of 300000 receivers over 100000 steps"), std::string::npos) << e.what();
  }
}

// cacheDirectory() in a child whose standard error comes back as its report.
std::string cacheDirectoryWith(const std::string& cacheDir, const std::string& xdg, std::string& notes) {
  const fs::path log = test::scratchPath("notes.txt");
  const test::ChildResult child = test::runInChild([&](std::string& report) {
    if (!std::freopen(log.c_str(), "w", stderr)) return 2;
    ::setenv("ISO3DFD_CACHE_DIR", cacheDir.c_str(), 1);
    ::setenv("XDG_CACHE_HOME", xdg.c_str(), 1);
    report = cacheDirectory();
    std::fflush(stderr);
    return 0;
  });
  notes = test::readFileBytes(log);
  return child.report;
}

TEST(HostileInputs, ACacheFolderOthersCanWriteOrOwnIsNotUsed) {
  const fs::path shared = test::scratchPath("shared-cache"), xdg = test::scratchPath("xdg");
  fs::create_directories(shared);
  fs::permissions(shared, fs::perms::all);  // 0777, as /tmp/iso3dfd-cache could be
  std::string notes;
  EXPECT_EQ(cacheDirectoryWith(shared.string(), xdg.string(), notes), (xdg / "iso3dfd").string());
  EXPECT_NE(notes.find("not using " + shared.string() + " as the cache folder: other users can write to it (mode 0777)"),
            std::string::npos)
      << notes;
  // The one made instead is private.
  EXPECT_EQ(fs::status(xdg / "iso3dfd").permissions() & fs::perms::all, fs::perms::owner_all);
  if (::geteuid() != 0) GTEST_SKIP() << "giving a folder to another user needs root (CI runs as root)";
  const fs::path theirs = test::scratchPath("their-cache");
  fs::create_directories(theirs);
  fs::permissions(theirs, fs::perms::owner_all);
  ASSERT_EQ(::chown(theirs.c_str(), 12345, 12345), 0);
  EXPECT_EQ(cacheDirectoryWith(theirs.string(), xdg.string(), notes), (xdg / "iso3dfd").string());
  EXPECT_NE(notes.find("it belongs to user 12345, not to you"), std::string::npos) << notes;
  // A link of theirs to a folder of ours: /tmp/iso3dfd-cache-0 -> /etc, say.
  const fs::path link = test::scratchPath("their-link"), mine = test::scratchPath("my-folder");
  fs::create_directories(mine);
  fs::permissions(mine, fs::perms::owner_all);
  fs::create_directory_symlink(mine, link);
  ASSERT_EQ(::lchown(link.c_str(), 12345, 12345), 0);
  EXPECT_EQ(cacheDirectoryWith(link.string(), xdg.string(), notes), (xdg / "iso3dfd").string());
  EXPECT_NE(notes.find("it is a symbolic link of user 12345"), std::string::npos) << notes;
}

TEST(HostileInputs, ADeeplyNestedHostBandwidthCacheIsSetAside) {
  const fs::path dir = test::scratchPath("host-cache");
  fs::create_directories(dir);
  const fs::path file = dir / "host-bandwidth.json";
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');  // 2 MB
  std::ofstream(file) << deep;
  EXPECT_FALSE(storedHostBandwidth(file.string()).has_value());
  EXPECT_FALSE(fs::exists(file)) << "the damaged file stayed where it would be read again";
  int kept = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind("host-bandwidth.json.damaged-", 0) == 0 && test::readFileBytes(e.path()) == deep) ++kept;
  EXPECT_EQ(kept, 1) << "the damaged file was not kept whole";
}

}  // namespace
}  // namespace iso
