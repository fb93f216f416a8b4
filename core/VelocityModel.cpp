#include "core/VelocityModel.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "core/Allocation.h"
#include "core/Format.h"
#include "core/ModelFile.h"
#include "core/SystemMemory.h"

namespace iso {

namespace {

// Calls f(i, j, k, index) for every interior cell in memory order.
template <class F>
void forEachCell(const Grid& g, F&& f) {
  std::size_t index = 0;
  for (int k = 0; k < g.n3; ++k)
    for (int j = 0; j < g.n2; ++j)
      for (int i = 0; i < g.n1; ++i) f(i, j, k, index++);
}

// Standard normal samples from mt19937 through Box-Muller: std::normal_distribution is not specified
// bit-for-bit, so a seeded model would differ between standard libraries.
class PortableNormal {
 public:
  explicit PortableNormal(unsigned seed) : engine_(seed) {}
  double operator()() {
    if (hasSpare_) {
      hasSpare_ = false;
      return spare_;
    }
    constexpr double kTwoPi = 6.283185307179586;
    const double u1 = (double(engine_()) + 1.0) / 4294967296.0;  // (0, 1]: log stays finite
    const double u2 = double(engine_()) / 4294967296.0;
    const double r = std::sqrt(-2.0 * std::log(u1));
    spare_ = r * std::sin(kTwoPi * u2);
    hasSpare_ = true;
    return r * std::cos(kTwoPi * u2);
  }

