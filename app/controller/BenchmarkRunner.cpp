#include "app/controller/BenchmarkRunner.h"

#include <algorithm>
#include <chrono>

#include <stdexcept>

#include "compute/Bandwidth.h"
#include "compute/DeviceRegistry.h"
#include "compute/OpenClSolver.h"
#include "compute/SolverFactory.h"
#include "core/HostBandwidth.h"

namespace iso {

namespace {

using Clock = std::chrono::steady_clock;

// Longest stretch between two looks at the cancel flag (and two progress reports), when a step is shorter.
constexpr double kPieceSeconds = 0.1;

const BenchmarkRow* findRow(const std::vector<BenchmarkRow>& rows, const std::string& stage) {
  for (const auto& r : rows)
    if (r.stage == stage && r.error.empty() && r.throughput.mpts > 0.0) return &r;
  return nullptr;
}

// Speed-ups over cpu-serial and over the stage's `previous`, where those ran (the grid is the run's).
void fillSpeedups(BenchmarkRow& row, const std::vector<BenchmarkRow>& rows) {
  if (!row.error.empty() || row.throughput.mpts <= 0.0) return;
  if (const BenchmarkRow* serial = findRow(rows, "cpu-serial"))
    row.speedupVsSerial = row.throughput.mpts / serial->throughput.mpts;
  if (!row.previous.empty())
    if (const BenchmarkRow* previous = findRow(rows, row.previous))
      row.speedupVsPrevious = row.throughput.mpts / previous->throughput.mpts;
}

}  // namespace

std::vector<DeviceRoofline> measureRooflines(const Scenario& scenario, const std::vector<std::string>& stages,
                                             bool remeasure) {
  bool anyHost = false, anyOpenCl = false;
  for (const auto& s : stages) (resolveStage(s).opencl() ? anyOpenCl : anyHost) = true;
  std::vector<DeviceRoofline> out;
  const auto fma = [&](DeviceRoofline& r, const DeviceInfo& d) {
    try {
      r.compute = measuredCeiling(d, CeilingProbe::Fma, remeasure);
    } catch (const std::exception& e) {
      r.error = e.what();
    }
  };
  if (anyHost) {
    DeviceRoofline r;
    r.device = "host CPU";
    r.host = true;
    try {
      const HostBandwidth b = hostCopyBandwidth(remeasure);
      r.memory = {b.minGBs, b.medianGBs, b.maxGBs, b.passes, b.date};
      r.memoryProbe = "host memcpy bandwidth, " + std::to_string(b.threads) + " threads";
    } catch (const std::exception& e) {
      r.error = e.what();
    }
    // The same processor through OpenCL: its compiler vectorises the probe, which the host code does not have.
    const auto devices = listDevices();
    const auto cpu = std::find_if(devices.begin(), devices.end(), [](const DeviceInfo& d) { return d.type == "CPU"; });
    if (cpu != devices.end()) {
      r.computeProbe = "FMA probe on the OpenCL CPU device " + cpu->name;
      fma(r, *cpu);
    } else {
      r.error = "no OpenCL CPU device to run the FMA probe on";
    }
    out.push_back(std::move(r));
  }
  if (anyOpenCl) {
    DeviceRoofline r;
    r.device = "OpenCL device " + scenario.device;
    try {
      const DeviceInfo d = selectDevice(scenario.device);
      r.device = d.name;
      r.memoryProbe = "device copy bandwidth (clEnqueueCopyBuffer)";
      r.memory = measuredCeiling(d, CeilingProbe::Copy, remeasure);
      r.computeProbe = "FMA probe (float4 fma chains)";
      fma(r, d);
    } catch (const std::exception& e) {
      r.error = e.what();
    }
    out.push_back(std::move(r));
  }
  return out;
}

TimedSteps advanceTimed(WaveSolver& solver, int steps, int warmupSteps, int repeats, const std::atomic<bool>* cancel,
                        const std::function<void(int)>& onSteps) {
  TimedSteps t;
  t.warmupSteps = std::clamp(warmupSteps, 0, std::max(0, steps - 1));
  const int timed = std::max(0, steps - t.warmupSteps);
  int done = 0;
  double wallPerStep = 0.0;
  // Advances n steps in pieces of about kPieceSeconds; the solver's own seconds, or nullopt when cancelled.
  const auto advance = [&](int n) -> std::optional<double> {
    double seconds = 0.0;
    while (n > 0) {
      if (cancel && cancel->load()) return std::nullopt;
      const int piece = wallPerStep > 0.0 ? std::clamp(int(kPieceSeconds / wallPerStep), 1, n) : 1;
      const auto start = Clock::now();
      seconds += solver.advance(piece);
      wallPerStep = std::chrono::duration<double>(Clock::now() - start).count() / piece;
      n -= piece;
      done += piece;
      if (onSteps) onSteps(done);
    }
    return seconds;
  };
  if (!advance(t.warmupSteps)) {
    t.cancelled = true;
    return t;
  }
  const int chunks = std::clamp(repeats, 1, std::max(1, timed));
  for (int c = 0; c < chunks && timed > 0; ++c) {
    const int n = timed * (c + 1) / chunks - timed * c / chunks;
    const auto seconds = advance(n);
    if (!seconds) {
      t.cancelled = true;
      return t;
    }
    t.seconds += *seconds;
    t.chunkSecondsPerStep.push_back(*seconds / n);
  }
  t.timedSteps = timed;
  if (!t.chunkSecondsPerStep.empty()) {
    auto sorted = t.chunkSecondsPerStep;
    std::sort(sorted.begin(), sorted.end());
    t.medianSecondsPerStep = sorted[sorted.size() / 2];
  }
  return t;
}

BenchmarkRunner::BenchmarkRunner(BenchmarkRequest request, ProgressFunction progress)
    : request_(std::move(request)), progress_(std::move(progress)) {}

std::vector<const Stage*> BenchmarkRunner::runOrder() const {
  std::vector<const Stage*> order;
  for (const std::string& id : request_.stages) order.push_back(&resolveStage(id));
  std::stable_partition(order.begin(), order.end(), [](const Stage* s) { return s->id() == "cpu-serial"; });
  return order;
}

BenchmarkReport BenchmarkRunner::run() {
  const std::vector<const Stage*> order = runOrder();
  buildProblem(request_.scenario);  // a scenario that cannot run at all is the caller's error, not a row's
  BenchmarkReport report;
  report.date = utcNow();
  report.hostCpu = hostCpuModel();
  report.warmupSteps = std::clamp(request_.warmupSteps, 0, std::max(0, request_.scenario.steps - 1));
  report.repeats = request_.repeats;
  SolverOutput reference;
  for (std::size_t n = 0; n < order.size(); ++n) {
    if (cancelled_) break;
    std::optional<BenchmarkRow> row = runStage(*order[n], n, order.size(), reference);
    if (!row) break;
    fillSpeedups(*row, report.rows);
    report.rows.push_back(std::move(*row));
    if (progress_) {
      BenchmarkProgress p;
      p.stageIndex = n;
      p.stageCount = order.size();
      p.stage = order[n]->id();
      p.stepsDone = p.steps = request_.scenario.steps;
      p.fraction = double(n + 1) / double(order.size());
      p.row = &report.rows.back();
      progress_(p);
    }
  }
  report.cancelled = report.rows.size() < order.size();
  // A `previous` stage that ran after the one it is compared with is known only now.
  for (auto& row : report.rows) fillSpeedups(row, report.rows);
  return report;
}

std::optional<BenchmarkRow> BenchmarkRunner::runStage(const Stage& stage, std::size_t index, std::size_t count,
                                                      SolverOutput& reference) {
  const Scenario& s = request_.scenario;
  BenchmarkRow row;
  row.stage = stage.id();
  row.title = stage.info().title;
  row.previous = stage.info().previous;
  row.bytesPerPointStep = stage.bytesPerPointStep();
  row.n1 = s.n1;
  row.n2 = s.n2;
  row.n3 = s.n3;
  row.steps = s.steps;
  const auto report = [&](int done) {
    if (!progress_) return;
    BenchmarkProgress p;
    p.stageIndex = index;
    p.stageCount = count;
    p.stage = stage.id();
    p.stepsDone = done;
    p.steps = s.steps;
    p.fraction = (double(index) + (s.steps > 0 ? double(done) / s.steps : 0.0)) / double(count);
    progress_(p);
  };
  try {
    report(0);
    Problem problem = buildProblem(s);
    const ExecutionConfig config = stage.execution(s);
    const std::optional<DeviceInfo> device = stage.device(config.device);
    const double points = double(problem.grid.interiorSize());
    auto solver = createSolver(std::move(problem), config, device);  // slabs on several devices or ranks
    row.device = solver->deviceName();
    row.params = solver->parameters();
    const TimedSteps t = advanceTimed(*solver, s.steps, request_.warmupSteps, request_.repeats, &cancelled_, report);
    if (t.cancelled) return std::nullopt;
    const RooflineCeiling ceiling = stage.rooflineCeiling(device);
    row.secondsPerStep = t.medianSecondsPerStep;
    row.throughput = computeThroughput(points, 1.0, t.medianSecondsPerStep, ceiling.gbs);
    row.throughput.seconds = t.seconds;
    if (ceiling.gbs > 0.0) row.ceilingName = ceiling.name;
    if (stage.id() == "cpu-serial") {
      solver->readField(reference.field);
    } else if (!reference.field.empty()) {
      std::vector<float> field;
      solver->readField(field);
      row.difference = compareFields(field, reference.field);
    }
  } catch (const std::exception& e) {
    row.error = e.what();
  }
  return row;
}

SweepResult sweepStage(const BenchmarkRequest& request, const Stage& stage, const std::atomic<bool>* cancel,
                       const std::function<void(const StageTiming&)>& progress) {
  const OpenClStage* descriptor = stage.openCl();
  if (!descriptor) throw std::invalid_argument("stage '" + stage.id() + "' runs on the host: it has no tuning sweep");
  const Scenario& s = request.scenario;
  SweepResult result;
  result.stage = stage.id();
  result.device = selectDevice(s.device);
  result.withoutLayer = tuningLeavesOutTheLayer(s);
  const Problem problem = buildProblem(scenarioForTuning(s));
  result.grid = problem.grid;
  double bestMpts = 0.0;
  for (const StageParamMap& candidate : stage.tuningCandidates(result.device, problem.grid)) {
    StageTiming t;
    t.params = candidate;
    try {
      OpenClSolverOptions options;
      options.useTuningDatabase = false;  // exactly this candidate, not the current best
      OpenClSolver solver(problem, *descriptor, candidate, result.device, options);
      t.params = solver.parameters();
      const TimedSteps timed = advanceTimed(solver, s.steps, request.warmupSteps, request.repeats, cancel);
      if (timed.cancelled) {
        result.cancelled = true;
        return result;
      }
      t.secondsPerStep = timed.medianSecondsPerStep;
      t.mpts = t.secondsPerStep > 0.0 ? double(problem.grid.interiorSize()) / t.secondsPerStep / 1e6 : 0.0;
    } catch (const std::exception& e) {
      t.error = e.what();
    }
    result.candidates.push_back(std::move(t));
    const StageTiming& done = result.candidates.back();
    if (done.error.empty() && done.mpts > bestMpts) {
      bestMpts = done.mpts;
      result.best = int(result.candidates.size()) - 1;
    }
    if (progress) progress(done);
    if (cancel && cancel->load()) {
      result.cancelled = true;
      return result;
    }
  }
  return result;
}

}  // namespace iso
