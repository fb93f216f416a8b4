// The solver against the exact solution of a point source in a homogeneous medium,
// u(r, t) = s(t − r/v) / (4π r) (docs/NUMERICS.md), at receivers along an axis and along a diagonal
// 100, 200 and 300 m from the source (core/AnalyticCheck.h, what `iso3dfd verify --analytic` runs).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "core/AnalyticCheck.h"
#include "tests/core/SolverTestUtil.h"

namespace iso {
namespace {

TEST(Physics, RickerInHomogeneousMediumMatchesAnalyticSolution) {
  // 15 Hz in 2000 m/s with dx = 10 m: 13 points per wavelength at f0; dt = 1 ms is half the stability
  // limit. A float64 solver has 0.4 % / 0.8 % / 1.2 % error at 100 / 200 / 300 m here (docs/NUMERICS.md).
  const Scenario s = analyticScenario();
  const std::vector<float> traces = testing::runTraces(s, "cpu-parallel", s.steps);
  const std::vector<double> errors = analyticErrors(s, analyticReceivers(), traces);
  ASSERT_EQ(errors.size(), analyticReceivers().size());
  for (std::size_t r = 0; r < errors.size(); ++r) {
    const AnalyticReceiver& at = analyticReceivers()[r];
    std::printf("receiver %zu at %.0f m (offset %d, %d, %d cells): relative L2 error %.3f %%\n", r, at.distance(), at.di,
                at.dj, at.dk, 100.0 * errors[r]);
    EXPECT_LT(errors[r], kAnalyticTolerance) << "receiver at " << at.distance() << " m";
  }
  // The comparison fails a wrong arrival: the same traces five samples late.
  const std::size_t count = analyticReceivers().size(), late = 5 * count;
  std::vector<float> delayed(traces.size(), 0.0f);
  std::copy(traces.begin(), traces.end() - std::ptrdiff_t(late), delayed.begin() + std::ptrdiff_t(late));
  for (double error : analyticErrors(s, analyticReceivers(), delayed)) EXPECT_GT(error, kAnalyticTolerance);
}

}  // namespace
}  // namespace iso
