// SliceView end to end: known synthetic fields drawn, the frame grabbed, its pixels checked.
// Needs a display with OpenGL: run under xvfb-run -a -s "-screen 0 1280x720x24 -noreset"
// (-noreset: a client connecting while Xvfb resets after its last client left is refused).
#include <algorithm>
#include <array>
#include <vector>

#include <QApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QProcess>
#include <QWindow>
#include <gtest/gtest.h>

#include "render/SliceView.h"
#include "render/SliceWindow.h"
#include "tests/gui/test_render_support.h"

namespace iso {
namespace {

// render_tests links no QtTest (tests/gui/CMakeLists.txt), so events are sent by hand.
void sendMouse(QWidget* widget, QEvent::Type type, QPoint at, Qt::MouseButtons buttons) {
  const Qt::MouseButton button = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
  QMouseEvent event(type, QPointF(at), widget->mapToGlobal(QPointF(at)), button, buttons, Qt::NoModifier);
  QApplication::sendEvent(widget, &event);
}
void click(QWidget* widget, QPoint at) {
  sendMouse(widget, QEvent::MouseButtonPress, at, Qt::LeftButton);
  sendMouse(widget, QEvent::MouseButtonRelease, at, Qt::NoButton);
}
bool waitExposed(QWidget* widget) {
  QElapsedTimer timer;
  timer.start();
  while (!(widget->windowHandle() && widget->windowHandle()->isExposed()) && timer.elapsed() < 5000)
    QApplication::processEvents(QEventLoop::AllEvents, 50);
  return widget->windowHandle() && widget->windowHandle()->isExposed();
}

class RenderView : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::displayAvailable()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
    view_ = std::make_unique<SliceView>();
    view_->resize(720, 480);
    view_->show();
    ASSERT_TRUE(waitExposed(view_.get()));
    view_->grabFramebuffer();  // initialises GL
    ASSERT_TRUE(view_->glReady()) << view_->glInfo().toStdString();
    view_->setGridSpacing(10.0);
  }

  QImage grab(const QString& name) {
    const QImage image = view_->grabFramebuffer();
    test::saveScreenshot(image, name);
    return image;
  }

  // The colour at the centre of cell (col, row) of the plane shown in a 2D mode.
  QColor cellColour(const QImage& image, int col, int row, int columns) const {
    const QRectF r = view_->planeRect();
    const double ppc = r.width() / columns;
    const QPointF at(r.left() + (col + 0.5) * ppc, r.top() + (row + 0.5) * ppc);
    return image.pixelColor(int(at.x()), int(at.y()));
  }

  // Records cellPicked emissions.
  std::vector<std::array<int, 3>>& recordPicks() {
    QObject::connect(view_.get(), &SliceView::cellPicked, [this](int i, int j, int k) { picks_.push_back({i, j, k}); });
    return picks_;
  }

  std::unique_ptr<SliceView> view_;
  std::vector<std::array<int, 3>> picks_;
};

bool isRed(const QColor& c) { return c.red() > 200 && c.green() < 60 && c.blue() < 60; }
bool isBlue(const QColor& c) { return c.blue() > 200 && c.red() < 60 && c.green() < 60; }
bool isWhite(const QColor& c) { return c.red() > 240 && c.green() > 240 && c.blue() > 240; }
std::string name(const QColor& c) { return c.name().toStdString(); }

constexpr int kN1 = 64, kN2 = 48, kN3 = 40;

TEST_F(RenderView, SeismicSectionShowsSignsWhereTheyAreAndZeroAsWhite) {
  // XZ section: +0.5 on the left (x < 20), 0 in the middle, -0.5 on the right (x >= 44); clip 1
  // puts ±0.5 on the pure red/blue entries of "seismic". Rows: z down — the top 5 rows hold +0.5.
  view_->setAutoGain(false);
  view_->setClip(1.0f);
  view_->setMode(SliceView::Mode::PlaneXZ);
  view_->setSlices(test::makeSlices(kN1, kN2, kN3, 10, 20, 30, [](int plane, int c, int r) {
    if (plane != 1) return 0.0f;
    if (r < 5) return 0.5f;
    return c < 20 ? 0.5f : c >= 44 ? -0.5f : 0.0f;
  }));
  const QImage image = grab("render_2d_xz_signs");
  EXPECT_FLOAT_EQ(view_->clip(), 1.0f);
  for (int row : {10, 25, 39}) {
    EXPECT_TRUE(isRed(cellColour(image, 3, row, kN1))) << name(cellColour(image, 3, row, kN1));
    EXPECT_TRUE(isWhite(cellColour(image, 32, row, kN1))) << name(cellColour(image, 32, row, kN1));
    EXPECT_TRUE(isBlue(cellColour(image, 60, row, kN1))) << name(cellColour(image, 60, row, kN1));
  }
  // z points down: the positive top rows are at the top of the picture.
  EXPECT_TRUE(isRed(cellColour(image, 32, 2, kN1))) << name(cellColour(image, 32, 2, kN1));
  // Plane aspect kept: 64 x 40 cells in square pixels.
  const QRectF r = view_->planeRect();
  EXPECT_DOUBLE_EQ(r.width() / kN1, r.height() / kN3);
}

