// The 16th-order weights: exact rationals, exactness on quadratics, and the oneAPI literal table.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "core/Coefficients.h"

namespace iso {
namespace {

// c_k = 2(-1)^(k+1) (M!)² / (k² (M-k)! (M+k)!) as an exact integer fraction, evaluated in long double.
long double exactWeight(int k) {
  auto fact = [](int n) {
    std::int64_t f = 1;
    for (int i = 2; i <= n; ++i) f *= i;
    return f;
  };
  const std::int64_t numerator = fact(8) * fact(8);
  const std::int64_t denominator = std::int64_t(k) * k * fact(8 - k) * fact(8 + k);
  return (k % 2 == 1 ? 2.0L : -2.0L) * (long double)numerator / (long double)denominator;
}

TEST(Coefficients, ExactWeightsMatchTheClosedForm) {
  const auto w = secondDerivativeWeights(CoefficientSet::Exact);
  long double sum = 0.0L;
  for (int k = 1; k <= 8; ++k) {
    EXPECT_NEAR(double(w[k]), double(exactWeight(k)), 1e-15) << k;
    sum += exactWeight(k);
  }
  EXPECT_NEAR(w[0], double(-2.0L * sum), 1e-14);
  EXPECT_NEAR(w[1], 16.0 / 9.0, 1e-15);               // 2·8/9
  EXPECT_NEAR(w[8], -2.0 * 1 / (64.0 * 12870.0), 1e-18);  // 2(8!)²/(64·16!) = 1/(32·C(16,8))
}

TEST(Coefficients, OneApiTableIsTheSamplesLiteral) {
  const auto w = secondDerivativeWeights(CoefficientSet::OneApi);
  const double table[9] = {-3.0548446, 1.7777778, -3.1111111e-1, 7.572087e-2, -1.76767677e-2,
                           3.480962e-3, -5.180005e-4, 5.074287e-5, -2.42812e-6};
  for (int k = 0; k < 9; ++k) EXPECT_EQ(w[k], table[k]) << k;
  EXPECT_EQ(coefficientSetFromString("oneapi"), CoefficientSet::OneApi);
  EXPECT_THROW(coefficientSetFromString("taylor"), std::invalid_argument);
}

TEST(Coefficients, ScaledByDxSquaredWithTripledCentre) {
  const auto w = secondDerivativeWeights(CoefficientSet::Exact);
  const Weights c = scaledCoefficients(CoefficientSet::Exact, 10.0);
  EXPECT_FLOAT_EQ(c[0], float(3.0 * w[0] / 100.0));
  for (int k = 1; k <= 8; ++k) EXPECT_FLOAT_EQ(c[k], float(w[k] / 100.0)) << k;
}

TEST(Coefficients, StencilDifferentiatesQuadraticsExactly) {
  // 1D: f = 3x² - 2x + 1 on x = (i - 50)·dx; f'' = 6 at every point.
  const double dx = 0.7;
  const auto w = secondDerivativeWeights(CoefficientSet::Exact);
  auto f = [](double x) { return 3.0 * x * x - 2.0 * x + 1.0; };
  const double x0 = 0.3;
  double d2 = w[0] * f(x0);
  for (int k = 1; k <= 8; ++k) d2 += w[k] * (f(x0 + k * dx) + f(x0 - k * dx));
  EXPECT_NEAR(d2 / (dx * dx), 6.0, 1e-11);

  // 3D with the float weights a solver uses: ∇²(x² + y² + z²) = 6 within float rounding.
  const Weights c = scaledCoefficients(CoefficientSet::Exact, 1.0);
  auto g = [](int x, int y, int z) { return float(x * x + y * y + z * z); };
  const int x = 3, y = -2, z = 5;
  float lap = c[0] * g(x, y, z);
  for (int k = 1; k <= 8; ++k)
    lap += c[k] * (g(x + k, y, z) + g(x - k, y, z) + g(x, y + k, z) + g(x, y - k, z) + g(x, y, z + k) + g(x, y, z - k));
  EXPECT_NEAR(lap, 6.0f, 1e-3f);
  // The oneAPI table's digit slip in c3 breaks this exactness: its weights do not sum to zero.
  const auto o = secondDerivativeWeights(CoefficientSet::OneApi);
  double sum = o[0];
  for (int k = 1; k <= 8; ++k) sum += 2.0 * o[k];
  EXPECT_GT(std::fabs(sum), 1e-4);  // about 6e-4; the exact weights sum to ~1e-16
}

TEST(Coefficients, AbsWeightSumGivesTheKnownCourantLimit) {
  const double limit = 2.0 / std::sqrt(3.0 * absWeightSum(CoefficientSet::Exact));
  EXPECT_NEAR(limit, 0.4245, 0.001);
}

}  // namespace
}  // namespace iso
