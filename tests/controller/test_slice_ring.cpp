// The ring of slice slots between the compute thread and the view (the studio's mapped GL buffers, plain
// host memory here), alone and behind a running controller. Run these under ThreadSanitizer too.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>

#include "app/controller/SimulationController.h"
#include "app/controller/SliceRing.h"
#include "tests/support/FakeSolver.h"

namespace iso {
namespace {

using namespace std::chrono_literals;

// `count` slots of `floats` floats in host memory; `released` is set when the last copy of the owner goes.
struct HostSlots {
  std::shared_ptr<std::vector<std::vector<float>>> memory;
  std::shared_ptr<const void> owner;
  std::shared_ptr<std::atomic<bool>> released = std::make_shared<std::atomic<bool>>(false);
  std::vector<SliceRing::Slot> slots;

  HostSlots(std::size_t count, std::size_t floats)
      : memory(std::make_shared<std::vector<std::vector<float>>>(count, std::vector<float>(floats))) {
    owner = std::shared_ptr<const void>(memory.get(), [memory = memory, released = released](const void*) {
      released->store(true);
    });
    for (std::vector<float>& m : *memory) slots.push_back({m.data(), m.size()});
  }
  std::shared_ptr<SliceRing> ring() {
    auto r = SliceRing::create(slots, std::move(owner), "host test slots");
    owner.reset();
    return r;
  }
};

// Writes a frame of an n×n×n grid whose every value is its step.
bool writeFrame(SliceRing& ring, int n, long step) {
  const int slot = ring.acquire(SliceSet::planeFloats(n, n, n));
  if (slot < 0) return false;
  std::fill_n(ring.planes(slot).begin(), SliceSet::planeFloats(n, n, n), float(step));
  SliceSet frame;
  frame.n1 = frame.n2 = frame.n3 = n;
  frame.i = frame.j = frame.k = n / 2;
  frame.step = step;
  ring.publish(slot, frame);
  return true;
}

bool consistent(const SliceSet& s) {
  const auto all = [&](std::span<const float> plane) {
    return std::all_of(plane.begin(), plane.end(), [&](float v) { return v == float(s.step); });
  };
  return !s.xy.empty() && all(s.xy) && all(s.xz) && all(s.yz);
}

TEST(SliceRing, HandsTheLatestFrameOverInTheSlotsMemory) {
  HostSlots host(3, SliceSet::planeFloats(4, 4, 4));
  auto ring = host.ring();
  EXPECT_EQ(ring->name(), "host test slots");
  EXPECT_EQ(ring->take(), nullptr);
  ASSERT_TRUE(writeFrame(*ring, 4, 7));
  EXPECT_TRUE(ring->unread());
  const auto frame = ring->take();
  ASSERT_NE(frame, nullptr);
  EXPECT_FALSE(ring->unread());
  EXPECT_EQ(frame->step, 7);
  EXPECT_EQ(frame->xy.size(), 16u);
  EXPECT_TRUE(consistent(*frame));
  const bool inASlot = std::any_of(host.memory->begin(), host.memory->end(),
                                   [&](const std::vector<float>& m) { return frame->xy.data() == m.data(); });
  EXPECT_TRUE(inASlot) << "no copy: the planes are the slot's memory";
  EXPECT_EQ(ring->take(), nullptr) << "nothing new";
}

TEST(SliceRing, NoSlotIsReusedWhileItsFrameIsHeld) {
  HostSlots host(3, SliceSet::planeFloats(4, 4, 4));
  auto ring = host.ring();
  ASSERT_TRUE(writeFrame(*ring, 4, 1));
  auto first = ring->take();
  ASSERT_TRUE(writeFrame(*ring, 4, 2));
  auto second = ring->take();
  ASSERT_TRUE(writeFrame(*ring, 4, 3));  // the third slot, published, not taken
  EXPECT_EQ(ring->acquire(SliceSet::planeFloats(4, 4, 4)), -1) << "two held, one published: none free";
  const SliceSet copyOfFirst = *first;  // a copy of the set shares the slot
  first.reset();
  EXPECT_EQ(ring->acquire(SliceSet::planeFloats(4, 4, 4)), -1) << "still held through its copy";
  EXPECT_TRUE(consistent(copyOfFirst));
  EXPECT_TRUE(consistent(*second));
}

TEST(SliceRing, AnUntakenFrameIsRecycledSoTheWriterNeverWaits) {
  HostSlots host(3, SliceSet::planeFloats(4, 4, 4));
  auto ring = host.ring();
  ASSERT_TRUE(writeFrame(*ring, 4, 1));
  auto held = ring->take();
  for (long step = 2; step < 100; ++step) ASSERT_TRUE(writeFrame(*ring, 4, step)) << "step " << step;
  const auto latest = ring->take();
  ASSERT_NE(latest, nullptr);
  EXPECT_EQ(latest->step, 99);
  EXPECT_TRUE(consistent(*latest));
  EXPECT_TRUE(consistent(*held)) << "the held frame was never written over";
}

TEST(SliceRing, SlotsTooSmallForTheGridRefuseAndSayWhatIsNeeded) {
  HostSlots host(3, SliceSet::planeFloats(4, 4, 4));
  auto ring = host.ring();
  EXPECT_EQ(ring->neededFloats(), 0u);
  EXPECT_FALSE(writeFrame(*ring, 5, 1));
  EXPECT_EQ(ring->neededFloats(), SliceSet::planeFloats(5, 5, 5));
  EXPECT_EQ(ring->slotFloats(), SliceSet::planeFloats(4, 4, 4));
  EXPECT_TRUE(writeFrame(*ring, 3, 1)) << "a smaller grid fits";
  EXPECT_THROW(SliceRing::create({{nullptr, 1}, {nullptr, 1}, {nullptr, 1}}, nullptr, "x"), std::invalid_argument);
  EXPECT_THROW(SliceRing::create(std::vector<SliceRing::Slot>(host.slots.begin(), host.slots.begin() + 2), nullptr, "x"),
               std::invalid_argument);
}

TEST(SliceRing, TheOwnerGoesOnceClosedAndNoSlotIsInUse) {
  HostSlots host(3, SliceSet::planeFloats(4, 4, 4));
  auto ring = host.ring();
  ASSERT_TRUE(writeFrame(*ring, 4, 1));
  auto held = ring->take();
  const int writing = ring->acquire(SliceSet::planeFloats(4, 4, 4));
  ASSERT_GE(writing, 0);
  ASSERT_TRUE(writeFrame(*ring, 4, 2));  // published, untaken: freed by close
  ring->close();
  EXPECT_EQ(ring->take(), nullptr);
  EXPECT_EQ(ring->acquire(SliceSet::planeFloats(4, 4, 4)), -1);
  EXPECT_FALSE(host.released->load()) << "a frame is held and a slot written";
  SliceSet frame;
  frame.n1 = frame.n2 = frame.n3 = 4;
  ring->publish(writing, frame);  // the write ends into a closed ring: freed, not published
  EXPECT_EQ(ring->take(), nullptr);
  EXPECT_FALSE(host.released->load());
  held.reset();
  EXPECT_TRUE(host.released->load()) << "the memory may go while the ring itself still exists";
}

// A writer at full speed against a reader that holds a few frames for a while, as the view holds a frame
// until the GL has read it: no held frame ever changes, and the reader sees the steps in order.
TEST(SliceRing, ConcurrentWriterNeverTouchesAHeldFrame) {
  constexpr int kN = 6;
  HostSlots host(SliceRing::kSlots, SliceSet::planeFloats(kN, kN, kN));
  auto ring = host.ring();
  constexpr long kFrames = 20000;
  std::atomic<bool> done{false};
  long skipped = 0, lastWritten = 0;  // the writer's; read after join
  std::thread writer([&] {
    for (long step = 1; step <= kFrames; ++step) {
      if (writeFrame(*ring, kN, step))
        lastWritten = step;
      else
        ++skipped;  // every slot in use: this frame is dropped
    }
    done = true;
  });
  std::mt19937 random(7);
  std::deque<std::shared_ptr<const SliceSet>> held;
  long last = 0, taken = 0;
  while (!done || ring->unread()) {
    auto frame = ring->take();
    if (!frame) continue;
    ASSERT_GT(frame->step, last);
    last = frame->step;
    ++taken;
    held.push_back(std::move(frame));
    while (held.size() > 1 + random() % 2) {  // one or two held, as the view and a fence do
      ASSERT_TRUE(consistent(*held.front())) << "step " << held.front()->step << " was written over";
      held.pop_front();
    }
  }
  writer.join();
  for (const auto& frame : held) EXPECT_TRUE(consistent(*frame));
  EXPECT_GT(taken, 0);
  EXPECT_EQ(last, lastWritten) << "the last frame published is never lost";
  EXPECT_LT(skipped, kFrames);
}

SimulationBuilder ringBuilder(bool deferred, std::chrono::microseconds perStep = 100us,
                              std::shared_ptr<test::HostLocks> locks = nullptr) {
  return [deferred, perStep, locks](const Scenario& s) {
    BuiltSimulation b;
    b.solver = std::make_unique<test::FakeSolver>(
        Grid(s.n1, s.n2, s.n3), test::FakeSolver::Options{.perStep = perStep, .deferredSlices = deferred, .locks = locks});
    b.dt = 1e-3;
    b.dx = s.dx;
    return b;
  };
}

Scenario ringScenario(int n) {
  Scenario s;
  s.n1 = s.n2 = s.n3 = n;
  s.stage = "fake";
  return s;
}

template <class Condition>
bool eventually(Condition condition, std::chrono::milliseconds timeout = 10000ms) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    if (condition()) return true;
    std::this_thread::sleep_for(1ms);
  }
  return condition();
}

