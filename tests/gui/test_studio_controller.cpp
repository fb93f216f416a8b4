// The compute thread and the slice slot, without GL: these are the tests to run under ThreadSanitizer.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "app/controller/SimulationController.h"
#include "app/controller/TripleBuffer.h"
#include "tests/support/FakeSolver.h"
#include "tests/gui/test_timeout_scale.h"

namespace iso {
namespace {

using namespace std::chrono_literals;

// Builds fake solvers; a scenario whose stage is "broken" fails the way a bad kernel build would.
SimulationBuilder fakeBuilder(std::chrono::microseconds perStep) {
  return [perStep](const Scenario& s) {
    if (s.stage == "broken") throw std::runtime_error("kernel build failed\nline 1: error: oops");
    BuiltSimulation b;
    b.solver = std::make_unique<test::FakeSolver>(Grid(s.n1, s.n2, s.n3), test::FakeSolver::Options{.perStep = perStep, .stage = s.stage});
    b.dt = 1e-3;
    b.dx = s.dx;
    b.velocity.assign(std::size_t(s.n1) * s.n2 * s.n3, 1500.0f);
    b.ceilingGBs = 20.0;
    b.ceilingName = "fake bandwidth";
    return b;
  };
}

Scenario smallScenario(const std::string& stage = "fake") {
  Scenario s;
  s.n1 = 12, s.n2 = 10, s.n3 = 8;
  s.stage = stage;
  return s;
}

// Polls until the condition holds; false after the timeout (generous: this machine is shared), times
// timeoutScale().
template <class Condition>
bool eventually(Condition condition, std::chrono::milliseconds timeout = 5000ms) {
  const auto end = std::chrono::steady_clock::now() + timeout * test::timeoutScale();
  while (std::chrono::steady_clock::now() < end) {
    if (condition()) return true;
    std::this_thread::sleep_for(2ms);
  }
  return condition();
}

void expectConsistent(const SliceSet& s) {
  ASSERT_FALSE(s.xy.empty());
  for (float v : s.xy) ASSERT_EQ(v, float(s.step));
  for (float v : s.xz) ASSERT_EQ(v, float(s.step));
  for (float v : s.yz) ASSERT_EQ(v, float(s.step));
}

TEST(StudioSlot, LatestValueWinsAndDropsAreCounted) {
  TripleBuffer<int> slot;
  EXPECT_FALSE(slot.take());
  slot.back() = 1;
  slot.publish();
  slot.back() = 2;
  slot.publish();  // replaces 1 before the reader took it
  ASSERT_TRUE(slot.take());
  EXPECT_EQ(slot.front(), 2);
  EXPECT_FALSE(slot.take());
  EXPECT_EQ(slot.front(), 2);  // unchanged when nothing new
  EXPECT_EQ(slot.published(), 2u);
  EXPECT_EQ(slot.dropped(), 1u);
}

TEST(StudioSlot, ConcurrentReaderNeverSeesATornOrOlderValue) {
  struct Payload {
    long sequence = 0;
    std::array<long, 64> copies{};
  };
  TripleBuffer<Payload> slot;
  constexpr long kCount = 200000;
  std::thread writer([&] {
    for (long n = 1; n <= kCount; ++n) {
      Payload& p = slot.back();
      p.sequence = n;
      p.copies.fill(n);
      slot.publish();
    }
  });
  long last = 0, taken = 0;
  while (last < kCount) {
    if (!slot.take()) continue;
    const Payload& p = slot.front();
    ASSERT_GT(p.sequence, last);
    for (long c : p.copies) ASSERT_EQ(c, p.sequence);
    last = p.sequence;
    ++taken;
  }
  writer.join();
  EXPECT_EQ(slot.published(), std::uint64_t(kCount));
  EXPECT_EQ(taken + long(slot.dropped()), kCount);
}

TEST(StudioController, PlaysPausesAndStepsExactly) {
  SimulationController c(fakeBuilder(100us));
  c.setScenario(smallScenario());
  c.start();
  ASSERT_TRUE(eventually([&] { return c.status().hasSolver; }));
  EXPECT_EQ(c.status().step, 0);
  EXPECT_EQ(c.status().grid, Grid(12, 10, 8));
  EXPECT_EQ(c.status().throughput.mpts, 0.0) << "nothing timed yet";
  EXPECT_EQ(c.status().throughput.ceilingGBs, 20.0) << "the ceiling is known from the build on";

  c.setPlaying(true);
  ASSERT_TRUE(eventually([&] { return c.status().step > 50; }));
  c.setPlaying(false);
  ASSERT_TRUE(eventually([&] { return !c.status().playing; }));
  std::this_thread::sleep_for(20ms);  // let the last batch finish
  const long paused = c.status().step;
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(c.status().step, paused) << "steps went on while paused";

  c.singleStep(3);
  ASSERT_TRUE(eventually([&] { return c.status().step == paused + 3; }));
  std::this_thread::sleep_for(30ms);
  EXPECT_EQ(c.status().step, paused + 3);

  ASSERT_TRUE(eventually([&] {
    c.slices().take();
    return c.slices().front().step == paused + 3;
  }));
  expectConsistent(c.slices().front());
}

TEST(StudioController, PausesExactlyAtTheRequestedStep) {
  SimulationController c(fakeBuilder(50us));
  c.setScenario(smallScenario());
  c.setStepsPerFrame(7);
  c.setPauseAtStep(100);
  c.setPlaying(true);
  c.start();
  ASSERT_TRUE(eventually([&] { return c.status().step == 100 && !c.status().playing; }));
  std::this_thread::sleep_for(30ms);
  EXPECT_EQ(c.status().step, 100);
  // The run (5 ms) ended inside the first counter window: the counters still show what it timed,
  // 960 points per 50 us step.
  EXPECT_NEAR(c.status().throughput.mpts, 960.0 / 50e-6 / 1e6, 1e-6);
}

// A status tells whether it already reflects every Play and Pause asked for: a self-pause it shows may
// have been overtaken by a Play still on its way (the window then leaves its button alone).
TEST(StudioController, StatusSaysWhichPlayRequestsItReflects) {
  SimulationController c(fakeBuilder(50us));
  c.setScenario(smallScenario());
  c.setPauseAtStep(40);
  EXPECT_EQ(c.playRequests(), 0);
  c.setPlaying(true);
  c.setPlaying(true);  // coalesced with the first: the later number is the one applied
  EXPECT_EQ(c.playRequests(), 2);
  EXPECT_EQ(c.status().playRequestsApplied, 0) << "nothing applied before the thread starts";
  c.start();
  ASSERT_TRUE(eventually([&] { return c.status().step == 40 && !c.status().playing; }));
  const ControllerStatus rested = c.status();
  EXPECT_EQ(rested.selfPauses, 1);
  EXPECT_EQ(rested.playRequestsApplied, 2) << "the self-pause came after every request: it is the state";
  c.setPauseAtStep(-1);
  c.setPlaying(true);
  EXPECT_EQ(c.playRequests(), 3);
  ASSERT_TRUE(eventually([&] { return c.status().playRequestsApplied == 3; }));
  EXPECT_TRUE(c.status().playing);
  EXPECT_EQ(c.status().selfPauses, 1);
}

TEST(StudioController, FailedRebuildReportsAndKeepsTheRunningSolver) {
  SimulationController c(fakeBuilder(100us));
  c.setScenario(smallScenario("good"));
  c.setPlaying(true);
  c.start();
  ASSERT_TRUE(eventually([&] { return c.status().step > 10; }));
  const long generation = c.status().generation;

  c.setScenario(smallScenario("broken"));
  std::vector<ControllerEvent> errors;
  ASSERT_TRUE(eventually([&] {
    for (auto& e : c.takeEvents())
      if (e.kind == ControllerEvent::Kind::Error) errors.push_back(e);
    return !errors.empty();
  }));
  EXPECT_NE(errors[0].message.find("kernel build failed"), std::string::npos) << errors[0].message;
  EXPECT_NE(errors[0].details.find("line 1: error"), std::string::npos) << "the build log goes into details";
  const long stepAfterError = c.status().step;
  ASSERT_TRUE(eventually([&] { return c.status().step > stepAfterError + 10; })) << "the run stopped";
  EXPECT_EQ(c.status().generation, generation);
  EXPECT_EQ(c.status().stage, "good");
  EXPECT_EQ(c.activeScenario().stage, "good");
}

TEST(StudioController, RebuildsWithANewGridMidRun) {
  SimulationController c(fakeBuilder(100us));
  c.setScenario(smallScenario());
  c.setPlaying(true);
  c.start();
  ASSERT_TRUE(eventually([&] { return c.status().step > 10; }));
  Scenario bigger = smallScenario("other");
  bigger.n1 = 20;
  c.setScenario(bigger);
  ASSERT_TRUE(eventually([&] { return c.status().grid == Grid(20, 10, 8) && c.status().step > 5; }));
  EXPECT_EQ(c.status().stage, "other");
  ASSERT_TRUE(eventually([&] { return c.slices().take() && c.slices().front().n1 == 20; }));
  auto velocity = c.velocitySlices();
  ASSERT_TRUE(velocity);
  EXPECT_EQ(velocity->xy.size(), std::size_t(20 * 10));
  EXPECT_EQ(velocity->xy[0], 1500.0f);
}

TEST(StudioController, SlowReaderDropsFramesNotSteps) {
  SimulationController c(fakeBuilder(20us));
  playWhenBuilt(c, smallScenario(), 1);
  // Nobody reads the slot: the compute thread goes on regardless, and extracts no slices meanwhile.
  ASSERT_TRUE(eventually([&] { return c.status().step > 500; }));
  EXPECT_GT(c.framesSkipped(), 100u);
  EXPECT_LT(c.slices().published(), 10u);
  ASSERT_TRUE(c.slices().take());
  expectConsistent(c.slices().front());
  // Once the reader has taken them, the next batch publishes fresh slices.
  const long taken = c.slices().front().step;
  ASSERT_TRUE(eventually([&] { return c.slices().take(); }));
  EXPECT_GT(c.slices().front().step, taken);
  expectConsistent(c.slices().front());
}

TEST(StudioController, PausingPublishesTheStepItRestsOn) {
  SimulationController c(fakeBuilder(20us));
  playWhenBuilt(c, smallScenario(), 1);
  ASSERT_TRUE(eventually([&] { return c.status().step > 200 && c.framesSkipped() > 50; }));
  c.setPlaying(false);
  ASSERT_TRUE(eventually([&] { return !c.status().playing; }));
  const long rest = c.status().step;
  ASSERT_TRUE(eventually([&] { return c.slices().take() && c.slices().front().step == rest; }))
      << "the slices of the step the run paused on reach the reader";
}

TEST(StudioController, StopsQuicklyDuringSlowSteps) {
  // 20 ms per step and 1000 steps per frame: only the ~50 ms batch limit keeps stop() fast.
  SimulationController c(fakeBuilder(20ms));
  playWhenBuilt(c, smallScenario(), 1000);
  ASSERT_TRUE(eventually([&] { return c.status().step > 5; }));
  const auto start = std::chrono::steady_clock::now();
  c.stop();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 0.5) << "stop() waited for a whole frame of steps";
}

TEST(StudioController, ResetReturnsToStepZero) {
  SimulationController c(fakeBuilder(50us));
  c.setScenario(smallScenario());
  c.setPlaying(true);
  c.start();
  ASSERT_TRUE(eventually([&] { return c.status().step > 20; }));
  c.setPlaying(false);
  c.reset();
  ASSERT_TRUE(eventually([&] { return c.status().step == 0 && c.status().generation == 2; }));
}

}  // namespace
}  // namespace iso
