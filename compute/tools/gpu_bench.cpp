// iso3dfd-gpu-bench: checks every OpenCL stage against cpu-serial on a small grid, measures the copy
// bandwidth, tunes gpu-slm and gpu-optimized, and times every stage at several sizes. No Qt, so it runs
// on a bare GPU machine. Usage:
//   iso3dfd-gpu-bench [--device SEL] [--sizes 256,512,768] [--tune-size 512] [--steps 20] [--repeats 5]
//                     [--no-verify] [--no-tune] [--with-cpu-parallel] [--out DIR]
//                     [--sweep "tile_x=32,64;y_per_item=1,2"] [--stages gpu-optimized,...] [--ptxas]
//                     [--tune-each-size]
// --sweep replaces the tuner's gpu-optimized candidates by the product of the listed values (over the
// device defaults); --stages limits the timing table; --ptxas prints NVIDIA's register/spill report of
// every gpu-optimized candidate (the build log with -cl-nv-verbose); --tune-each-size times gpu-optimized
// at each table size with that size's best candidate (as `iso3dfd tune` on that grid would choose).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
  std::string sweep;                // "key=v1,v2;key=v1" for gpu-optimized, empty = tuningCandidates()
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
    else if (k == "--sweep") a.sweep = value();
    else if (k == "--ptxas") a.ptxas = true;
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

// The product of "key=v1,v2;key=v3" as gpu-optimized parameter sets the device can run.
std::vector<StageParamMap> sweepCandidates(const std::string& spec, const DeviceInfo& device) {
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
  std::vector<StageParamMap> out;
  for (const auto& p : sets) {
    try {
      out.push_back(resolveStageParams("gpu-optimized", device, p, /*useDatabase=*/false));
    } catch (const ComputeError& e) {
      std::cout << "sweep: skipped " << formatStageParams(p) << ": " << e.what() << "\n";
    }
  }
  return out;
}

// NVIDIA's ptxas report (registers, spills, shared memory) of gpu-optimized's GPU kernel built with
// `params`: the build options mirror OpenClSolver's for this stage (no damping), plus -cl-nv-verbose.
std::string ptxasReport(const ClContext& ctx, const StageParamMap& p) {
  std::string options = "-DDAMPING=0 -DTX=" + std::to_string(p.at("tile_x")) + " -DTY=" + std::to_string(p.at("tile_y")) +
                        " -DYB=" + std::to_string(p.at("y_per_item")) + " -DPREFETCH=" + std::to_string(p.at("prefetch")) +
                        " -DZ_UNROLL=" + std::to_string(p.at("z_unroll")) +
                        " -cl-nv-verbose";
  if (p.at("max_registers") > 0) options += " -cl-nv-maxrregcount=" + std::to_string(p.at("max_registers"));
  const std::string source = kernelSource("common.cl") + "\n" + kernelSource("optimized_gpu.cl");
  const char* src = source.c_str();
  const std::size_t len = source.size();
  cl_int err = CL_SUCCESS;
  cl_device_id dev = ctx.device();
  cl_program program = clCreateProgramWithSource(ctx.context(), 1, &src, &len, &err);
  checkCl(err, "clCreateProgramWithSource", "ptxas report");
  const cl_int built = clBuildProgram(program, 1, &dev, options.c_str(), nullptr, nullptr);
  std::size_t size = 0;
  clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  log.resize(std::strlen(log.c_str()));  // the size counts the terminating NUL
  std::string report = log;
  if (built == CL_SUCCESS) {
    cl_kernel k = clCreateKernel(program, "stencil", &err);
    if (err == CL_SUCCESS) {
      std::size_t wg = 0;
      cl_ulong local = 0, priv = 0;
      clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr);
      clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, nullptr);
      clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv, nullptr);
      report += "\nkernel work-group limit " + std::to_string(wg) + ", local " + std::to_string(local) +
                " B, private " + std::to_string(priv) + " B";
      clReleaseKernel(k);
    }
  } else {
    report += "\nbuild failed: " + std::string(clErrorName(built));
  }
  clReleaseProgram(program);
  return report;
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
        args.sweep.empty() ? tuningCandidates("gpu-optimized", device, Grid(args.tuneSize, args.tuneSize, args.tuneSize))
                           : sweepCandidates(args.sweep, device);
    if (args.ptxas && device.hasExtension("cl_nv_compiler_options")) {
      const ClContext ctx(device);
      for (const auto& c : optimizedCandidates) say("ptxas " + formatStageParams(c) + ":\n" + ptxasReport(ctx, c));
    }

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
      for (const auto& c : optimizedCandidates) runs.push_back({"gpu-optimized", c});
      if (args.sweep.empty())
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
      auto report = [&](const std::string& stage, const StageTiming& t) {
        std::snprintf(buf, sizeof buf, "tune %d^3 %-14s %-60s %s", args.tuneSize, stage.c_str(),
                      formatStageParams(t.params).c_str(),
                      t.error.empty() ? (std::to_string(int(t.mpts)) + " Mpts/s").c_str() : t.error.c_str());
        say(buf);
      };
      std::vector<std::string> tuned = {"gpu-optimized", "gpu-slm"};
      if (!args.sweep.empty()) {
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
          const auto candidates = args.sweep.empty() ? tuningCandidates(stage, device, p.grid) : optimizedCandidates;
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
