#pragma once
// Shared helpers of the renderer tests: synthetic slice sets and optional screenshots.
#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <string>

#include <QDir>
#include <QImage>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QString>

#include "core/SliceSet.h"

namespace iso::test {

// True when the test binary runs with a display that can give OpenGL (see test_render_main.cpp).
bool displayAvailable();

// An OpenGL 3.3 core context current on an offscreen surface, as a program without a window makes one
// (a GPU server): "" or what failed.
inline std::string makeCurrentCoreContext(QOffscreenSurface& surface, QOpenGLContext& context) {
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(24);
  surface.setFormat(format);
  surface.create();
  context.setFormat(format);
  if (!context.create()) return "no OpenGL 3.3 core context";
  return context.makeCurrent(&surface) ? "" : "the context cannot be made current on an offscreen surface";
}

// A slice set of the given size through (i, j, k), each plane filled by value(col, row).
inline std::shared_ptr<SliceSet> makeSlices(int n1, int n2, int n3, int i, int j, int k,
                                            const std::function<float(int plane, int col, int row)>& value) {
  auto s = std::make_shared<SliceSet>();
  s->n1 = n1, s->n2 = n2, s->n3 = n3, s->i = i, s->j = j, s->k = k;
  float* out = s->ownPlanes();
  for (const auto [plane, cols, rows] : {std::array{0, n1, n2}, std::array{1, n1, n3}, std::array{2, n2, n3}})
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) *out++ = value(plane, c, r);
  return s;
}

// The wavefield of a point source in a homogeneous medium: a Ricker pulse on a spherical shell of
// radius `radius` cells around (si, sj, sk), amplitude decaying as 1/r, times `scale`.
inline std::shared_ptr<SliceSet> makeRing(int n, int si, int sj, int sk, double radius, double scale) {
  const auto u = [=](double x, double y, double z) {
    const double r = std::sqrt(x * x + y * y + z * z);
    const double a = (r - radius) / 3.0;
    return float(scale * (1.0 - 2.0 * a * a) * std::exp(-a * a) / std::max(r, 1.0));
  };
  return makeSlices(n, n, n, si, sj, sk, [=](int plane, int c, int r) {
    switch (plane) {
      case 0: return u(c - si, r - sj, 0);
      case 1: return u(c - si, 0, r - sk);
      default: return u(0, c - sj, r - sk);
    }
  });
}

// Saves a picture under $ISO_RENDER_SCREENSHOTS (when set), for people to look at.
// The OpenCL device the tests that compare a device's pictures with OpenGL's make them on: the selector in
// ISO_TEST_OPENCL_DEVICE (e.g. "nvidia" on a GPU server, whose OpenGL is the GPU's too), else "" (the
// test's own choice).
inline std::string testDeviceSelector() { return qEnvironmentVariable("ISO_TEST_OPENCL_DEVICE").toStdString(); }

inline void saveScreenshot(const QImage& image, const QString& name) {
  const QString dir = qEnvironmentVariable("ISO_RENDER_SCREENSHOTS");
  if (dir.isEmpty()) return;
  QDir().mkpath(dir);
  image.save(QDir(dir).filePath(name + ".png"));
}

}  // namespace iso::test
