#include "core/Coefficients.h"

#include <cmath>
#include <stdexcept>

namespace iso {

namespace {
double factorial(int n) {
  double f = 1.0;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}
}  // namespace

std::array<double, 9> secondDerivativeWeights(CoefficientSet set) {
  std::array<double, 9> w{};
  if (set == CoefficientSet::OneApi) {
    w = {-3.0548446, 1.7777778, -3.1111111e-1, 7.572087e-2, -1.76767677e-2,
         3.480962e-3, -5.180005e-4, 5.074287e-5, -2.42812e-6};
    return w;
  }
  constexpr int M = 8;
  const double mf2 = factorial(M) * factorial(M);
  double sum = 0.0;
  for (int k = 1; k <= M; ++k) {
    const double sign = (k % 2 == 1) ? 1.0 : -1.0;
    w[k] = 2.0 * sign * mf2 / (double(k) * k * factorial(M - k) * factorial(M + k));
    sum += w[k];
  }
  w[0] = -2.0 * sum;
  return w;
}

Weights scaledCoefficients(CoefficientSet set, double dx) {
  const auto w = secondDerivativeWeights(set);
  Weights c{};
  // Same order of operations as the oneAPI sample: divide by dx² in float, then triple the centre.
  for (int k = 0; k < 9; ++k) c[k] = float(w[k]) / float(dx * dx);
  c[0] = 3.0f * c[0];
  return c;
}

double absWeightSum(CoefficientSet set) {
  const auto w = secondDerivativeWeights(set);
  double s = std::fabs(w[0]);
  for (int k = 1; k < 9; ++k) s += 2.0 * std::fabs(w[k]);
  return s;
}

std::string toString(CoefficientSet set) { return set == CoefficientSet::OneApi ? "oneapi" : "exact"; }

CoefficientSet coefficientSetFromString(const std::string& name) {
  if (name == "exact") return CoefficientSet::Exact;
  if (name == "oneapi") return CoefficientSet::OneApi;
  throw std::invalid_argument("unknown coefficient set '" + name + "' (expected 'exact' or 'oneapi')");
}

}  // namespace iso
