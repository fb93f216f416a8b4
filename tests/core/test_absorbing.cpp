// The absorbing boundary must absorb (docs/NUMERICS.md): the echo from the grid's faces at a receiver near
// a face, with the damping layer from buildProblem, against the echo of the reflecting boundary.
// Echo = trace on the test grid minus the trace on a grid so large that no echo reaches the receiver
// within the time window (same source-receiver offset, same medium).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "tests/core/SolverTestUtil.h"

namespace iso {
namespace {

double l2Norm(const std::vector<double>& a) {
  double sum = 0.0;
  for (double x : a) sum += x * x;
  return std::sqrt(sum);
}

double maxAbs(const std::vector<double>& a) {
  double m = 0.0;
  for (double x : a) m = std::max(m, std::fabs(x));
  return m;
}

std::vector<double> difference(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> d(a.size());
  for (std::size_t n = 0; n < a.size(); ++n) d[n] = a[n] - b[n];
  return d;
}

TEST(AbsorbingBoundary, EchoIsAtMostFivePercentOfTheReflectingOne) {
  // 25 Hz in 2000 m/s, dx = 10 m: 8 cells per wavelength at f0, so a 20-cell layer is 2.5 wavelengths.
  const double v = 2000.0, dx = 10.0, dt = 1.0e-3, f0 = 25.0;
  const int steps = 500;  // 0.5 s: the echoes of the +x face (peak ~0.40 s) and of the ±y, ±z faces (~0.47 s)
  const int offset = 12;  // receiver 12 cells from the source along +x, 28 cells from the +x face

  auto traceOn = [&](int n1, int n2, int n3, int si, int sj, int sk, BoundaryKind boundary) {
    Scenario s = testing::rickerScenario(n1, n2, n3, v, dx, dt, f0);
    s.boundary = {boundary, 20, 1.0e-3};
    s.source.i = si, s.source.j = sj, s.source.k = sk;
    s.receivers = {{si + offset, sj, sk}};
    return testing::traceOf(testing::runTraces(s, "cpu-parallel", steps), 1, 0);
  };
  const auto absorbing = traceOn(80, 80, 80, 40, 40, 40, BoundaryKind::Absorbing);
  const auto reflecting = traceOn(80, 80, 80, 40, 40, 40, BoundaryKind::Reflecting);
  // Faces 46 (-x), 57 (+x) and 50 (±y, ±z) cells from the source: every echo path to the receiver is
  // longer than the 100 cells a wave travels in the window.
  const auto unbounded = traceOn(104, 101, 101, 46, 50, 50, BoundaryKind::Reflecting);

  const auto echoAbsorbing = difference(absorbing, unbounded);
  const auto echoReflecting = difference(reflecting, unbounded);
  const double direct = maxAbs(unbounded);
  ASSERT_GT(maxAbs(echoReflecting), 0.05 * direct) << "the window holds no echo: the test would prove nothing";

  const double peakRatio = maxAbs(echoAbsorbing) / maxAbs(echoReflecting);
  const double l2Ratio = l2Norm(echoAbsorbing) / l2Norm(echoReflecting);
  std::printf("direct arrival peak %.4g; echo peak: reflecting %.4g, absorbing %.4g (%.2f %%); echo energy "
              "ratio (L2) %.2f %%\n",
              direct, maxAbs(echoReflecting), maxAbs(echoAbsorbing), 100.0 * peakRatio, 100.0 * l2Ratio);
  EXPECT_LE(peakRatio, 0.05);
  EXPECT_LE(l2Ratio, 0.05);
}

}  // namespace
}  // namespace iso
