// Output files are written whole or not at all.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "OutputFile.h"
#include "ScratchDir.h"

namespace iso {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t filesIn(const fs::path& folder) {
  return std::size_t(std::distance(fs::directory_iterator(folder), fs::directory_iterator{}));
}

TEST(OutputFile, ReplacesTheFileWhole) {
  const fs::path folder = test::scratchPath("replace");
  fs::create_directories(folder);
  const fs::path file = folder / "out.txt";
  writeTextFileAtomically(file.string(), "first");
  writeTextFileAtomically(file.string(), "second");
  EXPECT_EQ(contents(file), "second");
  EXPECT_EQ(filesIn(folder), 1u) << "no temporary file is left behind";
}

TEST(OutputFile, AFailedWriteKeepsTheOldFileAndLeavesNoTemporary) {
  const fs::path folder = test::scratchPath("failed");
  fs::create_directories(folder);
  const fs::path file = folder / "out.txt";
  writeTextFileAtomically(file.string(), "old");
  EXPECT_THROW(writeFileAtomically(file.string(),
                                   [](const std::string& temporary) {
                                     std::ofstream(temporary) << "half";
                                     throw std::runtime_error("disk full");
                                   }),
               std::runtime_error);
  EXPECT_EQ(contents(file), "old");
  EXPECT_EQ(filesIn(folder), 1u);
}

TEST(OutputFile, BadTargetsAreErrors) {
  const fs::path folder = test::scratchPath("bad");
  fs::create_directories(folder);
  EXPECT_THROW(writeTextFileAtomically("", "x"), std::runtime_error);
  EXPECT_THROW(writeTextFileAtomically(folder.string(), "x"), std::runtime_error);
  EXPECT_THROW(writeTextFileAtomically((folder / "missing" / "out.txt").string(), "x"), std::runtime_error);
  EXPECT_THROW(writeFileAtomically((folder / "nothing.txt").string(), [](const std::string&) {}), std::runtime_error);
  EXPECT_FALSE(fs::exists(folder / "nothing.txt"));
}

TEST(OutputFile, SamePathSeesThroughSpellings) {
  const fs::path folder = test::scratchPath("same");
  fs::create_directories(folder);
  const fs::path file = folder / "m.npy";
  std::ofstream(file) << "x";
  EXPECT_TRUE(samePath(file, folder / "." / "m.npy"));
  EXPECT_TRUE(samePath(folder / "new.json", folder / "sub" / ".." / "new.json"));
  EXPECT_FALSE(samePath(file, folder / "n.npy"));
}

}  // namespace
}  // namespace iso
