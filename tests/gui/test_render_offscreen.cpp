// SliceView::renderImage: the view drawn into a framebuffer object at a chosen size, with or without
// the HUD, and its refusals. Needs a display with OpenGL (xvfb-run, see test_render_view.cpp).
#include <QApplication>
#include <QBuffer>
#include <QElapsedTimer>
#include <QImageReader>
#include <QWindow>
#include <algorithm>
#include <functional>
#include <gtest/gtest.h>

#include "render/SliceView.h"
#include "tests/gui/test_painted_text.h"
#include "tests/gui/test_render_support.h"

namespace iso {
namespace {

class RenderOffscreen : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::displayAvailable()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
    view_ = std::make_unique<SliceView>();
    view_->resize(640, 400);
    view_->show();
    QElapsedTimer timer;
    timer.start();
    while (!(view_->windowHandle() && view_->windowHandle()->isExposed()) && timer.elapsed() < 5000)
      QApplication::processEvents(QEventLoop::AllEvents, 50);
    view_->grabFramebuffer();  // initialises GL
    ASSERT_TRUE(view_->glReady()) << view_->glInfo().toStdString();
    view_->setGridSpacing(10.0);
    view_->setSlices(test::makeRing(48, 20, 24, 16, 12.0, 1.0));
    view_->setSourceCell(20, 24, 16);
    view_->setHudLines({"step 240 \u00b7 t = 0.480 s \u00b7 dt = 2.0000 ms \u00b7 playing",
                        "812 Mpts/s \u00b7 49.5 GFLOP/s \u00b7 60 fps", "cpu-parallel \u00b7 48\u00d748\u00d748"});
  }

  QImage render(const ImageOptions& options) {
    QString error;
    QImage image = view_->renderImage(options, error);
    EXPECT_FALSE(image.isNull()) << error.toStdString();
    EXPECT_TRUE(error.isEmpty()) << error.toStdString();
    return image;
  }

  std::unique_ptr<SliceView> view_;
};

// Pixels that differ from the view's background colour (30, 31, 34): text, panels, bars, slices.
int countNotBackground(const QImage& image, const QRect& area) {
  int count = 0;
  for (int y = area.top(); y <= area.bottom(); ++y)
    for (int x = area.left(); x <= area.right(); ++x) {
      const QColor c = image.pixelColor(x, y);
      count += std::abs(c.red() - 30) + std::abs(c.green() - 31) + std::abs(c.blue() - 34) > 6;
    }
  return count;
}

// Red (positive) and blue (negative) pixels of the seismic colormap.
std::pair<int, int> countSigns(const QImage& image) {
  int red = 0, blue = 0;
  for (int y = 0; y < image.height(); y += 2)
    for (int x = 0; x < image.width(); x += 2) {
      const QColor c = image.pixelColor(x, y);
      red += c.red() > 180 && c.green() < 120 && c.blue() < 120;
      blue += c.blue() > 180 && c.red() < 120 && c.green() < 120;
    }
  return {red, blue};
}

TEST_F(RenderOffscreen, AtTheWindowsSizeItMatchesWhatTheWindowDraws) {
  // Same size, scale 1: the image must be the window's own frame (one drawing code, not a copy): the
  // frame drawn into the native window's back buffer, read back.
  for (SliceView::Mode mode : {SliceView::Mode::Orthogonal3D, SliceView::Mode::PlaneXZ}) {
    view_->setMode(mode);
    const QImage window = view_->grabWindowFrame().convertToFormat(QImage::Format_RGB32);
    ASSERT_EQ(window.size(), view_->size()) << "the window drew no frame";
    test::saveScreenshot(window, mode == SliceView::Mode::PlaneXZ ? "render_window_frame_xz" : "render_window_frame_3d");
    const QImage image = render({window.size(), 1.0, true, true, true});
    ASSERT_EQ(image.size(), window.size());
    // The 3D view's mouse hint, two lines at the bottom, is drawn on screen only.
    const int compared = mode == SliceView::Mode::Orthogonal3D ? image.height() - 44 : image.height();
    long differing = 0;
    for (int y = 0; y < compared; ++y)
      for (int x = 0; x < image.width(); ++x) {
        const QColor a = image.pixelColor(x, y), b = window.pixelColor(x, y);
        differing += std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) > 24;
      }
    EXPECT_LT(differing, image.width() * image.height() / 200) << "mode " << int(mode);
  }
}