TEST_F(RenderView, DepthSliceHasXRightAndYDown) {
  view_->setAutoGain(false);
  view_->setClip(1.0f);
  view_->setMode(SliceView::Mode::PlaneXY);
  // Positive only in the quadrant x < 16, y < 12: it must appear at the top-left.
  view_->setSlices(test::makeSlices(kN1, kN2, kN3, 10, 20, 30, [](int plane, int c, int r) {
    return plane == 0 && c < 16 && r < 12 ? 0.5f : -0.5f;
  }));
  const QImage image = grab("render_2d_xy_quadrant");
  EXPECT_TRUE(isRed(cellColour(image, 2, 2, kN1)));
  EXPECT_TRUE(isBlue(cellColour(image, kN1 - 3, 2, kN1)));
  EXPECT_TRUE(isBlue(cellColour(image, 2, kN2 - 3, kN1)));
}

TEST_F(RenderView, GreyIsMonotoneAlongAGradientAndTheColourBarIsDrawn) {
  view_->setAutoGain(false);
  view_->setClip(1.0f);
  view_->setColormap("grey");
  view_->setMode(SliceView::Mode::PlaneYZ);
  // u runs from -1 at y = 0 to +1 at y = n2 - 1.
  view_->setSlices(test::makeSlices(kN1, kN2, kN3, 10, 20, 30, [](int, int c, int) {
    return -1.0f + 2.0f * float(c) / float(kN2 - 1);
  }));
  const QImage image = grab("render_2d_yz_grey");
  int previous = -1;
  for (int c = 0; c < kN2; ++c) {
    if (c == 20) continue;  // the dashed trace of the XZ slice (j = 20) runs down this column
    const int level = cellColour(image, c, 20, kN2).red();
    EXPECT_GE(level, previous) << "column " << c;
    previous = level;
  }
  EXPECT_LT(cellColour(image, 0, 20, kN2).red(), 8);
  EXPECT_GT(cellColour(image, kN2 - 1, 20, kN2).red(), 247);
  // The colour bar (right of the plane) holds the grey ramp: near-black and near-white pixels.
  const int left = int(view_->planeRect().right()) + 20;
  int dark = 0, light = 0;
  for (int x = left; x < image.width(); ++x)
    for (int y = 0; y < image.height(); ++y) {
      const QColor c = image.pixelColor(x, y);
      if (c.red() == c.green() && c.green() == c.blue()) {
        dark += c.red() < 12;
        light += c.red() > 243;
      }
    }
  EXPECT_GT(dark, 20);
  EXPECT_GT(light, 20);
}

TEST_F(RenderView, Orthogonal3DShowsThreePlanes) {
  view_->setAutoGain(false);
  view_->setClip(1.0f);
  // One colour per plane: xy red, xz blue, yz white.
  view_->setSlices(test::makeSlices(kN1, kN2, kN3, 32, 24, 20, [](int plane, int, int) {
    return plane == 0 ? 0.5f : plane == 1 ? -0.5f : 0.0f;
  }));
  view_->setSourceCell(32, 24, 20);
  const QImage image = grab("render_3d_planes");
  int red = 0, blue = 0, white = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      red += isRed(c);
      blue += isBlue(c);
      white += isWhite(c);
    }
  EXPECT_GT(red, 2000);
  EXPECT_GT(blue, 2000);
  EXPECT_GT(white, 2000);
  // The middle of the view is covered by the slices (the background is dark grey).
  int covered = 0, total = 0;
  for (int y = image.height() / 2 - 80; y < image.height() / 2 + 80; y += 4)
    for (int x = image.width() / 2 - 80; x < image.width() / 2 + 80; x += 4, ++total) {
      const QColor c = image.pixelColor(x, y);
      covered += isRed(c) || isBlue(c) || isWhite(c);
    }
  EXPECT_GT(covered, total * 3 / 4);
}

