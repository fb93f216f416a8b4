// Pictures of the 3D slice view made on an OpenCL device (compute/OpenClPictureRenderer.h, picture.cl) against
// the same pictures drawn by OpenGL (SliceRenderer::renderImage): the same slices, camera, range, velocity
// tint, crossings, lines and overlay, pixel for pixel; and the video planes against those of OpenGL's
// picture converted as render/VideoPlanes.h converts it. On the first OpenCL device (PoCL in CI) and the
// display's OpenGL (llvmpipe under xvfb-run).
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <array>
#include <cmath>
#include <set>
#include <vector>
#include <gtest/gtest.h>

#include "compute/DeviceRegistry.h"
#include "compute/OpenClPictureRenderer.h"
#include "render/SliceRenderer.h"
#include "tests/gui/test_render_support.h"

namespace iso {
namespace {

// An odd, non-cubic grid through (23, 19, 14): a spherical wave around a cell off the slice point, a NaN
// on the XY plane, and a velocity model rising with depth and along x.
constexpr int kN1 = 61, kN2 = 47, kN3 = 39;
constexpr std::array<int, 3> kPoint{23, 19, 14};

float wave(int plane, int col, int row) {
  std::array<double, 3> c{double(kPoint[0]), double(kPoint[1]), double(kPoint[2])};
  const int columnAxis = plane == 2 ? 1 : 0, rowAxis = plane == 0 ? 1 : 2;
  c[std::size_t(columnAxis)] = col;
  c[std::size_t(rowAxis)] = row;
  if (plane == 0 && col == 50 && row == 40) return std::nanf("");
  const double r = std::hypot(c[0] - 30.0, c[1] - 22.0, c[2] - 17.0);
  const double a = (r - 14.0) / 3.0;
  return float((1.0 - 2.0 * a * a) * std::exp(-a * a) * 12.0 / std::max(r, 1.0));
}

float velocity(int plane, int col, int row) {
  const int x = plane == 2 ? kPoint[0] : col;
  const int z = plane == 0 ? kPoint[2] : row;
  return float(1500.0 + 60.0 * z + 10.0 * x);
}

// The test's context stays current on its surface.
const std::function<QString()> kCurrent = [] { return QString(); };

struct Difference {
  double mean = 0.0;
  double over3 = 0.0;  // the share of channel values more than 3 levels apart
};

// Over the first `channels` bytes of each pixel of `bytesPerPixel`.
Difference difference(const QImage& a, const QImage& b, int bytesPerPixel, int channels) {
  Difference d;
  double sum = 0.0, over = 0.0, n = 0.0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x)
      for (int c = 0; c < channels; ++c) {
        const int at = x * bytesPerPixel + c;
        const int e = std::abs(int(a.constScanLine(y)[at]) - int(b.constScanLine(y)[at]));
        sum += e, over += e > 3 ? 1.0 : 0.0, n += 1.0;
      }
  d.mean = sum / n;
  d.over3 = over / n;
  return d;
}

class DevicePictures : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::vector<DeviceInfo> devices = listDevices();
    if (devices.empty()) GTEST_SKIP() << "no OpenCL device on this machine";
    ASSERT_EQ(test::makeCurrentCoreContext(surface_, context_), "");
    ASSERT_TRUE(renderer_.initialize(context_)) << renderer_.problem().toStdString();
    renderer_.setGainMode(GainMode::Fixed);
    ASSERT_TRUE(renderer_.setClip(0.4f));
    ASSERT_TRUE(renderer_.setSlices(test::makeSlices(kN1, kN2, kN3, kPoint[0], kPoint[1], kPoint[2], wave)));
    renderer_.setVelocitySlices(test::makeSlices(kN1, kN2, kN3, kPoint[0], kPoint[1], kPoint[2], velocity));
    renderer_.setVelocityOverlay(true, 0.35f);
    clContext_ = std::make_unique<ClContext>(selectDevice(test::testDeviceSelector()));
    device_ = std::make_unique<OpenClPictureRenderer>(*clContext_);
  }

  void TearDown() override {
    device_.reset();
    if (context_.isValid() && context_.makeCurrent(&surface_)) {
      renderer_.release();
      context_.doneCurrent();
    }
  }

  QImage drawnByOpenGl() {
    QString error;
    const QImage image = renderer_.renderImage(options_, 0, error);
    EXPECT_FALSE(image.isNull()) << error.toStdString();
    return image.copy();
  }

  // OpenGL's frame first, so that the textures, quads and overlay are those of a drawn frame too.
  QImage madeOnDevice(PicturePixels pixels) {
    QString error;
    std::optional<SliceRenderer::PictureParts> parts = renderer_.pictureParts(options_, error, kCurrent);
    EXPECT_TRUE(parts) << error.toStdString();
    if (!parts) return {};
    device_->start(parts->picture, parts->slices, parts->velocity, parts->layers, pixels);
    QImage image;
    const int w = options_.size.width(), h = options_.size.height();
    device_->collect([&](std::span<const std::uint8_t> bytes) {
      image = pixels == PicturePixels::Rgba ? QImage(bytes.data(), w, h, 4 * w, QImage::Format_RGBX8888).copy()
                                            : QImage(bytes.data(), w, h + h / 2, w, QImage::Format_Grayscale8).copy();
    });
    return image;
  }

  QOffscreenSurface surface_;
  QOpenGLContext context_;
  SliceRenderer renderer_;
  std::unique_ptr<ClContext> clContext_;
  std::unique_ptr<OpenClPictureRenderer> device_;
  ImageOptions options_{QSize(1280, 720)};
};

