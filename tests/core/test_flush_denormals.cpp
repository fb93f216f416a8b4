// Subnormal floats: the guard flushes them on its thread and restores the mode after, and the CPU
// stages, whose leading wave edge passes through every magnitude down to underflow, leave none in
// the field (on Intel cores each one costs a microcode assist: core/FlushDenormals.h).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "core/FlushDenormals.h"
#include "tests/core/SolverTestUtil.h"

namespace iso {
namespace {

bool flushingSupported() {
  const FlushDenormals flush;
  return FlushDenormals::active();
}

float product(float a, float b) {
  volatile float x = a, y = b;  // kept out of constant folding: the multiply runs on this thread's mode
  return x * y;
}

TEST(FlushDenormals, FlushesInsideTheScopeAndRestoresTheModeAfter) {
  if (!flushingSupported()) GTEST_SKIP() << "no known flush-to-zero control on this architecture";
  ASSERT_FALSE(FlushDenormals::active()) << "a thread starts in IEEE mode";
  const float tiny = 1e-30f, scale = 1e-10f;  // the exact product, 1e-40, is subnormal
  EXPECT_EQ(std::fpclassify(product(tiny, scale)), FP_SUBNORMAL);
  {
    const FlushDenormals flush;
    EXPECT_TRUE(FlushDenormals::active());
    EXPECT_EQ(product(tiny, scale), 0.0f);
    volatile float subnormal = std::numeric_limits<float>::denorm_min() * 1000.0f;
    EXPECT_EQ(product(subnormal, 1.0f), 0.0f) << "a subnormal input reads as zero";
    {
      const FlushDenormals nested;  // already flushing: leaves the mode alone on either side
      EXPECT_TRUE(FlushDenormals::active());
    }
    EXPECT_TRUE(FlushDenormals::active()) << "the inner scope must not restore IEEE mode early";
  }
  EXPECT_FALSE(FlushDenormals::active());
  EXPECT_EQ(std::fpclassify(product(tiny, scale)), FP_SUBNORMAL);
}

class CpuStageSubnormals : public ::testing::TestWithParam<std::string> {};

TEST_P(CpuStageSubnormals, LeaveNoSubnormalInTheFieldAndRestoreTheCallersMode) {
  if (!flushingSupported()) GTEST_SKIP() << "no known flush-to-zero control on this architecture";
  // The source's first steps: each step carries values 8 cells further, each cell a few orders of magnitude
  // smaller, so after 10 steps the field spans every magnitude from the source's down past the float range.
  Scenario s = testing::rickerScenario(96, 20, 20, 2000.0, 10.0, 0.0, 25.0);
  s.boundary.kind = BoundaryKind::Reflecting;
  s.source.i = 4, s.source.j = 5, s.source.k = 6;
  auto solver = testing::makeSolver(s, GetParam());
  solver->advance(10);
  ASSERT_FALSE(FlushDenormals::active()) << "advance() must hand the caller's thread back in IEEE mode";
  std::vector<float> field;
  solver->readField(field);
  int tiny = 0, subnormal = 0;
  for (float v : field) {
    if (v != 0.0f && std::fabs(v) < 1e-30f) ++tiny;
    if (std::fpclassify(v) == FP_SUBNORMAL) ++subnormal;
  }
  EXPECT_GT(tiny, 0) << "the test needs values near the bottom of the float range to mean anything";
  EXPECT_EQ(subnormal, 0);
}

INSTANTIATE_TEST_SUITE_P(Stages, CpuStageSubnormals, ::testing::Values("cpu-serial", "cpu-parallel"),
                         [](const auto& info) { return info.param == "cpu-serial" ? "Serial" : "Parallel"; });

}  // namespace
}  // namespace iso
