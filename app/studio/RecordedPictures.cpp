#include "app/studio/RecordedPictures.h"

#include <QElapsedTimer>

#include "app/controller/SimulationController.h"
#include "render/ImageFramebuffer.h"
#include "render/SliceView.h"

namespace iso {

QString pictureMakerName(PictureMaker maker) {
  switch (maker) {
    case PictureMaker::OpenGl: return QStringLiteral("opengl");
    case PictureMaker::Device: return QStringLiteral("device");
    default: return QStringLiteral("auto");
  }
}

std::shared_ptr<PictureRenderer> pickPictureRenderer(PictureMaker maker, std::shared_ptr<PictureRenderer> device) {
  if (maker == PictureMaker::OpenGl || !device || (maker == PictureMaker::Auto && !device->onGpu())) return nullptr;
  return device;
}

std::shared_ptr<PictureRenderer> RecordedPictures::deviceOf() const {
  if (view_->mode() != SliceView::Mode::Orthogonal3D) return nullptr;
  return pickPictureRenderer(maker_, controller_->pictureRenderer(SimulationController::PictureUse::Recording));
}

std::shared_ptr<PictureRenderer> RecordedPictures::deviceFor(const ImageOptions& options) const {
  // A picture drawn larger than its frame and reduced (a small one) stays OpenGL's.
  return ImageFramebuffer::target(options).pixels == options.size ? deviceOf() : nullptr;
}

void RecordedPictures::prepare(const ImageOptions& options) {
  QString error;  // what fails here fails again at the first picture, which reports it
  if (deviceFor(options)) view_->pictureParts(options, error);
}

QString RecordedPictures::start(const ImageOptions& options) {
  if (std::shared_ptr<PictureRenderer> device = deviceFor(options)) return startOnDevice(std::move(device), options);
  if (QString error = view_->startImage(options); !error.isEmpty()) return error;
  onItsWay_.push_back({nullptr, options.size, options.videoPlanes});
  lastDevice_.reset();
  return {};
}

QString RecordedPictures::startOnDevice(std::shared_ptr<PictureRenderer> device, const ImageOptions& options) {
  QElapsedTimer clock;
  clock.start();
  QString error;
  std::optional<SliceRenderer::PictureParts> parts = view_->pictureParts(options, error);
  if (!parts) return error;
  layersSeconds_ += clock.nsecsElapsed() * 1e-9;
  clock.restart();
  try {
    device->start(parts->picture, std::move(parts->slices), std::move(parts->velocity), std::move(parts->layers),
                  options.videoPlanes ? PicturePixels::VideoPlanes : PicturePixels::Rgba);
  } catch (const std::exception& e) {
    return QStringLiteral("making the picture on %1: %2").arg(QString::fromStdString(device->deviceName()), e.what());
  }
  startSeconds_ += clock.nsecsElapsed() * 1e-9;
  ++started_;
  lastDevice_ = device;
  onItsWay_.push_back({std::move(device), options.size, options.videoPlanes});
  return {};
}

QString RecordedPictures::lastMaker() const {
  if (!lastDevice_) return QStringLiteral("OpenGL");
  const PictureRenderer::Times t = lastDevice_->times();
  const double perPicture = t.pictures > 0 ? 1e6 / double(t.pictures) : 0.0;
  const double perStarted = started_ > 0 ? 1e3 / double(started_) : 0.0;
  return QStringLiteral("OpenCL on %1 (the device's time a picture: kernel %2 µs, read-back %3 µs; the GUI thread's: "
                        "layers %4 ms, start %5 ms)")
      .arg(QString::fromStdString(lastDevice_->deviceName()))
      .arg(t.kernelSeconds * perPicture, 0, 'f', 0)
      .arg(t.readSeconds * perPicture, 0, 'f', 0)
      .arg(layersSeconds_ * perStarted, 0, 'f', 2)
      .arg(startSeconds_ * perStarted, 0, 'f', 2);
}

QString RecordedPictures::collect(const std::function<void(const QImage& image)>& use) {
  if (onItsWay_.empty()) return QStringLiteral("no picture is on its way");
  const OnItsWay oldest = onItsWay_.front();
  onItsWay_.pop_front();
  if (!oldest.device) return view_->collectImage(use);
  const int w = oldest.size.width(), h = oldest.size.height();
  try {
    oldest.device->collect([&](std::span<const std::uint8_t> bytes) {
      const QImage image = oldest.planes ? QImage(bytes.data(), w, h + h / 2, w, QImage::Format_Grayscale8)
                                         : QImage(bytes.data(), w, h, 4 * w, QImage::Format_RGBX8888);
      use(image);
    });
  } catch (const std::exception& e) {
    return QStringLiteral("the picture made on %1: %2").arg(QString::fromStdString(oldest.device->deviceName()), e.what());
  }
  return {};
}

}  // namespace iso
