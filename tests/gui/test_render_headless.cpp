// SliceRenderer without a widget: a QOffscreenSurface and a QOpenGLContext (3.3 core) made here, as a
// program on a machine without a window to show (a GPU server) would make them, and pictures of known
// slices drawn through the renderer alone, checked pixel by pixel. Needs a display with OpenGL
// (xvfb-run, see test_render_main.cpp).
#include <QApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <algorithm>
#include <cmath>
#include <vector>
#include <gtest/gtest.h>

#include "render/SliceRenderer.h"
#include "tests/gui/test_render_support.h"

namespace iso {
namespace {

const QColor kBackground(30, 31, 34);

// A 24 x 16 x 12 grid through (5, 9, 3). The XY plane, which the 2D tests draw: +1 in its top-left
// quarter, -1 in its top-right one, 0 in the bottom half but a NaN at column 20, row 12. The other
// planes are 0.5 (XZ) and -0.5 (YZ).
constexpr int kN1 = 24, kN2 = 16, kN3 = 12;
float knownValue(int plane, int col, int row) {
  if (plane == 1) return 0.5f;
  if (plane == 2) return -0.5f;
  if (col == 20 && row == 12) return std::nanf("");
  if (row >= kN2 / 2) return 0.0f;
  return col < kN1 / 2 ? 1.0f : -1.0f;
}

int colourDistance(const QColor& a, const QColor& b) {
  return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
}

class RenderHeadless : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::displayAvailable()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
    ASSERT_TRUE(QApplication::allWidgets().isEmpty()) << "this test proves that no widget is needed";
    ASSERT_EQ(test::makeCurrentCoreContext(surface_, context_), "");
    ASSERT_TRUE(renderer_.initialize(context_)) << renderer_.problem().toStdString();
    renderer_.setColormap("seismic");
    renderer_.setGainMode(GainMode::Fixed);
    ASSERT_TRUE(renderer_.setClip(1.0f));
    ASSERT_TRUE(renderer_.setSlices(test::makeSlices(kN1, kN2, kN3, 5, 9, 3, knownValue)));
  }

  void TearDown() override {
    if (context_.isValid() && context_.makeCurrent(&surface_)) {
      renderer_.release();
      context_.doneCurrent();
    }
    EXPECT_TRUE(QApplication::allWidgets().isEmpty()) << "drawn without any widget";
  }

  QImage render(const ImageOptions& options, const char* screenshot) {
    QString error;
    const QImage image = renderer_.renderImage(options, 0, error);
    EXPECT_FALSE(image.isNull()) << error.toStdString();
    EXPECT_EQ(image.size(), options.size);
    if (!image.isNull()) test::saveScreenshot(image, screenshot);
    return image;
  }

  // What a picture of `options` is laid out as (ImageOptions at scale 1: the image's own pixels).
  static FrameTarget targetOf(const ImageOptions& options) {
    FrameTarget target = FrameTarget::window(QSizeF(options.size), options.size, 1.0);
    target.hud = options.hud, target.colourBar = options.colourBar, target.labels = options.labels;
    target.onScreen = false;
    return target;
  }

  QOffscreenSurface surface_;
  QOpenGLContext context_;
  SliceRenderer renderer_;
};

TEST_F(RenderHeadless, APlaneIsDrawnCellByCellInItsColours) {
  renderer_.setMode(SliceRenderer::Mode::PlaneXY);
  const ImageOptions bare{QSize(480, 360), 1.0, false, false, false};
  const QImage image = render(bare, "headless_xy");
  const PlaneLayout layout = renderer_.planeLayout(targetOf(bare));
  ASSERT_EQ(layout.columns, kN1);
  ASSERT_EQ(layout.rows, kN2);
  EXPECT_EQ(layout.pixelsPerCell, std::floor(layout.pixelsPerCell)) << "magnified by whole pixels per cell";
  const ColourTable& seismic = *Colormap::table("seismic");
  const auto expected = [&](float u) {
    if (std::isnan(u)) return QColor(255, 0, 255);
    return Colormap::colourAt(seismic, 0.5 + 0.5 * double(u));
  };
  for (int row = 0; row < kN2; ++row)
    for (int col = 0; col < kN1; ++col) {
      const QPointF centre = layout.centreOf(col, row);
      const QColor got = image.pixelColor(int(centre.x()), int(centre.y()));
      const QColor want = expected(knownValue(0, col, row));
      ASSERT_LE(colourDistance(got, want), 6) << "cell (" << col << ", " << row << "): got " << got.name().toStdString()
                                              << ", expected " << want.name().toStdString();
    }
  // Around the plane: the background, nothing else (no HUD, colour bar or labels asked for).
  const QRect plane = layout.rect.toAlignedRect();
  for (const QPoint p : {QPoint(2, 2), QPoint(image.width() - 3, image.height() - 3), QPoint(plane.left() - 3, plane.center().y()),
                         QPoint(plane.right() + 3, plane.center().y()), QPoint(plane.center().x(), plane.bottom() + 3)})
    EXPECT_EQ(image.pixelColor(p), kBackground) << p.x() << ", " << p.y();
}

