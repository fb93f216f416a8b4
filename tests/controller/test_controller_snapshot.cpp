// The compute thread hands over a copy of its state between batches and continues from a checkpoint:
// the copy is the solver's state at the step it names, and the restored run goes on bit for bit.
#include <gtest/gtest.h>

#include <future>

#include "app/controller/SimulationController.h"
#include "tests/controller/WaitFor.h"
#include "core/CpuSolvers.h"
#include "core/ScenarioResize.h"

namespace iso {
namespace {

using test::waitFor;

SimulationSnapshot snapshotOf(SimulationController& controller) {
  std::promise<SimulationSnapshot> promise;
  controller.requestSnapshot([&](std::optional<SimulationSnapshot> s, std::string error) {
    if (s) promise.set_value(std::move(*s));
    else promise.set_exception(std::make_exception_ptr(std::runtime_error(error)));
  });
  return promise.get_future().get();
}

TEST(ControllerSnapshot, CopiesTheStateAndContinuesFromACheckpoint) {
  Scenario s = resizedScenario(presetScenario("default"), 24, 21, 18);
  s.stage = "cpu-parallel";
  SimulationController controller;
  controller.setPauseAtStep(25);
  controller.start();
  playWhenBuilt(controller, s, 4);
  ASSERT_TRUE(waitFor([&] { return controller.status().step == 25 && !controller.status().playing; }));
  const SimulationSnapshot snapshot = snapshotOf(controller);
  EXPECT_EQ(snapshot.state.step, 25);
  EXPECT_EQ(snapshot.stage, "cpu-parallel");

  auto reference = createCpuSolver(buildProblem(s), "cpu-parallel");
  reference->advance(25);
  const SolverState expected = reference->saveState();
  EXPECT_EQ(snapshot.state.current, expected.current);
  EXPECT_EQ(snapshot.state.previous, expected.previous);
  EXPECT_EQ(snapshot.state.traces, expected.traces);

  controller.setPauseAtStep(40);
  controller.setPlaying(true);
  ASSERT_TRUE(waitFor([&] { return controller.status().step == 40 && !controller.status().playing; }));
  controller.restoreCheckpoint({snapshot.scenario, snapshot.velocity, snapshot.state});
  ASSERT_TRUE(waitFor([&] { return controller.status().step == 25; }));
  controller.setPauseAtStep(33);
  controller.setPlaying(true);
  ASSERT_TRUE(waitFor([&] { return controller.status().step == 33 && !controller.status().playing; }));
  reference->advance(8);
  EXPECT_EQ(snapshotOf(controller).state.current, reference->saveState().current);

  // A checkpoint whose model differs from its scenario's is refused with a message; the run goes on.
  Checkpoint altered{snapshot.scenario, snapshot.velocity, snapshot.state};
  altered.velocity[0] += 1.0f;
  controller.takeEvents();
  controller.restoreCheckpoint(altered);
  ASSERT_TRUE(waitFor([&] {
    for (const ControllerEvent& e : controller.takeEvents())
      if (e.kind == ControllerEvent::Kind::Error) return e.message.find("model") != std::string::npos;
    return false;
  }));
  controller.stop();
}

TEST(ControllerSnapshot, WithoutASimulationTheReceiverGetsAReason) {
  SimulationController controller;
  controller.start();
  std::promise<std::string> reason;
  controller.requestSnapshot([&](std::optional<SimulationSnapshot> s, std::string error) { reason.set_value(s ? "" : error); });
  EXPECT_EQ(reason.get_future().get(), "no simulation is running");
  controller.stop();
}

}  // namespace
}  // namespace iso
