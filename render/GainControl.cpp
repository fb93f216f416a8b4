#include "render/GainControl.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace iso {

GainControl::Measurement GainControl::measure(const SliceSet& s) {
  Measurement m;
  const std::size_t total = s.xy.size() + s.xz.size() + s.yz.size();
  if (total == 0) return m;
  const std::size_t stride = std::max<std::size_t>(1, (total + settings_.maxSamples - 1) / settings_.maxSamples);
  samples_.clear();
  samples_.reserve(std::min(total, settings_.maxSamples) + kRun + 3);
  // Runs of kRun consecutive values, one run every stride·kRun values of the three planes taken as if
  // concatenated, so every plane is sampled evenly: one value in `stride` as with single samples, but read
  // from a `stride`-th of the cache lines (single samples `stride` floats apart touched every line of a
  // 512³ grid's planes: 0.4 ms of the GUI thread a frame).
  const std::size_t run = std::min(kRun, stride), step = stride * run;
  std::size_t offset = 0;
  for (std::span<const float> plane : {s.xy, s.xz, s.yz}) {
    std::size_t n = offset;
    for (; n < plane.size(); n += step) {
      for (const float u : plane.subspan(n, std::min(run, plane.size() - n))) {
        const float a = std::abs(u);
        if (!std::isfinite(a)) {
          ++m.nonFinite;
          continue;
        }
        samples_.push_back(a);
        m.peak = std::max(m.peak, a);
      }
    }
    offset = n - plane.size();
  }
  if (m.peak <= 0.0f) return m;

  // Robust peak: the m-th largest sample (nth_element leaves the m−1 larger ones in front of it).
  const std::size_t m_th = std::min(samples_.size(), std::max<std::size_t>(settings_.spikeCount,
                                    std::size_t(settings_.spikeShare * double(samples_.size()))));
  std::nth_element(samples_.begin(), samples_.begin() + std::ptrdiff_t(m_th - 1), samples_.end(), std::greater<float>());
  m.robustPeak = samples_[m_th - 1];
  // With fewer than m non-zero samples the robust peak is 0 and every non-zero sample is active.
  const float quiet = float(settings_.activeFraction) * m.robustPeak;
  const auto activeEnd = std::partition(samples_.begin(), samples_.end(), [quiet](float a) { return a > quiet; });
  const std::size_t active = std::size_t(activeEnd - samples_.begin());  // >= 1: the peak is above `quiet`
  const double rank = settings_.percentile / 100.0 * double(active - 1);
  const auto nth = samples_.begin() + std::ptrdiff_t(std::clamp(std::llround(rank), 0LL, (long long)active - 1));
  std::nth_element(samples_.begin(), nth, activeEnd);
  m.target = *nth;
  return m;
}

float GainControl::update(const SliceSet& slices) {
  last_ = measure(slices);
  if (last_.target <= 0.0f) return clip();
  const long elapsed = slices.step - lastStep_;
  lastStep_ = slices.step;
  if (!initialised_ || elapsed < 0) {
    level_ = peak_ = last_.target;
    initialised_ = true;
    return clip();
  }
  const double steps = elapsed > 0 ? double(elapsed) : settings_.stepsPerStill;
  const double timeConstant = last_.target > level_ ? settings_.attackSteps : settings_.releaseSteps;
  const double share = 1.0 - std::exp(-steps / timeConstant);
  level_ = float(double(level_) + share * (double(last_.target) - double(level_)));
  peak_ = std::max(level_, float(double(peak_) * std::exp(-steps / settings_.peakReleaseSteps)));
  return clip();
}

const char* gainModeName(GainMode mode) {
  switch (mode) {
    case GainMode::Fixed: return "fixed";
    case GainMode::PerFrame: return "per-frame";
    case GainMode::Automatic: break;
  }
  return "auto";
}

void GainControl::setMode(GainMode mode) {
  if (mode == GainMode::Fixed && fixedClip_ <= 0.0f) fixedClip_ = clip();
  mode_ = mode;
}

bool GainControl::setFixedClip(float clip) {
  if (!(clip > 0.0f && std::isfinite(clip))) return false;
  fixedClip_ = clip;
  return true;
}

float GainControl::clip() const {
  switch (mode_) {
    case GainMode::Fixed: return fixedClip_ > 0.0f ? fixedClip_ : level_;
    case GainMode::PerFrame: return level_;
    case GainMode::Automatic: break;
  }
  return std::max(level_, float(settings_.floorRatio * double(peak_)));
}

double GainControl::clipToPeak() const { return peak_ > 0.0f ? double(clip()) / double(peak_) : 0.0; }

}  // namespace iso
