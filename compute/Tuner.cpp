#include "compute/Tuner.h"

#include <algorithm>

#include "compute/ClError.h"
#include "compute/OpenClSolver.h"
#include "compute/TuningDatabase.h"
#include "compute/stages/OpenClStage.h"

namespace iso {

Scenario scenarioForTuning(Scenario s) {
  if (tuningLeavesOutTheLayer(s)) s.boundary.kind = BoundaryKind::Reflecting;
  return s;
}

StageTiming timeStage(const Problem& problem, const DeviceInfo& device, const OpenClStage& stage,
                      const StageParamMap& params, const TuneOptions& options) {
  StageTiming t;
  t.params = params;
  try {
    OpenClSolverOptions so;
    so.useTuningDatabase = false;  // a candidate is exactly what was asked, not the current best
    OpenClSolver solver(problem, stage, params, device, so);  // uploads the arrays; no copy of the problem
    t.params = solver.parameters();
    solver.advance(options.warmupSteps);
    std::vector<double> batches;
    for (int r = 0; r < std::max(1, options.repeats); ++r)
      batches.push_back(solver.advance(std::max(1, options.timedSteps)) / std::max(1, options.timedSteps));
    std::sort(batches.begin(), batches.end());
    t.secondsPerStep = batches[batches.size() / 2];
    t.mpts = t.secondsPerStep > 0 ? double(problem.grid.interiorSize()) / t.secondsPerStep / 1e6 : 0.0;
  } catch (const ComputeError& e) {
    t.error = e.what();
  }
  return t;
}

TuneResult tuneStage(const Problem& problem, const DeviceInfo& device, const OpenClStage& stage,
                     const TuneOptions& options, const std::function<void(const StageTiming&)>& progress) {
  TuneResult result;
  result.stage = stage.id();
  result.grid = problem.grid;
  for (const StageParamMap& c : tuningCandidates(stage, device, problem.grid)) {
    result.candidates.push_back(timeStage(problem, device, stage, c, options));
    const StageTiming& t = result.candidates.back();
    if (progress) progress(t);
    if (t.error.empty() && t.mpts > result.bestMpts) {
      result.bestMpts = t.mpts;
      result.best = t.params;
    }
  }
  if (result.best.empty())
    throw ComputeError(ComputeStatus::InvalidParameter, "tuning " + stage.id() + ": no candidate ran on " + device.name);
  if (options.store) result.databaseKeptAs = storeTuning(stage.id(), device, result.best, problem.grid, result.bestMpts);
  return result;
}

}  // namespace iso
