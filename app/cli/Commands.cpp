#include "Commands.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "DeviceRegistry.h"
#include "SimulationController.h"
#include "Tuner.h"
#include "FieldCompare.h"
#include "Npy.h"
#include "SolverFactory.h"
#include "StageRegistry.h"
#include "StageRunner.h"
#include "Traces.h"

namespace iso::cli {

namespace {

// The scenario run as `stage`: of the --param values, it gets those it accepts, so that one command line
// can tune gpu-slm's tile and cpu-parallel's threads side by side.
Scenario asStage(Scenario s, const std::string& stage) {
  s.stage = stage;
  const auto accepted = stageParameterNames(stage);
  std::erase_if(s.stageParams, [&](const auto& kv) {
    return std::find(accepted.begin(), accepted.end(), kv.first) == accepted.end();
  });
  return s;
}
Problem problemFor(const Scenario& s, const std::string& stage) { return buildProblem(asStage(s, stage)); }
ExecutionConfig configFor(const Scenario& s, const std::string& stage) { return executionConfig(asStage(s, stage)); }

std::string megabytes(std::size_t bytes) { return std::to_string(bytes / (1024 * 1024)) + " MB"; }

void printHeader(const Problem& p) {
  std::printf("Grid Sizes: %d %d %d\n", p.grid.n1, p.grid.n2, p.grid.n3);
  std::printf("Memory Usage: %s\n", megabytes(solverBytes(p.grid)).c_str());
  std::printf("Stability: %s\n", p.stability.summary().c_str());
}

}  // namespace

std::vector<std::string> availableStages() {
  return StageRegistry::ids(/*includeOpenCL=*/!listDevices().empty());
}

std::vector<std::string> expandStages(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& n : names) {
    if (n == "all") {
      for (const auto& s : availableStages()) out.push_back(s);
    } else {
      StageRegistry::get(n);  // throws, naming the known stages
      out.push_back(n);
    }
  }
  return out;
}

int runCommand(const ScenarioOptions& opts, const RunOptions& run) {
  const Scenario s = opts.resolve();
  if (!run.saveScenario.empty()) saveScenarioFile(s, run.saveScenario);
  Problem p = buildProblem(s);
  printHeader(p);
  const Grid grid = p.grid;
  const double dt = p.dt;
  const std::size_t receivers = p.receivers.size();
  StageRun r = runStage(std::move(p), executionConfig(s), s.steps, 1, !run.dump.empty());
  std::printf(" ***** Running %s on %s *****\n", r.stage.c_str(), r.device.c_str());
  std::printf("--------------------------------------\n%s--------------------------------------\n",
              formatThroughput(r.throughput).c_str());
  if (r.timedSteps < s.steps) std::printf("(the first step is a warm-up, excluded from the timing)\n");
  if (!run.dump.empty()) {
    writeNpy(run.dump, r.field.data(), {std::size_t(grid.n3), std::size_t(grid.n2), std::size_t(grid.n1)});
    std::printf("wrote u^%d (interior, shape (%d, %d, %d)) to %s\n", s.steps, grid.n3, grid.n2, grid.n1,
                run.dump.c_str());
  }
  if (!run.traces.empty()) {
    if (receivers == 0) throw ScenarioError("--traces needs at least one receiver (--receiver i,j,k)");
    const bool npy = run.traces.size() > 4 && run.traces.substr(run.traces.size() - 4) == ".npy";
    if (npy)
      saveTracesNpy(run.traces, r.solver->traces(), receivers);
    else
      saveTracesCsv(run.traces, r.solver->traces(), s.receivers, dt);
    std::printf("wrote %zu traces of %d samples to %s\n", receivers, s.steps, run.traces.c_str());
  }
  return 0;
}

