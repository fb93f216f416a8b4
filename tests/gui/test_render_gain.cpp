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

TEST(RenderGain, ReactsQuicklyToGrowthAndSlowlyToDecay) {
  GainControl gain;
  const auto constant = [](float v) {
    return test::makeSlices(16, 16, 16, 8, 8, 8, [v](int, int, int) { return v; });
  };
  gain.update(*constant(1.0f));
  EXPECT_FLOAT_EQ(gain.clip(), 1.0f);
  for (int n = 0; n < 3; ++n) gain.update(*constant(100.0f));
  EXPECT_GT(gain.clip(), 90.0f);  // within 10 % of a 100x growth in 3 updates
  for (int n = 0; n < 3; ++n) gain.update(*constant(1.0f));
  EXPECT_GT(gain.clip(), 60.0f);  // a decay is followed slowly...
  for (int n = 0; n < 200; ++n) gain.update(*constant(1.0f));
  EXPECT_NEAR(gain.clip(), 1.0f, 0.01f);  // ... but followed
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