TEST_F(RenderOffscreen, A4KImageHasThatSizeAndShowsTheWave) {
  for (SliceView::Mode mode : {SliceView::Mode::Orthogonal3D, SliceView::Mode::PlaneXY}) {
    view_->setMode(mode);
    const QImage image = render({QSize(3840, 2160)});
    test::saveScreenshot(image, mode == SliceView::Mode::PlaneXY ? "offscreen_4k_xy" : "offscreen_4k_3d");
    // Through PNG and back, as a user gets it.
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    ASSERT_TRUE(image.save(&buffer, "PNG"));
    buffer.close();
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer, "PNG");
    const QImage decoded = reader.read();
    ASSERT_EQ(decoded.size(), QSize(3840, 2160));
    const auto [red, blue] = countSigns(decoded);
    // The ring covers a good part of the picture at 4K: thousands of each sign, not a scaled thumbnail.
    EXPECT_GT(red, 5000);
    EXPECT_GT(blue, 5000);
  }
}

TEST_F(RenderOffscreen, WithoutTheHudTheHudsCornerIsEmpty) {
  // 3D: the scene's layout does not depend on the HUD, so the corner holds the HUD or background only.
  view_->setMode(SliceView::Mode::Orthogonal3D);
  const QSize size(1920, 1080);
  const QImage with = render({size, 0.0, true, true, true});
  const QImage without = render({size, 0.0, false, true, true});
  test::saveScreenshot(without, "offscreen_1080p_no_hud");
  // Inside the HUD panel: three lines at the top left, at 1.5x scale for 1080p.
  const QRect hud(15, 15, 400, 75);
  const int panelWith = countNotBackground(with, hud), panelWithout = countNotBackground(without, hud);
  EXPECT_GT(panelWith, hud.width() * hud.height() / 2) << "the HUD panel is missing from the image with HUD";
  EXPECT_LT(panelWithout, hud.width() * hud.height() / 100) << "something left in the HUD's corner without HUD";
  // Both still show the wave and the colour bar (on the right).
  EXPECT_GT(countSigns(without).first, 1000);
  const QRect bar(size.width() - 170, 200, 170, 600);
  EXPECT_GT(countNotBackground(without, bar), 20000);
  // Without the colour bar that column is background.
  const QImage bare = render({size, 0.0, false, false, true});
  EXPECT_LT(countNotBackground(bare, bar), countNotBackground(without, bar) / 20);
}

TEST_F(RenderOffscreen, TheScreenNoticeIsPaintedOnScreenAndLeftOutOfPictures) {
  const QString notice = "recording: 12 frames \u00b7 run waiting for the encoder";
  for (SliceView::Mode mode : {SliceView::Mode::Orthogonal3D, SliceView::Mode::PlaneXY}) {
    view_->setMode(mode);
    const ImageOptions options{QSize(640, 400), 1.0, true, true, true};
    view_->setScreenNotice({});
    const QImage before = render(options);
    view_->setScreenNotice(notice);
    const QImage after = render(options);
    EXPECT_EQ(before, after) << "mode " << int(mode) << ": the notice reached the picture";
    // On screen it is the HUD's last line.
    const std::vector<test::PaintedText> texts = test::paintedTexts(*view_);
    EXPECT_TRUE(std::any_of(texts.begin(), texts.end(), [&](const test::PaintedText& t) { return t.text == notice; }))
        << "mode " << int(mode) << ": the notice is not painted on screen";
  }
  view_->setScreenNotice({});
  const std::vector<test::PaintedText> texts = test::paintedTexts(*view_);
  EXPECT_TRUE(std::none_of(texts.begin(), texts.end(), [&](const test::PaintedText& t) { return t.text == notice; }));
}

