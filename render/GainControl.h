#pragma once
// Symmetric colour range [-clip, clip] for the wavefield, in one of three modes (GainMode).
//
// Target: a high percentile (98th by default) of |u| over the three slices, taken among the
// "active" samples — those above a small fraction of a robust peak — on an even subsample. Why: early
// in a run, or far from a point source, almost every sample is exactly zero, so a percentile over all
// samples would be 0 and saturate the picture; the true peak is dominated by the source cell, whose
// amplitude is singular. The robust peak is the m-th largest |u| (m = 32 or 0.2 % of the samples),
// which ignores up to m−1 spikes. Relative thresholds keep everything scale-free: a field times 1000
// gets a range times 1000. The 98th percentile (not 99.5th) suits the default scenario: at 99.5 the
// crests nearest the source set the range and the wavefronts look washed out;
// at 98 a few crests saturate, as on a clipped seismic display, and the wavefronts read clearly. The oneAPI scenario, whose mean grows linearly, needs nothing special: the range
// follows the bulk of |u|, whatever its offset.
// Smoothing: the range follows the target exponentially in simulated time steps (SliceSet::step), not
// in updates, so the picture after N steps does not depend on how many frames the GUI managed to show:
// quickly when the field grows (time constant 5 steps, so it never saturates for long) and slowly when
// it decays (100 steps, so the picture does not flicker). Slices of the same step (a moved slice point
// while paused) count as 4 steps; a step going backwards (a restart) starts the range afresh.
//
// Modes. The smoothed level above is the whole story for PerFrame, which therefore scales whatever is
// left to full colour: at late time an absorbed remnant and round-off noise eight orders of magnitude
// below the peak fill the frame. Automatic (the default) clips at max(level, floorRatio × peak), where
// the peak is the largest level since the last restart, decaying with a long time constant (2000 steps),
// so a field that has died away fades to white instead of being amplified; a new, weaker source still
// gets full colour once the old peak has decayed. Fixed uses a manual range. The level and the peak are
// tracked in every mode, so switching modes shows the right picture at once.
#include <cstddef>
#include <vector>

#include "core/SliceSet.h"

namespace iso {

enum class GainMode { Automatic, Fixed, PerFrame };
// "auto", "fixed", "per-frame": the colour bar's caption and the GUI's choices.
const char* gainModeName(GainMode mode);

class GainControl {
 public:
  struct Settings {
    double percentile = 98.0;      // of |u| over the active samples, in (0, 100]: see above
    double activeFraction = 1e-3;  // samples with |u| <= this × robust peak are quiet, not counted
    std::size_t spikeCount = 32;   // the robust peak is the spikeCount-th largest |u| ...
    double spikeShare = 0.002;     // ... or this share of the samples, whichever is more
    std::size_t maxSamples = 16384;  // the two selections are most of an update: 0.09 ms at 512³ (4× more: 0.34)
    double attackSteps = 5.0;      // time constant (time steps) while the field grows
    double releaseSteps = 100.0;   // ... while it decays
    double stepsPerStill = 4.0;    // steps an update of the same step counts as
    double floorRatio = 1e-2;          // Automatic: the clip never falls below this × the peak level
    double peakReleaseSteps = 2000.0;  // time constant (time steps) of the peak level's decay
  };

  struct Measurement {
    float target = 0.0f;         // the robust amplitude of this slice set (0: every sample is zero)
    float peak = 0.0f;           // max |u| over the subsample
    float robustPeak = 0.0f;     // the m-th largest |u| (see above)
    std::size_t nonFinite = 0;   // NaN/Inf samples seen (skipped)
  };

  GainControl() = default;
  explicit GainControl(const Settings& settings) : settings_(settings) {}

  // Measures the slice set, moves the level towards its target and updates the peak; returns the
  // range now in use. A field with no non-zero finite sample leaves level and peak unchanged; a step
  // before the last one (a restart) starts both afresh.
  float update(const SliceSet& slices);

  // The robust amplitude of one slice set, without smoothing.
  Measurement measure(const SliceSet& slices);

  void setMode(GainMode mode);  // Fixed without a manual range takes the range in use as its range
  GainMode mode() const { return mode_; }
  // The manual range of Fixed; false (nothing changed) unless positive and finite.
  bool setFixedClip(float clip);

  float clip() const;                   // the range in use, by the mode's rule
  float level() const { return level_; }  // the smoothed robust amplitude (PerFrame's range)
  float peak() const { return peak_; }    // the largest level since the last restart, decaying
  double clipToPeak() const;              // clip() / peak(); 0 before the first non-zero field
  bool settled() const { return initialised_; }
  const Measurement& lastMeasurement() const { return last_; }

 private:
  static constexpr std::size_t kRun = 16;  // values sampled together: one cache line of floats
  Settings settings_;
  GainMode mode_ = GainMode::Automatic;
  float level_ = 1.0f;
  float peak_ = 0.0f;
  float fixedClip_ = 0.0f;  // 0: never set
  bool initialised_ = false;
  long lastStep_ = 0;
  Measurement last_;
  std::vector<float> samples_;  // reused: no allocation per update once grown
};

}  // namespace iso
