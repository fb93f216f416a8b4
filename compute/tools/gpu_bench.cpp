// iso3dfd-gpu-bench: checks every OpenCL stage against cpu-serial on a small grid, measures the copy
// bandwidth, tunes gpu-slm and gpu-optimized, and times every stage at several sizes. No Qt, so it runs
// on a bare GPU machine. Usage:
//   iso3dfd-gpu-bench [--device SEL] [--sizes 256,512,768] [--tune-size 512] [--steps 20] [--repeats 5]
//                     [--no-verify] [--no-tune] [--with-cpu-parallel] [--out DIR]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "Bandwidth.h"
#include "ClError.h"
#include "CpuSolvers.h"
#include "FieldCompare.h"
#include "Metrics.h"
#include "OpenClSolver.h"
#include "SolverFactory.h"
#include "StageRegistry.h"
#include "Tuner.h"

using namespace iso;

namespace {

struct Args {
  std::string device = "gpu", out = ".";
  std::vector<int> sizes = {256, 512, 768};
  int tuneSize = 512, steps = 20, repeats = 5;
  bool verify = true, tune = true, withCpuParallel = false;
};

std::vector<int> parseList(const std::string& s) {
  std::vector<int> v;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) v.push_back(std::stoi(item));
  return v;
}

Args parseArgs(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(k + " needs a value");
      return argv[++i];
    };
    if (k == "--device") a.device = value();
    else if (k == "--sizes") a.sizes = parseList(value());
    else if (k == "--tune-size") a.tuneSize = std::stoi(value());
    else if (k == "--steps") a.steps = std::stoi(value());
    else if (k == "--repeats") a.repeats = std::stoi(value());
    else if (k == "--out") a.out = value();
    else if (k == "--no-verify") a.verify = false;
    else if (k == "--no-tune") a.tune = false;
    else if (k == "--with-cpu-parallel") a.withCpuParallel = true;
    else throw std::invalid_argument("unknown option " + k);
  }
  return a;
}

// A cube of n³ with random fields (timing on zeros can flatter a kernel), constant velocity at Courant
// 0.2, reflecting boundary, no source: the stencil alone.
Problem timingProblem(int n) {
  Problem p;
  p.grid = Grid(n, n, n);
  p.dx = 10.0;
  p.coeffs = scaledCoefficients(CoefficientSet::Exact, p.dx);
  const double courant = 0.2;
  p.vel.assign(p.grid.paddedSize(), float(courant * courant * p.dx * p.dx));
  p.initialPrev.resize(p.grid.paddedSize());
  std::uint32_t state = 12345u;
  for (float& v : p.initialPrev) {
    state = state * 1664525u + 1013904223u;
    v = float(state >> 8) / float(1u << 24) - 0.5f;
  }
  return p;
}

