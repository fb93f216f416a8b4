// GainControl: the colour range and its modes (no GL needed).
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "render/GainControl.h"
#include "render/Hud.h"
#include "tests/gui/test_render_support.h"

namespace iso {
namespace {

TEST(RenderGain, ScaledFieldSettlesToScaledRange) {
  GainControl a, b;
  for (int n = 0; n < 40; ++n) {
    // A growing ring, as in a run: the ranges must stay in the ratio of the fields.
    a.update(*test::makeRing(48, 24, 24, 24, 4.0 + 0.4 * n, 1.0));
    b.update(*test::makeRing(48, 24, 24, 24, 4.0 + 0.4 * n, 1000.0));
  }
  ASSERT_GT(a.clip(), 0.0f);
  EXPECT_NEAR(b.clip() / a.clip(), 1000.0, 1000.0 * 1e-4);
}

TEST(RenderGain, AllZeroFieldKeepsRangeAndSparseFieldGetsOne) {
  GainControl gain;
  const auto zero = test::makeSlices(32, 32, 32, 16, 16, 16, [](int, int, int) { return 0.0f; });
  EXPECT_EQ(gain.update(*zero), 1.0f);
  EXPECT_FALSE(gain.settled());
  // 4 non-zero samples out of 3072: a percentile over all samples would be 0.
  const auto sparse = test::makeSlices(32, 32, 32, 16, 16, 16, [](int plane, int c, int r) {
    return plane == 0 && c >= 15 && c <= 16 && r >= 15 && r <= 16 ? 2.5f : 0.0f;
  });
  EXPECT_FLOAT_EQ(gain.update(*sparse), 2.5f);
  EXPECT_TRUE(gain.settled());
}

TEST(RenderGain, IgnoresASingleSpike) {
  GainControl gain;
  // |u| spread evenly over (0, 1], and the source cell at 1e6.
  const auto field = test::makeSlices(64, 64, 64, 32, 32, 32, [](int plane, int c, int r) {
    if (plane == 0 && c == 32 && r == 32) return 1.0e6f;
    return float((c * 64 + r) % 1000 + 1) / 1000.0f * ((c + r) % 2 ? 1.0f : -1.0f);
  });
  const float clip = gain.update(*field);
  EXPECT_GT(clip, 0.95f);
  EXPECT_LT(clip, 1.01f);
}

TEST(RenderGain, ReactsQuicklyToGrowthAndSlowlyToDecayInTimeSteps) {
  GainControl gain;
  long step = 0;
  const auto constant = [&step](float v, long advance) {
    step += advance;
    auto s = test::makeSlices(16, 16, 16, 8, 8, 8, [v](int, int, int) { return v; });
    s->step = step;
    return s;
  };
  gain.update(*constant(1.0f, 0));
  EXPECT_FLOAT_EQ(gain.clip(), 1.0f);
  for (int n = 0; n < 3; ++n) gain.update(*constant(100.0f, 4));
  EXPECT_GT(gain.clip(), 90.0f);  // within 10 % of a 100x growth in 12 steps
  for (int n = 0; n < 3; ++n) gain.update(*constant(1.0f, 4));
  EXPECT_GT(gain.clip(), 80.0f);  // a decay is followed slowly...
  gain.update(*constant(1.0f, 1000));
  EXPECT_NEAR(gain.clip(), 1.0f, 0.01f);  // ... but followed
  // Time, not the number of updates, sets the range: 10 updates of 10 steps = 1 update of 100.
  GainControl many, one;
  step = 0;
  many.update(*constant(50.0f, 0));
  for (int n = 0; n < 10; ++n) many.update(*constant(5.0f, 10));
  step = 0;
  one.update(*constant(50.0f, 0));
  one.update(*constant(5.0f, 100));
  EXPECT_NEAR(many.clip(), one.clip(), 1e-3f * one.clip());
  // A restart (the step goes backwards) starts afresh.
  step = 0;
  EXPECT_FLOAT_EQ(one.update(*constant(7.0f, 0)), 7.0f);
}

TEST(RenderGain, SkipsAndCountsNonFiniteSamples) {
  GainControl gain;
  const auto field = test::makeSlices(16, 16, 16, 8, 8, 8, [](int plane, int c, int) {
    if (plane == 1 && c == 3) return std::numeric_limits<float>::quiet_NaN();
    return 0.5f;
  });
  EXPECT_FLOAT_EQ(gain.update(*field), 0.5f);
  EXPECT_EQ(gain.lastMeasurement().nonFinite, 16u);
}

// A uniform field of value v at simulated step `step`.
std::shared_ptr<SliceSet> uniformAt(float v, long step) {
  auto s = test::makeSlices(16, 16, 16, 8, 8, 8, [v](int, int, int) { return v; });
  s->step = step;
  return s;
}

TEST(RenderGain, PerFrameFollowsTheFieldDownToNoise) {
  GainControl gain;
  gain.setMode(GainMode::PerFrame);
  gain.update(*uniformAt(2.0e4f, 0));
  for (long step = 100; step <= 3000; step += 100) gain.update(*uniformAt(8.0e-5f, step));
  // 30 release time constants later the range is the noise's: it is shown in full colour.
  EXPECT_NEAR(gain.clip(), 8.0e-5f, 1e-6f);
  EXPECT_EQ(gain.clip(), gain.level());
}

TEST(RenderGain, AutomaticNeverFallsBelowTheFloorOfTheDecayingPeak) {
  GainControl gain;  // Automatic is the default
  EXPECT_EQ(gain.mode(), GainMode::Automatic);
  gain.update(*uniformAt(2.0e4f, 0));
  EXPECT_FLOAT_EQ(gain.peak(), 2.0e4f);
  EXPECT_FLOAT_EQ(gain.clip(), 2.0e4f);
  EXPECT_DOUBLE_EQ(gain.clipToPeak(), 1.0);
  long step = 0;
  for (; step < 3000; step += 50) {
    gain.update(*uniformAt(8.0e-5f, step + 50));
    // The rule at every update: the larger of the level and 1e-2 x the peak level.
    EXPECT_FLOAT_EQ(gain.clip(), std::max(gain.level(), 1e-2f * gain.peak()));
  }
  // After 3000 steps (30 release time constants) the level is the noise's; the peak has decayed by
  // exp(-3000/2000) and the clip is 1e-2 of it, 2.8e6 times the noise.
  EXPECT_NEAR(gain.level(), 8.0e-5f, 1e-6f);
  EXPECT_NEAR(gain.peak(), 2.0e4 * std::exp(-1.5), 2.0e4 * 1e-4);
  EXPECT_NEAR(gain.clip(), 1e-2 * 2.0e4 * std::exp(-1.5), 1e-2 * 2.0e4 * 1e-4);
  EXPECT_NEAR(gain.clipToPeak(), 1e-2, 1e-6);
  EXPECT_EQ(gainCaption(gain), "auto gain\nclip 1.0e-2 of peak");
  // Switching to per-frame shows the level at once (it is tracked in every mode), and back.
  gain.setMode(GainMode::PerFrame);
  EXPECT_NEAR(gain.clip(), 8.0e-5f, 1e-6f);
  EXPECT_LT(gain.clipToPeak(), 1e-7);
  gain.setMode(GainMode::Automatic);
  EXPECT_GT(gain.clip(), 40.0f);
}

TEST(RenderGain, AutomaticFollowsAGrowingFieldAndARestartForgetsThePeak) {
  GainControl gain;
  // A field that grows: the peak is the level and the floor never binds.
  for (long step = 0; step <= 100; step += 10) {
    gain.update(*uniformAt(float(1.0 + step), step));
    EXPECT_FLOAT_EQ(gain.peak(), gain.level());
    EXPECT_FLOAT_EQ(gain.clip(), gain.level());
  }
  // A restart (the step goes back) with a far weaker source gets its own range at once.
  EXPECT_FLOAT_EQ(gain.update(*uniformAt(1e-3f, 0)), 1e-3f);
  EXPECT_FLOAT_EQ(gain.peak(), 1e-3f);
}

TEST(RenderGain, FixedUsesTheManualRangeOrTheRangeInUse) {
  GainControl gain;
  gain.update(*uniformAt(3.0f, 0));
  // Never given a range: Fixed keeps the one in use.
  gain.setMode(GainMode::Fixed);
  EXPECT_FLOAT_EQ(gain.update(*uniformAt(300.0f, 50)), 3.0f);
  EXPECT_FALSE(gain.setFixedClip(-1.0f));
  EXPECT_FALSE(gain.setFixedClip(std::numeric_limits<float>::infinity()));
  EXPECT_FLOAT_EQ(gain.clip(), 3.0f);
  EXPECT_TRUE(gain.setFixedClip(0.25f));
  EXPECT_FLOAT_EQ(gain.update(*uniformAt(300.0f, 100)), 0.25f);
  // The level went on following the field meanwhile, and the ratio compares the manual range with it.
  EXPECT_GT(gain.level(), 250.0f);
  EXPECT_NEAR(gain.clipToPeak(), 0.25 / gain.peak(), 1e-9);
  gain.setMode(GainMode::Automatic);
  EXPECT_FLOAT_EQ(gain.clip(), gain.level());
  EXPECT_STREQ(gainModeName(GainMode::Fixed), "fixed");
}

}  // namespace
}  // namespace iso
