#pragma once
// The benchmark runner: times a list of stages on one scenario, each for exactly the scenario's steps
// (a warm-up, then equal timed chunks whose median gives the rates), so that every stage ends on the
// same u^N and is compared with cpu-serial. No Qt: `iso3dfd bench` runs it on a terminal, the studio on
// a worker thread. Progress goes to a callback; cancel() (from any thread) stops it after the step in
// progress: a run advances in pieces of at most ~0.1 s and checks the flag between them (building a
// solver, e.g. compiling a kernel, and a single step longer than that are not interrupted).
// Its result, the table/JSON/CSV writer and the JSON reader (with the JSON schema): BenchmarkReport.h.
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/controller/BenchmarkReport.h"
#include "core/Problem.h"
#include "core/Scenario.h"
#include "core/WaveSolver.h"

namespace iso {

// The scenario's execution as `stage`: of its stage parameters, those the stage accepts, so that one
// scenario can set gpu-slm's tile and cpu-parallel's threads side by side.
ExecutionConfig stageConfig(Scenario scenario, const std::string& stage);

// What a stage's % roofline is measured against: the OpenCL device's copy bandwidth, or the host's.
struct RooflineCeiling {
  double gbs = 0.0;  // 0 when it could not be measured
  std::string name;  // "device copy bandwidth", "host memcpy bandwidth"
};
RooflineCeiling rooflineCeiling(const std::string& stage, const std::string& deviceSelector);

// `steps` steps of `solver`: the first `warmupSteps` untimed (first launches, caches, page faults),
// then `repeats` equal chunks (fewer when there are fewer steps). Stops early, with cancelled set,
// when `cancel` becomes true; `onSteps` sees the steps done so far after every piece.
struct TimedSteps {
  int warmupSteps = 0, timedSteps = 0;
  double seconds = 0.0;                     // all timed chunks
  std::vector<double> chunkSecondsPerStep;  // one entry per chunk
  double medianSecondsPerStep = 0.0;
  bool cancelled = false;
};
TimedSteps advanceTimed(WaveSolver& solver, int steps, int warmupSteps, int repeats,
                        const std::atomic<bool>* cancel = nullptr, const std::function<void(int)>& onSteps = {});

struct BenchmarkRequest {
  Scenario scenario;                // grid, model and steps; its stage is ignored
  std::vector<std::string> stages;  // cpu-serial, when listed, runs first: the reference of the others
  int warmupSteps = 1;              // fewer when the scenario has too few steps to keep one timed
  int repeats = 5;
};

struct BenchmarkProgress {
  std::size_t stageIndex = 0, stageCount = 0;
  std::string stage;
  int stepsDone = 0, steps = 0;       // of the stage in progress
  double fraction = 0.0;              // of the whole run, 0 to 1
  const BenchmarkRow* row = nullptr;  // set once per stage, when its row is complete
};

class BenchmarkRunner {
 public:
  using ProgressFunction = std::function<void(const BenchmarkProgress&)>;
  explicit BenchmarkRunner(BenchmarkRequest request, ProgressFunction progress = {});

  // Runs every stage in turn. A stage that fails gets a row with its error and the run goes on.
  // Throws only for a request that cannot start (unknown stage, invalid scenario).
  BenchmarkReport run();
  void cancel() { cancelled_ = true; }

  // The order the stages run in: as requested, with cpu-serial moved to the front.
  std::vector<std::string> runOrder() const;

 private:
  // nullopt when cancelled inside the stage.
  std::optional<BenchmarkRow> runStage(const std::string& stage, std::size_t index, std::size_t count,
                                       SolverOutput& reference);

  BenchmarkRequest request_;
  ProgressFunction progress_;
  std::atomic<bool> cancelled_{false};
};

}  // namespace iso
