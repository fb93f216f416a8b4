// The solver against the exact solution of a point source in a homogeneous medium,
// u(r, t) = s(t − r/v) / (4π r) (docs/NUMERICS.md), at receivers along the axes and along diagonals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "tests/core/SolverTestUtil.h"

namespace iso {
namespace {

constexpr double kPi = 3.14159265358979323846;

TEST(Physics, RickerInHomogeneousMediumMatchesAnalyticSolution) {
  // 15 Hz in 2000 m/s with dx = 10 m: 13 points per wavelength at f0; dt = 1 ms is half the stability
  // limit. A float64 solver has 0.4 % / 0.8 % error at 100 m / 200 m here (docs/NUMERICS.md, accuracy table).
  const double v = 2000.0, dx = 10.0, dt = 1.0e-3, f0 = 15.0;
  Scenario s = testing::rickerScenario(96, 96, 96, v, dx, dt, f0);
  // A 20-cell absorbing layer; every receiver is >= 8 cells inside it, and no path via a face is shorter
  // than 75 cells, whose echo (0.375 s) comes after the window ends (0.3 s) anyway.
  s.boundary = {BoundaryKind::Absorbing, 20, 1.0e-3};
  const int c = 48;
  s.source.i = s.source.j = s.source.k = c;
  struct Offset {
    int di, dj, dk;
  };
  const std::vector<Offset> offsets = {{10, 0, 0}, {0, 20, 0}, {0, 0, -10}, {12, 0, 16}, {0, -6, -8}, {-12, -16, 0}};
  for (const auto& o : offsets) s.receivers.push_back({c + o.di, c + o.dj, c + o.dk});

  const double t0 = 1.5 / f0;
  const int steps = int(std::lround((200.0 / v + 2.0 * t0) / dt));  // the 200 m arrival has passed
  const std::vector<float> traces = testing::runTraces(s, "cpu-parallel", steps);
  const RickerWavelet wavelet{f0, s.source.amplitude, t0};

  for (std::size_t r = 0; r < offsets.size(); ++r) {
    const auto& o = offsets[r];
    const double distance = dx * std::sqrt(double(o.di * o.di + o.dj * o.dj + o.dk * o.dk));
    const std::vector<double> numeric = testing::traceOf(traces, offsets.size(), r);
    std::vector<double> exact(numeric.size());
    for (std::size_t n = 0; n < exact.size(); ++n)  // sample n is u at t = (n + 1)·dt
      exact[n] = wavelet(double(n + 1) * dt - distance / v) / (4.0 * kPi * distance);
    // The direct arrival: from t = 0 to the end of the wavelet (2·t0 after r/v).
    const std::size_t last = std::min(exact.size(), std::size_t((distance / v + 2.0 * t0) / dt));
    const double error = testing::relativeL2(numeric, exact, 0, last);
    std::printf("receiver %zu at %.0f m (offset %d, %d, %d cells): relative L2 error %.3f %%\n", r, distance, o.di,
                o.dj, o.dk, 100.0 * error);
    EXPECT_LT(error, 0.02) << "receiver at " << distance << " m";
  }
}

}  // namespace
}  // namespace iso