int benchCommand(const ScenarioOptions& opts, const BenchOptions& bench) {
  const Scenario s = opts.resolve();
  const auto stages = expandStages(bench.stages.empty() ? std::vector<std::string>{"all"} : bench.stages);
  {
    const Problem p = buildProblem(s);  // validates once and prints what is run
    printHeader(p);
  }
  std::printf("%d steps per stage (1 warm-up, then %d timed chunks; median chunk)\n\n", s.steps, bench.repeat);

  struct Row {
    std::string stage, device, error;
    Throughput t;
    double speedup = 0.0;
    FieldDifference diff;
    bool compared = false;
  };
  std::vector<Row> rows;
  std::vector<float> reference;
  double serialMpts = 0.0;
  // cpu-serial first: it is the reference for both the speed-up and the difference.
  std::vector<std::string> order = stages;
  std::stable_partition(order.begin(), order.end(), [](const std::string& x) { return x == "cpu-serial"; });
  for (const auto& stage : order) {
    Row row;
    row.stage = stage;
    try {
      StageRun r = runStage(problemFor(s, stage), configFor(s, stage), s.steps, bench.repeat, true);
      row.device = r.device;
      row.t = r.throughput;
      if (stage == "cpu-serial") {
        reference = std::move(r.field);
        serialMpts = row.t.mpts;
      } else if (!reference.empty()) {
        row.diff = compareFields(r.field, reference);
        row.compared = true;
      }
    } catch (const std::exception& e) {
      row.error = e.what();
    }
    if (serialMpts > 0.0 && row.error.empty()) row.speedup = row.t.mpts / serialMpts;
    rows.push_back(row);
    std::fprintf(stderr, "  %-14s %s\n", stage.c_str(), row.error.empty() ? "done" : "FAILED");
  }

  std::printf("%-14s %-34s %10s %9s %9s %9s %7s %8s %10s %9s\n", "stage", "device", "Mpts/s", "GFLOP/s",
              "GB/s(12)", "GB/s(16)", "%roof", "speedup", "max|diff|", "relL2");
  bool failed = false;
  for (const auto& r : rows) {
    if (!r.error.empty()) {
      failed = true;
      std::printf("%-14s error: %s\n", r.stage.c_str(), r.error.c_str());
      continue;
    }
    char roof[16] = "n/a", speed[16] = "n/a", maxd[16] = "ref", rel[16] = "ref";
    if (r.t.ceilingGBs > 0) std::snprintf(roof, sizeof roof, "%.1f", r.t.rooflinePercent);
    if (r.speedup > 0) std::snprintf(speed, sizeof speed, "%.2fx", r.speedup);
    if (r.compared) {
      std::snprintf(maxd, sizeof maxd, "%.3g", r.diff.maxAbs);
      std::snprintf(rel, sizeof rel, r.diff.nonFinite ? "NaN" : "%.2g", r.diff.relativeL2);
    } else if (r.stage != "cpu-serial") {
      std::snprintf(maxd, sizeof maxd, "n/a");
      std::snprintf(rel, sizeof rel, "n/a");
    }
    std::printf("%-14s %-34.34s %10.1f %9.2f %9.2f %9.2f %7s %8s %10s %9s\n", r.stage.c_str(), r.device.c_str(),
                r.t.mpts, r.t.gflops, r.t.gbsSample, r.t.gbsTraffic, roof, speed, maxd, rel);
  }
  if (const auto& r = rows.front(); r.t.ceilingGBs > 0)
    std::printf("\n%%roof: 16 B/pt traffic over the measured copy bandwidth of the stage's device "
                "(host: %.1f GB/s).\n", ceilingGBs("cpu-serial", ""));

  if (!bench.json.empty() || !bench.csv.empty()) {
    nlohmann::json j = nlohmann::json::array();
    std::ofstream csv;
    if (!bench.csv.empty()) {
      csv.open(bench.csv);
      if (!csv) throw std::runtime_error("cannot write " + bench.csv);
      csv << "stage,device,n1,n2,n3,steps,mpts,gflops,gbs_sample,gbs_traffic,roofline_percent,ceiling_gbs,"
             "speedup,max_abs_diff,rel_l2,error\n";
    }
    for (const auto& r : rows) {
      j.push_back({{"stage", r.stage}, {"device", r.device}, {"n1", s.n1}, {"n2", s.n2}, {"n3", s.n3},
                   {"steps", s.steps}, {"mpts", r.t.mpts}, {"gflops", r.t.gflops}, {"gbs_sample", r.t.gbsSample},
                   {"gbs_traffic", r.t.gbsTraffic}, {"roofline_percent", r.t.rooflinePercent},
                   {"ceiling_gbs", r.t.ceilingGBs}, {"speedup", r.speedup},
                   {"max_abs_diff", r.compared ? nlohmann::json(r.diff.maxAbs) : nlohmann::json()},
                   {"rel_l2", r.compared ? nlohmann::json(r.diff.relativeL2) : nlohmann::json()},
                   {"error", r.error}});
      if (csv.is_open()) {
        std::string err = r.error;
        for (auto& c : err)
          if (c == '"' || c == '\n') c = '\'';
        csv << r.stage << ",\"" << r.device << "\"," << s.n1 << ',' << s.n2 << ',' << s.n3 << ',' << s.steps << ','
            << r.t.mpts << ',' << r.t.gflops << ',' << r.t.gbsSample << ',' << r.t.gbsTraffic << ','
            << r.t.rooflinePercent << ',' << r.t.ceilingGBs << ',' << r.speedup << ','
            << (r.compared ? std::to_string(r.diff.maxAbs) : "") << ','
            << (r.compared ? std::to_string(r.diff.relativeL2) : "") << ",\"" << err << "\"\n";
      }
    }
    if (!bench.json.empty()) {
      std::ofstream out(bench.json);
      if (!out) throw std::runtime_error("cannot write " + bench.json);
      out << j.dump(2) << '\n';
    }
  }
  return failed ? 1 : 0;
}