class ControllerRing : public ::testing::TestWithParam<bool> {};

TEST_P(ControllerRing, FramesArriveWholeAndTheRunRestsOnItsLastStep) {
  HostSlots host(SliceRing::kSlots, SliceSet::planeFloats(8, 8, 8));
  auto ring = host.ring();
  SimulationController c(ringBuilder(GetParam()));
  c.setSliceRing(ring);
  c.setPauseAtStep(300);
  playWhenBuilt(c, ringScenario(8), 2);
  EXPECT_NE(c.status().transferPath.find("host test slots: 1 host copy per frame"), std::string::npos)
      << c.status().transferPath;
  std::shared_ptr<const SliceSet> shown, previous;
  long frames = 0;
  ASSERT_TRUE(eventually([&] {
    if (auto frame = ring->take()) {
      EXPECT_TRUE(consistent(*frame)) << "step " << frame->step;
      if (shown) {
        EXPECT_GE(frame->step, shown->step);
      }
      previous = std::move(shown);  // two held, as the view and its fence do
      shown = std::move(frame);
      ++frames;
    }
    return shown && shown->step == 300;
  })) << "the step the run rests on is published";
  EXPECT_GT(frames, 1);
  c.stop();
}

TEST_P(ControllerRing, AReaderHoldingEverySlotDropsFramesNotSteps) {
  HostSlots host(3, SliceSet::planeFloats(8, 8, 8));
  auto ring = host.ring();
  SimulationController c(ringBuilder(GetParam()));
  c.setSliceRing(ring);
  playWhenBuilt(c, ringScenario(8), 1);
  std::vector<std::shared_ptr<const SliceSet>> held;
  ASSERT_TRUE(eventually([&] {
    if (auto frame = ring->take()) held.push_back(std::move(frame));
    return held.size() == 3;
  }));
  const long step = c.status().step;
  const std::uint64_t skipped = c.framesSkipped();
  ASSERT_TRUE(eventually([&] { return c.status().step > step + 50 && c.framesSkipped() > skipped + 20; }))
      << "steps go on, the frames without a slot are skipped";
  EXPECT_EQ(ring->take(), nullptr);
  for (const auto& frame : held) EXPECT_TRUE(consistent(*frame));
  held.clear();  // the view lets go: frames flow again
  ASSERT_TRUE(eventually([&] { return ring->take() != nullptr; }));
  c.stop();
}

