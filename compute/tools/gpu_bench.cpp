// iso3dfd-gpu-bench: checks every OpenCL stage against cpu-serial on a small grid, measures the copy
// bandwidth, tunes gpu-slm and gpu-optimized, and times every stage at several sizes. No Qt, so it runs
// on a bare GPU machine. Usage:
//   iso3dfd-gpu-bench [--device SEL] [--sizes 256,512,768] [--tune-size 512] [--steps 20] [--repeats 5]
//                     [--no-verify] [--no-tune] [--with-cpu-parallel] [--out DIR]
//                     [--sweep "tile_x=32,64;y_per_item=1,2"] [--stages gpu-optimized,...] [--ptxas]
//                     [--tune-each-size] [--ptx-dir DIR]
// --sweep replaces the tuner's gpu-optimized candidates by the product of the listed values (over the
// device defaults; several --sweep options add their products together); --stages limits the timing
// table; --ptxas prints NVIDIA's register/spill report of every gpu-optimized candidate (the build log
// with -cl-nv-verbose), and with it --ptx-dir writes each one's PTX there; --tune-each-size times
// gpu-optimized at each table size with that size's best candidate (as `iso3dfd tune` on that grid
// would choose). Every verification runs inside NaN guard regions that are checked afterwards.
#include <algorithm>
#include <cmath>
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
#include "ClHost.h"
#include "FieldCompare.h"
#include "KernelSources.h"
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
  bool verify = true, tune = true, withCpuParallel = false, ptxas = false, tuneEachSize = false;
  std::vector<std::string> sweeps;  // "key=v1,v2;key=v1" for gpu-optimized, empty = tuningCandidates()
  std::string ptxDir;               // with --ptxas: where to write each candidate's program binary
  std::vector<std::string> stages;  // timing table stages, empty = every OpenCL stage
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
    else if (k == "--sweep") a.sweeps.push_back(value());
    else if (k == "--ptxas") a.ptxas = true;
    else if (k == "--ptx-dir") a.ptxDir = value();
    else if (k == "--tune-each-size") a.tuneEachSize = true;
    else if (k == "--stages") {
      std::stringstream ss(value());
      for (std::string item; std::getline(ss, item, ',');) a.stages.push_back(item);
    }
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

// The products of "key=v1,v2;key=v3" (one per spec) as gpu-optimized parameter sets the device can run.
std::vector<StageParamMap> sweepCandidates(const std::vector<std::string>& specs, const DeviceInfo& device) {
  std::vector<StageParamMap> out;
  for (const std::string& spec : specs) {
    std::vector<StageParamMap> sets = {{{"cpu_form", 0}}};
    std::stringstream ss(spec);
    for (std::string item; std::getline(ss, item, ';');) {
      const auto eq = item.find('=');
      if (eq == std::string::npos) throw std::invalid_argument("--sweep: '" + item + "' is not key=v1,v2,...");
      std::vector<StageParamMap> grown;
      for (const auto& base : sets)
        for (int v : parseList(item.substr(eq + 1))) {
          StageParamMap p = base;
          p[item.substr(0, eq)] = v;
          grown.push_back(p);
        }
      sets = grown;
    }
    for (const auto& p : sets) {
      try {
        out.push_back(resolveStageParams("gpu-optimized", device, p, /*useDatabase=*/false));
      } catch (const ComputeError& e) {
        std::cout << "sweep: skipped " << formatStageParams(p) << ": " << e.what() << "\n";
      }
    }
  }
  return out;
}