int verifyCommand(const ScenarioOptions& opts, const VerifyOptions& verify) {
  const Scenario s = opts.resolve();
  auto stages = expandStages(verify.stages);
  std::erase(stages, std::string("cpu-serial"));
  if (stages.empty()) throw ScenarioError("nothing to verify: cpu-serial is the reference itself");
  printHeader(buildProblem(s));
  const std::vector<float> reference =
      runStage(problemFor(s, "cpu-serial"), configFor(s, "cpu-serial"), s.steps, 1, true).field;
  std::printf("%-14s %-34s %12s %12s  %s\n", "stage", "device", "max|diff|", "relL2", "result");
  bool allGood = true;
  for (const auto& stage : stages) {
    try {
      const StageRun r = runStage(problemFor(s, stage), configFor(s, stage), s.steps, 1, true);
      const FieldDifference d = compareFields(r.field, reference);
      const bool ok = d.withinTolerance(verify.tolerance);
      allGood = allGood && ok;
      std::printf("%-14s %-34.34s %12.4g %12.4g  %s\n", stage.c_str(), r.device.c_str(), d.maxAbs, d.relativeL2,
                  ok ? "ok" : (d.nonFinite ? "FAIL (NaN/Inf)" : "FAIL"));
    } catch (const std::exception& e) {
      allGood = false;
      std::printf("%-14s error: %s\n", stage.c_str(), e.what());
    }
  }
  std::printf("tolerance: relative L2 <= %g against cpu-serial after %d steps\n", verify.tolerance, s.steps);
  return allGood ? 0 : 1;
}

int devicesCommand() {
  const auto devices = listDevices();
  if (devices.empty()) {
    std::printf("No OpenCL platform or device found. Install a driver (e.g. pocl-opencl-icd for the CPU,\n"
                "or the GPU vendor's OpenCL ICD) and check /etc/OpenCL/vendors. CPU stages still run.\n");
    return 0;
  }
  for (const auto& d : devices) {
    std::printf("[%s] %s\n", d.selector().c_str(), d.name.c_str());
    std::printf("    platform      : %s (%s)\n", d.platformName.c_str(), d.platformVersion.c_str());
    std::printf("    type          : %s, vendor %s, driver %s\n", d.type.c_str(), d.vendor.c_str(),
                d.driverVersion.c_str());
    std::printf("    version       : %s, %s\n", d.deviceVersion.c_str(), d.openclCVersion.c_str());
    std::printf("    compute units : %u\n", d.computeUnits);
    std::printf("    global memory : %.2f GiB (max allocation %.2f GiB)\n", d.globalMemBytes / 1073741824.0,
                d.maxAllocBytes / 1073741824.0);
    std::printf("    local memory  : %.1f KiB\n", d.localMemBytes / 1024.0);
    std::string sizes;
    for (auto v : d.maxWorkItemSizes) sizes += (sizes.empty() ? "" : " x ") + std::to_string(v);
    std::printf("    work-group    : max %zu, max item sizes %s\n", d.maxWorkGroupSize, sizes.c_str());
    std::printf("    GL sharing    : %s\n", d.hasExtension("cl_khr_gl_sharing") ? "yes (cl_khr_gl_sharing)" : "no");
    std::string ext;
    for (const auto& e : d.extensions) ext += e + ' ';
    std::printf("    extensions    : %s\n", ext.c_str());
  }
  std::printf("\nStages: ");
  for (const auto& s : availableStages()) std::printf("%s ", s.c_str());
  std::printf("\n");
  return 0;
}