TEST_P(ControllerRing, ARingTooSmallForTheGridWaitsForTheNextOne) {
  HostSlots small(3, SliceSet::planeFloats(4, 4, 4));
  auto ring = small.ring();
  SimulationController c(ringBuilder(GetParam()));
  c.setSliceRing(ring);
  c.setPauseAtStep(10);
  playWhenBuilt(c, ringScenario(8), 2);
  ASSERT_TRUE(eventually([&] { return c.status().step == 10 && !c.status().playing; }));
  EXPECT_EQ(ring->take(), nullptr);
  EXPECT_EQ(ring->neededFloats(), SliceSet::planeFloats(8, 8, 8));
  // At rest: the reader makes slots of the size asked for, and the frame of the step it rests on comes.
  HostSlots fitting(3, ring->neededFloats());
  auto next = fitting.ring();
  ring->close();
  c.setSliceRing(next);
  std::shared_ptr<const SliceSet> frame;
  ASSERT_TRUE(eventually([&] { return (frame = next->take()) != nullptr; }));
  EXPECT_EQ(frame->step, 10);
  EXPECT_TRUE(consistent(*frame));
  // Back to the triple buffer, which says why.
  c.setSliceRing(nullptr, "a test");
  ASSERT_TRUE(eventually([&] { return c.slices().take(); }));
  EXPECT_EQ(c.slices().front().step, 10);
  EXPECT_EQ(c.status().transferPath, "host copy (triple buffer): 2 host copies per frame (a test)");
  c.stop();
  frame.reset();
  EXPECT_TRUE(small.released->load());
  EXPECT_FALSE(fitting.released->load()) << "the controller let go, the test's ring still holds it";
}

