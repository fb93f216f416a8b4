#include "app/controller/VolumeImageScale.h"

#include <algorithm>

namespace iso {

namespace {
constexpr double kSmoothing = 0.3;    // weight of the newest image in the time per pixel
constexpr double kCoarserAbove = 1.2;  // the predicted time that makes the image coarser, × budget
constexpr double kFinerBelow = 0.7;    // ... and the one that lets the next finer divisor in, × budget
}  // namespace

void VolumeImageScale::measured(std::size_t pixels, double seconds) {
  if (pixels == 0 || !(seconds > 0.0)) return;
  const double perPixel = seconds / double(pixels);
  perPixel_ = perPixel_ > 0.0 ? (1.0 - kSmoothing) * perPixel_ + kSmoothing * perPixel : perPixel;
}

int VolumeImageScale::divisor(std::size_t viewPixels) {
  if (perPixel_ <= 0.0) return divisor_;
  const auto predicted = [&](int d) { return perPixel_ * double(viewPixels) / double(d * d); };
  const auto at = std::find(kDivisors.begin(), kDivisors.end(), divisor_);
  auto chosen = at;
  while (chosen + 1 != kDivisors.end() && predicted(*chosen) > kCoarserAbove * budget_) ++chosen;
  if (chosen == at)
    while (chosen != kDivisors.begin() && predicted(*(chosen - 1)) < kFinerBelow * budget_) --chosen;
  divisor_ = *chosen;
  return divisor_;
}

void VolumeImageScale::reset() {
  perPixel_ = 0.0;
  divisor_ = 1;
}

}  // namespace iso