TEST_F(DevicePictures, TheDeviceMakesThePictureOpenGlDraws) {
  const QImage gl = drawnByOpenGl();
  const QImage device = madeOnDevice(PicturePixels::Rgba);
  ASSERT_EQ(device.size(), gl.size());
  test::saveScreenshot(gl, "device-pictures-opengl");
  test::saveScreenshot(device, "device-pictures-device");
  // Not a blank picture: the wave's colours, the tint, the lines and the text give thousands of colours.
  std::set<QRgb> colours;
  for (int y = 0; y < gl.height(); y += 2)
    for (int x = 0; x < gl.width(); x += 2) colours.insert(gl.pixel(x, y));
  EXPECT_GT(colours.size(), 2000u);
  const Difference d = difference(gl, device, 4, 3);
  EXPECT_LT(d.mean, 0.05) << "mean absolute difference in levels of 255";
  EXPECT_LT(d.over3, 1e-4) << "share of channel values more than 3 levels apart";
}

// A renderer whose program was built on a thread of its own (as a GPU solver's are) makes the same bytes.
TEST_F(DevicePictures, AProgramBuiltInTheBackgroundMakesTheSamePicture) {
  const QImage atFirstPicture = madeOnDevice(PicturePixels::Rgba);
  device_ = std::make_unique<OpenClPictureRenderer>(*clContext_, OpenClPictureRenderer::Build::InBackground);
  const QImage inBackground = madeOnDevice(PicturePixels::Rgba);
  ASSERT_FALSE(atFirstPicture.isNull());
  EXPECT_EQ(inBackground, atFirstPicture);
  // Destroyed while its build may still be on its way: it waits for it.
  device_ = std::make_unique<OpenClPictureRenderer>(*clContext_, OpenClPictureRenderer::Build::InBackground);
}

TEST_F(DevicePictures, AnotherRangeGivesAnotherPicture) {
  const QImage gl = drawnByOpenGl();
  ASSERT_TRUE(renderer_.setClip(0.1f));
  const QImage device = madeOnDevice(PicturePixels::Rgba);
  EXPECT_GT(difference(gl, device, 4, 3).mean, 2.0) << "the comparison above can tell pictures apart";
}

