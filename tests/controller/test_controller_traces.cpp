// The live traces the compute thread publishes (the solver's own samples, the most recent
// kLiveTraceSamples of each receiver at most) and the run's end (stop, loop, or a new length).
#include <gtest/gtest.h>

#include <future>

#include "app/controller/SimulationController.h"
#include "tests/controller/WaitFor.h"
#include "core/CpuSolvers.h"
#include "core/ScenarioResize.h"

namespace iso {
namespace {

using test::waitFor;

Scenario smallRun(int steps) {
  Scenario s = resizedScenario(presetScenario("default"), 20, 17, 15);
  s.stage = "cpu-parallel";
  s.steps = steps;
  s.receivers = {{3, 8, 6}, {10, 8, 6}, {16, 2, 12}};
  return s;
}

// The traces that rest at `step`: published once the run comes to rest there.
std::shared_ptr<const LiveTraces> tracesAt(SimulationController& c, long step) {
  std::shared_ptr<const LiveTraces> live;
  waitFor([&] {
    live = c.liveTraces();
    return live && live->firstSample + live->count() == step && !c.status().playing;
  });
  return live;
}

TEST(ControllerTraces, AreTheSolversSamplesAndStopAtTheRunsEnd) {
  const Scenario s = smallRun(37);
  SimulationController c;
  c.setRunEnd(RunEnd::Stop);
  playWhenBuilt(c, s, 5);
  const auto live = tracesAt(c, 37);
  ASSERT_TRUE(live) << "no traces at the end of the run";
  EXPECT_EQ(c.status().step, 37) << "the run stops at the scenario's steps";
  EXPECT_EQ(c.status().runLength, 37);
  EXPECT_EQ(live->firstSample, 0);
  EXPECT_EQ(live->dt, c.status().dt);
  ASSERT_EQ(live->receivers.size(), 3u);
  EXPECT_EQ(live->receivers[2].k, 12);

  auto reference = createCpuSolver(buildProblem(s), "cpu-parallel");
  reference->advance(37);
  EXPECT_EQ(live->samples, reference->traces());
  // Not a zero record: the wave has reached some receiver by then.
  EXPECT_TRUE(std::any_of(live->samples.begin(), live->samples.end(), [](float v) { return v != 0.0f; }));

  // A longer run only moves the end: no rebuild, the run goes on from where it stopped.
  const long generation = c.status().generation;
  Scenario longer = s;
  longer.steps = 50;
  c.setScenario(longer);
  c.setPlaying(true);
  ASSERT_TRUE(waitFor([&] { return c.status().step == 50 && !c.status().playing; }));
  EXPECT_EQ(c.status().generation, generation);
  EXPECT_EQ(c.status().runLength, 50);
  EXPECT_EQ(c.activeScenario().steps, 50);

  // Play at the end starts the run again from step 0 (a rebuild).
  c.setPlaying(true);
  ASSERT_TRUE(waitFor([&] { return c.status().generation == generation + 1; }));
  ASSERT_TRUE(waitFor([&] { return c.status().step == 50 && !c.status().playing; }));
  EXPECT_EQ(c.status().loops, 0) << "a replay is not a loop";
}

TEST(ControllerTraces, LoopRestartsAtTheEndAndAPauseStepGoesPastIt) {
  SimulationController c;
  c.setRunEnd(RunEnd::Loop);
  playWhenBuilt(c, smallRun(12), 5);
  ASSERT_TRUE(waitFor([&] { return c.status().loops >= 2; })) << "the run did not loop";
  EXPECT_TRUE(c.status().playing);
  EXPECT_LE(c.status().step, 12);
  // Each loop is a new run: its traces start again.
  const auto live = c.liveTraces();
  ASSERT_TRUE(live);
  EXPECT_LE(live->firstSample + live->count(), 12);

  // A pause step beyond the end (a recording, the studio's --steps) runs there, then stops.
  c.setPauseAtStep(30);
  ASSERT_TRUE(waitFor([&] { return c.status().step == 30 && !c.status().playing; }));
  const long loops = c.status().loops;
  c.setPauseAtStep(-1);
  c.setPlaying(true);
  ASSERT_TRUE(waitFor([&] { return c.status().loops > loops; })) << "past the end, the run loops again";
}

TEST(ControllerTraces, KeepOnlyTheMostRecentSamplesOfALongRun) {
  // Tiny grid: 25 000 steps take well under a second.
  Scenario s = resizedScenario(presetScenario("default"), 8, 8, 8);
  s.stage = "cpu-serial";
  s.boundary.kind = BoundaryKind::Reflecting;
  s.receivers = {{1, 2, 3}, {6, 5, 4}};
  const long steps = SimulationController::kLiveTraceSamples + 5003;
  SimulationController c;
  c.setPauseAtStep(steps);
  playWhenBuilt(c, s, 1000);
  const auto live = tracesAt(c, steps);
  ASSERT_TRUE(live);
  EXPECT_EQ(live->count(), SimulationController::kLiveTraceSamples);
  EXPECT_EQ(live->firstSample, 5003);
  EXPECT_EQ(live->samples.size(), std::size_t(SimulationController::kLiveTraceSamples) * 2);

  std::promise<SimulationSnapshot> promise;
  c.requestSnapshot([&](std::optional<SimulationSnapshot> snapshot, std::string) { promise.set_value(std::move(*snapshot)); });
  const std::vector<float> all = promise.get_future().get().state.traces;
  ASSERT_EQ(all.size(), std::size_t(steps) * 2);
  EXPECT_TRUE(std::equal(live->samples.begin(), live->samples.end(), all.end() - std::ptrdiff_t(live->samples.size())))
      << "the kept samples are the record's tail";
}

// A real solver whose receiver record cannot be read once it has passed step 20 (a device that fails).
class FailingTraces : public WaveSolver {
 public:
  explicit FailingTraces(std::unique_ptr<WaveSolver> inner) : inner_(std::move(inner)) {}
  std::string stage() const override { return inner_->stage(); }
  std::string deviceName() const override { return inner_->deviceName(); }
  const Grid& grid() const override { return inner_->grid(); }
  double advance(int steps) override { return inner_->advance(steps); }
  long currentStep() const override { return inner_->currentStep(); }
  void readField(std::vector<float>& interior) override { inner_->readField(interior); }
  bool startSlices(int i, int j, int k, std::span<float> planes) override { return inner_->startSlices(i, j, k, planes); }
  void finishSlices() override { inner_->finishSlices(); }
  std::vector<float> traces() override {
    if (inner_->currentStep() > 20) throw std::runtime_error("CL_OUT_OF_RESOURCES reading the traces");
    return inner_->traces();
  }
  SolverState saveState() override { return inner_->saveState(); }
  void restoreState(const SolverState& state) override { inner_->restoreState(state); }

 private:
  std::unique_ptr<WaveSolver> inner_;
};

TEST(ControllerTraces, AFailedReadPausesTheRunWithAMessage) {
  SimulationController c([](const Scenario& s) {
    BuiltSimulation built = buildSimulation(s);
    built.solver = std::make_unique<FailingTraces>(std::move(built.solver));
    return built;
  });
  playWhenBuilt(c, smallRun(100), 5);  // runs on: only the failure stops it
  std::vector<ControllerEvent> errors;
  ASSERT_TRUE(waitFor([&] {
    for (auto& e : c.takeEvents())
      if (e.kind == ControllerEvent::Kind::Error) errors.push_back(e);
    return !errors.empty() && !c.status().playing;
  }));
  EXPECT_NE(errors[0].message.find("CL_OUT_OF_RESOURCES"), std::string::npos) << errors[0].message;
  EXPECT_GT(c.status().selfPauses, 0) << "paused by the failure";
  const auto live = c.liveTraces();
  ASSERT_TRUE(live);
  EXPECT_LE(live->count(), 20) << "the last traces that could be read stay";
}

}  // namespace
}  // namespace iso