TEST_F(RenderView, EveryModeDrawsTheWavefieldAndTheSourceMarker) {
  const auto isMarker = [](const QColor& c) { return c.green() > 200 && c.red() < 140 && c.blue() < 170; };
  view_->setSlices(test::makeRing(48, 20, 24, 16, 12.0, 1.0));
  view_->setSourceCell(20, 24, 16);
  view_->setHudLines({"gpu-optimized on pthread-haswell (PoCL) \u00b7 step 240 \u00b7 t = 0.480 s",
                      "812 Mpts/s \u00b7 49.5 GFLOP/s \u00b7 60 fps \u00b7 host-copy path"});
  const std::pair<SliceView::Mode, const char*> modes[] = {{SliceView::Mode::Orthogonal3D, "render_ring_3d"},
                                                           {SliceView::Mode::PlaneXY, "render_ring_xy"},
                                                           {SliceView::Mode::PlaneXZ, "render_ring_xz"},
                                                           {SliceView::Mode::PlaneYZ, "render_ring_yz"}};
  for (const auto& [mode, file] : modes) {
    view_->setMode(mode);
    const QImage image = grab(file);
    int marker = 0, red = 0, blue = 0;
    for (int y = 0; y < image.height(); ++y)
      for (int x = 0; x < image.width(); ++x) {
        const QColor c = image.pixelColor(x, y);
        marker += isMarker(c);
        red += isRed(c);
        blue += isBlue(c);
      }
    EXPECT_GT(marker, 10) << file;
    EXPECT_GT(red, 200) << file;
    EXPECT_GT(blue, 100) << file;
  }
  // The velocity overlay in 3D: a layered model with a fast layer below 300 m changes the picture.
  view_->setMode(SliceView::Mode::Orthogonal3D);
  const QImage plain = view_->grabFramebuffer();
  view_->setVelocitySlices(test::makeSlices(48, 48, 48, 20, 24, 16, [](int plane, int, int r) {
    return plane == 0 ? 2000.0f : r < 30 ? 1500.0f + 20.0f * r : 3500.0f;
  }));
  view_->setVelocityOverlay(true);
  EXPECT_NE(grab("render_ring_3d_velocity"), plain);
}

TEST_F(RenderView, ClickInTwoDimensionsPicksTheCellUnderTheCursor) {
  view_->setMode(SliceView::Mode::PlaneXZ);
  view_->setSlices(test::makeSlices(kN1, kN2, kN3, 10, 20, 30, [](int, int, int) { return 0.0f; }));
  grab("render_pick");
  const auto& picks = recordPicks();
  const QRectF r = view_->planeRect();
  const double ppc = r.width() / kN1;
  const QPoint at(int(r.left() + 41.5 * ppc), int(r.top() + 7.5 * ppc));
  click(view_.get(), at);
  ASSERT_EQ(picks.size(), 1u);
  EXPECT_EQ(picks[0][0], 41);  // i: column
  EXPECT_EQ(picks[0][1], 20);  // j: the section's y
  EXPECT_EQ(picks[0][2], 7);   // k: row (depth)
  // Outside the plane: nothing.
  click(view_.get(), QPoint(2, 2));
  EXPECT_EQ(picks.size(), 1u);
}

