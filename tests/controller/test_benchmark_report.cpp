// The benchmark report's one writer (table, JSON, CSV) and its JSON reader.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/controller/BenchmarkReport.h"
#include "core/OutputFile.h"
#include "tests/ScratchDir.h"

namespace iso {
namespace {

BenchmarkReport sampleReport() {
  BenchmarkReport r;
  r.date = "2026-11-23T19:30:00Z";
  r.hostCpu = "AMD EPYC \"Zen 5\", 2 cores";
  r.warmupSteps = 1;
  r.repeats = 5;
  BenchmarkRow serial;
  serial.stage = "cpu-serial";
  serial.title = "CPU serial";
  serial.device = "host CPU (1 thread, scalar)";
  serial.n1 = 64, serial.n2 = 48, serial.n3 = 32;
  serial.steps = 20;
  serial.secondsPerStep = 0.0015;
  serial.throughput = computeThroughput(64.0 * 48 * 32, 1.0, 0.0015, 40.0);
  serial.throughput.seconds = 0.0285;
  serial.ceilingName = "host memcpy bandwidth";
  serial.speedupVsSerial = 1.0;
  BenchmarkRow slm = serial;
  slm.stage = "gpu-slm";
  slm.title = "GPU local memory";
  slm.device = "NVIDIA H100 80GB HBM3";
  slm.secondsPerStep = 1.25e-5;
  slm.throughput = computeThroughput(64.0 * 48 * 32, 1.0, 1.25e-5, 2900.0);
  slm.ceilingName = "device copy bandwidth";
  slm.speedupVsSerial = 120.0;
  slm.previous = "gpu-private-z";
  slm.difference = FieldDifference{1.5e-7, 3.25e-8, 0};
  slm.params = {{"tile_x", 32}, {"tile_y", 8}, {"z_chunk", 0}};
  BenchmarkRow failed;
  failed.stage = "gpu-temporal";
  failed.title = "GPU temporal";
  failed.bytesPerPointStep = 10.0;
  failed.n1 = 64, failed.n2 = 48, failed.n3 = 32;
  failed.steps = 20;
  failed.previous = "gpu-optimized";
  failed.error = "build failed:\nline 3: \"x\" undeclared, sorry";
  r.rows = {serial, slm, failed};
  return r;
}

void expectSameRow(const BenchmarkRow& a, const BenchmarkRow& b) {
  EXPECT_EQ(a.stage, b.stage);
  EXPECT_EQ(a.title, b.title);
  EXPECT_EQ(a.device, b.device);
  EXPECT_DOUBLE_EQ(a.bytesPerPointStep, b.bytesPerPointStep);
  EXPECT_EQ(a.n1, b.n1);
  EXPECT_EQ(a.n2, b.n2);
  EXPECT_EQ(a.n3, b.n3);
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_DOUBLE_EQ(a.secondsPerStep, b.secondsPerStep);
  EXPECT_DOUBLE_EQ(a.throughput.seconds, b.throughput.seconds);
  EXPECT_DOUBLE_EQ(a.throughput.mpts, b.throughput.mpts);
  EXPECT_DOUBLE_EQ(a.throughput.gflops, b.throughput.gflops);
  EXPECT_DOUBLE_EQ(a.throughput.gbsSample, b.throughput.gbsSample);
  EXPECT_DOUBLE_EQ(a.throughput.gbsTraffic, b.throughput.gbsTraffic);
  EXPECT_DOUBLE_EQ(a.throughput.ceilingGBs, b.throughput.ceilingGBs);
  EXPECT_DOUBLE_EQ(a.throughput.rooflinePercent, b.throughput.rooflinePercent);
  EXPECT_EQ(a.ceilingName, b.ceilingName);
  EXPECT_EQ(a.speedupVsSerial, b.speedupVsSerial);
  EXPECT_EQ(a.previous, b.previous);
  EXPECT_EQ(a.speedupVsPrevious, b.speedupVsPrevious);
  ASSERT_EQ(a.difference.has_value(), b.difference.has_value());
  if (a.difference) {
    EXPECT_DOUBLE_EQ(a.difference->maxAbs, b.difference->maxAbs);
    EXPECT_DOUBLE_EQ(a.difference->relativeL2, b.difference->relativeL2);
    EXPECT_EQ(a.difference->nonFinite, b.difference->nonFinite);
  }
  EXPECT_EQ(a.params, b.params);
  EXPECT_EQ(a.error, b.error);
}

TEST(BenchmarkReport, JsonRoundTripKeepsEveryField) {
  const BenchmarkReport written = sampleReport();
  const BenchmarkReport read = parseBenchmarkJson(benchmarkJson(written));
  EXPECT_EQ(read.date, written.date);
  EXPECT_EQ(read.hostCpu, written.hostCpu);
  EXPECT_EQ(read.warmupSteps, 1);
  EXPECT_EQ(read.repeats, 5);
  EXPECT_FALSE(read.cancelled);
  EXPECT_EQ(read.devices(), (std::vector<std::string>{"host CPU (1 thread, scalar)", "NVIDIA H100 80GB HBM3"}));
  ASSERT_EQ(read.rows.size(), written.rows.size());
  for (std::size_t n = 0; n < read.rows.size(); ++n) {
    SCOPED_TRACE(written.rows[n].stage);
    expectSameRow(read.rows[n], written.rows[n]);
  }
}

TEST(BenchmarkReport, ReaderNamesWhatIsWrong) {
  std::string text = benchmarkJson(sampleReport());
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    t.replace(t.find(from), from.size(), to);
    return t;
  };
  const auto message = [](const std::string& json) {
    try {
      parseBenchmarkJson(json);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(replaced("iso3dfd-bench/1", "iso3dfd-bench/9")).find("schema"), std::string::npos);
  EXPECT_NE(message(replaced("\"mpts\"", "\"mpts_old\"")).find("rows[0] key 'mpts' is missing"), std::string::npos);
  EXPECT_NE(message(replaced("\"n1\": 64", "\"n1\": \"64\"")).find("'n1' must be an integer"), std::string::npos);
  EXPECT_NE(message("{\"schema\": ").find("malformed JSON"), std::string::npos);
  EXPECT_NE(message("[1, 2]").find("must be a JSON object"), std::string::npos);
  // Values a chart cannot draw or an int cannot hold: a ceiling of 1e308 crashed the panel's log axis.
  EXPECT_NE(message(replaced("\"ceiling_gbs\": 40.0", "\"ceiling_gbs\": 1e308")).find("rows[0] key 'ceiling_gbs' is 1e+308, outside 0 to 1e+09"),
            std::string::npos) << message(replaced("\"ceiling_gbs\": 40.0", "\"ceiling_gbs\": 1e308"));
  EXPECT_NE(message(replaced("\"n1\": 64", "\"n1\": 2147483648")).find("'n1' is 2147483648, outside 0 to 16384"), std::string::npos);
  EXPECT_NE(message(replaced("\"tile_x\": 32", "\"tile_x\": 2147483648")).find("rows[1].params key 'tile_x' is 2147483648"),
            std::string::npos) << message(replaced("\"tile_x\": 32", "\"tile_x\": 2147483648"));
  EXPECT_NE(message(std::string(100, '[') + std::string(100, ']')).find("nested more than 64 levels"), std::string::npos);
}

// A report written before rows said what their stage moves: every stage then moved 16 B per point-step.
TEST(BenchmarkReport, AnOlderReportWithoutBytesPerPointStepReadsAsSixteen) {
  std::string text = benchmarkJson(sampleReport());
  for (std::size_t at; (at = text.find("\"bytes_per_point_step\"")) != std::string::npos;)
    text.erase(at, text.find('\n', at) + 1 - at);
  const BenchmarkReport read = parseBenchmarkJson(text);
  ASSERT_EQ(read.rows.size(), 3u);
  for (const BenchmarkRow& row : read.rows) EXPECT_EQ(row.bytesPerPointStep, 16.0) << row.stage;
  EXPECT_EQ(parseBenchmarkJson(benchmarkJson(sampleReport())).rows[2].bytesPerPointStep, 10.0);
}

TEST(BenchmarkReport, FileRoundTripThroughTheAtomicWriter) {
  const auto path = test::scratchPath("bench.json").string();
  writeWholeFile(path, benchmarkJson(sampleReport()));
  EXPECT_EQ(readBenchmarkJson(path).rows.size(), 3u);
  EXPECT_THROW(readBenchmarkJson(path + ".missing"), std::runtime_error);
}

TEST(BenchmarkReport, CsvHasAHeaderAndOneQuotedLinePerRow) {
  const std::string csv = benchmarkCsv(sampleReport());
  std::istringstream in(csv);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 4u) << csv;
  EXPECT_EQ(lines[0].rfind("stage,title,device,n1,n2,n3,steps,seconds,", 0), 0u);
  EXPECT_NE(lines[2].find("\"tile_x=32 tile_y=8 z_chunk=0\""), std::string::npos) << lines[2];
  EXPECT_NE(lines[3].find("\"build failed: line 3: \"\"x\"\" undeclared, sorry\""), std::string::npos) << lines[3];
  // Empty fields for what is unknown: the failed row has no speed-up and no difference.
  EXPECT_NE(lines[3].find(",,"), std::string::npos);
}

TEST(BenchmarkReport, TableShowsReferenceUnknownsCeilingsAndErrors) {
  const std::string table = benchmarkTable(sampleReport());
  EXPECT_NE(table.find("ref"), std::string::npos);
  EXPECT_NE(table.find("120.00x"), std::string::npos);
  EXPECT_NE(table.find("n/a"), std::string::npos) << "gpu-slm has no speed-up over a stage that did not run";
  EXPECT_NE(table.find("device copy bandwidth of NVIDIA H100 80GB HBM3: 2900.0 GB/s"), std::string::npos) << table;
  EXPECT_NE(table.find("host memcpy bandwidth: 40.0 GB/s"), std::string::npos) << table;
  EXPECT_NE(table.find("error: build failed"), std::string::npos);
}

}  // namespace
}  // namespace iso