TEST_F(RenderHeadless, ThePerspectiveViewShowsTheSlicesAndFollowsTheCamera) {
  renderer_.setMode(SliceRenderer::Mode::Orthogonal3D);
  const ImageOptions options{QSize(640, 400), 1.0, false, false, true};
  const QImage image = render(options, "headless_3d");
  // The XZ slice (+0.5: light red) and the YZ slice (-0.5: light blue) face the default viewpoint.
  const ColourTable& seismic = *Colormap::table("seismic");
  const QColor xz = Colormap::colourAt(seismic, 0.75), yz = Colormap::colourAt(seismic, 0.25);
  int nearXz = 0, nearYz = 0;
  for (int y = 0; y < image.height(); y += 2)
    for (int x = 0; x < image.width(); x += 2) {
      nearXz += colourDistance(image.pixelColor(x, y), xz) <= 6;
      nearYz += colourDistance(image.pixelColor(x, y), yz) <= 6;
    }
  EXPECT_GT(nearXz, 1000) << "the XZ slice";
  EXPECT_GT(nearYz, 1000) << "the YZ slice";
  EXPECT_EQ(image.pixelColor(2, 2), kBackground);
  renderer_.camera().camera().orbit(120.0f, 0.0f);
  EXPECT_NE(render(options, "headless_3d_orbited"), image) << "the camera moved, the picture did not";
}

// A GPU's view draws with 4 samples per pixel: its pictures are resolved on the GPU and read back the
// same way up as those drawn without samples (Mesa's software rasterizer draws with none, so this is
// the test of that path here).
TEST_F(RenderHeadless, AMultisampledPictureIsTheSamePictureTheSameWayUp) {
  renderer_.setMode(SliceRenderer::Mode::PlaneXY);
  const ImageOptions options{QSize(480, 360), 1.0, true, true, true};
  renderer_.decorations().setHudLines({"step 0 · headless"});
  const QImage single = render(options, "headless_single_sample");
  QString error;
  const QImage multi = renderer_.renderImage(options, 4, error);
  ASSERT_FALSE(multi.isNull()) << error.toStdString();
  test::saveScreenshot(multi, "headless_four_samples");
  ASSERT_EQ(multi.size(), single.size());
  EXPECT_EQ(multi.format(), QImage::Format_RGBX8888);
  long differing = 0;
  for (int y = 0; y < multi.height(); ++y)
    for (int x = 0; x < multi.width(); ++x) differing += colourDistance(multi.pixelColor(x, y), single.pixelColor(x, y)) > 24;
  // Only the edges of lines and glyphs may differ (anti-aliasing); a flipped picture differs almost everywhere.
  EXPECT_LT(differing, multi.width() * multi.height() / 50) << "the same picture, the same way up";
}

