#include "app/studio/VolumeFeed.h"

#include <algorithm>
#include <cmath>

#include "app/controller/SimulationController.h"
#include "render/Colormap.h"
#include "render/SliceView.h"

namespace iso {

namespace {

constexpr float kRangeTolerance = 0.02f;  // a colour range this close to the one sent is not sent again

// Whether two views render the same image, but for a colour range within the tolerance.
bool sameImage(const VolumeView& a, const VolumeView& b) {
  return a.worldToClip == b.worldToClip && a.width == b.width && a.height == b.height && a.colormap == b.colormap &&
         a.samplesPerCell == b.samplesPerCell && a.earlyTermination == b.earlyTermination &&
         a.velocityContext == b.velocityContext && a.planeAxis == b.planeAxis && a.planeCell == b.planeCell &&
         std::abs(a.clip - b.clip) <= kRangeTolerance * b.clip;
}

}  // namespace

VolumeFeed::VolumeFeed(SliceView& view, SimulationController& controller) : view_(view), controller_(controller) {}

void VolumeFeed::rebuilt(bool onHostCores) {
  scale_.reset();
  scale_.setBudget(onHostCores ? VolumeImageScale::kHostBudgetSeconds : VolumeImageScale::kDeviceBudgetSeconds);
  update();
}

void VolumeFeed::shown(const SliceSet& frame) {
  if (frame.imageView) {
    scale_.measured(frame.imagePixels(), frame.imageSeconds);
    lastMilliseconds_ = 1e3 * frame.imageSeconds;
  }
  update();
}

void VolumeFeed::preparePictures(const ImageOptions* options) {
  pictures_ = options ? std::optional<ImageOptions>(*options) : std::nullopt;
  update();
}

int VolumeFeed::divisor(std::size_t pixels) {
  if (pictures_) return 1;  // a picture at its own resolution
  const int chosen = view_.volumeSettings().imageScale;
  return chosen > 0 ? chosen : scale_.divisor(pixels);
}

// The pictures' options, null for the window's (no pictures, or pictures of the window's size).
const ImageOptions* VolumeFeed::pictureOptions() const {
  return pictures_ && !pictures_->size.isEmpty() ? &*pictures_ : nullptr;
}

std::shared_ptr<VolumeView> VolumeFeed::wanted() {
  const auto& frame = view_.slices();
  if (view_.mode() != SliceView::Mode::Volume || !frame) return nullptr;
  const SliceRenderer::VolumeCamera camera = view_.volumeCamera(pictureOptions());
  const int divide = divisor(std::size_t(camera.pixels.width()) * std::size_t(camera.pixels.height()));
  auto next = std::make_shared<VolumeView>();
  next->worldToClip = camera.worldToClip;
  next->width = std::clamp(camera.pixels.width() / divide, 1, VolumeView::kMaxImageSide);
  next->height = std::clamp(camera.pixels.height() / divide, 1, VolumeView::kMaxImageSide);
  next->clip = view_.clip();
  if (const ColourTable* table = Colormap::table(view_.colormap())) next->setColormap(*table);
  const VolumeSettings& settings = view_.volumeSettings();
  next->samplesPerCell = settings.samplesPerCell;
  next->earlyTermination = settings.earlyTermination;
  next->velocityContext = settings.velocityContext;
  next->planeAxis = settings.slicePlane;
  const int point[3] = {frame->i, frame->j, frame->k};  // the slice point, as the solver resolved it
  if (settings.slicePlane >= 0 && settings.slicePlane < 3) next->planeCell = point[settings.slicePlane];
  return next;
}

void VolumeFeed::update() {
  std::shared_ptr<VolumeView> next = wanted();
  if (!next) {
    if (sent_) controller_.setVolumeView(nullptr);
    sent_.reset();
    return;
  }
  if (sent_ && sameImage(*next, *sent_)) return;
  sent_ = std::move(next);
  controller_.setVolumeView(sent_);
}

bool VolumeFeed::readyForPictures(const SliceSet& frame) const {
  if (view_.mode() != SliceView::Mode::Volume) return true;
  if (!frame.imageView) return false;
  if (!pictures_) return true;  // the window's pictures show what the window shows
  const SliceRenderer::VolumeCamera camera = view_.volumeCamera(pictureOptions());
  return frame.imageView->worldToClip == camera.worldToClip && frame.imageWidth == camera.pixels.width() &&
         frame.imageHeight == camera.pixels.height();
}

QString VolumeFeed::hudLine(const std::string& device) const {
  if (view_.mode() != SliceView::Mode::Volume) return {};
  const QString on = QString::fromStdString(device);
  const auto& frame = view_.slices();
  if (!frame || !frame->imageView) return QStringLiteral("volume: rendering on %1…").arg(on);
  const SliceRenderer::VolumeCamera window = view_.volumeCamera();
  const int chosen = view_.volumeSettings().imageScale;
  const int divide = std::max(1, int(std::lround(double(window.pixels.width()) / std::max(frame->imageWidth, 1))));
  const QString scale = pictures_ ? QStringLiteral("the picture's size")
                                  : QStringLiteral("1/%1%2").arg(divide).arg(chosen > 0 ? "" : ", automatic");
  return QStringLiteral("volume: %1x%2 (%3) · %4 ms per image on %5")
      .arg(frame->imageWidth)
      .arg(frame->imageHeight)
      .arg(scale)
      .arg(lastMilliseconds_, 0, 'f', 1)
      .arg(on);
}

}  // namespace iso
