// `iso3dfd-studio` given what once hung or crashed it: an empty file name for a screenshot (the window
// stayed open for ever), a benchmark report with a ceiling of 1e308 (Qt Charts' log axis crashed), and
// one whose rates span every decade a measurement can (drawn, not laid out for ever).
#include <gtest/gtest.h>

#include <QImage>
#include <filesystem>
#include <fstream>

#include "app/controller/BenchmarkReport.h"
#include "tests/ScratchDir.h"
#include "tests/gui/test_studio_support.h"
#include "tests/support/StudioProcess.h"

namespace iso {
namespace {

// The studio's exit status (-1: crashed or killed after the timeout) and what it printed.
std::pair<int, std::string> studio(const QStringList& arguments, int timeoutMs = 120000) {
  const test::StudioRun run = test::runStudio(arguments, {}, timeoutMs);
  return {run.exitCode, run.output.toStdString()};
}

TEST(StudioHostile, AnEmptyScreenshotNameIsRefusedAtOnce) {
  for (const char* option : {"--screenshot", "--record"}) {
    const auto [status, output] = studio({"--steps", "50", option, "", "--frames", "2"}, 30000);
    EXPECT_EQ(status, 2) << option << ": " << output;
    EXPECT_NE(output.find(std::string(option) + " needs a file name (got an empty one)"), std::string::npos) << output;
  }
}

BenchmarkReport reportWithCeiling(double ceilingGBs, double mpts) {
  BenchmarkReport r;
  r.date = "2026-11-27T10:00:00Z";
  BenchmarkRow row;
  row.stage = "cpu-serial";
  row.title = "CPU serial";
  row.device = "host CPU";
  row.n1 = row.n2 = row.n3 = 8;
  row.steps = 2;
  row.secondsPerStep = 1.0;
  row.throughput.mpts = mpts;
  row.throughput.ceilingGBs = ceilingGBs;
  row.ceilingName = "host memcpy bandwidth";
  r.rows = {row};
  return r;
}

TEST(StudioHostile, TheBenchmarkPanelRefusesAReportOfImpossibleRatesAndDrawsExtremeOnes) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display (run under xvfb-run)";
  const auto write = [](const std::string& name, const BenchmarkReport& r) {
    const std::string path = test::scratchPath(name).string();
    std::ofstream(path) << benchmarkJson(r);
    return QString::fromStdString(path);
  };
  // 1e308 cannot be written by this program; a hand-edited file can hold it.
  BenchmarkReport impossible = reportWithCeiling(1.0, 1.0);
  std::string text = benchmarkJson(impossible);
  text.replace(text.find("\"ceiling_gbs\": 1.0"), 18, "\"ceiling_gbs\": 1e308");
  const QString impossiblePath = QString::fromStdString(test::scratchPath("impossible.json").string());
  std::ofstream(impossiblePath.toStdString()) << text;
  const QString extreme = write("extreme.json", reportWithCeiling(1e9, 1e-6));  // fifteen decades apart
  const QString png = QString::fromStdString(test::scratchPath("panel.png").string());
  const QStringList run = {"--bench-panel", "--stages", "cpu-serial", "--size", "8", "--steps", "2", "--screenshot", png};
  const auto [refused, why] = studio(run + QStringList{"--load", impossiblePath});
  EXPECT_EQ(refused, 1) << why;
  EXPECT_NE(why.find("key 'ceiling_gbs' is 1e+308, outside 0 to 1e+09"), std::string::npos) << why;
  const auto [status, output] = studio(run + QStringList{"--load", extreme});
  ASSERT_EQ(status, 0) << output;
  EXPECT_FALSE(QImage(png).isNull()) << output;
}

}  // namespace
}  // namespace iso
