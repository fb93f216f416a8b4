// Wavefield time series (.vti frames and a .pvd collection): the frames and their times, decimation,
// the bounded queue, and a writer that fails part-way. tests/python/check_vti_series.py reads the
// CLI's series with Debian's VTK as well.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>

#include "core/OutputFile.h"
#include "core/VtiSeriesWriter.h"
#include "core/VtiWriter.h"
#include "tests/ScratchDir.h"

namespace iso {
namespace {

std::string fileText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A field whose every value names its cell and frame: a transposed or shifted frame would show.
std::vector<float> field(const std::array<int, 3>& n, long step) {
  std::vector<float> f;
  for (int k = 0; k < n[2]; ++k)
    for (int j = 0; j < n[1]; ++j)
      for (int i = 0; i < n[0]; ++i) f.push_back(float(step * 100000 + k * 10000 + j * 100 + i));
  return f;
}

// (time, file) of every DataSet of a collection, in order.
std::vector<std::pair<double, std::string>> dataSets(const std::string& pvd) {
  std::vector<std::pair<double, std::string>> out;
  static const std::regex entry(R"re(<DataSet timestep="([^"]+)" group="" part="0" file="([^"]+)"/>)re");
  for (auto it = std::sregex_iterator(pvd.begin(), pvd.end(), entry); it != std::sregex_iterator(); ++it)
    out.emplace_back(std::stod((*it)[1]), (*it)[2]);
  return out;
}

TEST(VtiSeries, WritesEveryFrameAndACollectionWithTheirTimes) {
  const auto folder = test::scratchPath("series");  // created by the writer
  const std::array<int, 3> n{7, 5, 3};
  VtiSeriesWriter writer(folder.string(), {n, 12.5, 1}, 2);
  for (long step : {0L, 10L, 20L}) writer.push(step, double(step) * 0.001, field(n, step));
  writer.finish();
  EXPECT_EQ(writer.stats().frames, 3);
  const auto sets = dataSets(fileText(folder / "wavefield.pvd"));
  ASSERT_EQ(sets.size(), 3u);
  for (std::size_t f = 0; f < 3; ++f) {
    const long step = long(f) * 10;
    EXPECT_DOUBLE_EQ(sets[f].first, double(step) * 0.001);
    EXPECT_EQ(sets[f].second, VtiSeriesWriter::frameName(step));
    const VtiImage image = readVti((folder / sets[f].second).string());
    EXPECT_EQ(image.size, n);
    EXPECT_EQ(image.spacing, (std::array<double, 3>{12.5, 12.5, 12.5}));
    EXPECT_EQ(image.origin, (std::array<double, 3>{0, 0, 0}));
    ASSERT_EQ(image.arrays.size(), 1u);
    EXPECT_EQ(image.arrays[0].name, "u");
    EXPECT_EQ(image.arrays[0].values, field(n, step));
  }
  EXPECT_EQ(VtiSeriesWriter::frameName(1234567), "wavefield_1234567.vti");
}

TEST(VtiSeries, AStrideKeepsEveryKthPointAndWidensTheSpacing) {
  const auto folder = test::scratchPath("series-stride");
  const std::array<int, 3> n{7, 5, 4};
  VtiSeriesWriter writer(folder.string(), {n, 10.0, 3}, 1);
  EXPECT_EQ(writer.frameSize(), (std::array<int, 3>{3, 2, 2}));
  writer.push(5, 0.5, field(n, 5));
  writer.finish();
  const VtiImage image = readVti((folder / VtiSeriesWriter::frameName(5)).string());
  EXPECT_EQ(image.size, (std::array<int, 3>{3, 2, 2}));
  EXPECT_EQ(image.spacing, (std::array<double, 3>{30.0, 30.0, 30.0}));
  const std::vector<float> full = field(n, 5);
  std::vector<float> expected;
  for (int k : {0, 3})
    for (int j : {0, 3})
      for (int i : {0, 3, 6}) expected.push_back(full[std::size_t((k * 5 + j) * 7 + i)]);
  EXPECT_EQ(image.arrays[0].values, expected);
}

TEST(VtiSeries, AFailedWriteStopsTheSeriesAndTheCollectionListsWholeFramesOnly) {
  const auto folder = test::scratchPath("series-fails");
  const std::array<int, 3> n{4, 4, 4};
  std::atomic<int> doneCalls{0};
  std::exception_ptr reported;
  SeriesStats last;
  VtiSeriesWriter writer(folder.string(), {n, 1.0, 1}, 1, [&](const SeriesStats& s, std::exception_ptr e) {
    last = s;
    reported = e;
    ++doneCalls;
  });
  writer.push(0, 0.0, field(n, 0));
  while (writer.stats().frames < 1) std::this_thread::yield();
  const std::string collection = fileText(folder / "wavefield.pvd");
  // Replace the folder by a file: the next frame cannot be written.
  std::filesystem::remove_all(folder);
  std::ofstream(folder.string()) << "not a folder";
  writer.push(1, 0.1, field(n, 1));
  EXPECT_THROW(writer.finish(), FileWriteError);
  EXPECT_EQ(doneCalls.load(), 1);
  EXPECT_TRUE(reported);
  EXPECT_EQ(last.frames, 1);
  EXPECT_THROW(writer.push(2, 0.2, field(n, 2)), FileWriteError);
  EXPECT_EQ(dataSets(collection).size(), 1u);
  std::filesystem::remove(folder);
}

TEST(VtiSeries, RefusesAFolderItCannotUseAndFramesOfAnotherSize) {
  const auto file = test::scratchPath("series-is-a-file");
  std::ofstream(file.string()) << "x";
  EXPECT_THROW(VtiSeriesWriter(file.string(), {{2, 2, 2}, 1.0, 1}, 1), FileWriteError);
  EXPECT_THROW(VtiSeriesWriter((test::scratchPath("no-parent") / "series").string(), {{2, 2, 2}, 1.0, 1}, 1), FileWriteError);
  EXPECT_THROW(VtiSeriesWriter(test::scratchPath("s0").string(), {{2, 2, 2}, 1.0, 0}, 1), std::invalid_argument);
  VtiSeriesWriter writer(test::scratchPath("series-size").string(), {{2, 2, 2}, 1.0, 1}, 1);
  EXPECT_THROW(writer.push(0, 0.0, std::vector<float>(7)), std::invalid_argument);
  writer.close();
  EXPECT_THROW(writer.push(0, 0.0, std::vector<float>(8)), std::logic_error);
}

TEST(VtiSeries, TheQueueHoldsFourFramesOrAGibibyte) {
  EXPECT_EQ(VtiSeriesWriter::defaultCapacity({{96, 96, 96}, 1.0, 1}), 4u);
  EXPECT_EQ(VtiSeriesWriter::defaultCapacity({{512, 512, 512}, 1.0, 4}), 2u);  // 512 MiB fields, whatever the stride
  EXPECT_EQ(VtiSeriesWriter::defaultCapacity({{1024, 1024, 1024}, 1.0, 1}), 1u);
}

}  // namespace
}  // namespace iso
