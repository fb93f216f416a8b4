// The first frames a new user sees, from the real binary's screenshots: the default scenario's wave and
// the oneapi preset's cubes are on the slices. Needs an X display with OpenGL: run under xvfb-run.
#include <gtest/gtest.h>

#include <QImage>
#include <QTemporaryDir>

#include "tests/gui/test_studio_support.h"
#include "tests/support/StudioProcess.h"

namespace iso {
namespace {

// Pixels of the "seismic" colormap's strong ends: red (u > 0) and blue (u < 0).
struct Coloured {
  long red = 0, blue = 0;
};

Coloured countColoured(const QImage& image) {
  Coloured n;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      if (c.red() > 150 && c.green() < 110 && c.blue() < 110) ++n.red;
      if (c.blue() > 150 && c.red() < 110 && c.green() < 110) ++n.blue;
    }
  return n;
}

// Runs the studio for `steps` steps in one view mode and returns its screenshot (null on failure).
QImage screenshotAfter(const QStringList& scenario, int steps, const QString& mode) {
  QTemporaryDir dir;
  const QString shot = dir.filePath("view.png");
  const test::StudioRun r =
      test::runStudio(scenario + QStringList{"--mode", mode, "--steps", QString::number(steps), "--screenshot", shot}, {}, 120000);
  if (r.exitCode != 0) {
    ADD_FAILURE() << "iso3dfd-studio failed: " << r.output.toStdString();
    return {};
  }
  return QImage(shot);
}

// The default scenario's Ricker pulse (t0 = 1/f0, 265 steps at the automatic dt) has a wavefront of both
// signs around the source on the depth slice through it once its main lobe has been emitted.
TEST(StudioDemo, DefaultStartShowsTheWavefrontAroundTheSource) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const QImage image = screenshotAfter({}, 300, "xy");
  ASSERT_FALSE(image.isNull());
  const Coloured n = countColoured(image);
  EXPECT_GT(n.red, 200) << "red pixels of the wavefront";
  EXPECT_GT(n.blue, 200) << "blue pixels of the wavefront";
}

// A new user sees the wave start at once: the Ricker pulse's leading (negative) lobe already spreads
// around the source after 100 steps (t = 47 ms, a third of a second of computing here).
TEST(StudioDemo, DefaultStartShowsTheWaveWithinItsFirst100Steps) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const QImage image = screenshotAfter({}, 100, "xy");
  ASSERT_FALSE(image.isNull());
  EXPECT_GT(countColoured(image).blue, 100) << "blue pixels of the pulse around the source";
}

// The oneapi preset has no point source: its slices go through the cubes, so the first frame shows them.
TEST(StudioDemo, OneApiPresetShowsItsCubes) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const QImage image = screenshotAfter({"--preset", "oneapi"}, 10, "xy");
  ASSERT_FALSE(image.isNull());
  EXPECT_GT(countColoured(image).red, 20) << "the cubes (u > 0) are not on the slice";
}

}  // namespace
}  // namespace iso