// The overlay keeps each panel (marks, colour bars, HUD, notices) until what it paints changes: one thing
// changed, the picture is the one drawn with every panel painted afresh (after a picture of another
// size); changed back, it is the picture from before.
TEST_F(RenderOffscreen, PanelsKeptFromEarlierPicturesLeaveNothingBehind) {
  const ImageOptions picture{QSize(1280, 720), 0.0, true, true, true};
  view_->setGainMode(GainMode::Fixed);
  view_->setClip(0.05f);
  const QImage expected = render(picture);
  const QStringList lines = view_->hudLines();
  OrbitCamera turned = view_->camera();
  turned.orbit(120.0f, -40.0f);
  const struct {
    const char* what;
    std::function<void()> change, undo;
  } changes[] = {
      {"range", [&] { view_->setClip(30.0f); }, [&] { view_->setClip(0.05f); }},
      {"HUD lines", [&] { view_->setHudLines({"a much longer first line than any of the others", "2", "3", "4"}); },
       [&] { view_->setHudLines(lines); }},
      {"view", [&] { view_->setMode(SliceView::Mode::PlaneXZ); }, [&] { view_->setMode(SliceView::Mode::Orthogonal3D); }},
      {"camera", [&] { view_->setCamera(turned); }, [&] { view_->resetCamera(); }},
      {"receivers", [&] { view_->setReceivers({{4, 24, 16}, {40, 24, 16}}); }, [&] { view_->setReceivers({}); }},
      {"source", [&] { view_->setSourceCell(10, 10, 10); }, [&] { view_->setSourceCell(20, 24, 16); }},
  };
  for (const auto& c : changes) {
    c.change();
    const QImage kept = render(picture);  // the panels of the picture before, where their keys match
    render({QSize(800, 600), 0.0, false, false, true});
    EXPECT_EQ(kept, render(picture)) << "another " << c.what << " against every panel painted afresh";
    c.undo();
    EXPECT_EQ(render(picture), expected) << "after a picture with another " << c.what;
  }
}

TEST_F(RenderOffscreen, RefusesSizesOutOfRangeWithAClearError) {
  for (const QSize size : {QSize(0, 0), QSize(-5, 100), QSize(100, 0), QSize(3841, 2160), QSize(3840, 2161),
                           QSize(100000, 100000)}) {
    QString error;
    const QImage image = view_->renderImage({size}, error);
    EXPECT_TRUE(image.isNull());
    EXPECT_NE(error.indexOf("out of range"), -1) << error.toStdString();
    EXPECT_NE(error.indexOf("3840x2160"), -1) << error.toStdString();
  }
  QString error;
  EXPECT_TRUE(view_->renderImage({QSize(640, 360), -1.0}, error).isNull());
  EXPECT_NE(error.indexOf("scale"), -1) << error.toStdString();
  // The view still draws afterwards.
  EXPECT_FALSE(render({QSize(64, 36)}).isNull());
}

// A stream of pictures read back a picture late: each comes out in the order started, the same pixels as
// the picture drawn at once; one started past the read-back slots drops the oldest; a refused size
// starts nothing; collecting with nothing started is an error.
TEST_F(RenderOffscreen, PicturesReadBackLateComeInOrderAndMatchThoseReadAtOnce) {
  const ImageOptions first{QSize(320, 200)}, second{QSize(200, 150), 0.0, true, false, true};
  const QImage expected[2] = {render(first), render(second)};
  std::vector<QImage> collected;
  const auto keep = [&](const QImage& image) { collected.push_back(image.copy()); };
  ASSERT_EQ(view_->startImage(first).toStdString(), "");
  ASSERT_EQ(view_->startImage(second).toStdString(), "");
  EXPECT_NE(view_->startImage({QSize(0, 10)}).indexOf("out of range"), -1);
  EXPECT_EQ(view_->collectImage(keep).toStdString(), "");
  EXPECT_EQ(view_->collectImage(keep).toStdString(), "");
  ASSERT_EQ(collected.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(collected[std::size_t(i)].size(), expected[i].size());
    EXPECT_EQ(collected[std::size_t(i)].convertToFormat(QImage::Format_RGBX8888), expected[i]) << "picture " << i;
  }
  EXPECT_NE(view_->collectImage(keep).indexOf("no picture"), -1) << "nothing is pending any more";

  collected.clear();
  for (int i = 0; i < ImageFramebuffer::kReadSlots + 1; ++i)
    ASSERT_EQ(view_->startImage(i == 0 ? second : first).toStdString(), "");
  while (view_->collectImage(keep).isEmpty()) {}
  ASSERT_EQ(collected.size(), std::size_t(ImageFramebuffer::kReadSlots));
  EXPECT_EQ(collected.front().size(), first.size) << "the oldest (the second size) was dropped";
}