// What the windowing system delivers goes to the native window the view draws into: it must reach the
// view as its own events do, event filters included (the compare window picks its current viewport so).
TEST_F(RenderView, ClicksOnTheDrawingWindowReachTheViewAndItsEventFilters) {
  view_->setMode(SliceView::Mode::PlaneXZ);
  view_->setSlices(test::makeSlices(kN1, kN2, kN3, 10, 20, 30, [](int, int, int) { return 0.0f; }));
  grab("render_pick_window");
  SliceWindow* window = nullptr;
  for (QWindow* w : QGuiApplication::allWindows())
    if (auto* s = dynamic_cast<SliceWindow*>(w)) window = s;
  ASSERT_NE(window, nullptr);
  struct PressCounter : QObject {
    int presses = 0;
    bool eventFilter(QObject*, QEvent* e) override {
      if (e->type() == QEvent::MouseButtonPress) ++presses;
      return false;
    }
  } filter;
  view_->installEventFilter(&filter);
  const auto& picks = recordPicks();
  const QRectF r = view_->planeRect();
  const double ppc = r.width() / kN1;
  const QPointF at(r.left() + 41.5 * ppc, r.top() + 7.5 * ppc);
  for (QEvent::Type type : {QEvent::MouseButtonPress, QEvent::MouseButtonRelease}) {
    QMouseEvent event(type, at, window->mapToGlobal(at), Qt::LeftButton,
                      type == QEvent::MouseButtonPress ? Qt::LeftButton : Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(window, &event);
  }
  EXPECT_EQ(filter.presses, 1);
  ASSERT_EQ(picks.size(), 1u);
  EXPECT_EQ(picks[0], (std::array<int, 3>{41, 20, 7}));
}

TEST_F(RenderView, ClickInThreeDimensionsPicksACellOnASlice) {
  view_->setSlices(test::makeSlices(kN1, kN2, kN3, 32, 24, 20, [](int, int, int) { return 0.0f; }));
  grab("render_pick_3d");
  const auto& picks = recordPicks();
  click(view_.get(), QPoint(view_->width() / 2, view_->height() / 2));
  ASSERT_EQ(picks.size(), 1u);
  const auto [i, j, k] = picks[0];
  EXPECT_TRUE(i == 32 || j == 24 || k == 20) << i << "," << j << "," << k;
  // A drag orbits instead of picking.
  sendMouse(view_.get(), QEvent::MouseButtonPress, QPoint(300, 200), Qt::LeftButton);
  sendMouse(view_.get(), QEvent::MouseMove, QPoint(360, 230), Qt::LeftButton);
  sendMouse(view_.get(), QEvent::MouseButtonRelease, QPoint(360, 230), Qt::NoButton);
  EXPECT_EQ(picks.size(), 1u);
}

TEST_F(RenderView, AutoGainGivesTheSamePictureForAFieldScaledBy1000) {
  int clipSignals = 0;
  QObject::connect(view_.get(), &SliceView::clipChanged, [&clipSignals](float) { ++clipSignals; });
  QImage pictures[2];
  float clips[2] = {0, 0};
  const double scales[2] = {1.0, 1000.0};
  for (int n = 0; n < 2; ++n) {
    if (n == 1) {  // a fresh view: the same history of fields, only 1000 times larger
      SetUp();
      QObject::connect(view_.get(), &SliceView::clipChanged, [&clipSignals](float) { ++clipSignals; });
    }
    for (int step = 0; step < 30; ++step) view_->setSlices(test::makeRing(48, 24, 24, 24, 6.0 + 0.3 * step, scales[n]));
    clips[n] = view_->clip();
    pictures[n] = grab(n == 0 ? "render_gain_x1" : "render_gain_x1000");
  }
  EXPECT_GT(clipSignals, 0);
  EXPECT_NEAR(clips[1] / clips[0], 1000.0, 0.1);
  ASSERT_EQ(pictures[0].size(), pictures[1].size());
  int differing = 0;
  for (int y = 0; y < pictures[0].height(); ++y)
    for (int x = 0; x < pictures[0].width(); ++x) {
      const QColor a = pictures[0].pixelColor(x, y), b = pictures[1].pixelColor(x, y);
      differing += std::abs(a.red() - b.red()) > 2 || std::abs(a.green() - b.green()) > 2 ||
                   std::abs(a.blue() - b.blue()) > 2;
    }
  // Only the colour bar's tick labels differ (values ×1000).
  EXPECT_LT(differing, pictures[0].width() * pictures[0].height() / 50);
  const QRect field(100, 60, 400, 360);
  for (int y = field.top(); y < field.bottom(); y += 7)
    for (int x = field.left(); x < field.right(); x += 7)
      ASSERT_EQ(pictures[0].pixel(x, y), pictures[1].pixel(x, y)) << x << "," << y;
}

TEST_F(RenderView, VelocityOverlayTintsThePlanesWhenItMatches) {
  view_->setAutoGain(false);
  view_->setClip(1.0f);
  view_->setMode(SliceView::Mode::PlaneXZ);
  const auto zero = test::makeSlices(kN1, kN2, kN3, 10, 20, 30, [](int, int, int) { return 0.0f; });
  view_->setSlices(zero);
  // Layered velocity: slow on top, fast below.
  view_->setVelocitySlices(test::makeSlices(kN1, kN2, kN3, 10, 20, 30, [](int plane, int, int r) {
    return plane == 0 ? 2000.0f : r < 20 ? 1500.0f : 4000.0f;
  }));
  view_->setVelocityOverlay(true, 0.5f);
  const QImage image = grab("render_2d_velocity_overlay");
  const QColor top = cellColour(image, 32, 5, kN1), bottom = cellColour(image, 32, 35, kN1);
  EXPECT_FALSE(isWhite(top)) << name(top);
  EXPECT_LT(top.lightness(), bottom.lightness());  // slow rock darker than fast rock
  // Planes through another point do not match: the overlay is not drawn.
  view_->setVelocitySlices(test::makeSlices(kN1, kN2, kN3, 11, 20, 30, [](int, int, int) { return 1500.0f; }));
  EXPECT_TRUE(isWhite(cellColour(view_->grabFramebuffer(), 32, 5, kN1)));
}

// The model yields to the wave: where u reaches the clip the colour is the colour bar's end, untinted;
// where u is at rest the rock shows.
TEST_F(RenderView, VelocityOverlayLeavesAStrongWaveItsOwnColour) {
  view_->setAutoGain(false);
  view_->setClip(1.0f);
  view_->setMode(SliceView::Mode::PlaneXZ);
  view_->setSlices(test::makeSlices(kN1, kN2, kN3, 10, 20, 30, [](int, int, int r) { return r < 20 ? 1.0f : 0.0f; }));
  const QImage plain = view_->grabFramebuffer();
  // Two layers (a uniform model is left untinted): the wave and the rock at rest lie in the slow one.
  view_->setVelocitySlices(test::makeSlices(kN1, kN2, kN3, 10, 20, 30, [](int, int, int r) { return r < 38 ? 1500.0f : 3000.0f; }));
  view_->setVelocityOverlay(true, 0.5f);
  const QImage tinted = grab("render_2d_velocity_overlay_wave");
  const QColor wave = cellColour(tinted, 32, 5, kN1), waveAlone = cellColour(plain, 32, 5, kN1);
  EXPECT_NEAR(wave.red(), waveAlone.red(), 3) << name(wave) << " against " << name(waveAlone);
  EXPECT_NEAR(wave.green(), waveAlone.green(), 3) << name(wave) << " against " << name(waveAlone);
  EXPECT_NEAR(wave.blue(), waveAlone.blue(), 3) << name(wave) << " against " << name(waveAlone);
  EXPECT_FALSE(isWhite(cellColour(tinted, 32, 35, kN1))) << "the rock shows where the field is at rest";
}

TEST_F(RenderView, InconsistentSlicesAreRefusedAndBadSettingsIgnored) {
  view_->setAutoGain(false);
  view_->setClip(2.0f);
  auto bad = test::makeSlices(kN1, kN2, kN3, 10, 20, 30, [](int, int, int) { return 0.0f; });
  bad->xy = bad->xy.first(5);
  view_->setSlices(bad);
  grab("render_refused");  // must not crash; a message is drawn instead
  view_->setClip(-1.0f);
  view_->setClip(std::numeric_limits<float>::quiet_NaN());
  EXPECT_FLOAT_EQ(view_->clip(), 2.0f);
  view_->setColormap("no-such-map");
  EXPECT_EQ(view_->colormap(), "seismic");
  view_->setAutoGain(true);
  view_->setAutoGain(false);
  EXPECT_FLOAT_EQ(view_->clip(), 2.0f);  // back to the manual range
}

// Planes written into the view's persistently mapped buffers (as the studio's compute thread writes them)
// draw the same picture as the same planes in memory of their own, and the view holds such a set until
// the GL has read it.
TEST_F(RenderView, PlanesInMappedBuffersDrawTheSamePictureAndAreHeldUntilUploaded) {
  const auto ring = test::makeRing(kN1, 20, 24, 30, 12.0, 1.0);
  QString problem;
  auto mapped = view_->mapSliceBuffers(3, ring->planeFloats(), problem);
  ASSERT_TRUE(mapped) << "llvmpipe has OpenGL 4.5: " << problem.toStdString();
  EXPECT_TRUE(mapped->provider.startsWith("OpenGL 4.")) << mapped->provider.toStdString();
  ASSERT_EQ(mapped->memory.size(), 3u);
  view_->setAutoGain(false);
  view_->setClip(0.05f);
  view_->setSlices(ring);
  const QImage owned = grab("render_owned_planes");

  const auto inSlot = [&](int slot, bool& released) {
    float* planes = mapped->memory[std::size_t(slot)];
    for (std::span<const float> plane : {ring->xy, ring->xz, ring->yz}) planes = std::copy(plane.begin(), plane.end(), planes);
    auto s = std::make_shared<SliceSet>(*ring);
    // The lease keeps the buffers' owner, as a ring slot does, and says when it is let go of.
    s->viewPlanes(mapped->memory[std::size_t(slot)],
                  std::shared_ptr<const void>(mapped->memory[std::size_t(slot)],
                                              [owner = mapped->owner, &released](const void*) { released = true; }));
    return s;
  };
  bool firstReleased = false, secondReleased = false;
  auto first = inSlot(0, firstReleased);
  view_->setSlices(first);
  first.reset();
  const QImage fromMapped = grab("render_mapped_planes");
  EXPECT_TRUE(view_->mappedProblem().isEmpty()) << view_->mappedProblem().toStdString();
  EXPECT_EQ(fromMapped, owned) << "the upload from the mapped buffer draws the same picture";
  EXPECT_FALSE(firstReleased) << "shown, so held";

  auto second = inSlot(1, secondReleased);
  view_->setSlices(second);
  second.reset();
  grab("render_mapped_planes_2");  // the paint that uploads the second set finds the first one's fence passed
  EXPECT_TRUE(firstReleased);
  EXPECT_FALSE(secondReleased);
  EXPECT_EQ(view_->slices()->valueAt(20, 24, 30), ring->valueAt(20, 24, 30)) << "read in place from the buffer";

  // The buffers go at the first paint after their owner's last copy has gone.
  mapped.reset();
  view_->setSlices(ring);
  grab("render_owned_again");
  grab("render_owned_again");
  EXPECT_TRUE(secondReleased);
  auto again = view_->mapSliceBuffers(3, ring->planeFloats(), problem);
  EXPECT_TRUE(again) << problem.toStdString();
}

}  // namespace
}  // namespace iso