 private:
  std::mt19937 engine_;
  double spare_ = 0.0;
  bool hasSpare_ = false;
};

// Convolves `data` (sizes s[0] fastest, s[1], s[2]) along `axis` with `kernel` (odd length), keeping
// only the "valid" part: the axis shrinks by kernel.size() - 1.
std::vector<double> convolveValid(const std::vector<double>& data, int s[3], int axis,
                                  const std::vector<double>& kernel) {
  const int radius = int(kernel.size() / 2);
  int out[3] = {s[0], s[1], s[2]};
  out[axis] -= 2 * radius;
  const std::size_t stride = axis == 0 ? 1 : axis == 1 ? std::size_t(s[0]) : std::size_t(s[0]) * s[1];
  std::vector<double> result =
      allocateArray<std::vector<double>>(std::size_t(out[0]) * out[1] * out[2], "a smoothing pass of the random model");
  std::size_t o = 0;
  for (int k = 0; k < out[2]; ++k)
    for (int j = 0; j < out[1]; ++j)
      for (int i = 0; i < out[0]; ++i) {
        const std::size_t first = (std::size_t(k) * s[1] + j) * s[0] + i;  // the window's first input
        double acc = 0.0;
        for (std::size_t t = 0; t < kernel.size(); ++t) acc += kernel[t] * data[first + t * stride];
        result[o++] = acc;
      }
  s[0] = out[0], s[1] = out[1], s[2] = out[2];
  return result;
}

// Gaussian smoothing with σ cells gives the correlation exp(-r²/(4σ²)) = exp(-r²/L²): σ = L/(2dx). The
// kernel reaches 3σ. In double: a long correlation length over a fine grid exceeds any int.
double smoothingRadius(double dx, double correlationLength) {
  return std::ceil(3.0 * std::max(correlationLength / (2.0 * dx), 1e-6));
}

}  // namespace

std::vector<float> constantModel(const Grid& g, double velocity) {
  return std::vector<float>(g.interiorSize(), float(velocity));
}

std::vector<float> layeredModel(const Grid& g, double dx, const std::vector<Layer>& layers) {
  // Velocity per depth index, then broadcast over x-y planes.
  std::vector<float> model(g.interiorSize());
  const std::size_t plane = std::size_t(g.n1) * g.n2;
  for (int k = 0; k < g.n3; ++k) {
    const double depth = k * dx;
    double v = layers.front().velocity;
    for (const auto& layer : layers)
      if (layer.top <= depth) v = layer.velocity;
    std::fill_n(model.begin() + std::ptrdiff_t(k * plane), plane, float(v));
  }
  return model;
}

std::vector<float> gradientModel(const Grid& g, double /*dx*/, double top, double bottom) {
  std::vector<float> model(g.interiorSize());
  const std::size_t plane = std::size_t(g.n1) * g.n2;
  for (int k = 0; k < g.n3; ++k) {
    const double fraction = g.n3 > 1 ? double(k) / (g.n3 - 1) : 0.0;
    std::fill_n(model.begin() + std::ptrdiff_t(k * plane), plane, float(top + (bottom - top) * fraction));
  }
  return model;
}

std::size_t randomModelWorkBytes(const Grid& g, double dx, double correlationLength) {
  const double grown = 2.0 * smoothingRadius(dx, correlationLength);
  const double bytes = 2.0 * sizeof(double) * (g.n1 + grown) * (g.n2 + grown) * (g.n3 + grown);
  return bytes >= double(std::numeric_limits<std::size_t>::max()) ? std::numeric_limits<std::size_t>::max()
                                                                   : std::size_t(bytes);
}

std::vector<float> randomModel(const Grid& g, double dx, double mean, double stdDev,
                               double correlationLength, unsigned seed) {
  const std::string what = "the random model with correlation length " + shortNumber(correlationLength) +
                           " m over " + shortNumber(dx) + " m cells";
  const double radiusCells = smoothingRadius(dx, correlationLength);
  if (std::max({g.n1, g.n2, g.n3}) + 2.0 * radiusCells > double(kMaxAxisCells))
    throw ScenarioError(what + " smooths over " + shortNumber(radiusCells) + " cells on each side, more than " +
                        std::to_string(kMaxAxisCells) + " cells in all; use a shorter correlation length");
  requireAvailableMemory(randomModelWorkBytes(g, dx, correlationLength), what);
  const int radius = int(radiusCells);
  const double sigma = std::max(correlationLength / (2.0 * dx), 1e-6);
  std::vector<double> kernel(std::size_t(2 * radius + 1));
  for (int t = -radius; t <= radius; ++t)
    kernel[std::size_t(t + radius)] = std::exp(-0.5 * double(t) * t / (sigma * sigma));

  // Noise on the grid grown by the kernel radius on every side, so that the "valid" convolution
  // leaves every interior cell with a full window (no edge effects).
  int s[3] = {g.n1 + 2 * radius, g.n2 + 2 * radius, g.n3 + 2 * radius};
  std::vector<double> field =
      allocateArray<std::vector<double>>(std::size_t(s[0]) * s[1] * s[2], "the noise of " + what);
  PortableNormal normal(seed);
  for (auto& x : field) x = normal();
  for (int axis = 0; axis < 3; ++axis) field = convolveValid(field, s, axis, kernel);

  double sum = 0.0, sumSq = 0.0;
  for (double x : field) sum += x;
  const double fieldMean = sum / double(field.size());
  for (double x : field) sumSq += (x - fieldMean) * (x - fieldMean);
  const double fieldStd = std::sqrt(sumSq / double(field.size()));
  const double gain = fieldStd > 0.0 ? stdDev / fieldStd : 0.0;  // a single cell has no spread

  std::vector<float> model(field.size());
  for (std::size_t n = 0; n < field.size(); ++n) {
    const double v = mean + gain * (field[n] - fieldMean);
    model[n] = float(std::clamp(v, mean - 3.0 * stdDev, mean + 3.0 * stdDev));
  }
  return model;
}

void drawSaltBody(std::vector<float>& model, const Grid& g, double dx, const SaltBody& salt) {
  if (!salt.enabled) return;
  const double r2 = salt.radius * salt.radius;
  forEachCell(g, [&](int i, int j, int k, std::size_t n) {
    const double ddx = i * dx - salt.centerX, ddy = j * dx - salt.centerY, ddz = k * dx - salt.centerZ;
    if (ddx * ddx + ddy * ddy + ddz * ddz <= r2) model[n] = float(salt.velocity);
  });
}

std::vector<float> resampleTrilinear(const Volume& src, const Grid& dst) {
  // Source coordinate of destination index d along an axis of sizes (from, to), corners aligned.
  auto coordinate = [](int d, int from, int to) {
    return to > 1 ? double(d) * (from - 1) / (to - 1) : 0.0;
  };
  auto split = [](double c, int size, int& lo, double& frac) {
    lo = std::min(int(std::floor(c)), std::max(size - 2, 0));
    frac = size > 1 ? c - lo : 0.0;
  };
  std::vector<float> out(dst.interiorSize());
  forEachCell(dst, [&](int i, int j, int k, std::size_t n) {
    int i0, j0, k0;
    double fi, fj, fk;
    split(coordinate(i, src.n1, dst.n1), src.n1, i0, fi);
    split(coordinate(j, src.n2, dst.n2), src.n2, j0, fj);
    split(coordinate(k, src.n3, dst.n3), src.n3, k0, fk);
    const int i1 = std::min(i0 + 1, src.n1 - 1), j1 = std::min(j0 + 1, src.n2 - 1), k1 = std::min(k0 + 1, src.n3 - 1);
    auto lerp = [](double a, double b, double f) { return a + (b - a) * f; };
    const double c00 = lerp(src.at(i0, j0, k0), src.at(i1, j0, k0), fi);
    const double c10 = lerp(src.at(i0, j1, k0), src.at(i1, j1, k0), fi);
    const double c01 = lerp(src.at(i0, j0, k1), src.at(i1, j0, k1), fi);
    const double c11 = lerp(src.at(i0, j1, k1), src.at(i1, j1, k1), fi);
    out[n] = float(lerp(lerp(c00, c10, fj), lerp(c01, c11, fj), fk));
  });
  return out;
}

std::vector<float> buildVelocityModel(const Scenario& s) {
  const Grid g(s.n1, s.n2, s.n3);
  const auto& m = s.model;
  const std::string what = "the velocity model (" + std::to_string(s.n1) + " x " + std::to_string(s.n2) + " x " +
                           std::to_string(s.n3) + " cells)";
  std::vector<float> model = withAllocationContext(what, g.interiorSize() * sizeof(float), [&] {
    switch (m.kind) {
      case ModelKind::Layered: return layeredModel(g, s.dx, m.layers);
      case ModelKind::Gradient: return gradientModel(g, s.dx, m.topVelocity, m.bottomVelocity);
      case ModelKind::Random:
        return randomModel(g, s.dx, m.velocity, m.randomStdDev, m.randomCorrelationLength, m.randomSeed);
      case ModelKind::File: {
        Volume file = loadModelFile(m.path, m.fileN1, m.fileN2, m.fileN3, m.fileUnit);
        return (file.n1 == g.n1 && file.n2 == g.n2 && file.n3 == g.n3) ? std::move(file.data)
                                                                       : resampleTrilinear(file, g);
      }
      case ModelKind::Constant: break;
    }
    return constantModel(g, m.velocity);
  });
  drawSaltBody(model, g, s.dx, m.salt);
  return model;
}

}  // namespace iso