// Without multisampling (Mesa's software rasterizer, or a picture asked for without anti-aliasing) the
// 3D lines are still smooth: each is a band shaded by the share of each pixel it covers. Down each
// column, the topmost thing drawn is the box's far upper edge, a sloping line: drawn as one jagged pixel
// it would be the same colour in every column; smooth, its strength changes along it as the line moves
// across pixel rows, while what a column holds of it in all stays about one pixel's worth.
TEST_F(RenderHeadless, TheBoxsLinesAreSmoothWithOneSamplePerPixel) {
  renderer_.setMode(SliceRenderer::Mode::Orthogonal3D);
  const QImage image = render({QSize(640, 400), 1.0, false, false, false}, "headless_3d_lines");
  std::vector<int> first, total;  // per column: the topmost drawn pixel's strength, the line's in all
  for (int x = image.width() * 3 / 10; x < image.width() * 7 / 10; ++x) {
    int y = 0;
    while (y < image.height() && colourDistance(image.pixelColor(x, y), kBackground) <= 6) ++y;
    if (y + 3 >= image.height()) continue;
    first.push_back(colourDistance(image.pixelColor(x, y), kBackground));
    int sum = 0;
    for (int d = 0; d < 3; ++d) sum += colourDistance(image.pixelColor(x, y + d), kBackground);
    total.push_back(sum);
  }
  ASSERT_GT(first.size(), 100u) << "the box's upper edges across the middle of the picture";
  const auto [weakest, strongest] = std::minmax_element(first.begin(), first.end());
  EXPECT_GT(*strongest, 3 * *weakest) << "the line's strength does not follow its coverage: a jagged line";
  std::sort(total.begin(), total.end());
  const int typical = total[total.size() / 2];
  EXPECT_LT(total[total.size() / 10], typical * 2) << "most columns hold one line's worth";
  EXPECT_GT(total[total.size() / 10], typical / 2);
}

// Where two slices cross, the depth test picks one per pixel: without multisampling a staircase of
// whole pixels. The slice in front mixes in the other's colour by the share of the pixel beyond the
// crossing, so pixels between the two colours appear along it. Here the XZ slice (+0.5, light red) and
// the YZ slice (−0.5, light blue) meet along a vertical line in the middle of the picture.
TEST_F(RenderHeadless, CrossingSlicesBlendAlongTheirCrossingWithOneSamplePerPixel) {
  renderer_.setMode(SliceRenderer::Mode::Orthogonal3D);
  const QImage image = render({QSize(640, 400), 1.0, false, false, false}, "headless_3d_crossing");
  const ColourTable& seismic = *Colormap::table("seismic");
  const QColor xz = Colormap::colourAt(seismic, 0.75), yz = Colormap::colourAt(seismic, 0.25);
  int rows = 0, blended = 0;
  for (int y = image.height() / 2; y < image.height() * 3 / 4; ++y) {
    // Along the row, each pixel next to a pixel of the other slice: one slice's colour, or between them.
    for (int x = 1; x < image.width(); ++x) {
      const QColor left = image.pixelColor(x - 1, y), right = image.pixelColor(x, y);
      const bool xzThenYz = colourDistance(left, xz) <= 6 && colourDistance(image.pixelColor(x + 1, y), yz) <= 6;
      const bool yzThenXz = colourDistance(left, yz) <= 6 && colourDistance(image.pixelColor(x + 1, y), xz) <= 6;
      if (!xzThenYz && !yzThenXz) continue;
      ++rows;
      blended += colourDistance(right, xz) > 12 && colourDistance(right, yz) > 12;
    }
  }
  ASSERT_GT(rows, 20) << "rows where the two slices meet";
  EXPECT_GT(blended, rows / 2) << "the crossing is a staircase of whole pixels";
}

TEST_F(RenderHeadless, DecorationsAreDrawnOnlyWhereAsked) {
  renderer_.setMode(SliceRenderer::Mode::PlaneXY);
  renderer_.decorations().setHudLines({"step 0 · headless"});
  const QSize size(480, 360);
  const QImage bare = render({size, 1.0, false, false, false}, "headless_xy_bare");
  const QImage dressed = render({size, 1.0, true, true, true}, "headless_xy_dressed");
  const auto differing = [&](const QRect& area) {
    int count = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
      for (int x = area.left(); x <= area.right(); ++x) count += bare.pixelColor(x, y) != dressed.pixelColor(x, y);
    return count;
  };
  const QRect hud(8, 8, 150, 20), colourBar(size.width() - 100, 100, 90, 150);
  EXPECT_GT(differing(hud), 300) << "the HUD's line";
  EXPECT_GT(differing(colourBar), 3000) << "the colour bar";
}

