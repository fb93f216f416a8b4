// The shared benchmark runner on the real CPU stages: its rows, its progress and its cancellation.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "app/controller/BenchmarkRunner.h"
#include "compute/ClError.h"
#include "compute/SolverFactory.h"
#include "tests/SanitizerBuild.h"

namespace iso {
namespace {

using Clock = std::chrono::steady_clock;

// Waits in these tests grow with $ISO_TEST_TIMEOUT_SCALE (sanitizer builds run slower).
double timeScale() {
  const char* text = std::getenv("ISO_TEST_TIMEOUT_SCALE");
  const double v = text ? std::atof(text) : 1.0;
  return v >= 1.0 ? v : 1.0;
}

Scenario smallScenario(int steps) {
  Scenario s = presetScenario("default");
  s.n1 = 29, s.n2 = 21, s.n3 = 17;
  s.model.salt.enabled = false;
  s.source.i = 14, s.source.j = 10, s.source.k = 8;
  s.receivers.clear();
  s.steps = steps;
  return s;
}

TEST(BenchmarkRunner, AdvanceTimedRunsExactlyTheStepsInEqualChunks) {
  auto solver = createSolver(buildProblem(smallScenario(7)), ExecutionConfig{"cpu-serial", "", {}});
  int lastSeen = 0;
  const TimedSteps t = advanceTimed(*solver, 7, 1, 3, nullptr, [&](int done) {
    EXPECT_GT(done, lastSeen);
    lastSeen = done;
  });
  EXPECT_EQ(solver->currentStep(), 7);
  EXPECT_EQ(lastSeen, 7);
  EXPECT_EQ(t.warmupSteps, 1);
  EXPECT_EQ(t.timedSteps, 6);
  ASSERT_EQ(t.chunkSecondsPerStep.size(), 3u);
  EXPECT_GT(t.medianSecondsPerStep, 0.0);
  EXPECT_FALSE(t.cancelled);
}

TEST(BenchmarkRunner, RowsHoldRatesSpeedupsAndTheDifferenceToCpuSerial) {
  Scenario s = smallScenario(6);
  s.stageParams = {{"threads", 2}, {"tile_x", 32}};  // tile_x is gpu-slm's: cpu-parallel must not see it
  BenchmarkRunner runner({s, {"cpu-parallel", "cpu-serial"}, 1, 2});
  const std::vector<const Stage*> order = runner.runOrder();
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0]->id(), "cpu-serial");
  EXPECT_EQ(order[1]->id(), "cpu-parallel");
  const BenchmarkReport report = runner.run();
  ASSERT_EQ(report.rows.size(), 2u);
  EXPECT_FALSE(report.cancelled);
  EXPECT_FALSE(report.date.empty());
  EXPECT_EQ(report.warmupSteps, 1);
  EXPECT_EQ(report.repeats, 2);

  const BenchmarkRow& serial = report.rows[0];
  EXPECT_EQ(serial.stage, "cpu-serial");
  EXPECT_TRUE(serial.error.empty()) << serial.error;
  EXPECT_FALSE(serial.difference) << "the reference is not compared with itself";
  ASSERT_TRUE(serial.speedupVsSerial);
  EXPECT_DOUBLE_EQ(*serial.speedupVsSerial, 1.0);

  const BenchmarkRow& parallel = report.rows[1];
  ASSERT_TRUE(parallel.error.empty()) << parallel.error;
  EXPECT_EQ(parallel.title, "CPU parallel");
  EXPECT_EQ(parallel.previous, "cpu-serial");
  EXPECT_EQ(parallel.bytesPerPointStep, 16.0);
  EXPECT_EQ(parallel.n1, 29);
  EXPECT_EQ(parallel.n3, 17);
  EXPECT_EQ(parallel.steps, 6);
  EXPECT_EQ(parallel.params.at("threads"), 2);
  EXPECT_EQ(parallel.params.count("tile_x"), 0u);
  const Throughput& t = parallel.throughput;
  ASSERT_GT(t.mpts, 0.0);
  EXPECT_NEAR(t.mpts, 29.0 * 21 * 17 / parallel.secondsPerStep / 1e6, 1e-6 * t.mpts);
  EXPECT_NEAR(t.gflops, t.mpts * 61 / 1000, 1e-9 * t.gflops);
  EXPECT_NEAR(t.gbsSample, t.mpts * 12 / 1000, 1e-9 * t.gbsSample);
  EXPECT_NEAR(t.gbsTraffic, t.mpts * 16 / 1000, 1e-9 * t.gbsTraffic);
  EXPECT_EQ(parallel.ceilingName, "host memcpy bandwidth");
  EXPECT_NEAR(t.rooflinePercent, 100.0 * t.gbsTraffic / t.ceilingGBs, 1e-9);
  ASSERT_TRUE(parallel.speedupVsSerial && parallel.speedupVsPrevious);
  EXPECT_NEAR(*parallel.speedupVsSerial, t.mpts / serial.throughput.mpts, 1e-12);
  EXPECT_DOUBLE_EQ(*parallel.speedupVsPrevious, *parallel.speedupVsSerial);
  ASSERT_TRUE(parallel.difference);
  EXPECT_TRUE(parallel.difference->withinTolerance(kReferenceTolerance));
  if (!test::kSanitizerBuild) {  // there cpu-parallel computes cpu-serial's bits
    EXPECT_GT(parallel.difference->maxAbs, 0.0) << "SIMD sums in another order: not bit-identical";
  }
}

