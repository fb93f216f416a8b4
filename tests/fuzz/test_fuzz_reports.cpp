// Seeded mutation fuzzing of the benchmark report reader (`iso3dfd-studio --bench-panel --load F`, the
// GPU scripts): an accepted report holds only values its charts can draw (rates within
// kMaxPlausibleRate, grids within the axis limit, integers that fit) and writes back to the same JSON.
#include "app/controller/BenchmarkReport.h"
#include "core/Grid.h"
#include "tests/fuzz/FuzzHarness.h"

namespace iso::fuzz {
namespace {

BenchmarkReport report(int rows) {
  BenchmarkReport r;
  r.date = "2026-11-27T10:00:00Z";
  r.hostCpu = "Fuzz CPU";
  r.warmupSteps = 1;
  r.repeats = 3;
  for (int n = 0; n < rows; ++n) {
    BenchmarkRow row;
    row.stage = n == 0 ? "cpu-serial" : "gpu-slm";
    row.title = "stage " + std::to_string(n);
    row.device = n == 0 ? "host CPU" : "Fuzz GPU";
    row.n1 = 32 + n, row.n2 = 24, row.n3 = 16;
    row.steps = 10;
    row.secondsPerStep = 0.001 / (n + 1);
    row.throughput = computeThroughput(double(row.n1) * 24 * 16, 1.0, row.secondsPerStep, 100.0 * (n + 1));
    row.ceilingName = "copy bandwidth";
    row.speedupVsSerial = double(n + 1);
    if (n > 0) row.difference = FieldDifference{1e-7, 2e-8, 0};
    row.params = {{"tile_x", 16 * n}};
    if (n == 2) row.error = "build failed: \"x\" undeclared";
    r.rows.push_back(row);
  }
  return r;
}

TEST(Fuzz, BenchmarkReports) {
  fuzz<std::runtime_error>("benchmark reports", {benchmarkJson(report(1)), benchmarkJson(report(3))}, [](const std::string& text) {
    const BenchmarkReport r = parseBenchmarkJson(text);
    for (const BenchmarkRow& row : r.rows) {
      for (const double v : {row.throughput.mpts, row.throughput.gflops, row.throughput.gbsTraffic, row.throughput.ceilingGBs})
        EXPECT_TRUE(v >= 0.0 && v <= kMaxPlausibleRate) << v;
      EXPECT_TRUE(row.n1 >= 0 && row.n1 <= kMaxAxisCells && row.steps >= 0);
    }
    const std::string written = benchmarkJson(r);
    EXPECT_EQ(benchmarkJson(parseBenchmarkJson(written)), written);
    return true;
  });
}

}  // namespace
}  // namespace iso::fuzz
