// The volume view behind a running controller: each frame of slices carries the image of its own step,
// rendered by the solver between batches into the same slot (the ring) or set (the triple buffer).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "WaitFor.h"
#include "app/controller/SimulationController.h"
#include "core/CpuSolvers.h"
#include "tests/support/VolumeScenes.h"

namespace iso {
namespace {

constexpr int kWidth = 32, kHeight = 20;

std::shared_ptr<VolumeView> viewOf(const Scenario& s, float dragX = 0.0f) {
  const Grid g(s.n1, s.n2, s.n3);
  return std::make_shared<VolumeView>(test::sceneView(g, test::sceneCamera(g, dragX), kWidth, kHeight, 20.0f));
}

// The image a solver of `s` renders at `step` with `view`, for comparison.
std::vector<std::uint32_t> imageAtStep(const Scenario& s, long step, const VolumeView& view) {
  auto solver = createCpuSolver(buildProblem(s), s.stage);
  solver->advance(int(step));
  std::vector<std::uint32_t> image(view.pixels());
  solver->startVolume(view, image, nullptr);
  return image;
}

// Ring slots in host memory (standing in for the view's mapped GL buffers) or the triple buffer.
class ControllerVolume : public ::testing::TestWithParam<bool> {
 protected:
  void start(const Scenario& s, std::shared_ptr<const VolumeView> view, long pauseAt) {
    if (GetParam()) {
      const std::size_t floats = SliceSet::planeFloats(s.n1, s.n2, s.n3) + std::size_t(kWidth) * kHeight;
      memory_ = std::make_shared<std::vector<std::vector<float>>>(SliceRing::kSlots, std::vector<float>(floats));
      std::vector<SliceRing::Slot> slots;
      for (std::vector<float>& m : *memory_) slots.push_back({m.data(), m.size()});
      ring_ = SliceRing::create(std::move(slots), memory_, "host test slots");
      controller_.setSliceRing(ring_);
    }
    controller_.setVolumeView(std::move(view));
    controller_.setPauseAtStep(pauseAt);
    playWhenBuilt(controller_, s, 4);
  }
  // The newest frame, null when none is new.
  std::shared_ptr<const SliceSet> take() {
    if (ring_) return ring_->take();
    if (!controller_.slices().take()) return nullptr;
    return std::make_shared<const SliceSet>(controller_.slices().front().copy());
  }
  // Frames until one of `step` comes (null after a minute).
  std::shared_ptr<const SliceSet> frameOfStep(long step) {
    std::shared_ptr<const SliceSet> found;
    test::waitFor([&] {
      if (auto frame = take(); frame && frame->step == step) found = frame;
      return found != nullptr;
    });
    return found;
  }

  SimulationController controller_;
  std::shared_ptr<std::vector<std::vector<float>>> memory_;
  std::shared_ptr<SliceRing> ring_;
};

TEST_P(ControllerVolume, FramesCarryTheImageOfTheirStep) {
  const Scenario s = test::volumeScene();
  start(s, viewOf(s), 60);
  const auto frame = frameOfStep(60);
  ASSERT_NE(frame, nullptr);
  ASSERT_NE(frame->imageView, nullptr);
  EXPECT_EQ(frame->imageWidth, kWidth);
  EXPECT_EQ(frame->imageHeight, kHeight);
  EXPECT_GT(frame->imageSeconds, 0.0);
  EXPECT_EQ(frame->imageView->marginCells, (std::array<int, 3>{3, 3, 3})) << "the absorbing layer is left out";
  const std::vector<std::uint32_t> expected = imageAtStep(s, 60, *frame->imageView);
  ASSERT_EQ(frame->image.size(), expected.size());
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), frame->image.begin()));
  EXPECT_TRUE(std::any_of(expected.begin(), expected.end(), [](std::uint32_t p) { return test::channel(p, 3) > 50; }))
      << "the wave shows, so the comparison proves something";
  if (ring_) {
    const float* slot = frame->xy.data();
    EXPECT_EQ(static_cast<const void*>(frame->image.data()), static_cast<const void*>(slot + frame->planeFloats()))
        << "the image lies after the planes in the slot";
  }
  controller_.stop();
}

TEST_P(ControllerVolume, ANewViewAtRestIsRenderedAtOnce) {
  const Scenario s = test::volumeScene();
  start(s, viewOf(s), 40);
  ASSERT_NE(frameOfStep(40), nullptr);
  ASSERT_TRUE(test::waitFor([&] { return !controller_.status().playing; }));
  const auto turned = viewOf(s, 120.0f);
  controller_.setVolumeView(turned);
  const auto frame = frameOfStep(40);
  ASSERT_NE(frame, nullptr);
  ASSERT_NE(frame->imageView, nullptr);
  EXPECT_EQ(frame->imageView->worldToClip, turned->worldToClip);
  const std::vector<std::uint32_t> expected = imageAtStep(s, 40, *frame->imageView);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), frame->image.begin()));
  // Off again: the next frame has no image.
  controller_.setVolumeView(nullptr);
  const auto plain = frameOfStep(40);
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(plain->imageView, nullptr);
  EXPECT_TRUE(plain->image.empty());
  controller_.stop();
}

TEST_P(ControllerVolume, AViewItCannotRenderIsDroppedWithAMessage) {
  const Scenario s = test::volumeScene();
  auto bad = viewOf(s);
  bad->clip = 0.0f;
  start(s, bad, 20);
  const auto frame = frameOfStep(20);
  ASSERT_NE(frame, nullptr) << "the slices go on";
  EXPECT_TRUE(frame->image.empty());
  bool reported = false;
  for (const ControllerEvent& e : controller_.takeEvents())
    reported = reported || (e.kind == ControllerEvent::Kind::Error && e.message.find("colour range") != std::string::npos);
  EXPECT_TRUE(reported);
  EXPECT_TRUE(controller_.status().hasSolver);
  controller_.stop();
}

INSTANTIATE_TEST_SUITE_P(Paths, ControllerVolume, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "Ring" : "TripleBuffer"; });

}  // namespace
}  // namespace iso
