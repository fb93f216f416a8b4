// A field tap samples the run at the step it is applied at and every k steps after it, whatever the
// batch sizes, with the solver's own field; a slow tap slows the run but loses no sample; a rebuild
// ends it.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "app/controller/SimulationController.h"
#include "core/CpuSolvers.h"
#include "core/ScenarioResize.h"
#include "tests/controller/WaitFor.h"

namespace iso {
namespace {

using test::waitFor;

struct Samples {
  std::mutex mutex;
  std::vector<long> steps;
  std::vector<double> times;
  std::vector<std::vector<float>> fields;
  std::atomic<int> removed{0};

  FieldTap tap(long every, int sleepMs = 0) {
    return {every,
            [this, sleepMs](long step, double time, std::vector<float> field) {
              if (sleepMs) std::this_thread::sleep_for(std::chrono::milliseconds(sleepMs));  // a writer that is behind
              std::lock_guard lock(mutex);
              steps.push_back(step);
              times.push_back(time);
              fields.push_back(std::move(field));
              return true;
            },
            [this] { ++removed; }};
  }
  std::size_t count() {
    std::lock_guard lock(mutex);
    return steps.size();
  }
};

Scenario smallScenario() {
  Scenario s = resizedScenario(presetScenario("default"), 23, 19, 17);
  s.stage = "cpu-serial";
  return s;
}

TEST(ControllerFieldTap, SamplesEveryKStepsFromWhereItStartsWithTheSolversField) {
  const Scenario s = smallScenario();
  SimulationController controller;
  controller.setPauseAtStep(7);
  controller.setStepsPerFrame(16);  // batches that would step over the samples
  controller.start();
  playWhenBuilt(controller, s, 16);
  ASSERT_TRUE(waitFor([&] { return controller.status().step == 7 && !controller.status().playing; }));
  Samples samples;
  controller.setFieldTap(samples.tap(5, 2));
  controller.setPauseAtStep(30);
  controller.setPlaying(true);
  ASSERT_TRUE(waitFor([&] { return controller.status().step == 30 && !controller.status().playing; }));
  ASSERT_TRUE(waitFor([&] { return samples.count() == 5; }));
  EXPECT_EQ(samples.steps, (std::vector<long>{7, 12, 17, 22, 27}));
  const double dt = controller.status().dt;
  for (std::size_t n = 0; n < samples.steps.size(); ++n) EXPECT_DOUBLE_EQ(samples.times[n], double(samples.steps[n]) * dt);

  auto reference = createCpuSolver(buildProblem(s), "cpu-serial");
  std::vector<float> expected;
  long at = 0;
  for (std::size_t n = 0; n < samples.steps.size(); ++n) {
    reference->advance(int(samples.steps[n] - at));
    at = samples.steps[n];
    reference->readField(expected);
    EXPECT_EQ(samples.fields[n], expected) << "step " << samples.steps[n];
  }
  EXPECT_EQ(samples.removed.load(), 0);

  // A reset ends the run the tap samples.
  controller.reset();
  ASSERT_TRUE(waitFor([&] { return samples.removed.load() == 1; }));
  controller.stop();
}

TEST(ControllerFieldTap, ATapThatAsksToStopOrIsReplacedIsToldOnce) {
  SimulationController controller;
  controller.setPauseAtStep(0);
  controller.start();
  playWhenBuilt(controller, smallScenario(), 4);
  ASSERT_TRUE(waitFor([&] { return controller.status().hasSolver; }));
  Samples first, second;
  controller.setFieldTap(first.tap(3));
  controller.setFieldTap(second.tap(3));
  // Replaced: before or after it was applied, it is told once.
  ASSERT_TRUE(waitFor([&] { return first.removed.load() == 1 && second.count() == 1; }));

  std::atomic<int> calls{0}, removed{0};
  controller.setFieldTap({2, [&](long, double, std::vector<float>) { return ++calls < 2; }, [&] { ++removed; }});
  controller.setPauseAtStep(20);
  controller.setPlaying(true);
  ASSERT_TRUE(waitFor([&] { return controller.status().step == 20 && !controller.status().playing; }));
  EXPECT_EQ(second.removed.load(), 1);
  EXPECT_EQ(calls.load(), 2);
  EXPECT_EQ(removed.load(), 1);
  controller.setFieldTap({});  // nothing to remove: no effect
  controller.stop();
  EXPECT_EQ(removed.load(), 1);
}

}  // namespace
}  // namespace iso