int tuneCommand(const ScenarioOptions& opts, const TuneOptions& tune) {
  const Scenario s = opts.resolve();
  const DeviceInfo device = selectDevice(s.device);
  std::printf("Tuning on [%s] %s, grid %d x %d x %d\n", device.selector().c_str(), device.name.c_str(), s.n1, s.n2,
              s.n3);
  iso::TuneOptions options;
  options.timedSteps = tune.steps;
  options.repeats = tune.repeats;
  options.store = !tune.dryRun;
  for (const auto& stage : tune.stages) {
    if (!StageRegistry::get(stage).opencl) throw ScenarioError("only OpenCL stages are tuned, not '" + stage + "'");
    const Problem p = problemFor(s, stage);
    std::printf("\n%s: %zu candidates\n", stage.c_str(), tuningCandidates(stage, device, p.grid).size());
    const TuneResult result = tuneStage(p, device, stage, options, [](const StageTiming& t) {
      if (t.error.empty())
        std::printf("  %-50s %10.1f Mpts/s\n", formatStageParams(t.params).c_str(), t.mpts);
      else
        std::printf("  %-50s skipped: %s\n", formatStageParams(t.params).c_str(), t.error.c_str());
      std::fflush(stdout);
    });
    std::printf("best: %s at %.1f Mpts/s%s\n", formatStageParams(result.best).c_str(), result.bestMpts,
                tune.dryRun ? " (database unchanged: --dry-run)" : " (stored in the tuning database)");
  }
  return 0;
}

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kViewCostWarmupSeconds = 0.5;

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The solver alone, advancing in batches of `steps` as the controller does, with no slices taken.
double solverAloneMpts(const Scenario& s, int steps, double seconds) {
  auto solver = createSolver(problemFor(s, s.stage), configFor(s, s.stage));
  for (const auto start = Clock::now(); secondsSince(start) < kViewCostWarmupSeconds;) solver->advance(steps);
  long done = 0;
  const auto start = Clock::now();
  while (secondsSince(start) < seconds) {
    solver->advance(steps);
    done += steps;
  }
  return double(solver->grid().interiorSize()) * double(done) / secondsSince(start) / 1e6;
}

}  // namespace

int viewCostCommand(const ScenarioOptions& opts, const ViewCostOptions& view) {
  const Scenario s = opts.resolve();
  const double alone = solverAloneMpts(s, view.stepsPerFrame, view.seconds);

  SimulationController controller;
  playWhenBuilt(controller, s, view.stepsPerFrame);
  // The reader takes the newest slices `fps` times a second and copies them, as the view does.
  const auto period = std::chrono::duration<double>(1.0 / view.fps);
  auto next = Clock::now();
  const auto readFor = [&](double seconds) {
    long frames = 0;
    for (const auto start = Clock::now(); secondsSince(start) < seconds;) {
      next += std::chrono::duration_cast<Clock::duration>(period);
      std::this_thread::sleep_until(next);
      if (!controller.slices().take()) continue;
      const auto copy = std::make_shared<const SliceSet>(controller.slices().front());
      frames += copy->xy.empty() ? 0 : 1;
    }
    return frames;
  };
  readFor(kViewCostWarmupSeconds);
  const ControllerStatus first = controller.status();
  const std::uint64_t skippedBefore = controller.framesSkipped();
  const auto start = Clock::now();
  const long frames = readFor(view.seconds);
  const double wall = secondsSince(start);
  const ControllerStatus last = controller.status();
  controller.stop();
  const double withView = double(last.grid.interiorSize()) * double(last.step - first.step) / wall / 1e6;

  std::printf("%s on %s, %dx%dx%d, %d steps per frame, %.1f s each\n", last.stage.c_str(), last.device.c_str(),
              last.grid.n1, last.grid.n2, last.grid.n3, view.stepsPerFrame, view.seconds);
  std::printf("solver alone           : %10.1f Mpts/s\n", alone);
  std::printf("with a %3.0f Hz reader  : %10.1f Mpts/s, %.1f frames/s delivered, %llu batches without slices\n",
              view.fps, withView, double(frames) / wall,
              static_cast<unsigned long long>(controller.framesSkipped() - skippedBefore));
  std::printf("ratio                  : %10.1f %%\n", alone > 0.0 ? 100.0 * withView / alone : 0.0);
  return 0;
}

}  // namespace iso::cli
