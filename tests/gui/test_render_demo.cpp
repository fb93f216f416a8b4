// What an audience sees at late time: a field that has died away to noise is not amplified to full
// colour under the default gain, while per-frame gain (the mode that rescales to whatever is left) is.
// Needs a display with OpenGL: run under xvfb-run -a -s "-screen 0 1280x720x24 -noreset".
#include <QApplication>
#include <QPainter>
#include <QElapsedTimer>
#include <QWindow>
#include <gtest/gtest.h>

#include "render/SliceView.h"
#include "tests/gui/test_render_support.h"

namespace iso {
namespace {

constexpr int kN = 64;

// The share of the plane's pixels that are strongly coloured (far from the white of u = 0).
double colouredShare(const QImage& image, const QRectF& plane) {
  long coloured = 0, total = 0;
  for (int y = int(plane.top()) + 1; y < int(plane.bottom()) - 1; ++y)
    for (int x = int(plane.left()) + 1; x < int(plane.right()) - 1; ++x) {
      const QColor c = image.pixelColor(x, y);
      ++total;
      if (std::min({c.red(), c.green(), c.blue()}) < 150) ++coloured;
    }
  return total > 0 ? double(coloured) / double(total) : 0.0;
}

// Shows a strong ring (peak ~2e4) for 100 steps, then round-off-sized noise (±8e-5) until step 4000 (39 release time constants of the level),
// in `mode`; returns the share of strongly coloured pixels of the last frame.
double lateTimeColouredShare(GainMode mode, const QString& screenshot) {
  SliceView view;
  view.resize(720, 480);
  view.show();
  QElapsedTimer timer;
  timer.start();
  while (!(view.windowHandle() && view.windowHandle()->isExposed()) && timer.elapsed() < 5000)
    QApplication::processEvents(QEventLoop::AllEvents, 50);
  view.grabFramebuffer();  // initialises GL
  EXPECT_TRUE(view.glReady()) << view.glInfo().toStdString();
  view.setGridSpacing(10.0);
  view.setMode(SliceView::Mode::PlaneXY);
  view.setGainMode(mode);
  for (long step = 0; step <= 100; step += 10) {
    auto ring = test::makeRing(kN, kN / 2, kN / 2, kN / 2, 4.0 + 0.2 * double(step), 2.0e5);
    ring->step = step;
    view.setSlices(ring);
  }
  for (long step = 150; step <= 4000; step += 50) {
    auto noise = test::makeSlices(kN, kN, kN, kN / 2, kN / 2, kN / 2, [step](int plane, int c, int r) {
      // Unsigned throughout: a hash that wraps, not a signed overflow.
      const unsigned h = (unsigned(plane) * 7919u + unsigned(c) * 104729u + unsigned(r) * 1299709u + unsigned(step) * 15485863u) *
                         2654435761u;
      return float((double(h >> 8) / double(1u << 24)) * 2.0 - 1.0) * 8.0e-5f;
    });
    noise->step = step;
    view.setSlices(noise);
  }
  const QImage image = view.grabFramebuffer();
  test::saveScreenshot(image, screenshot);
  return colouredShare(image, view.planeRect());
}

TEST(RenderDemo, LateTimeNoiseIsNearUniformUnderTheDefaultGainAndFullRangePerFrame) {
  if (!test::displayAvailable()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  EXPECT_EQ(SliceView().gainMode(), GainMode::Automatic);
  const double automatic = lateTimeColouredShare(GainMode::Automatic, "render_demo_late_auto");
  const double perFrame = lateTimeColouredShare(GainMode::PerFrame, "render_demo_late_per_frame");
  EXPECT_LT(automatic, 0.01);
  EXPECT_GT(perFrame, 0.2);  // the same frame per-frame: noise at full colour
}

// Light pixels right of the bar, between its top and bottom: the tick labels (the title is above it).
long labelPixels(double lo, double hi) {
  QImage image(120, 300, QImage::Format_RGB32);
  image.fill(Qt::black);
  QPainter painter(&image);
  const ColourTable* table = Colormap::table("grey");
  const Hud hud;
  const QRectF area(10, 10, 100, 280);
  hud.drawColourBarFrame(painter, area, *table, "v (m/s)", {});
  const QRectF bar = hud.drawColourBarLabels(painter, area, lo, hi, {});
  painter.end();
  long n = 0;
  for (int y = int(bar.top()) - 6; y <= int(bar.bottom()) + 6; ++y)
    for (int x = int(bar.right()) + 8; x < image.width(); ++x) n += qGray(image.pixel(x, y)) > 128;
  return n;
}

TEST(RenderDemo, ConstantVelocityBarHasALabel) {
  EXPECT_GT(labelPixels(2000.0, 4500.0), 50);
  EXPECT_GT(labelPixels(1500.0, 1500.0), 20);  // one label: "1500"
}

}  // namespace
}  // namespace iso
