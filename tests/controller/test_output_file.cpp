// Output paths compared however they are spelled.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "app/controller/OutputFile.h"
#include "tests/ScratchDir.h"

namespace iso {
namespace {

namespace fs = std::filesystem;

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
