// GainControl: the automatic colour range (no GL needed).
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "GainControl.h"
#include "test_render_support.h"

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

TEST(RenderGain, ResetRestartsFromTheGivenRange) {
  GainControl gain;
  gain.update(*test::makeSlices(8, 8, 8, 4, 4, 4, [](int, int, int) { return 3.0f; }));
  gain.reset(30.0f);
  EXPECT_FLOAT_EQ(gain.clip(), 30.0f);
  // Smoothed from 30, not jumping to 3.
  EXPECT_GT(gain.update(*test::makeSlices(8, 8, 8, 4, 4, 4, [](int, int, int) { return 3.0f; })), 20.0f);
}

}  // namespace
}  // namespace iso