TEST_F(RenderHeadless, PlanesInMappedBuffersAreUploadedFromThemAndHeldUntilRead) {
  renderer_.setMode(SliceRenderer::Mode::PlaneXY);
  const ImageOptions options{QSize(480, 360), 1.0, false, false, false};
  const QImage owned = render(options, "headless_owned");
  const auto known = renderer_.slices();
  const std::size_t floats = known->planeFloats();
  QString problem;
  auto mapping = renderer_.mapBuffers(2, floats * sizeof(float), problem);
  if (!mapping) GTEST_SKIP() << "no mapped buffers here: " << problem.toStdString();
  auto* planes = static_cast<float*>(mapping->memory[0]);
  std::copy(known->planes().begin(), known->planes().end(), planes);
  bool released = false;
  auto inBuffer = std::make_shared<SliceSet>(*known);
  inBuffer->viewPlanes(planes, std::shared_ptr<const void>(planes, [owner = mapping->owner, &released](const void*) {
                         released = true;
                       }));
  ASSERT_TRUE(renderer_.setSlices(inBuffer));
  inBuffer.reset();
  EXPECT_EQ(render(options, "headless_mapped"), owned) << "the upload from the mapped buffer draws the same picture";
  EXPECT_TRUE(renderer_.mappedProblem().isEmpty()) << renderer_.mappedProblem().toStdString();
  EXPECT_FALSE(released) << "shown, so held";
  ASSERT_TRUE(renderer_.setSlices(known));
  render(options, "headless_owned_again");  // its frame finds the mapped upload's fence passed
  EXPECT_TRUE(released) << "let go of once the GL has read it";
}

// The volume view draws the image its slices carry over the 3D scene (rows top down, premultiplied
// alpha over the background), with the camera volumeCamera gave for the picture.
TEST_F(RenderHeadless, TheVolumeImageFillsTheSceneItWasRenderedFor) {
  renderer_.setMode(SliceRenderer::Mode::Volume);
  const ImageOptions options{QSize(640, 400), 1.0, false, false, false};
  const SliceRenderer::VolumeCamera camera = renderer_.volumeCamera(targetOf(options));
  ASSERT_EQ(camera.pixels, options.size) << "without a colour bar the scene is the whole picture";
  // Opaque red in the top half, half-transparent green below (premultiplied: 128 of green, alpha 128).
  auto withImage = std::make_shared<SliceSet>(*renderer_.slices());
  withImage->imageWidth = camera.pixels.width(), withImage->imageHeight = camera.pixels.height();
  float* memory = withImage->ownPlanes();
  std::copy(renderer_.slices()->planes().begin(), renderer_.slices()->planes().end(), memory);
  std::uint32_t* image = withImage->ownImage();
  for (int y = 0; y < withImage->imageHeight; ++y)
    std::fill_n(image + std::size_t(y) * withImage->imageWidth, withImage->imageWidth,
                y < withImage->imageHeight / 2 ? 0xFF0000FFu : 0x80008000u);
  ASSERT_TRUE(renderer_.setSlices(withImage));
  const QImage picture = render(options, "headless_volume");
  const QColor red(255, 0, 0), green(kBackground.red() / 2, 128 + kBackground.green() / 2, kBackground.blue() / 2);
  int reds = 0, greens = 0;
  for (int y = 0; y < picture.height(); y += 4)
    for (int x = 0; x < picture.width(); x += 4) {
      const QColor got = picture.pixelColor(x, y);
      reds += y < picture.height() / 2 - 2 && colourDistance(got, red) <= 6;
      greens += y > picture.height() / 2 + 2 && colourDistance(got, green) <= 6;
    }
  const int quarter = picture.width() * picture.height() / 32;  // of the samples, one in 16 pixels
  EXPECT_GT(reds, quarter * 9 / 10) << "the image's top rows at the top, opaque";
  EXPECT_GT(greens, quarter * 9 / 10) << "its bottom rows at the bottom, blended over the background";
  // The box is drawn over the image with the camera the image was rendered for.
  const OrbitCamera& drawn = renderer_.camera().camera();
  EXPECT_EQ(camera.worldToClip, drawn.projection(640.0f / 400.0f) * drawn.view());
  EXPECT_LT(reds + greens, picture.width() * picture.height() / 16) << "the box's lines cross the image";
}

}  // namespace
}  // namespace iso
