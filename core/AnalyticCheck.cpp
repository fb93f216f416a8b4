#include "core/AnalyticCheck.h"

#include <algorithm>
#include <cmath>

#include "core/FieldCompare.h"
#include "core/Problem.h"

namespace iso {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kVelocity = 2000.0, kDx = 10.0, kDt = 1.0e-3, kFrequency = 15.0;
constexpr int kLayer = 20, kMargin = 8;  // the layer's cells, and the cells between it and every receiver

}  // namespace

double AnalyticReceiver::distance() const { return kDx * std::sqrt(double(di * di + dj * dj + dk * dk)); }

const std::vector<AnalyticReceiver>& analyticReceivers() {
  // Along x and along a 3-4-5 diagonal of the x/y plane.
  static const std::vector<AnalyticReceiver> receivers = {{10, 0, 0},  {20, 0, 0},  {30, 0, 0},
                                                          {6, 8, 0},   {12, 16, 0}, {18, 24, 0}};
  return receivers;
}

Scenario analyticScenario() {
  Scenario s;
  s.name = "analytic";
  const int edge = kLayer + kMargin;  // the source's cells from the low faces
  int reachX = 0, reachY = 0;
  for (const AnalyticReceiver& r : analyticReceivers()) reachX = std::max(reachX, r.di), reachY = std::max(reachY, r.dj);
  s.n1 = edge + reachX + edge + 1;
  s.n2 = edge + reachY + edge + 1;
  s.n3 = 2 * edge + 1;
  s.dx = kDx;
  s.dt = kDt;
  s.model.kind = ModelKind::Constant;
  s.model.velocity = kVelocity;
  s.source = {SourceKind::Ricker, edge, edge, edge, kFrequency, 1.0e6, 1.5 / kFrequency};
  s.boundary = {BoundaryKind::Absorbing, kLayer, 1.0e-3};
  s.receivers.clear();
  double farthest = 0.0;
  for (const AnalyticReceiver& r : analyticReceivers()) {
    s.receivers.push_back({edge + r.di, edge + r.dj, edge + r.dk});
    farthest = std::max(farthest, r.distance());
  }
  s.steps = int(std::lround((farthest / kVelocity + 2.0 * s.source.delay) / kDt));
  return s;
}

std::vector<double> analyticErrors(const Scenario& s, const std::vector<AnalyticReceiver>& receivers,
                                   const std::vector<float>& traces) {
  const double dt = s.dt, v = s.model.velocity, t0 = s.source.delay >= 0.0 ? s.source.delay : 1.5 / s.source.frequency;
  const RickerWavelet wavelet{s.source.frequency, s.source.amplitude, t0};
  const std::size_t count = receivers.size(), samples = count ? traces.size() / count : 0;
  std::vector<double> errors;
  for (std::size_t r = 0; r < count; ++r) {
    const double distance = receivers[r].distance();
    // The direct arrival: from t = 0 to the end of the wavelet (2·t0 after r/v); sample n is u at (n + 1)·dt.
    const std::size_t last = std::min(samples, std::size_t((distance / v + 2.0 * t0) / dt));
    std::vector<double> numeric(last), exact(last);
    for (std::size_t n = 0; n < last; ++n) {
      numeric[n] = traces[n * count + r];
      exact[n] = wavelet(double(n + 1) * dt - distance / v) / (4.0 * kPi * distance);
    }
    errors.push_back(compareFields(std::span<const double>(numeric), std::span<const double>(exact)).relativeL2);
  }
  return errors;
}

}  // namespace iso
