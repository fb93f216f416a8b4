// The benchmark panel's pieces without Qt: the tuning sweep timed like a benchmark row (every candidate,
// the fastest found, cancellation between and inside candidates) and the devices' rooflines.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include "app/controller/BenchmarkRunner.h"
#include "compute/DeviceRegistry.h"
#include "compute/Stage.h"
#include "compute/Tuner.h"

namespace iso {
namespace {

BenchmarkRequest smallRequest(int steps) {
  Scenario s = presetScenario("default");
  s.n1 = 21, s.n2 = 17, s.n3 = 13;
  s.model.salt.enabled = false;
  s.source.i = 10, s.source.j = 8, s.source.k = 6;
  s.receivers.clear();
  s.steps = steps;
  return {s, {"gpu-optimized"}, 1, 3};
}

TEST(BenchmarkSweep, TimesEveryCandidateAndFindsTheFastest) {
  if (listDevices().empty()) GTEST_SKIP() << "no OpenCL device";
  const BenchmarkRequest request = smallRequest(4);
  int reported = 0;
  const SweepResult sweep = sweepStage(request, resolveStage("gpu-optimized"), nullptr, [&](const StageTiming&) { ++reported; });
  EXPECT_FALSE(sweep.cancelled);
  EXPECT_EQ(sweep.grid.n1, 21);
  const auto candidates = resolveStage("gpu-optimized").tuningCandidates(sweep.device, sweep.grid);
  ASSERT_EQ(sweep.candidates.size(), candidates.size());
  EXPECT_EQ(reported, int(candidates.size()));
  double fastest = 0.0;
  for (std::size_t n = 0; n < candidates.size(); ++n) {
    const StageTiming& t = sweep.candidates[n];
    EXPECT_TRUE(t.error.empty()) << t.error;
    EXPECT_GT(t.mpts, 0.0);
    for (const auto& [key, value] : candidates[n]) EXPECT_EQ(t.params.at(key), value) << "candidate " << n << " ran as given";
    fastest = std::max(fastest, t.mpts);
  }
  ASSERT_GE(sweep.best, 0);
  EXPECT_EQ(sweep.candidates[std::size_t(sweep.best)].mpts, fastest);
  EXPECT_TRUE(sweep.withoutLayer) << "the default scenario's layer is left out of the timing, as `iso3dfd tune` does";
}

// The scenario the tuner and the sweep time: the perfectly matched layer left out, the sponge kept.
TEST(BenchmarkSweep, TimesWithoutTheAbsorbingLayerOnly) {
  Scenario s = presetScenario("default");
  ASSERT_EQ(s.boundary.kind, BoundaryKind::Absorbing);
  EXPECT_TRUE(tuningLeavesOutTheLayer(s));
  EXPECT_EQ(scenarioForTuning(s).boundary.kind, BoundaryKind::Reflecting);
  EXPECT_EQ(scenarioForTuning(s).n1, s.n1);
  s.boundary.kind = BoundaryKind::Sponge;
  EXPECT_FALSE(tuningLeavesOutTheLayer(s));
  EXPECT_EQ(scenarioForTuning(s).boundary.kind, BoundaryKind::Sponge);
}

TEST(BenchmarkSweep, AStageOnTheHostHasNoSweep) {
  EXPECT_THROW(sweepStage(smallRequest(2), resolveStage("cpu-parallel")), std::invalid_argument);
}

TEST(BenchmarkSweep, CancelStopsBetweenAndInsideCandidates) {
  if (listDevices().empty()) GTEST_SKIP() << "no OpenCL device";
  std::atomic<bool> cancel{false};
  // Set after the second candidate: no third one starts.
  int reported = 0;
  SweepResult sweep = sweepStage(smallRequest(2), resolveStage("gpu-optimized"), &cancel, [&](const StageTiming&) {
    if (++reported == 2) cancel = true;
  });
  EXPECT_TRUE(sweep.cancelled);
  EXPECT_EQ(sweep.candidates.size(), 2u);
  // Set before: the first candidate stops inside its steps and leaves no timing.
  sweep = sweepStage(smallRequest(100000), resolveStage("gpu-optimized"), &cancel);
  EXPECT_TRUE(sweep.cancelled);
  EXPECT_TRUE(sweep.candidates.empty());
}

TEST(BenchmarkSweep, RooflinesOfTheHostAndTheDeviceTheStagesRunOn) {
  const Scenario s = smallRequest(2).scenario;
  const std::vector<DeviceRoofline> host = measureRooflines(s, {"cpu-serial", "cpu-parallel"});
  ASSERT_EQ(host.size(), 1u);
  EXPECT_TRUE(host[0].host);
  EXPECT_GT(host[0].memory.median, 0.0);
  EXPECT_LE(host[0].memory.min, host[0].memory.median);
  EXPECT_FALSE(host[0].memory.date.empty());
  if (listDevices().empty()) return;
  const std::vector<DeviceRoofline> both = measureRooflines(s, {"cpu-serial", "gpu-basic"});
  ASSERT_EQ(both.size(), 2u);
  EXPECT_FALSE(both[1].host);
  EXPECT_EQ(both[1].device, selectDevice(s.device).name);
  EXPECT_GT(both[1].memory.median, 0.0);
  EXPECT_GT(both[1].compute.median, 0.0) << both[1].error;
  EXPECT_GT(both[1].compute.runs, 0);
  EXPECT_EQ(measureRooflines(s, {"gpu-optimized"}).size(), 1u) << "no host roofline without a CPU stage";
}

}  // namespace
}  // namespace iso