namespace iso {
namespace {

// Run in a child process (below) under Mesa with OpenGL capped at 3.0: the view must explain, not crash.
TEST(RenderViewOldGl, ShowsAMessageInsteadOfDrawing) {
  if (qEnvironmentVariable("ISO_RENDER_EXPECT_OLD_GL") != "1") GTEST_SKIP() << "runs only as the child of OldGlChild";
  ASSERT_TRUE(test::displayAvailable());
  SliceView view;
  view.resize(640, 400);
  view.show();
  ASSERT_TRUE(waitExposed(&view));
  view.setSlices(test::makeSlices(16, 16, 16, 8, 8, 8, [](int, int, int) { return 1.0f; }));
  view.grabFramebuffer();  // sets up the view's OpenGL and draws a frame
  QApplication::processEvents();  // the message widget is shown from the event loop
  const QImage image = view.grab().toImage();
  test::saveScreenshot(image, "render_old_gl_message");
  EXPECT_FALSE(view.glReady());
  EXPECT_TRUE(view.glInfo().contains("needs OpenGL 3.3")) << view.glInfo().toStdString();
  // The message panel (dark red) is in the middle of the view.
  const QColor middle = image.pixelColor(image.width() / 2, image.height() / 2 - 20);
  EXPECT_GT(middle.red(), middle.blue() + 20) << middle.name().toStdString();
}

TEST(RenderViewOldGl, OldGlChild) {
  if (!test::displayAvailable()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  QProcess child;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("ISO_RENDER_EXPECT_OLD_GL", "1");
  env.insert("MESA_GL_VERSION_OVERRIDE", "3.0");  // Mesa (llvmpipe in CI) then offers no 3.3 context
  child.setProcessEnvironment(env);
  child.setProcessChannelMode(QProcess::MergedChannels);
  child.start(QCoreApplication::applicationFilePath(), {"--gtest_filter=RenderViewOldGl.ShowsAMessageInsteadOfDrawing"});
  ASSERT_TRUE(child.waitForFinished(60000));
  const QString output = QString::fromLocal8Bit(child.readAll());
  if (output.contains("[  SKIPPED ]") && !output.contains("OpenGL 3.0"))
    GTEST_SKIP() << "the GL driver ignores MESA_GL_VERSION_OVERRIDE";
  EXPECT_EQ(child.exitStatus(), QProcess::NormalExit) << output.toStdString();
  EXPECT_EQ(child.exitCode(), 0) << output.toStdString();
  EXPECT_TRUE(output.contains("[  PASSED  ] 1 test")) << output.toStdString();
}

}  // namespace
}  // namespace iso