std::vector<std::string> openClStages() {
  std::vector<std::string> s;
  for (const auto& id : StageRegistry::ids(true))
    if (StageRegistry::get(id).opencl) s.push_back(id);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parseArgs(argc, argv);
    std::ofstream log(args.out + "/gpu_bench.log");
    auto say = [&](const std::string& line) {
      std::cout << line << std::endl;
      log << line << std::endl;
    };
    for (const auto& d : listDevices()) say("device " + d.summary() + " driver " + d.driverVersion);
    const DeviceInfo device = selectDevice(args.device);
    say("selected " + device.summary());
    const double ceiling = copyBandwidthGBs(device, true);
    char buf[512];
    std::snprintf(buf, sizeof buf, "copy bandwidth (clEnqueueCopyBuffer, read+write, median): %.1f GB/s => 16 B/pt roofline %.1f Gpts/s",
                  ceiling, ceiling / 16.0);
    say(buf);

    bool allAgree = true;
    if (args.verify) {
      Scenario s = presetScenario("default");
      s.n1 = 67; s.n2 = 45; s.n3 = 29;
      s.model.layers = {{0.0, 2000.0}, {100.0, 2500.0}, {200.0, 3000.0}};
      s.model.salt.enabled = false;
      s.boundary = {BoundaryKind::Absorbing, 5, 1e-3};
      s.source = {SourceKind::Ricker, 20, 22, 14, 60.0, 1e6, 0.006};
      s.receivers = {{3, 22, 14}, {60, 40, 25}};
      const int steps = 40;
      Problem refProblem = buildProblem(s);
      refProblem.stage = "cpu-serial";
      refProblem.stageParams.clear();
      auto ref = createCpuSolver(refProblem);
      ref->advance(steps);
      std::vector<float> refField;
      ref->readField(refField);
      std::vector<std::pair<std::string, StageParamMap>> runs;
      for (const auto& st : openClStages()) runs.push_back({st, {}});
      for (const auto& c : tuningCandidates("gpu-optimized", device, refProblem.grid)) runs.push_back({"gpu-optimized", c});
      for (const auto& c : tuningCandidates("gpu-slm", device, refProblem.grid)) runs.push_back({"gpu-slm", c});
      for (const auto& [stage, params] : runs) {
        Problem p = refProblem;
        p.stage = stage;
        p.stageParams = params;
        OpenClSolverOptions so;
        so.useTuningDatabase = false;
        std::unique_ptr<OpenClSolver> built;
        try {
          built = std::make_unique<OpenClSolver>(std::move(p), device, so);
        } catch (const ComputeError& e) {
          // A candidate the device refuses (limits, compiler options) is skipped here and by the tuner.
          say("verify " + stage + " " + formatStageParams(params) + " skipped (" + toString(e.status()) + "): " + e.what());
          continue;
        }
        OpenClSolver& solver = *built;
        solver.advance(steps);
        std::vector<float> field;
        solver.readField(field);
        const FieldDifference d = compareFields(field, refField);
        const FieldDifference dt = compareFields(solver.traces(), ref->traces());
        const bool ok = d.withinTolerance(1e-5) && dt.withinTolerance(1e-5);
        allAgree = allAgree && ok;
        std::snprintf(buf, sizeof buf, "verify %-14s %-55s relL2 %.2e traces %.2e %s", stage.c_str(),
                      formatStageParams(solver.parameters()).c_str(), d.relativeL2, dt.relativeL2, ok ? "OK" : "FAIL");
        say(buf);
      }
    }

    TuneOptions topt;
    topt.timedSteps = args.steps;
    topt.repeats = args.repeats;
    std::map<std::string, StageParamMap> best;
    if (args.tune) {
      const Problem p = timingProblem(args.tuneSize);
      for (const std::string stage : {"gpu-optimized", "gpu-slm"}) {
        const TuneResult r = tuneStage(p, device, stage, topt, [&](const StageTiming& t) {
          std::snprintf(buf, sizeof buf, "tune %d^3 %-14s %-60s %s", args.tuneSize, stage.c_str(),
                        formatStageParams(t.params).c_str(),
                        t.error.empty() ? (std::to_string(int(t.mpts)) + " Mpts/s").c_str() : t.error.c_str());
          say(buf);
        });
        best[stage] = r.best;
        say("best " + stage + ": " + formatStageParams(r.best) + " " + std::to_string(int(r.bestMpts)) + " Mpts/s");
      }
    }

    std::vector<std::string> table;
    table.push_back("stage          size   Mpts/s    GFLOP/s  GB/s(12B) GB/s(16B) %roof(copy " +
                    std::to_string(int(ceiling)) + " GB/s)  params");
    for (int n : args.sizes) {
      const Problem p = timingProblem(n);
      for (const auto& stage : openClStages()) {
        const StageTiming t = timeStage(p, device, stage, best.count(stage) ? best[stage] : StageParamMap{}, topt);
        if (!t.error.empty()) {
          say("time " + stage + " " + std::to_string(n) + ": " + t.error);
          continue;
        }
        const Throughput th = computeThroughput(double(p.grid.interiorSize()), 1.0, t.secondsPerStep, ceiling);
        std::snprintf(buf, sizeof buf, "%-14s %4d %9.0f %9.0f %9.0f %9.0f %8.1f   %s", stage.c_str(), n, th.mpts,
                      th.gflops, th.gbsSample, th.gbsTraffic, th.rooflinePercent, formatStageParams(t.params).c_str());
        say(std::string("time ") + buf);
        table.push_back(buf);
      }
    }
    if (args.withCpuParallel) {
      // The native CPU stage next to the OpenCL ones (steady_clock, same problem, median batch).
      for (int n : args.sizes) {
        Problem p = timingProblem(n);
        p.stage = "cpu-parallel";
        auto cpu = createSolver(std::move(p));
        cpu->advance(topt.warmupSteps);
        std::vector<double> batches;
        for (int r = 0; r < args.repeats; ++r) batches.push_back(cpu->advance(args.steps) / args.steps);
        std::sort(batches.begin(), batches.end());
        const Throughput th = computeThroughput(double(n) * n * n, 1.0, batches[batches.size() / 2], ceiling);
        std::snprintf(buf, sizeof buf, "%-14s %4d %9.0f %9.0f %9.0f %9.0f %8.1f   (host threads, steady_clock)",
                      "cpu-parallel", n, th.mpts, th.gflops, th.gbsSample, th.gbsTraffic, th.rooflinePercent);
        table.push_back(buf);
      }
    }
    say("\n==== summary (" + device.name + ", median of " + std::to_string(args.repeats) + " x " +
        std::to_string(args.steps) + " steps, fp32) ====");
    for (const auto& line : table) say(line);
    say(std::string("verification: ") + (args.verify ? (allAgree ? "all stages agree with cpu-serial" : "FAILURES") : "skipped"));
    return allAgree ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "iso3dfd-gpu-bench: " << e.what() << "\n";
    return 2;
  }
}