// The solver's reads land in page-locked memory: every slot of the ring is locked for the running solver
// once, unlocked before the ring's memory can go when the reader replaces the ring (its owner still held
// at each unlock), locked again for a rebuilt solver, and unlocked when the controller stops.
TEST_P(ControllerRing, TheSlotsAreLockedForTheSolverAndUnlockedBeforeTheirMemoryGoes) {
  auto locks = std::make_shared<test::HostLocks>();
  HostSlots first(SliceRing::kSlots, SliceSet::planeFloats(8, 8, 8)), second(SliceRing::kSlots, SliceSet::planeFloats(8, 8, 8));
  std::atomic<int> unlockedWhileHeld{0}, unlockedAfterRelease{0};
  locks->onUnlock = [&](std::span<float>) { (first.released->load() ? unlockedAfterRelease : unlockedWhileHeld)++; };
  const auto lockedSlots = [&](const HostSlots& host) {
    const auto locked = locks->snapshot();
    return std::all_of(host.slots.begin(), host.slots.end(), [&](const SliceRing::Slot& s) {
             return std::count_if(locked.begin(), locked.end(), [&](std::span<float> l) { return l.data() == s.planes; }) == 1;
           }) && locked.size() == host.slots.size();
  };
  auto ring = first.ring();
  SimulationController c(ringBuilder(GetParam(), 100us, locks));
  c.setSliceRing(ring);
  playWhenBuilt(c, ringScenario(8), 2);
  ASSERT_TRUE(eventually([&] { return ring->take() != nullptr && lockedSlots(first); }));
  auto next = second.ring();
  ring->close();  // as the view does: the old ring closed, the new one handed over
  ring.reset();
  c.setSliceRing(next);
  ASSERT_TRUE(eventually([&] { return next->take() != nullptr && lockedSlots(second); }));
  EXPECT_EQ(unlockedWhileHeld.load(), int(SliceRing::kSlots));
  EXPECT_EQ(unlockedAfterRelease.load(), 0) << "a slot was unlocked after its memory could have gone";
  EXPECT_TRUE(eventually([&] { return first.released->load(); })) << "the controller let go of the first ring";
  c.reset();  // a new solver: the old one's locks went with it, the new one locks the slots again
  ASSERT_TRUE(eventually([&] { return c.status().generation == 2 && next->take() != nullptr && lockedSlots(second); }));
  c.stop();
  EXPECT_TRUE(locks->snapshot().empty()) << "locks left when the controller stopped";
}

