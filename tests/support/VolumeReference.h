#pragma once
// A reference ray marcher for the volume renderer's tests: the transfer function and ray lattice as
// resources/kernels/volume_march.cl documents them, written again in plain C++ with GLM from the
// OpenGL side's own maths (OrbitCamera::ray in world coordinates, core/GridWorld.h) over the interior
// field (readField) and the velocity model in m/s. No bricks, no early termination, doubles where it
// matters: what the renderers must agree with.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <glm/glm.hpp>

#include "core/GridWorld.h"
#include "core/OrbitCamera.h"
#include "core/VolumeView.h"

namespace iso::test {

struct ReferenceField {
  int n1 = 0, n2 = 0, n3 = 0;
  std::vector<float> u;         // interior, C order (n3, n2, n1)
  std::vector<float> velocity;  // m/s, the same shape; empty: no context

  // 0 outside the interior, as the solvers' halo.
  double at(int i, int j, int k) const {
    if (i < 0 || j < 0 || k < 0 || i >= n1 || j >= n2 || k >= n3) return 0.0;
    return u[(std::size_t(k) * n2 + j) * n1 + i];
  }
  // The context byte of a cell: |∇ ln v| by central differences, the edge repeated, mapped 0.02..0.15 to
  // 0..255 and rounded.
  double contextByte(int i, int j, int k) const {
    const auto lnv = [&](int a, int b, int c) {
      a = std::clamp(a, 0, n1 - 1), b = std::clamp(b, 0, n2 - 1), c = std::clamp(c, 0, n3 - 1);
      return std::log(double(velocity[(std::size_t(c) * n2 + b) * n1 + a]));
    };
    const double gx = lnv(i + 1, j, k) - lnv(i - 1, j, k), gy = lnv(i, j + 1, k) - lnv(i, j - 1, k),
                 gz = lnv(i, j, k + 1) - lnv(i, j, k - 1);
    const double gradient = 0.5 * std::sqrt(gx * gx + gy * gy + gz * gz);
    return std::floor(std::clamp((gradient - 0.02) / 0.13, 0.0, 1.0) * 255.0 + 0.5);
  }
};

// Trilinear interpolation of f(i, j, k) at grid coordinates p (cell centres at i + 0.5).
template <class F>
double trilinear(const glm::dvec3& p, F f) {
  const glm::dvec3 q = p - 0.5, base = glm::floor(q), a = q - base;
  const int i = int(base.x), j = int(base.y), k = int(base.z);
  double sum = 0.0;
  for (int c = 0; c < 8; ++c) {
    const int di = c & 1, dj = (c >> 1) & 1, dk = (c >> 2) & 1;
    sum += (di ? a.x : 1 - a.x) * (dj ? a.y : 1 - a.y) * (dk ? a.z : 1 - a.z) * f(i + di, j + dj, k + dk);
  }
  return sum;
}

// The gradient of that interpolant (its derivatives along x, y, z).
template <class F>
glm::dvec3 trilinearGradient(const glm::dvec3& p, F f) {
  const glm::dvec3 q = p - 0.5, base = glm::floor(q), a = q - base;
  const int i = int(base.x), j = int(base.y), k = int(base.z);
  glm::dvec3 g(0.0);
  for (int c = 0; c < 8; ++c) {
    const int di = c & 1, dj = (c >> 1) & 1, dk = (c >> 2) & 1;
    const double wx = di ? a.x : 1 - a.x, wy = dj ? a.y : 1 - a.y, wz = dk ? a.z : 1 - a.z;
    const double v = f(i + di, j + dj, k + dk);
    g += glm::dvec3((di ? 1 : -1) * wy * wz, (dj ? 1 : -1) * wx * wz, (dk ? 1 : -1) * wx * wy) * v;
  }
  return g;
}

// Premultiplied RGBA in [0, 1] of every pixel, rows top to bottom. view.worldToClip must be the camera's
// (setVolumeCamera); marginCells, the plane and velocityContext are honoured, earlyTermination ignored.
inline std::vector<std::array<double, 4>> referenceVolumeImage(const VolumeView& view, const OrbitCamera& camera,
                                                               const ReferenceField& field) {
  const std::array<int, 3> size{field.n1, field.n2, field.n3};
  // The colormap at `position` (0 to 1), interpolated as OpenGL's linear filter does.
  const auto colour = [&](double position, int channel) {
    const double x = std::clamp(position, 0.0, 1.0) * 255.0;
    const int i = std::min(int(x), 254);
    const auto c = [&](int n) { return double((view.colormap[n] >> (8 * channel)) & 0xFF) / 255.0; };
    return c(i) + (x - i) * (c(i + 1) - c(i));
  };
  const auto context = [&](const glm::dvec3& p) {
    const auto at = [&](int i, int j, int k) {
      return field.contextByte(std::clamp(i, 0, field.n1 - 1), std::clamp(j, 0, field.n2 - 1), std::clamp(k, 0, field.n3 - 1));
    };
    return trilinear(p, at) / 255.0;
  };
  std::vector<std::array<double, 4>> image(view.pixels());
  for (int py = 0; py < view.height; ++py)
    for (int px = 0; px < view.width; ++px) {
      const OrbitCamera::Ray ray = camera.ray(float(px), float(py), view.width, view.height);
      const glm::dvec3 o(worldToGrid(size, ray.origin));
      const glm::dvec3 d = glm::normalize(glm::dvec3(ray.direction.x, ray.direction.z, -ray.direction.y));
      double t0 = 0.0, t1 = std::numeric_limits<double>::infinity();
      for (int a = 0; a < 3; ++a) {
        const double lo = (view.marginCells[a] - o[a]) / d[a], hi = (size[a] - view.marginCells[a] - o[a]) / d[a];
        t0 = std::max(t0, std::min(lo, hi));
        t1 = std::min(t1, std::max(lo, hi));
      }
      std::array<double, 4>& out = image[std::size_t(py) * view.width + px];
      out = {0, 0, 0, 0};
      if (!(t0 < t1)) continue;
      bool plane = false;
      if (view.planeAxis >= 0) {
        const double tp = (view.planeCell + 0.5 - o[view.planeAxis]) / d[view.planeAxis];
        if (tp >= t0 && tp <= t1) t1 = tp, plane = true;
      }
      const double ds = 1.0 / view.samplesPerCell;
      const double first = 0.5 * ds;  // the tests render without jitter
      for (double t = t0 + first; t < t1; t += ds) {
        const glm::dvec3 p = o + t * d;
        const auto u_at = [&](int i, int j, int k) { return field.at(i, j, k); };
        const double u = trilinear(p, u_at);
        const double w = std::clamp((std::abs(u) / view.clip - VolumeView::kDeadZone) / (1.0 - VolumeView::kDeadZone), 0.0, 1.0);
        double sigma = VolumeView::kDensity * std::sqrt(w), rgb[3] = {0, 0, 0};
        if (sigma > 0) {  // the sign's hue, lit from the eye: ambient 0.4, the rest as the gradient faces the ray
          const glm::dvec3 g = trilinearGradient(p, u_at);
          const double light = glm::length(g) > 0 ? 0.4 + 0.6 * std::abs(glm::dot(g, d)) / glm::length(g) : 1.0;
          for (int c = 0; c < 3; ++c) rgb[c] = VolumeView::kEmission * light * colour(u < 0 ? 0.32 : 0.68, c);
        }
        if (view.velocityContext) {
          const double sc = VolumeView::kContextDensity * context(p);
          const double grey[3] = {0.80, 0.74, 0.64};
          if (sc > 0)
            for (int c = 0; c < 3; ++c) rgb[c] = (sigma * rgb[c] + sc * grey[c]) / (sigma + sc);
          sigma += sc;
        }
        const double a = (1.0 - out[3]) * (1.0 - std::exp(-sigma * ds));
        for (int c = 0; c < 3; ++c) out[c] += a * rgb[c];
        out[3] += a;
      }
      if (plane) {
        const double u = trilinear(o + t1 * d, [&](int i, int j, int k) { return field.at(i, j, k); });
        for (int c = 0; c < 3; ++c) out[c] += (1.0 - out[3]) * colour(0.5 + 0.5 * u / view.clip, c);
        out[3] = 1.0;
      }
      for (int c = 0; c < 3; ++c) out[c] = std::min(out[c], 1.0);  // light beyond full is full
    }
  return image;
}

// Channel c (0 red .. 3 alpha) of a packed RGBA8 pixel.
inline int channel(std::uint32_t rgba, int c) { return int((rgba >> (8 * c)) & 0xFF); }

// How far a rendered image is from the reference, in 8-bit steps.
struct ImageDifference {
  int largest = 0;            // over every channel of every pixel
  double shareAbove2 = 0.0;   // of the pixels, those with a channel more than 2 steps off
  double opaqueShare = 0.0;   // of the reference's pixels, those with alpha > 0.1 (the test shows something)
};

inline ImageDifference compareImages(const std::vector<std::uint32_t>& got, const std::vector<std::array<double, 4>>& ref) {
  ImageDifference d;
  std::size_t above = 0, shown = 0;
  for (std::size_t n = 0; n < ref.size(); ++n) {
    int worst = 0;
    for (int c = 0; c < 4; ++c) worst = std::max(worst, std::abs(channel(got[n], c) - int(std::lround(ref[n][c] * 255.0))));
    d.largest = std::max(d.largest, worst);
    above += worst > 2;
    shown += ref[n][3] > 0.1;
  }
  d.shareAbove2 = double(above) / double(ref.size());
  d.opaqueShare = double(shown) / double(ref.size());
  return d;
}

}  // namespace iso::test
