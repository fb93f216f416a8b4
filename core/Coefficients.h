#pragma once
// Stencil weights of the 16th-order second derivative (docs/NUMERICS.md).
#include <array>
#include <string>

namespace iso {

enum class CoefficientSet { Exact, OneApi };

using Weights = std::array<float, 9>;  // w0 (centre) .. w8

// The unscaled 1D second-derivative weights: exact closed form, or the oneAPI sample's literal table.
std::array<double, 9> secondDerivativeWeights(CoefficientSet set);

// The weights a solver uses: w_k / dx², with the centre weight multiplied by 3 for the three axes.
Weights scaledCoefficients(CoefficientSet set, double dx);

// Σ|w_k| over the full 1D stencil (both sides and the centre), used by the stability limit.
double absWeightSum(CoefficientSet set);

std::string toString(CoefficientSet set);
CoefficientSet coefficientSetFromString(const std::string& name);  // throws std::invalid_argument

}  // namespace iso
