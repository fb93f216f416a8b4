#include "core/PmlProfile.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace iso {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kGradingPower = 2.0;  // d grows as the square of the depth

// b and a of the recursive convolution at depth q (0 at the layer's inner edge, 1 at its outer face).
struct Recursion {
  float decay, gain;
};

Recursion recursionAt(double q, double d0, double alphaMax, double dt) {
  const double d = d0 * std::pow(q, kGradingPower), alpha = alphaMax * (1.0 - q);
  if (d <= 0.0) return {1.0f, 0.0f};
  const double b = std::exp(-(d + alpha) * dt);
  return {float(b), float(d * (b - 1.0) / (d + alpha))};
}

PmlAxis buildAxis(int n, int width, double dx, double dt, double vMax, double reflection,
                  double f0) {
  PmlAxis axis;
  axis.n = n;
  axis.width = layerCellsOnAxis(width, n);
  const int w = axis.width;
  if (w < 1) return axis;
  const double d0 = (kGradingPower + 1.0) * vMax * std::log(1.0 / reflection) / (2.0 * w * dx);
  const double alphaMax = kPi * f0;
  for (int t = 0; t < 2 * w; ++t) {
    // Depth in cells from the inner edge (position W on the low side, n−1−W on the high side).
    const double m = axis.psiPoint(t) + 0.5;
    const double psiDepth = t < w ? w - m : m - (n - 1 - w);
    const int i = axis.zetaCell(t);
    const double zetaDepth = t < w ? w - i : i - (n - 1 - w);
    const Recursion psi = recursionAt(psiDepth / w, d0, alphaMax, dt);
    const Recursion zeta = recursionAt(zetaDepth / w, d0, alphaMax, dt);
    axis.psiDecay.push_back(psi.decay);
    axis.psiGain.push_back(psi.gain);
    axis.zetaDecay.push_back(zeta.decay);
    axis.zetaGain.push_back(zeta.gain);
  }
  return axis;
}

}  // namespace

std::array<double, kPmlHalfLength> staggeredFirstDerivativeWeights() {
  // Σ_k w_k (2k−1)^p = 1 for p = 1 and 0 for p = 3, 5, …, 2M−1 (Taylor series of the odd differences),
  // solved by Gaussian elimination with partial pivoting.
  constexpr int M = kPmlHalfLength;
  double a[M][M + 1];
  for (int row = 0; row < M; ++row) {
    for (int k = 0; k < M; ++k) a[row][k] = std::pow(2.0 * (k + 1) - 1.0, 2.0 * row + 1.0);
    a[row][M] = row == 0 ? 1.0 : 0.0;
  }
  for (int col = 0; col < M; ++col) {
    int pivot = col;
    for (int row = col + 1; row < M; ++row)
      if (std::abs(a[row][col]) > std::abs(a[pivot][col])) pivot = row;
    for (int k = 0; k <= M; ++k) std::swap(a[col][k], a[pivot][k]);
    for (int row = 0; row < M; ++row) {
      if (row == col) continue;
      const double f = a[row][col] / a[col][col];
      for (int k = col; k <= M; ++k) a[row][k] -= f * a[col][k];
    }
  }
  std::array<double, M> w{};
  for (int k = 0; k < M; ++k) w[k] = a[k][M] / a[k][k];
  return w;
}

PmlProfile PmlProfile::zWindow(int first, int cells) const {
  if (first < 0 || cells < 1 || first + cells > axes[2].n)
    throw std::invalid_argument("absorbing layer: planes [" + std::to_string(first) + ", " + std::to_string(first + cells) +
                                ") are not inside the grid's " + std::to_string(axes[2].n));
  PmlProfile window = *this;
  window.zFirst = first;
  window.zCells = cells;
  return window;
}

std::pair<int, int> PmlProfile::zPsiSlots() const {
  const PmlAxis& z = axes[2];
  // A held cell's correction reads the half points m in [cell − M, cell + M − 1].
  const int lo = zFirst - kPmlHalfLength, hi = zFirst + zCells + kPmlHalfLength - 1;
  int begin = z.memorySlots(), end = 0;
  for (int t = 0; t < z.memorySlots(); ++t)
    if (const int m = z.psiPoint(t); m >= lo && m < hi) begin = std::min(begin, t), end = t + 1;
  return begin < end ? std::pair{begin, end} : std::pair{0, 0};
}

std::pair<int, int> PmlProfile::zReach(int k0, int k1) const {
  const PmlAxis& z = axes[2];
  int begin = z.reachCells(), end = 0;
  if (z.width > 0)
    for (int t = 0; t < z.reachCells(); ++t)
      if (const int k = z.reachCell(t) - zFirst; k >= k0 && k < k1) begin = std::min(begin, t), end = t + 1;
  return begin < end ? std::pair{begin, end} : std::pair{0, 0};
}

std::array<int, 3> PmlProfile::memoryDims(int a) const {
  std::array<int, 3> dims{axes[0].n, axes[1].n, zCells};
  dims[a] = axes[a].memorySlots();
  return dims;
}

std::size_t PmlProfile::axisMemoryFloats(int a) const {
  const auto d = memoryDims(a);
  return 2 * std::size_t(d[0]) * std::size_t(d[1]) * std::size_t(d[2]);
}

std::size_t PmlProfile::memoryFloats() const {
  if (!enabled()) return 0;
  return axisMemoryFloats(0) + axisMemoryFloats(1) + axisMemoryFloats(2);
}

std::size_t pmlMemoryFloats(const Grid& g, int width) {
  std::size_t floats = 0;  // ψ and ζ on 2·W slots of every line of each axis
  for (int n : {g.n1, g.n2, g.n3}) floats += 2 * std::size_t(2 * layerCellsOnAxis(width, n)) * (g.interiorSize() / std::size_t(n));
  return floats;
}

PmlProfile buildPmlProfile(const Grid& g, int width, double dx, double dt, double vMax, double reflection,
                           double f0) {
  if (width < 1 || !(dx > 0.0) || !(dt > 0.0) || !(vMax > 0.0) || !(reflection > 0.0 && reflection < 1.0))
    throw std::invalid_argument("the absorbing layer needs width >= 1, dx, dt, v_max > 0 and 0 < reflection < 1");
  PmlProfile p;
  p.width = width;
  const int sizes[3] = {g.n1, g.n2, g.n3};
  for (int a = 0; a < 3; ++a) p.axes[a] = buildAxis(sizes[a], width, dx, dt, vMax, reflection, f0);
  p.zCells = g.n3;
  const auto w = staggeredFirstDerivativeWeights();
  for (int k = 0; k < kPmlHalfLength; ++k) p.firstDerivative[k] = float(w[k] / dx);
  return p;
}

}  // namespace iso
