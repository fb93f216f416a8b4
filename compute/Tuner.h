#pragma once
// Timing of one stage configuration, and the auto-tuner that sweeps the tunable parameters of an OpenCL
// stage (gpu-slm, gpu-optimized, gpu-temporal) for the current device and grid and keeps the best in the
// tuning database.
// `iso3dfd tune`, `iso3dfd bench --tune` and `iso3dfd verify --candidates` call these.
#include <functional>
#include <string>
#include <vector>

#include "compute/DeviceRegistry.h"
#include "core/Problem.h"
#include "compute/StageParams.h"

namespace iso {

class OpenClStage;

// The scenario a stage's parameters are timed on: `s` without its perfectly matched layer, if it has one
// (reflecting instead). The layer's kernels take no stage parameter, so with them every candidate only
// carries the same extra time, and gpu-temporal, which runs one step per pass while the layer is on, would
// be timed in a mode it does not fuse in. The sponge is part of the stencil kernel and stays.
Scenario scenarioForTuning(Scenario s);
// Whether scenarioForTuning(s) leaves something out (what the tools then say).
inline bool tuningLeavesOutTheLayer(const Scenario& s) { return s.boundary.kind == BoundaryKind::Absorbing; }

struct TuneOptions {
  int warmupSteps = 3;   // not timed: first launches, caches
  int timedSteps = 10;   // steps per timed batch
  int repeats = 3;       // timed batches; the median batch counts
  bool store = true;     // write the best into the tuning database
};

struct StageTiming {
  StageParamMap params;
  double secondsPerStep = 0.0;  // median over the batches, stencil + source + receivers kernels
  double mpts = 0.0;            // interior points per second / 1e6
  std::string error;            // non-empty when this configuration could not run (then no timing)
};

// Builds the stage with `params` (merged over the defaults) for `problem` and times it; the problem's
// arrays are uploaded to the device, not copied, so one Problem serves every candidate.
// Errors of the configuration are returned in `error`, not thrown.
StageTiming timeStage(const Problem& problem, const DeviceInfo& device, const OpenClStage& stage,
                      const StageParamMap& params, const TuneOptions& options);

struct TuneResult {
  std::string stage;
  Grid grid;
  std::vector<StageTiming> candidates;  // in the order tried
  StageParamMap best;
  double bestMpts = 0.0;
  // Where storing it kept a tuning database that could not be read ("" when none was: storeTuning).
  std::string databaseKeptAs;
};

// Tries every tuningCandidates(stage, device, grid) entry; `progress` (optional) sees each result as it comes.
// Throws ComputeError(InvalidParameter) when no candidate runs.
TuneResult tuneStage(const Problem& problem, const DeviceInfo& device, const OpenClStage& stage,
                     const TuneOptions& options = {},
                     const std::function<void(const StageTiming&)>& progress = {});

}  // namespace iso
