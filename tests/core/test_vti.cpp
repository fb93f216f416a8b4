// VTK image data (.vti): written, parsed back to the same numbers and geometry; bad input refused
// with the older file kept.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "tests/ScratchDir.h"
#include "core/VtiWriter.h"

namespace iso {
namespace {

VtiImage sampleImage() {
  VtiImage image;
  image.size = {7, 5, 3};  // odd, non-cubic: a transposed axis would show
  image.spacing = {12.5, 12.5, 12.5};
  image.origin = {0.0, -25.0, 100.0};
  std::mt19937 random(3);
  std::normal_distribution<float> normal;
  VtiArray u{"u", std::vector<float>(7 * 5 * 3)};
  for (float& v : u.values) v = normal(random);
  u.values[0] = 1e-30f;
  u.values[1] = -3.4e38f;
  VtiArray velocity{"velocity (m/s) <P & \"S\">", std::vector<float>(7 * 5 * 3)};
  for (std::size_t n = 0; n < velocity.values.size(); ++n) velocity.values[n] = 1500.0f + float(n);  // x fastest
  image.arrays = {u, velocity};
  return image;
}

std::string fileText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(Vti, ParsesBackToTheSameNumbersAndGeometry) {
  const std::string path = test::scratchPath("field.vti").string();
  const VtiImage written = sampleImage();
  writeVti(path, written);
  const VtiImage read = readVti(path);
  EXPECT_EQ(read.size, written.size);
  EXPECT_EQ(read.spacing, written.spacing);
  EXPECT_EQ(read.origin, written.origin);
  ASSERT_EQ(read.arrays.size(), 2u);
  for (std::size_t a = 0; a < 2; ++a) {
    EXPECT_EQ(read.arrays[a].name, written.arrays[a].name);
    EXPECT_EQ(read.arrays[a].values, written.arrays[a].values);  // bit for bit
  }
  // What ParaView reads: the XML header names the extent, spacing in metres and the arrays.
  const std::string text = fileText(path);
  EXPECT_NE(text.find("WholeExtent=\"0 6 0 4 0 2\""), std::string::npos);
  EXPECT_NE(text.find("Spacing=\"12.5 12.5 12.5\""), std::string::npos);
  EXPECT_NE(text.find("Name=\"velocity (m/s) &lt;P &amp; &quot;S&quot;&gt;\""), std::string::npos);
  EXPECT_NE(text.find("</VTKFile>"), std::string::npos);
}

TEST(Vti, BadInputIsRefusedAndTheOlderFileKept) {
  const std::filesystem::path dir = test::scratchPath("vti-bad");
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "out.vti").string();
  std::ofstream(path) << "older file";
  VtiImage wrongCount = sampleImage();
  wrongCount.arrays[1].values.pop_back();
  VtiImage noSpacing = sampleImage();
  noSpacing.spacing[2] = 0.0;
  VtiImage empty = sampleImage();
  empty.size = {0, 5, 3};
  for (const VtiImage& bad : {wrongCount, noSpacing, empty}) {
    EXPECT_THROW(writeVti(path, bad), std::runtime_error);
    EXPECT_EQ(fileText(path), "older file");
  }
  try {
    writeVti((dir / "missing" / "out.vti").string(), sampleImage());
    ADD_FAILURE() << "a missing folder was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write to the folder"), std::string::npos) << e.what();
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 1);
  EXPECT_THROW(readVti(path), std::runtime_error);  // "older file" is no .vti
}

}  // namespace
}  // namespace iso
