// Files are written whole or not at all: a full disk (RLIMIT_FSIZE in a child process, SIGXFSZ
// ignored so that write() fails with EFBIG) leaves the previous file byte for byte, reports the
// path and the reason, and leaves no temporary file behind. Every writer of core/ is checked.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "core/OutputFile.h"
#include "core/Checkpoint.h"
#include "tests/core/ChildProcess.h"
#include "core/Npy.h"
#include "core/Scenario.h"
#include "tests/ScratchDir.h"
#include "core/Traces.h"
#include "core/VtiWriter.h"

namespace iso {
namespace {

namespace fs = std::filesystem;

// A folder holding only `name`, with `contents` in it.
fs::path folderWithFile(const std::string& folder, const std::string& name, const std::string& contents) {
  const fs::path dir = test::scratchPath(folder);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << contents;
  return dir / name;
}

std::vector<std::string> filesIn(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

// Runs `write` in a child whose files may not grow past `limitBytes`; the child succeeds when `write`
// throws an exception whose message holds the path and the OS reason.
void expectFullDiskKeepsOldFile(const fs::path& target, std::size_t limitBytes, const std::function<void()>& write) {
  const std::string before = test::readFileBytes(target);
  const test::ChildResult child = test::runInChild([&](std::string& report) {
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{rlim_t(limitBytes), rlim_t(limitBytes)};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) return 2;
    try {
      write();
    } catch (const std::exception& e) {
      report = e.what();
      return 0;
    }
    report = "no error";
    return 1;
  });
  ASSERT_TRUE(child.exited) << "the writer crashed with signal " << child.status;
  EXPECT_EQ(child.status, 0) << child.report;
  EXPECT_NE(child.report.find(target.string()), std::string::npos) << child.report;
  EXPECT_NE(child.report.find("File too large"), std::string::npos) << child.report;
  EXPECT_EQ(test::readFileBytes(target), before) << "the previous file was changed";
  EXPECT_EQ(filesIn(target.parent_path()), std::vector<std::string>{target.filename().string()})
      << "a temporary file was left behind";
}

TEST(OutputFile, FullDiskDuringNpyDumpKeepsThePreviousFile) {
  const std::vector<float> old(6, 1.0f), big(64 * 1024, 2.0f);
  const fs::path target = test::scratchPath("npy-full");
  fs::create_directories(target);
  writeNpy((target / "u.npy").string(), old.data(), {2, 3});
  expectFullDiskKeepsOldFile(target / "u.npy", 16 * 1024,
                             [&] { writeNpy((target / "u.npy").string(), big.data(), {256, 256}); });
  EXPECT_EQ(readNpy((target / "u.npy").string()).data, old);
}

TEST(OutputFile, FullDiskDuringTracesKeepsThePreviousFile) {
  const fs::path target = folderWithFile("traces-full", "t.csv", "time_s,r0\n0.001,1\n");
  const std::vector<float> traces(2 * 20000, 0.125f);
  expectFullDiskKeepsOldFile(target, 8 * 1024,
                             [&] { saveTracesCsv(target.string(), traces, {{1, 2, 3}, {4, 5, 6}}, 0.001); });
  const fs::path npy = folderWithFile("traces-npy-full", "t.npy", "old traces");
  expectFullDiskKeepsOldFile(npy, 8 * 1024, [&] { saveTracesNpy(npy.string(), traces, 2); });
}

TEST(OutputFile, FullDiskDuringScenarioSaveKeepsThePreviousFile) {
  const fs::path target = folderWithFile("scenario-full", "s.json", R"({"n1": 32})");
  expectFullDiskKeepsOldFile(target, 256, [&] { saveScenarioFile(presetScenario("default"), target.string()); });
  EXPECT_EQ(loadScenarioFile(target.string()).n1, 32);
}

TEST(OutputFile, FullDiskDuringCheckpointKeepsThePreviousFile) {
  const fs::path target = folderWithFile("checkpoint-full", "state.ckp", "an older checkpoint");
  Scenario s = presetScenario("default");
  s.n1 = 21, s.n2 = 18, s.n3 = 16;
  s.receivers.clear();
  const std::size_t padded = Grid(s.n1, s.n2, s.n3).paddedSize();
  SolverState state;
  state.step = 7;
  state.current.assign(padded, 0.5f);
  state.previous.assign(padded, 0.25f);
  const Checkpoint checkpoint{s, std::vector<float>(std::size_t(s.n1) * s.n2 * s.n3, 2000.0f), state};
  expectFullDiskKeepsOldFile(target, 16 * 1024, [&] { saveCheckpoint(target.string(), checkpoint); });
}

TEST(OutputFile, FullDiskDuringVtiKeepsThePreviousFile) {
  const fs::path target = folderWithFile("vti-full", "u.vti", "an older image");
  VtiImage image;
  image.size = {40, 30, 20};
  image.arrays = {{"u", std::vector<float>(40 * 30 * 20, 1.5f)}};
  expectFullDiskKeepsOldFile(target, 16 * 1024, [&] { writeVti(target.string(), image); });
}

TEST(OutputFile, ReplacesWholeKeepsPermissionsAndLeavesNothingBehind) {
  const fs::path target = folderWithFile("replace", "f.txt", "old contents");
  fs::permissions(target, fs::perms(0640));
  writeWholeFile(target.string(), "new");
  EXPECT_EQ(test::readFileBytes(target), "new");
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::all, fs::perms(0640));
  EXPECT_EQ(filesIn(target.parent_path()), std::vector<std::string>{"f.txt"});

