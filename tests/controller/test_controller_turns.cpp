// Controllers that share a compute turn (the compare view's) advance only while they hold it.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

#include "app/controller/SimulationController.h"
#include "tests/controller/WaitFor.h"
#include "core/ScenarioResize.h"

namespace iso {
namespace {

using test::waitFor;

TEST(ControllerTurns, AControllerComputesOnlyWhileItHoldsTheTurn) {
  Scenario s = resizedScenario(presetScenario("default"), 16, 16, 16);
  s.stage = "cpu-parallel";
  s.steps = 0;  // runs on
  auto turn = std::make_shared<std::mutex>();
  SimulationController a, b;
  a.setComputeTurn(turn);
  b.setComputeTurn(turn);
  playWhenBuilt(a, s, 1);
  playWhenBuilt(b, s, 1);
  ASSERT_TRUE(waitFor([&] { return a.status().step > 5 && b.status().step > 5; })) << "both run while the turn is free";

  std::unique_lock held(*turn);  // as if a third stage were computing
  // A batch under way finishes; after that neither may take another step.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const long stepA = a.status().step, stepB = b.status().step;
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  EXPECT_EQ(a.status().step, stepA) << "a stepped while another held the turn";
  EXPECT_EQ(b.status().step, stepB) << "b stepped while another held the turn";
  held.unlock();
  EXPECT_TRUE(waitFor([&] { return a.status().step > stepA + 5 && b.status().step > stepB + 5; })) << "both go on";

  // Without a turn a controller no longer waits for it, from its next batch on: a batch under way when
  // the turn is taken off may have fetched it already, so two batches pass first.
  a.setComputeTurn(nullptr);
  const long off = a.status().step;
  ASSERT_TRUE(waitFor([&] { return a.status().step >= off + 2; }));
  held.lock();
  const long before = a.status().step;
  EXPECT_TRUE(waitFor([&] { return a.status().step > before + 5; }, 20)) << "a waited for a turn it was taken off";
  held.unlock();
}

}  // namespace
}  // namespace iso
