#include "app/studio/RecordedPictures.h"

#include "app/controller/SimulationController.h"
#include "render/ImageFramebuffer.h"
#include "render/SliceView.h"

namespace iso {

QString RecordedPictures::makerName(Maker maker) {
  switch (maker) {
    case Maker::OpenGl: return QStringLiteral("opengl");
    case Maker::Device: return QStringLiteral("device");
    default: return QStringLiteral("auto");
  }
}

std::shared_ptr<PictureRenderer> RecordedPictures::deviceOf() const {
  if (maker_ == Maker::OpenGl || view_->mode() != SliceView::Mode::Orthogonal3D) return nullptr;
  std::shared_ptr<PictureRenderer> device = controller_->pictureRenderer();
  if (!device || (maker_ == Maker::Auto && !device->onGpu())) return nullptr;
  return device;
}

std::shared_ptr<PictureRenderer> RecordedPictures::deviceFor(const ImageOptions& options) const {
  // A picture drawn larger than its frame and reduced (a small one) stays OpenGL's.
  return ImageFramebuffer::target(options).pixels == options.size ? deviceOf() : nullptr;
}

QString RecordedPictures::start(const ImageOptions& options) {
  if (std::shared_ptr<PictureRenderer> device = deviceFor(options)) return startOnDevice(std::move(device), options);
  if (QString error = view_->startImage(options); !error.isEmpty()) return error;
  onItsWay_.push_back({nullptr, options.size, options.videoPlanes});
  lastMaker_ = QStringLiteral("OpenGL");
  return {};
}

QString RecordedPictures::startOnDevice(std::shared_ptr<PictureRenderer> device, const ImageOptions& options) {
  QString error;
  std::optional<SliceRenderer::PictureParts> parts = view_->pictureParts(options, error);
  if (!parts) return error;
  try {
    device->start(parts->picture, std::move(parts->slices), std::move(parts->velocity), std::move(parts->layers),
                  options.videoPlanes ? PicturePixels::VideoPlanes : PicturePixels::Rgba);
  } catch (const std::exception& e) {
    return QStringLiteral("making the picture on %1: %2").arg(QString::fromStdString(device->deviceName()), e.what());
  }
  lastMaker_ = "OpenCL on " + QString::fromStdString(device->deviceName());
  onItsWay_.push_back({std::move(device), options.size, options.videoPlanes});
  return {};
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
