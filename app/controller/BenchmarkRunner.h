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
#include "compute/Bandwidth.h"
#include "compute/Stage.h"
#include "compute/Tuner.h"
#include "core/Problem.h"
#include "core/Scenario.h"
#include "core/WaveSolver.h"

namespace iso {

// The roofline of one device, for a plot: its memory ceiling (what Stage::rooflineCeiling uses) and its compute
// ceiling, each with its spread and date (runs = 0: not measured, with the reason in `error`).
struct DeviceRoofline {
  std::string device;  // "host CPU", or the OpenCL device's name as the rows name it
  bool host = false;   // the ceiling of the CPU stages
  CeilingMeasurement memory, compute;
  std::string memoryProbe, computeProbe;  // what each measures, for a label
  std::string error;
};
// The host's roofline when a CPU stage is listed (its compute ceiling: the FMA probe on the OpenCL CPU
// device of this machine, when there is one) and that of the OpenCL device the scenario selects when an
// OpenCL stage is. Cached measurements unless `remeasure`. Never throws: a failure goes into `error`.
std::vector<DeviceRoofline> measureRooflines(const Scenario& scenario, const std::vector<std::string>& stages,
                                             bool remeasure = false);

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

  // The order the stages run in: as requested, with cpu-serial moved to the front. Throws
  // ComputeError(InvalidParameter) for an unknown stage, naming the known ones.
  std::vector<const Stage*> runOrder() const;

 private:
  // nullopt when cancelled inside the stage.
  std::optional<BenchmarkRow> runStage(const Stage& stage, std::size_t index, std::size_t count,
                                       SolverOutput& reference);

  BenchmarkRequest request_;
  ProgressFunction progress_;
  std::atomic<bool> cancelled_{false};
};

// A tuning sweep of a tunable stage (gpu-slm, gpu-optimized, gpu-temporal) on the scenario's grid and
// device: every Stage::tuningCandidates() entry, timed like a benchmark row (advanceTimed with the request's steps, warm-up
// and repeats), so that its Mpts/s compare with the report's and `cancel` stops it within ~0.1 s (after
// the kernel build in progress). Nothing is stored: storeTuning keeps the one chosen.
struct SweepResult {
  std::string stage;
  DeviceInfo device;
  Grid grid;
  std::vector<StageTiming> candidates;  // in the order tried
  int best = -1;                        // index of the fastest that ran, -1 when none did
  bool cancelled = false;
  bool withoutLayer = false;            // timed without the scenario's absorbing layer (scenarioForTuning)
};
// Throws std::invalid_argument for a stage that does not run on OpenCL.
SweepResult sweepStage(const BenchmarkRequest& request, const Stage& stage, const std::atomic<bool>* cancel = nullptr,
                       const std::function<void(const StageTiming&)>& progress = {});

}  // namespace iso