TEST(BenchmarkRunner, AFailingStageGetsAnErrorRowAndTheRunGoesOn) {
  Scenario s = smallScenario(3);
  s.device = "no-such-device-anywhere";
  BenchmarkRunner runner({s, {"gpu-basic", "cpu-serial"}, 1, 1});
  const BenchmarkReport report = runner.run();
  ASSERT_EQ(report.rows.size(), 2u);
  EXPECT_TRUE(report.rows[0].error.empty());
  EXPECT_FALSE(report.rows[1].error.empty());
  EXPECT_EQ(report.rows[1].stage, "gpu-basic");
  EXPECT_TRUE(report.anyFailed());
  EXPECT_FALSE(report.cancelled);
}

TEST(BenchmarkRunner, UnknownStagesAndBadScenariosAreRefusedBeforeAnyRun) {
  EXPECT_THROW(BenchmarkRunner({smallScenario(3), {"cpu-warp"}, 1, 1}).run(), ComputeError);
  Scenario bad = smallScenario(3);
  bad.n1 = 0;
  EXPECT_THROW(BenchmarkRunner({bad, {"cpu-serial"}, 1, 1}).run(), ScenarioError);
}

TEST(BenchmarkRunner, ProgressRisesToOneWithOneRowPerStage) {
  std::vector<BenchmarkProgress> seen;
  std::vector<std::string> rowStages;
  BenchmarkRunner runner({smallScenario(5), {"cpu-serial", "cpu-parallel"}, 1, 2}, [&](const BenchmarkProgress& p) {
    seen.push_back(p);
    if (p.row) rowStages.push_back(p.row->stage);
  });
  runner.run();
  ASSERT_FALSE(seen.empty());
  for (std::size_t n = 1; n < seen.size(); ++n) {
    EXPECT_GE(seen[n].fraction, seen[n - 1].fraction);
    EXPECT_EQ(seen[n].stageCount, 2u);
    EXPECT_LE(seen[n].stepsDone, seen[n].steps);
  }
  EXPECT_DOUBLE_EQ(seen.back().fraction, 1.0);
  EXPECT_EQ(rowStages, (std::vector<std::string>{"cpu-serial", "cpu-parallel"}));
}

TEST(BenchmarkRunner, CancelInsideAStageStopsWithinASecond) {
  Scenario s = smallScenario(1000000);  // hours of cpu-serial: only a cancel ends it
  s.n1 = s.n2 = s.n3 = 48;
  s.source.i = s.source.j = s.source.k = 24;
  std::atomic<bool> running{false};
  BenchmarkRunner runner({s, {"cpu-serial", "cpu-parallel"}, 1, 3}, [&](const BenchmarkProgress& p) {
    if (p.stepsDone >= 3) running = true;
  });
  Clock::time_point cancelledAt;
  std::thread canceller([&] {
    while (!running) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancelledAt = Clock::now();
    runner.cancel();
  });
  const BenchmarkReport report = runner.run();
  const double stopSeconds = std::chrono::duration<double>(Clock::now() - cancelledAt).count();
  canceller.join();
  EXPECT_LT(stopSeconds, 1.0 * timeScale());
  EXPECT_TRUE(report.cancelled);
  EXPECT_TRUE(report.rows.empty()) << "the stage in progress has no row";
}

TEST(BenchmarkRunner, CancelBetweenStagesKeepsTheFinishedRows) {
  BenchmarkRunner* self = nullptr;
  BenchmarkRunner runner({smallScenario(4), {"cpu-serial", "cpu-parallel"}, 1, 1}, [&](const BenchmarkProgress& p) {
    if (p.row) self->cancel();
  });
  self = &runner;
  const BenchmarkReport report = runner.run();
  ASSERT_EQ(report.rows.size(), 1u);
  EXPECT_EQ(report.rows[0].stage, "cpu-serial");
  EXPECT_TRUE(report.cancelled);
}

}  // namespace
}  // namespace iso