  // A fresh file, large enough to bypass the buffer, in a folder named relative to nothing.
  const std::string large(3 << 20, 'x');
  writeWholeFile((target.parent_path() / "large.bin").string(), large);
  EXPECT_EQ(test::readFileBytes(target.parent_path() / "large.bin"), large);
}

TEST(OutputFile, AbandonedWriteLeavesTheTargetUntouched) {
  const fs::path target = folderWithFile("abandon", "f.txt", "keep me");
  {
    OutputFile file(target.string());
    file.write("half of a new file");
  }  // destroyed without commit(): an exception between writes does this
  EXPECT_EQ(test::readFileBytes(target), "keep me");
  EXPECT_EQ(filesIn(target.parent_path()), std::vector<std::string>{"f.txt"});
}

TEST(OutputFile, ErrorsNameThePathAndTheReason) {
  const std::string missing = test::scratchPath("no-such-folder/out.npy").string();
  try {
    writeWholeFile(missing, "x");
    FAIL() << "no error";
  } catch (const FileWriteError& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();
  }
  const fs::path folder = test::scratchPath("a-folder");
  fs::create_directories(folder);
  EXPECT_THROW(writeWholeFile(folder.string(), "x"), FileWriteError);
  EXPECT_TRUE(fs::is_directory(folder));
  // Through a symbolic link: the file it points to is replaced, the link stays.
  const fs::path real = folderWithFile("link", "real.txt", "old");
  fs::create_symlink(real, real.parent_path() / "link.txt");
  writeWholeFile((real.parent_path() / "link.txt").string(), "new");
  EXPECT_TRUE(fs::is_symlink(real.parent_path() / "link.txt"));
  EXPECT_EQ(test::readFileBytes(real), "new");
}

TEST(OutputFile, SamePathSeesThroughSpellings) {
  const fs::path folder = test::scratchPath("same");
  fs::create_directories(folder);
  const fs::path file = folder / "m.npy";
  std::ofstream(file) << "x";
  EXPECT_TRUE(samePath(file, folder / "." / "m.npy"));
  EXPECT_TRUE(samePath(folder / "new.json", folder / "sub" / ".." / "new.json"));
  EXPECT_FALSE(samePath(file, folder / "n.npy"));
  fs::create_symlink(file, folder / "link.npy");
  EXPECT_TRUE(samePath(file, folder / "link.npy"));
}

}  // namespace
}  // namespace iso