// A stream of frames: every multiple of 3 is published and taken in order, none dropped, while a reader
// that is slower than the run holds it back (the run is never more than the ring's slots ahead of what
// was taken); ending the stream lets the run go on at its own pace, the latest frame only.
TEST_P(ControllerRing, AStreamHandsOverEveryFrameAndTheRunWaitsForTheReader) {
  HostSlots host(SliceRing::kSlots, SliceSet::planeFloats(8, 8, 8));
  auto ring = host.ring();
  SimulationController c(ringBuilder(GetParam(), 50us));
  c.setSliceRing(ring);
  c.setFrameStream(3);
  playWhenBuilt(c, ringScenario(8), 2);
  std::vector<long> steps;
  std::shared_ptr<const SliceSet> held;
  long furthestAhead = 0;
  ASSERT_TRUE(eventually([&] {
    std::this_thread::sleep_for(2ms);  // a slow reader: about 25 batches' time per frame
    if (auto frame = ring->take()) {
      EXPECT_TRUE(consistent(*frame)) << "step " << frame->step;
      if (frame->step % 3 == 0) steps.push_back(frame->step);
      held = std::move(frame);  // the view holds the frame it shows
      furthestAhead = std::max(furthestAhead, c.status().step - steps.back());
    }
    return steps.size() >= 30;
  }));
  for (std::size_t i = 1; i < steps.size(); ++i) EXPECT_EQ(steps[i], steps[i - 1] + 3) << "frame " << i;
  EXPECT_LE(furthestAhead, 3 * long(SliceRing::kSlots + 1)) << "the run went on past frames no one took";
  c.setFrameStream(0);
  held.reset();
  const long step = c.status().step;
  ASSERT_TRUE(eventually([&] { return c.status().step > step + 300; })) << "the run waits for no reader now";
  c.stop();
}

// Batches of 12 ms: two do not fit in a frame at 60 Hz, so a read is waited for and its frame published
// at once; a reader that keeps up then gets a frame from every batch, not from every other one.
TEST(ControllerRingSlowBatches, PublishTheirFramesAtOnce) {
  HostSlots host(SliceRing::kSlots, SliceSet::planeFloats(8, 8, 8));
  auto ring = host.ring();
  SimulationController c(ringBuilder(true, 3ms));
  c.setSliceRing(ring);
  playWhenBuilt(c, ringScenario(8), 4);
  long frames = 0, first = -1, last = -1;
  ASSERT_TRUE(eventually([&] {
    if (auto frame = ring->take()) {
      EXPECT_TRUE(consistent(*frame));
      if (first < 0) first = frame->step;
      last = frame->step;
      ++frames;
    }
    return last - first >= 160;
  }));
  c.stop();
  const long batches = (last - first) / 4;
  EXPECT_GE(frames, batches * 8 / 10) << frames << " frames over " << batches << " batches";
}

// A reader that looks only when the publish listener tells it to (as the compare view does) gets frames
// as the run goes and, at the end, the step the run rests on: no publication goes unannounced.
template <class Take>
void readOnlyWhenTold(SimulationController& c, Take take) {
  std::mutex mutex;
  std::condition_variable told;
  long calls = 0;
  c.setPublishListener([&] {
    {
      std::lock_guard lock(mutex);
      ++calls;
    }
    told.notify_all();
  });
  c.setPauseAtStep(300);
  playWhenBuilt(c, ringScenario(8), 2);
  long seen = 0, frames = 0, last = -1;
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  std::unique_lock lock(mutex);
  while (last != 300) {
    ASSERT_TRUE(told.wait_until(lock, deadline, [&] { return calls > seen; }))
        << "no announcement after step " << last << " (the run rests on 300)";
    seen = calls;
    lock.unlock();
    if (const long step = take(); step >= 0) {
      EXPECT_GT(step, last);
      last = step;
      ++frames;
    }
    lock.lock();
  }
  lock.unlock();
  c.setPublishListener(nullptr);
  c.stop();
  EXPECT_GT(frames, 1);
}

TEST_P(ControllerRing, APublishListenerAnnouncesEveryFrame) {
  HostSlots host(SliceRing::kSlots, SliceSet::planeFloats(8, 8, 8));
  auto ring = host.ring();
  SimulationController c(ringBuilder(GetParam()));
  c.setSliceRing(ring);
  readOnlyWhenTold(c, [&] {
    const auto frame = ring->take();
    if (!frame) return -1L;
    EXPECT_TRUE(consistent(*frame));
    return frame->step;
  });
}

TEST(ControllerTripleBuffer, APublishListenerAnnouncesEveryFrame) {
  SimulationController c(ringBuilder(false));
  readOnlyWhenTold(c, [&] { return c.slices().take() ? c.slices().front().step : -1L; });
}

INSTANTIATE_TEST_SUITE_P(Reads, ControllerRing, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) { return info.param ? "Deferred" : "AtOnce"; });

}  // namespace
}  // namespace iso
