#pragma once
// The solver against the exact solution of a point source in a homogeneous medium,
// u(r, t) = s(t − r/v) / (4π r) (docs/NUMERICS.md, "The source"): a Ricker wavelet of 15 Hz in 2000 m/s
// with dx = 10 m (13 points per wavelength at f0) and dt = 1 ms (half the stability limit), receivers
// 100, 200 and 300 m from the source along the x axis and along a diagonal, a 20-cell absorbing layer
// with every receiver at least 8 cells inside it. A float64 implementation of the same scheme is 0.4 %,
// 0.8 % and 1.2 % from the exact solution there; `iso3dfd verify --analytic` and the physics test require
// 2 % of every stage.
#include <string>
#include <vector>

#include "core/Scenario.h"

namespace iso {

inline constexpr double kAnalyticTolerance = 0.02;

struct AnalyticReceiver {
  int di, dj, dk;         // cells from the source
  double distance() const;  // metres
};

// The receivers of analyticScenario(), in its order.
const std::vector<AnalyticReceiver>& analyticReceivers();
// The scenario (stage, device and stage parameters left at their defaults), run for long enough that the
// farthest receiver's direct arrival has passed.
Scenario analyticScenario();

// Each receiver's relative L2 error against the exact solution over its direct arrival (from t = 0 to 2·t0
// after r/v), from the traces of `s` (traces[n·R + r] = u_r at (n + 1)·dt). `s` is analyticScenario(), or
// one with other receivers (`receivers`, at offsets from s's source).
std::vector<double> analyticErrors(const Scenario& s, const std::vector<AnalyticReceiver>& receivers,
                                   const std::vector<float>& traces);

}  // namespace iso