namespace {

// The worst difference, in levels, between a video's planes and BT.709 studio range computed here from
// the RGBA picture: luma per pixel (first), Cb and Cr per 2 × 2 block, the mean of its four pixels.
std::pair<int, int> planesAgainstBt709(const QImage& planes, const QImage& rgba) {
  const int w = rgba.width(), h = rgba.height();
  const auto channel = [&](int x, int y, int c) { return double(rgba.constScanLine(y)[4 * x + c]) / 255.0; };
  const auto weighted = [&](int x, int y, const double (&k)[3]) {
    return k[0] * channel(x, y, 0) + k[1] * channel(x, y, 1) + k[2] * channel(x, y, 2);
  };
  const double luma[3] = {0.2126, 0.7152, 0.0722}, cb[3] = {-0.114572, -0.385428, 0.5}, cr[3] = {0.5, -0.454153, -0.045847};
  std::pair<int, int> worst{0, 0};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      worst.first = std::max(worst.first, std::abs(planes.constScanLine(y)[x] - int(std::lround(16.0 + 219.0 * weighted(x, y, luma)))));
  for (int r = 0; r < h / 2; ++r)
    for (int c = 0; c < w / 2; ++c) {
      double mean[2] = {0.0, 0.0};
      for (int d = 0; d < 4; ++d) {
        mean[0] += weighted(2 * c + d % 2, 2 * r + d / 2, cb) / 4.0;
        mean[1] += weighted(2 * c + d % 2, 2 * r + d / 2, cr) / 4.0;
      }
      const uchar* row = planes.constScanLine(h + r);
      worst.second = std::max({worst.second, std::abs(row[c] - int(std::lround(128.0 + 224.0 * mean[0]))),
                               std::abs(row[w / 2 + c] - int(std::lround(128.0 + 224.0 * mean[1])))});
    }
  return worst;
}

}  // namespace

// A video's planes converted on the GPU hold the picture drawn as RGBA, in BT.709 studio range, within a
// level (at its own scale, and drawn at twice the size and reduced: a small picture's text stays legible);
// a size with an odd side is refused before anything is drawn.
TEST_F(RenderOffscreen, VideoPlanesHoldThePictureInBt709StudioRange) {
  const int w = 322, h = 182;  // even, not multiples of 4: rows of the planes packed tight
  for (const double scale : {1.0, 0.0}) {
    ImageOptions rgbaOptions{QSize(w, h), scale};
    ImageOptions planesOptions = rgbaOptions;
    planesOptions.videoPlanes = true;
    const QImage rgba = render(rgbaOptions).convertToFormat(QImage::Format_RGBX8888);
    QImage planes;
    ASSERT_EQ(view_->startImage(planesOptions).toStdString(), "");
    ASSERT_EQ(view_->collectImage([&](const QImage& image) { planes = image.copy(); }).toStdString(), "");
    ASSERT_EQ(planes.format(), QImage::Format_Grayscale8);
    ASSERT_EQ(planes.size(), QSize(w, h + h / 2));
    const auto [luma, chroma] = planesAgainstBt709(planes, rgba);
    EXPECT_LE(luma, 1) << "scale " << scale;
    EXPECT_LE(chroma, 1) << "scale " << scale;
  }
  ImageOptions odd{QSize(321, 180)};
  odd.videoPlanes = true;
  EXPECT_NE(view_->startImage(odd).indexOf("even width and height"), -1);
}

}  // namespace
}  // namespace iso