// NVIDIA's ptxas report (registers, spills, shared memory) of gpu-optimized's GPU kernel built with
// `params` for `grid`: OpenClSolver's build (no damping) plus -cl-nv-verbose. With `ptxPath`, also
// writes the program binary there (PTX text on NVIDIA) for offline disassembly.
std::string ptxasReport(const ClContext& ctx, const StageParamMap& p, const Grid& grid, const std::string& ptxPath) {
  try {
    const Program program(ctx, {kernelSource("common.cl") + "\n" + kernelSource("optimized_gpu.cl"),
                                stageBuildOptions("gpu-optimized", p, /*damping=*/false, grid) + " -cl-nv-verbose",
                                "ptxas report", p.at("max_registers")});
    if (!ptxPath.empty()) {
      const std::vector<unsigned char> binary = program.binary();
      std::ofstream(ptxPath, std::ios::binary).write(reinterpret_cast<const char*>(binary.data()), std::streamsize(binary.size()));
    }
    return program.fromCache() ? "(from the kernel cache: no report)" : program.log();
  } catch (const ComputeError& e) {
    return std::string("build failed: ") + e.what();
  }
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

    const std::vector<StageParamMap> optimizedCandidates =
        args.sweeps.empty() ? tuningCandidates("gpu-optimized", device, Grid(args.tuneSize, args.tuneSize, args.tuneSize))
                            : sweepCandidates(args.sweeps, device);
    if (args.ptxas && device.vendor.find("NVIDIA") != std::string::npos) {
      const ClContext ctx(device);
      for (const auto& c : optimizedCandidates) {
        std::string ptx;
        if (!args.ptxDir.empty()) {
          ptx = args.ptxDir + "/" + formatStageParams(c) + ".ptx";
          std::replace(ptx.begin() + args.ptxDir.size() + 1, ptx.end(), ' ', '_');
        }
        const Grid grid(args.tuneSize, args.tuneSize, args.tuneSize);
        say("ptxas " + formatStageParams(c) + ":\n" + ptxasReport(ctx, c, grid, ptx));
      }
    }

    bool allAgree = true;
    if (args.verify) {
      // Two grids: rows of 83 floats (no vector alignment) and of 80 (aligned for every x_per_item).
      for (const int n1 : {67, 64}) {
        Scenario s = presetScenario("default");
        s.n1 = n1; s.n2 = 45; s.n3 = 29;
        s.model.layers = {{0.0, 2000.0}, {100.0, 2500.0}, {200.0, 3000.0}};
        s.model.salt.enabled = false;
        s.boundary = {BoundaryKind::Absorbing, 5, 1e-3};
        s.source = {SourceKind::Ricker, 20, 22, 14, 60.0, 1e6, 0.006};
        s.receivers = {{3, 22, 14}, {60, 40, 25}};
        const int steps = 40;
        const Problem refProblem = buildProblem(s);
        auto ref = createCpuSolver(refProblem, "cpu-serial");
        ref->advance(steps);
        std::vector<float> refField;
        ref->readField(refField);
        std::vector<std::pair<std::string, StageParamMap>> runs;
        for (const auto& st : openClStages()) runs.push_back({st, {}});
        for (const auto& c : optimizedCandidates) runs.push_back({"gpu-optimized", c});
        if (args.sweeps.empty())
          for (const auto& c : tuningCandidates("gpu-slm", device, refProblem.grid)) runs.push_back({"gpu-slm", c});
        for (const auto& [stage, params] : runs) {
          // The grids run inside larger allocations whose guard regions hold NaN: a read outside a
          // buffer poisons the field, a write outside it changes the guard (checked below).
          OpenClSolverOptions so;
          so.useTuningDatabase = false;
          so.guardElements = 4096;
          so.guardValue = std::nanf("");
          std::unique_ptr<OpenClSolver> built;
          try {
            built = std::make_unique<OpenClSolver>(refProblem, stage, params, device, so);
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
          std::size_t guardsChanged = 0;
          const std::size_t guard = solver.guardElements(), n = solver.grid().paddedSize();
          for (int b = 0; b < 3; ++b) {
            const std::vector<float> raw = solver.readRawBuffer(b);
            for (std::size_t i = 0; i < guard; ++i) guardsChanged += !std::isnan(raw[i]) + !std::isnan(raw[guard + n + i]);
          }
          const bool ok = d.withinTolerance(1e-5) && dt.withinTolerance(1e-5) && guardsChanged == 0;
          allAgree = allAgree && ok;
          std::snprintf(buf, sizeof buf, "verify %dx45x29 %-14s %-55s relL2 %.2e traces %.2e guards %s %s", n1,
                        stage.c_str(), formatStageParams(solver.parameters()).c_str(), d.relativeL2, dt.relativeL2,
                        guardsChanged ? "WRITTEN" : "intact", ok ? "OK" : "FAIL");
          say(buf);
        }
      }
    }

    TuneOptions topt;
    topt.timedSteps = args.steps;
    topt.repeats = args.repeats;
    std::map<std::string, StageParamMap> best;
    if (args.tune) {
      const Problem p = timingProblem(args.tuneSize);
      auto report = [&](const std::string& stage, const StageTiming& t) {
        std::snprintf(buf, sizeof buf, "tune %d^3 %-14s %-60s %s", args.tuneSize, stage.c_str(),
                      formatStageParams(t.params).c_str(),
                      t.error.empty() ? (std::to_string(int(t.mpts)) + " Mpts/s").c_str() : t.error.c_str());
        say(buf);
      };
      std::vector<std::string> tuned = {"gpu-optimized", "gpu-slm"};
      if (!args.sweeps.empty()) {
        // The swept candidates are timed here, not stored: a sweep explores, the tuner decides.
        double bestMpts = 0.0;
        for (const auto& c : optimizedCandidates) {
          const StageTiming t = timeStage(p, device, "gpu-optimized", c, topt);
          report("gpu-optimized", t);
          if (t.error.empty() && t.mpts > bestMpts) {
            bestMpts = t.mpts;
            best["gpu-optimized"] = t.params;
          }
        }
        say("best gpu-optimized (sweep): " + formatStageParams(best["gpu-optimized"]) + " " +
            std::to_string(int(bestMpts)) + " Mpts/s");
        tuned = {};
      }
      for (const std::string& stage : tuned) {
        const TuneResult r = tuneStage(p, device, stage, topt, [&](const StageTiming& t) { report(stage, t); });
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
        if (!args.stages.empty() && std::find(args.stages.begin(), args.stages.end(), stage) == args.stages.end())
          continue;
        StageTiming t;
        if (stage == "gpu-optimized" && args.tuneEachSize && !(args.tune && n == args.tuneSize)) {
          // This size's best candidate, timed as the tuner times it; that timing is the table's entry.
          const auto candidates = args.sweeps.empty() ? tuningCandidates(stage, device, p.grid) : optimizedCandidates;
          t.error = "no candidate ran";
          for (const auto& c : candidates) {
            const StageTiming ct = timeStage(p, device, stage, c, topt);
            std::snprintf(buf, sizeof buf, "tune %d^3 %-14s %-60s %s", n, stage.c_str(), formatStageParams(ct.params).c_str(),
                          ct.error.empty() ? (std::to_string(int(ct.mpts)) + " Mpts/s").c_str() : ct.error.c_str());
            say(buf);
            if (ct.error.empty() && (!t.error.empty() || ct.mpts > t.mpts)) t = ct;
          }
        } else {
          t = timeStage(p, device, stage, best.count(stage) ? best[stage] : StageParamMap{}, topt);
        }
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
        auto cpu = createSolver(timingProblem(n), ExecutionConfig{"cpu-parallel", "", {}});
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