// The encoder's planes as render/VideoPlanes.h makes them of a picture (BT.709, studio range).
QImage videoPlanesOf(const QImage& rgba) {
  const int w = rgba.width(), h = rgba.height();
  QImage planes(w, h + h / 2, QImage::Format_Grayscale8);
  const auto channel = [&](int x, int y, int c) { return rgba.constScanLine(y)[4 * x + c] / 255.0; };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      planes.scanLine(y)[x] = std::uint8_t(std::lround(16.0 + 219.0 * (0.2126 * channel(x, y, 0) + 0.7152 * channel(x, y, 1) +
                                                                        0.0722 * channel(x, y, 2))));
  for (int by = 0; by < h / 2; ++by)
    for (int bx = 0; bx < w / 2; ++bx) {
      std::array<double, 3> mean{};
      for (int k = 0; k < 4; ++k)
        for (int c = 0; c < 3; ++c) mean[std::size_t(c)] += 0.25 * channel(2 * bx + (k & 1), 2 * by + (k >> 1), c);
      planes.scanLine(h + by)[bx] = std::uint8_t(std::lround(128.0 + 224.0 * (-0.114572 * mean[0] - 0.385428 * mean[1] + 0.5 * mean[2])));
      planes.scanLine(h + by)[w / 2 + bx] =
          std::uint8_t(std::lround(128.0 + 224.0 * (0.5 * mean[0] - 0.454153 * mean[1] - 0.045847 * mean[2])));
    }
  return planes;
}

TEST_F(DevicePictures, TheDevicesVideoPlanesAreThoseOfOpenGlsPicture) {
  const QImage planes = videoPlanesOf(drawnByOpenGl());
  const QImage device = madeOnDevice(PicturePixels::VideoPlanes);
  ASSERT_EQ(device.size(), planes.size());
  const Difference d = difference(planes, device, 1, 1);
  EXPECT_LT(d.mean, 0.05);
  EXPECT_LT(d.over3, 1e-4);
}

TEST_F(DevicePictures, PicturesOnTheirWayComeBackInOrderAndBadOnesAreRefused) {
  QString error;
  std::optional<SliceRenderer::PictureParts> parts = renderer_.pictureParts(options_, error, kCurrent);
  ASSERT_TRUE(parts) << error.toStdString();
  for (int n = 0; n < OpenClPictureRenderer::kSlots; ++n)
    device_->start(parts->picture, parts->slices, parts->velocity, parts->layers, PicturePixels::VideoPlanes);
  EXPECT_THROW(device_->start(parts->picture, parts->slices, parts->velocity, parts->layers, PicturePixels::VideoPlanes),
               std::logic_error);
  std::vector<std::vector<std::uint8_t>> back;
  while (device_->inFlight() > 0)
    device_->collect([&](std::span<const std::uint8_t> bytes) { back.emplace_back(bytes.begin(), bytes.end()); });
  ASSERT_EQ(back.size(), std::size_t(OpenClPictureRenderer::kSlots));
  for (const auto& b : back) EXPECT_EQ(b, back.front());
  SlicePicture odd = parts->picture;
  odd.width = 1279;
  EXPECT_THROW(device_->start(odd, parts->slices, parts->velocity, parts->layers, PicturePixels::VideoPlanes), std::invalid_argument);
  SlicePicture empty = parts->picture;
  empty.clip = empty.rangeLow;
  EXPECT_THROW(device_->start(empty, parts->slices, parts->velocity, parts->layers, PicturePixels::Rgba), std::invalid_argument);
  std::vector<PictureLayer> outside = parts->layers;
  outside.front().x = 10;  // the line layer covers the whole frame: moved, it leaves it
  EXPECT_THROW(device_->start(parts->picture, parts->slices, parts->velocity, outside, PicturePixels::Rgba), std::invalid_argument);
  EXPECT_EQ(device_->inFlight(), 0);
}

TEST_F(DevicePictures, OnlyThe3DSliceViewAtItsOwnSizeIsMadeElsewhere) {
  QString error;
  renderer_.setMode(SliceRenderer::Mode::PlaneXZ);
  EXPECT_FALSE(renderer_.pictureParts(options_, error, kCurrent));
  EXPECT_FALSE(error.isEmpty());
  renderer_.setMode(SliceRenderer::Mode::Orthogonal3D);
  error.clear();
  EXPECT_FALSE(renderer_.pictureParts(ImageOptions{QSize(640, 360)}, error, kCurrent)) << "drawn at twice its size, then reduced";
  EXPECT_FALSE(error.isEmpty());
}

}  // namespace
}  // namespace iso
