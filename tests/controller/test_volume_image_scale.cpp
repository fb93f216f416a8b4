// The volume view's automatic image scale: the smallest divisor whose predicted time fits the budget,
// with a margin either way.
#include <gtest/gtest.h>

#include "app/controller/VolumeImageScale.h"

namespace iso {
namespace {

constexpr std::size_t kView = 1280 * 720;

TEST(VolumeImageScale, FullSizeUntilSomethingIsMeasured) {
  VolumeImageScale scale(0.025);
  EXPECT_EQ(scale.divisor(kView), 1);
}

TEST(VolumeImageScale, PicksTheSmallestDivisorThatFits) {
  VolumeImageScale scale(0.025);
  scale.measured(kView, 0.200);  // 8 times the budget at full size: 1/3 predicts 22 ms
  EXPECT_EQ(scale.divisor(kView), 3);
  VolumeImageScale fast(0.025);
  fast.measured(kView, 0.010);
  EXPECT_EQ(fast.divisor(kView), 1);
  VolumeImageScale hopeless(0.025);
  hopeless.measured(kView / 4, 100.0);
  EXPECT_EQ(hopeless.divisor(kView), 8) << "the coarsest there is";
}

TEST(VolumeImageScale, KeepsItsDivisorInsideTheMargins) {
  VolumeImageScale scale(0.025);
  scale.measured(kView, 0.200);
  ASSERT_EQ(scale.divisor(kView), 3);
  // Images at 1/3 that take a little longer than the budget (less than 20 % over) or a good deal less
  // (but not enough for 1/2 to fit 70 % of it) leave the divisor alone.
  for (int n = 0; n < 20; ++n) scale.measured(kView / 9, 0.028);
  EXPECT_EQ(scale.divisor(kView), 3);
  for (int n = 0; n < 20; ++n) scale.measured(kView / 9, 0.012);  // 1/2 would take 27 ms
  EXPECT_EQ(scale.divisor(kView), 3);
  for (int n = 0; n < 20; ++n) scale.measured(kView / 9, 0.006);  // 1/2: 13.5 ms
  EXPECT_EQ(scale.divisor(kView), 2);
  for (int n = 0; n < 20; ++n) scale.measured(kView / 4, 0.040);
  EXPECT_EQ(scale.divisor(kView), 3);
}

TEST(VolumeImageScale, ResetForgetsTheDevice) {
  VolumeImageScale scale(0.025);
  scale.measured(kView, 1.0);
  ASSERT_GT(scale.divisor(kView), 1);
  scale.reset();
  EXPECT_EQ(scale.divisor(kView), 1);
  scale.measured(kView, 0.0);  // no time, nothing learnt
  EXPECT_EQ(scale.divisor(kView), 1);
}

}  // namespace
}  // namespace iso
