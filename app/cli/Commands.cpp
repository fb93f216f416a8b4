#include "app/cli/Commands.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>

#include "compute/Bandwidth.h"
#include "app/controller/BenchmarkRunner.h"
#include "compute/ClError.h"
#include "compute/DeviceLinks.h"
#include "compute/DeviceRegistry.h"
#include "core/FieldCompare.h"
#include "core/Format.h"
#include "core/HostBandwidth.h"
#include "core/Npy.h"
#include "compute/OpenClSolver.h"
#include "compute/SolverFactory.h"
#include "core/AnalyticCheck.h"
#include "core/CacheDirectory.h"
#include "core/Checkpoint.h"
#include "core/Communicator.h"
#include "core/DecomposedSolver.h"
#include "core/OutputFile.h"
#include "mpi/MpiSession.h"
#include "app/cli/PtxasReport.h"
#include "core/ScenarioResize.h"
#include "compute/Stage.h"
#include "compute/StageParams.h"
#include "core/StageRegistry.h"
#include "core/Traces.h"
#include "compute/Tuner.h"
#include "compute/TuningDatabase.h"
#include "compute/stages/OpenClStage.h"
#include "core/VelocityModel.h"
#include "app/controller/ViewCost.h"
#include "core/SystemMemory.h"
#include "core/VtiSeriesWriter.h"
#include "core/VtiWriter.h"

namespace iso::cli {

namespace {

namespace fs = std::filesystem;

constexpr int kVerifyDefaultSteps = 500;

std::string megabytes(std::size_t bytes) { return std::to_string(bytes / (1024 * 1024)) + " MB"; }

// The problem the tuner times a stage on (scenarioForTuning), saying when the layer is left out.
Problem tuningProblem(const Scenario& s) {
  if (tuningLeavesOutTheLayer(s)) std::printf("(timed without the absorbing layer: its kernels take no stage parameter)\n");
  return buildProblem(scenarioForTuning(s));
}

void printHeader(const Problem& p) {
  std::printf("Grid Sizes: %d %d %d\n", p.grid.n1, p.grid.n2, p.grid.n3);
  std::printf("Memory Usage: %s\n", megabytes(solverBytes(p.grid)).c_str());
  std::printf("Stability: %s\n", p.stability.summary().c_str());
}

struct OutputPath {
  std::string option;
  std::optional<std::string> path;
};

// Every output is checked before anything runs: a name, a target that takes it (a file in a folder that
// exists and takes files, or a stream such as /dev/null or a FIFO), and no file that is also an input or
// another output of the same command (streams may take several: `--dump /dev/null --traces /dev/null`).
void checkOutputs(const std::vector<OutputPath>& outputs, const std::vector<std::string>& inputs) {
  std::vector<const OutputPath*> seen;
  for (const OutputPath& out : outputs) {
    if (!out.path) continue;
    const std::string& path = *out.path;
    if (const std::string problem = outputTargetProblem(path); !problem.empty()) throw UsageError(out.option + " " + problem);
    if (inspectFileTarget(path).isStream()) continue;
    for (const std::string& input : inputs)
      if (samePath(path, input))
        throw UsageError(out.option + " " + path + " is also an input of this run; writing it would destroy it");
    for (const OutputPath* other : seen)
      if (samePath(path, *other->path))
        throw UsageError(out.option + " and " + other->option + " name the same file " + path);
    seen.push_back(&out);
  }
}

// --device picks an OpenCL device; with only host stages it would be ignored, so it is refused.
void checkDeviceUse(const ScenarioOptions& opts, const std::vector<std::string>& stages) {
  if (!opts.device) return;
  for (const auto& s : stages)
    if (resolveStage(s).opencl()) return;
  std::vector<std::string> openCl;
  for (const Stage* s : allStages())
    if (s->opencl()) openCl.push_back(s->id());
  throw UsageError("--device " + *opts.device + " selects an OpenCL device, but " +
                   (stages.size() == 1 ? "stage " + stages.front() + " runs" : "stages " + commaList(stages) + " run") +
                   " on the host CPU: drop --device, or choose an OpenCL stage (" + commaList(openCl) + ")");
}

std::vector<int> parseIntegerList(const std::string& text, const std::string& what) {
  std::vector<int> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    std::size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size()) throw UsageError(what + ": '" + item + "' is not an integer");
    out.push_back(v);
  }
  if (out.empty()) throw UsageError(what + ": no values in '" + text + "'");
  return out;
}

// The parameter sets of --sweep specs "key=v1,v2;key=v3": the products of each spec's values.
struct Sweep {
  std::vector<StageParamMap> sets;
  std::vector<std::string> keys;  // every key a spec names

  // Whether `stage` takes every key of the sweep.
  bool appliesTo(const Stage& stage) const {
    const std::vector<std::string> names = stage.parameterNames();
    return stage.opencl() && std::all_of(keys.begin(), keys.end(), [&](const std::string& k) {
             return std::find(names.begin(), names.end(), k) != names.end();
           });
  }
};

Sweep parseSweep(const std::vector<std::string>& specs) {
  Sweep sweep;
  for (const std::string& spec : specs) {
    std::vector<StageParamMap> sets = {{}};
    std::stringstream ss(spec);
    for (std::string item; std::getline(ss, item, ';');) {
      const auto eq = item.find('=');
      if (eq == std::string::npos || eq == 0) throw UsageError("--sweep: '" + item + "' is not key=v1,v2,...");
      const std::string key = item.substr(0, eq);
      const std::vector<int> values = parseIntegerList(item.substr(eq + 1), "--sweep " + key);
      std::vector<StageParamMap> grown;
      for (const auto& base : sets)
        for (int v : values) {
          StageParamMap p = base;
          p[key] = v;
          grown.push_back(p);
        }
      sets = grown;
      if (std::find(sweep.keys.begin(), sweep.keys.end(), key) == sweep.keys.end()) sweep.keys.push_back(key);
    }
    sweep.sets.insert(sweep.sets.end(), sets.begin(), sets.end());
  }
  return sweep;
}

// The stages of `stages` the sweep applies to; UsageError when it applies to none.
std::vector<const Stage*> sweptStages(const Sweep& sweep, const std::vector<std::string>& stages) {
  std::vector<const Stage*> out;
  for (const std::string& id : stages)
    if (const Stage& stage = resolveStage(id); sweep.appliesTo(stage)) out.push_back(&stage);
  if (out.empty())
    throw UsageError("--sweep sets " + commaList(sweep.keys) + ": no OpenCL stage among " + commaList(stages) +
                     " takes every parameter it sets (`iso3dfd stages` lists each stage's parameters)");
  return out;
}

// The sweep's sets as complete parameter sets of `stage` that the device can run, merged over the
// stage's built-in defaults as its tuning candidates are; sets the device refuses are listed and skipped.
std::vector<StageParamMap> sweepCandidates(const Sweep& sweep, const Stage& stage, const DeviceInfo& device,
                                           const Grid& grid) {
  std::vector<StageParamMap> out;
  for (const StageParamMap& p : sweep.sets) {
    try {
      out.push_back(resolveStageParams(*stage.openCl(), device, grid, p, /*useDatabase=*/false));
    } catch (const ComputeError& e) {
      std::printf("sweep: skipped %s: %s\n", formatStageParams(p).c_str(), e.what());
    }
  }
  return out;
}

// Guard elements around each OpenCL buffer in `verify`: NaN, so that a read outside a buffer poisons
// the field and a write outside it changes the guard.
constexpr std::size_t kGuardElements = 4096;

std::size_t changedGuards(OpenClSolver& solver) {
  std::size_t changed = 0;
  const std::size_t guard = solver.guardElements(), n = solver.grid().paddedSize();
  for (int b = 0; b < solver.rawBuffers(); ++b) {
    const std::vector<float> raw = solver.readRawBuffer(b);
    for (std::size_t i = 0; i < guard; ++i) changed += !std::isnan(raw[i]) + !std::isnan(raw[guard + n + i]);
  }
  return changed;
}

// The ceiling of `run`'s % roofline: the stored measurement; a new one only when the run holds at least
// as much memory as the probe would take, and the cache can keep the result (a 12^3 run must not
// allocate 2 x 256 MiB to time a copy, nor time it again on every call). 0 when there is none.
double runCeilingGBs(const Stage& stage, const std::optional<DeviceInfo>& device, std::size_t runBytes) {
  const bool kept = !cacheDirectory().empty();
  if (!stage.openCl()) {
    if (const auto stored = storedHostBandwidth()) return stored->medianGBs;
    if (runBytes < 2 * hostBandwidthBufferBytes() || !kept) return 0.0;
  } else if (device) {
    if (const auto stored = storedCeiling(*device, CeilingProbe::Copy)) return stored->median;
    if (runBytes < copyProbeBytes(*device) || !kept) return 0.0;
  }
  return stage.rooflineCeiling(device).gbs;
}

// Tune never overwrites a database it cannot read: it says where that one went.
void noteKeptDatabase(const TuneResult& result) {
  if (!result.databaseKeptAs.empty())
    std::printf("note: your tuning database could not be read; it is kept as %s, and a new one holds this tuning\n",
                result.databaseKeptAs.c_str());
}

void printTiming(const std::string& label, const StageTiming& t) {
  if (t.error.empty())
    std::printf("  %-12s %-60s %10.1f Mpts/s\n", label.c_str(), formatStageParams(t.params).c_str(), t.mpts);
  else
    std::printf("  %-12s %-60s skipped: %s\n", label.c_str(), formatStageParams(t.params).c_str(), t.error.c_str());
  std::fflush(stdout);
}

}  // namespace

std::vector<std::string> availableStages() {
  return StageRegistry::ids(/*includeOpenCL=*/!listDevices().empty());
}

std::vector<std::string> tunableStageIds() {
  std::vector<std::string> out;
  for (const Stage* s : tunableStages()) out.push_back(s->id());
  return out;
}

std::vector<std::string> expandStages(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& n : names) {
    if (n == "all") {
      for (const auto& s : availableStages()) out.push_back(s);
      continue;
    }
    if (!StageRegistry::find(n)) throw UsageError("unknown stage '" + n + "' (known stages: " + commaList(StageRegistry::ids()) + ")");
    out.push_back(n);
  }
  return out;
}

namespace {

// The slabs of a decomposed run: how the grid is cut, over which ranks and devices.
void printDecomposition(const DecomposedSolver& solver) {
  std::printf("Decomposition: %zu slabs along z", solver.slabs().size());
  if (solver.ranks() > 1)
    std::printf(" over %d ranks (%s), %s", solver.ranks(), MpiSession::library().c_str(), solver.rankHalos().c_str());
  std::printf("\n");
  for (const std::string& line : solver.layout()) std::printf("  %s\n", line.c_str());
}

// The devices of a decomposed run, each counted once over its ranks and hosts (slabs that share a device,
// or the host's memory, share its bandwidth).
std::size_t distinctDevices(const ExecutionConfig& config) {
  const auto ranks = processRanks();
  std::string host(256, '\0');
  if (::gethostname(host.data(), host.size()) != 0) host = "this host";
  host.resize(host.find('\0') == std::string::npos ? host.size() : host.find('\0'));
  std::string mine;
  if (!StageRegistry::get(config.stage).opencl) mine = host + " host\n";
  else
    for (const DeviceInfo& d : slabDevices(config, ranks.get())) mine += host + " " + d.selector() + "\n";
  std::set<std::string> all;
  for (const std::string& text : ranks ? ranks->allGather(mine) : std::vector<std::string>{mine}) {
    std::stringstream lines(text);
    for (std::string line; std::getline(lines, line);) all.insert(line);
  }
  return all.size();
}

// On one OpenCL device: where its kernels' time per step goes, from profiling events (the whole run,
// warm-up step included): the stencil, the absorbing layer's passes by axis, and the rest (source,
// receivers).
void printKernelTimes(const WaveSolver& solver) {
  const auto* openCl = dynamic_cast<const OpenClSolver*>(&solver);
  if (!openCl || openCl->counters().steps == 0) return;
  const SolverCounters& c = openCl->counters();
  const double steps = double(c.steps), ms = 1e3 / steps;
  double layer = 0.0;
  for (double seconds : c.layerSeconds) layer += seconds;
  std::printf("kernels per step: stencil %.3f ms", c.stencilSeconds * ms);
  if (layer > 0.0) {
    const auto& l = c.layerSeconds;
    std::printf(", absorbing layer %.3f ms (psi z %.3f; corrections with their psi x %.3f, y %.3f; correction z %.3f)",
                layer * ms, l[0] * ms, l[1] * ms, l[2] * ms, l[3] * ms);
  }
  std::printf(", source and receivers %.3f ms\n", (c.kernelSeconds - c.stencilSeconds - layer) * ms);
}

// Per slab on an OpenCL device: its kernels' time per step against the step's (the rest of a step its
// device waits, for the exchange or the host), of that the time it had finished a step while its ghost
// planes were still coming in (the exchange that computation did not hide), and its plane copies, which
// run beside the kernels. Each rank sends its slabs' counters; rank 0 sets them against its step.
void printSlabTimes(const DecomposedSolver& solver, double secondsPerStep) {
  std::string mine;
  for (const WaveSolver* slab : solver.localSlabs()) {
    const auto* openCl = dynamic_cast<const OpenClSolver*>(slab);
    if (!openCl || openCl->counters().steps == 0) continue;
    const SolverCounters& c = openCl->counters();
    mine += openCl->deviceName() + "\t" + std::to_string(c.kernelSeconds / double(c.steps)) + "\t" +
            std::to_string(c.planeWaitSeconds / double(c.steps)) + "\t" +
            std::to_string(c.planeCopySeconds / double(c.steps)) + "\t" +
            std::to_string(double(c.planeCopyBytes) / double(c.steps)) + "\n";
  }
  const auto ranks = processRanks();
  std::string text;
  for (const std::string& part : ranks ? ranks->allGather(mine) : std::vector<std::string>{mine}) text += part;
  if (text.empty()) return;
  std::printf("Slabs (a step takes %.3f ms; the rest of it a device waits for planes or the host):\n", secondsPerStep * 1e3);
  std::stringstream lines(text);
  for (std::string name, kernels, waited, copies, bytes;
       std::getline(lines, name, '\t') && std::getline(lines, kernels, '\t') && std::getline(lines, waited, '\t') &&
       std::getline(lines, copies, '\t') && std::getline(lines, bytes);) {
    const double k = std::stod(kernels), w = std::stod(waited), c = std::stod(copies), b = std::stod(bytes);
    std::printf("  %s: kernels %.3f ms/step (%.1f %%), waiting for ghost planes %.3f ms/step (%.1f %%), plane copies "
                "%.3f ms/step beside them (%.1f MB, %.1f GB/s)\n",
                name.c_str(), k * 1e3, 100.0 * k / secondsPerStep, w * 1e3, 100.0 * w / secondsPerStep, c * 1e3, b / 1e6,
                c > 0.0 ? b / c / 1e9 : 0.0);
  }
}

// Writes `values` (interior, C order (n3, n2, n1)) as .vti (with the velocity, for ParaView) or .npy.
void writeGridFile(const std::string& path, const char* name, const std::vector<float>& values, const Grid& grid,
                   double dx, const std::vector<float>* velocity) {
  if (path.size() > 4 && path.substr(path.size() - 4) == ".vti") {
    VtiImage image{{grid.n1, grid.n2, grid.n3}, {dx, dx, dx}, {0, 0, 0}, {{name, values}}};
    if (velocity) image.arrays.push_back({"velocity (m/s)", *velocity});
    writeVti(path, image);  // with the velocity: ParaView colours one by the other
  } else {
    writeNpy(path, values.data(), {std::size_t(grid.n3), std::size_t(grid.n2), std::size_t(grid.n1)});
  }
  std::printf("wrote %s (%d x %d x %d points, %g m apart) to %s\n", name, grid.n1, grid.n2, grid.n3, dx, path.c_str());
}

// The scenario a restart continues: the checkpoint's, run for the steps given on the command line, on
// the stage, device and parameters given (default: the checkpoint's). Options that change the physics
// are refused: the state belongs to the checkpoint's scenario.
Scenario restartScenario(const ScenarioOptions& opts, const Scenario& saved) {
  const std::vector<std::pair<const char*, bool>> physics{
      {"--model", bool(opts.model)},         {"--model-file", bool(opts.modelFile)}, {"--velocity", bool(opts.velocity)},
      {"--source", bool(opts.source)},       {"--source-pos", bool(opts.sourcePos)}, {"--frequency", bool(opts.frequency)},
      {"--amplitude", bool(opts.amplitude)}, {"--boundary", bool(opts.boundary)},   {"--coefficients", bool(opts.coefficients)},
      {"--boundary-width", bool(opts.boundaryWidth)},
      {"--dx", bool(opts.dx)},               {"--dt", bool(opts.dt)},               {"--receiver", !opts.receivers.empty()},
      {"--model-dims", bool(opts.modelDims)}, {"--model-unit", bool(opts.modelUnit)}, {"--scenario", opts.scenario != "default"}};
  for (const auto& [option, given] : physics)
    if (given) throw UsageError(std::string("--restart continues the checkpoint's scenario; ") + option + " would change it");
  Scenario s = saved;
  if (opts.sizes.size() == 4) {
    if (opts.sizes[0] != s.n1 || opts.sizes[1] != s.n2 || opts.sizes[2] != s.n3)
      throw UsageError("--restart: the checkpoint's grid is " + std::to_string(s.n1) + " x " + std::to_string(s.n2) + " x " +
                       std::to_string(s.n3) + ", not the " + std::to_string(opts.sizes[0]) + " x " +
                       std::to_string(opts.sizes[1]) + " x " + std::to_string(opts.sizes[2]) + " given");
    s.steps = opts.sizes[3];
  } else if (opts.sizes.size() == 1) {
    s.steps = opts.sizes[0];
  } else {
    throw UsageError("--restart needs the steps to run: n1 n2 n3 N (the checkpoint's grid) or N alone");
  }
  if (opts.stage && *opts.stage != s.stage) {
    s.stage = *opts.stage;
    s.stageParams.clear();
  }
  if (opts.device) s.device = *opts.device;
  opts.applyParams(s);
  validateScenario(s);
  return s;
}

// The receivers' traces in the format the name asks for (CSV, .npy, SEG-Y), with what SEG-Y rounded.
void writeTracesFile(const std::string& path, const std::vector<float>& traces, const Scenario& s, double dt,
                     const std::vector<float>& initial) {
  for (const std::string& note : saveTraces(path, traces, s, dt, initial)) std::printf("note: %s\n", note.c_str());
  const bool segy = traceFormatOf(path) == TraceFormat::Segy;  // SEG-Y adds u^0 at t = 0
  std::printf("wrote %zu traces of %zu samples to %s%s\n", s.receivers.size(), traces.size() / s.receivers.size() + segy,
              path.c_str(), segy ? " (a SEG-Y shot gather, the first sample at t = 0)" : "");
}

// --dump-every K DIR: K and the folder, checked before anything runs.
struct SeriesRequest {
  int every = 0;
  std::string folder;
};

std::optional<SeriesRequest> seriesRequest(const RunOptions& run) {
  if (run.dumpEvery.empty()) {
    if (run.dumpStride != 1) throw UsageError("--dump-stride needs --dump-every K DIR");
    return std::nullopt;
  }
  SeriesRequest request;
  const std::string& every = run.dumpEvery[0];
  std::size_t used = 0;
  try {
    request.every = std::stoi(every, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != every.size() || request.every < 1)
    throw UsageError("--dump-every K DIR: K must be a whole number of steps >= 1 (got '" + every + "')");
  if (run.dumpStride < 1) throw UsageError("--dump-stride must be >= 1 (got " + std::to_string(run.dumpStride) + ")");
  request.folder = run.dumpEvery[1];
  if (request.folder.empty()) throw UsageError("--dump-every K DIR needs a folder name (got an empty one)");
  std::error_code ec;
  fs::path folder = fs::absolute(request.folder, ec).lexically_normal();
  if (!folder.has_filename()) folder = folder.parent_path();  // "series/"
  if (fs::exists(folder, ec) && !fs::is_directory(folder, ec))
    throw UsageError("--dump-every: " + request.folder + " is a file, not a folder");
  const fs::path writable = fs::is_directory(folder, ec) ? folder : folder.parent_path();
  if (!fs::is_directory(writable, ec))
    throw UsageError("--dump-every: the folder " + writable.string() + " that would hold " + request.folder + " does not exist");
  if (::access(writable.c_str(), W_OK) != 0) throw UsageError("--dump-every: the folder " + writable.string() + " is not writable");
  return request;
}

// How many frames of u may wait for the series writer: its default, fewer when the memory left beside the
// solver's arrays holds fewer. The series needs room for at least three at once (the one being read, one
// queued, the one being written) and its writer's thread; a run without it is refused before its first step.
std::size_t seriesCapacity(const SeriesGeometry& geometry) {
  const std::size_t frameBytes = std::size_t(geometry.size[0]) * geometry.size[1] * geometry.size[2] * sizeof(float);
  const auto needs = [&](std::size_t capacity) { return frameBytes + VtiSeriesWriter::memoryBytes(geometry, capacity); };
  requireAvailableMemory(needs(1), "--dump-every: the wavefield series (three frames of u in memory at once)");
  const std::size_t available = availableMemoryBytes();
  std::size_t capacity = VtiSeriesWriter::defaultCapacity(geometry);
  while (available != 0 && capacity > 1 && needs(capacity) > available) --capacity;
  return capacity;
}

// The wavefield series of a run: the frames are read on this thread (the solver's) and written on the
// series writer's own, so the run goes on while they are written; the figures say what it cost. Under
// mpirun every rank reads the frames (a collective read of a grid cut over the ranks), rank 0 writes them.
class SeriesDump {
 public:
  SeriesDump(const SeriesRequest& request, const SeriesGeometry& geometry, double dt, bool writes)
      : every_(request.every), dt_(dt) {
    if (writes) writer_.emplace(request.folder, geometry, seriesCapacity(geometry));
  }

  int stepsToNext(int done) const { return every_ - done % every_; }
  bool due(int done) const { return done % every_ == 0; }

  void take(WaveSolver& solver) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<float> field;
    solver.readField(field);
    readSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const long step = solver.currentStep();
    if (writer_) writer_->push(step, double(step) * dt_, std::move(field));
  }

  // Waits for the writer and prints what the series cost the run of `steps` steps that took
  // `loopSeconds` (the wall time of the stepping, frames included) on `points` cells.
  void finish(double loopSeconds, int steps, double points) {
    if (!writer_) return;
    const auto start = std::chrono::steady_clock::now();
    writer_->finish();
    const double drain = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const SeriesStats st = writer_->stats();
    const auto size = writer_->frameSize();
    std::printf("wrote %ld frames of u (%d x %d x %d points, every %d steps, %.1f MB) and %s\n", st.frames, size[0],
                size[1], size[2], every_, double(st.bytes) / (1024.0 * 1024.0), writer_->collectionPath().c_str());
    std::printf("with the series: %d steps in %.3f s wall, %.1f Mpts/s; reading u took %.3f s, waiting for the "
                "writer %.3f s; the writer's thread wrote for %.3f s and finished %.3f s after the last step\n",
                steps, loopSeconds, loopSeconds > 0.0 ? points * steps / loopSeconds * 1e-6 : 0.0, readSeconds_,
                st.waitSeconds, st.writeSeconds, drain);
  }

 private:
  int every_;
  double dt_;
  double readSeconds_ = 0.0;
  std::optional<VtiSeriesWriter> writer_;  // on the process that writes the files
};

}  // namespace

void addSeriesOptions(CLI::App& cmd, RunOptions& run) {
  cmd.add_option("--dump-every", run.dumpEvery,
                 "write u every K steps, from the run's first step, into the folder DIR (created if missing) as VTK "
                 "image data DIR/wavefield_NNNNNN.vti, listed with their times in DIR/wavefield.pvd: ParaView opens "
                 "the .pvd as an animation")
      ->expected(2)
      ->type_name("K DIR");
  cmd.add_option("--dump-stride", run.dumpStride,
                 "with --dump-every: keep every S-th point along each axis (the spacing grows S times)")
      ->type_name("S");
}

int runCommand(const ScenarioOptions& opts, const RunOptions& run) {
  if (run.checkpointEvery < 0) throw UsageError("--checkpoint-every must be >= 1 (got " + std::to_string(run.checkpointEvery) + ")");
  if (run.checkpointEvery > 0 && !run.checkpoint) throw UsageError("--checkpoint-every needs --checkpoint F");
  std::optional<Checkpoint> restart;
  if (run.restart) {
    if (run.restart->empty()) throw UsageError("--restart needs a file name");
    restart = loadCheckpoint(*run.restart);  // a bad file: CheckpointError, exit 1
  }
  const Scenario s = restart ? restartScenario(opts, restart->scenario) : opts.resolve();
  const long firstStep = restart ? restart->state.step : 0;
  if (firstStep + s.steps > kMaxScenarioSteps)
    throw UsageError("--restart: the checkpoint is at step " + std::to_string(firstStep) + "; " + std::to_string(s.steps) +
                     " more steps would pass the limit of " + std::to_string(kMaxScenarioSteps) + " steps");
  if (restart && s.stage != restart->scenario.stage)
    std::printf("note: continuing a %s checkpoint on %s: the result agrees to round-off, not bit for bit "
                "(the same stage continues bit for bit)\n", restart->scenario.stage.c_str(), s.stage.c_str());
  checkDeviceUse(opts, {s.stage});
  std::vector<std::string> inputs = opts.inputFiles(s);
  if (run.restart) inputs.push_back(*run.restart);
  checkOutputs({{"--dump", run.dump}, {"--dump-model", run.dumpModel}, {"--traces", run.traces},
                {"--save-scenario", run.saveScenario}, {"--checkpoint", run.checkpoint}},
               restart ? std::vector<std::string>(inputs.begin(), inputs.end() - 1) : inputs);
  for (const auto& [option, path] : {std::pair{"--dump", run.dump}, std::pair{"--dump-model", run.dumpModel},
                                     std::pair{"--traces", run.traces}, std::pair{"--save-scenario", run.saveScenario}})
    if (path && restart && samePath(*path, *run.restart))
      throw UsageError(std::string(option) + " " + *path + " is the checkpoint this run restarts from");
  if (run.traces && s.receivers.empty()) throw UsageError("--traces needs at least one receiver (--receiver i,j,k)");
  const std::optional<SeriesRequest> seriesRequested = seriesRequest(run);

  // A checkpoint stores the model the run used; a restart runs on the stored one.
  const bool keepModel = run.checkpoint || run.dumpModel;
  std::vector<float> model;
  if (restart) model = std::move(restart->velocity);
  else if (keepModel) model = buildVelocityModel(s);
  Problem p = restart || keepModel ? buildProblem(s, model) : buildProblem(s);
  if (run.traces && traceFormatOf(*run.traces) == TraceFormat::Segy)  // refused now, not after the run
    if (const std::string problem = segyLimitProblem(s.receivers.size(), std::size_t(firstStep + s.steps) + 1, p.dt);
        !problem.empty())
      throw UsageError("--traces " + *run.traces + ": " + problem);
  printHeader(p);
  const bool writes = isReportingProcess();  // under mpirun, rank 0 writes the files
  if (run.saveScenario && writes) saveScenarioFile(s, *run.saveScenario);
  const Grid grid = p.grid;
  const double dt = p.dt;
  const double dx = p.dx;
  const Stage& stage = resolveStage(s.stage);
  const std::optional<DeviceInfo> device = stage.device(s.device);  // the first, when it names several
  const std::vector<float> initialTraces = initialReceiverValues(p);  // u^0, the first sample of a SEG-Y trace
  auto solver = createSolver(std::move(p), executionConfig(s), device);
  const auto* decomposed = dynamic_cast<const DecomposedSolver*>(solver.get());
  if (decomposed) printDecomposition(*decomposed);
  if (restart) {
    solver->restoreState(restart->state);
    restart->state = {};  // its arrays now live in the solver
    std::printf("restarted from %s at step %ld\n", run.restart->c_str(), firstStep);
  }
  const auto writeCheckpoint = [&] {
    Scenario saved = s;
    saved.steps = int(solver->currentStep());
    SolverState state = solver->saveState();  // collective under mpirun
    if (writes) saveCheckpoint(*run.checkpoint, {saved, model, std::move(state)});
    std::printf("wrote the state at step %ld to %s\n", solver->currentStep(), run.checkpoint->c_str());
  };
  std::optional<SeriesDump> series;
  if (seriesRequested) series.emplace(*seriesRequested, SeriesGeometry{{grid.n1, grid.n2, grid.n3}, dx, run.dumpStride}, dt, writes);
  // Checkpoints and series frames every k steps split the run into chunks; each is timed like a whole
  // run (the first step of the first one a warm-up), and the figures below sum them.
  const auto loopStart = std::chrono::steady_clock::now();
  if (series) series->take(*solver);
  double seconds = 0.0, timedSteps = 0.0, warmupSteps = 0.0;
  for (int done = 0; done < s.steps;) {
    int n = s.steps - done;
    if (run.checkpointEvery > 0) n = std::min(n, run.checkpointEvery - done % run.checkpointEvery);
    if (series) n = std::min(n, series->stepsToNext(done));
    const TimedSteps t = advanceTimed(*solver, n, /*warmupSteps=*/done == 0 ? 1 : 0, /*repeats=*/1);
    seconds += t.medianSecondsPerStep * t.timedSteps;
    timedSteps += t.timedSteps;
    warmupSteps += t.warmupSteps;
    done += n;
    if (run.checkpointEvery > 0 && done % run.checkpointEvery == 0 && done < s.steps) writeCheckpoint();
    if (series && series->due(done)) series->take(*solver);
  }
  const double loopSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - loopStart).count();
  // A decomposed run's roofline: its devices' together (alike devices: as many times one's). A run smaller
  // than the bandwidth probe does not start one: it shows a stored ceiling, or none.
  const double devices = decomposed ? double(distinctDevices(executionConfig(s))) : 1.0;
  Throughput t = computeThroughput(double(grid.interiorSize()), 1.0, timedSteps > 0 ? seconds / timedSteps : 0.0,
                                   devices * runCeilingGBs(stage, device, solverBytes(grid)),
                                   stage.bytesPerPointStep(solver->parameters()));
  t.seconds = seconds;
  std::printf(" ***** Running %s on %s *****\n", solver->stage().c_str(), solver->deviceName().c_str());
  if (stage.openCl())
    std::printf("parameters: %s\n  from %s\n", formatStageParams(solver->parameters()).c_str(),
                stageParamsOrigin(*stage.openCl(), *device, grid, s.stageParams).c_str());
  std::printf("--------------------------------------\n%s--------------------------------------\n",
              formatThroughput(t).c_str());
  if (warmupSteps > 0) std::printf("(the first step is a warm-up, excluded from the timing)\n");
  if (decomposed && timedSteps > 0) printSlabTimes(*decomposed, seconds / timedSteps);
  if (!decomposed) printKernelTimes(*solver);
  if (series) series->finish(loopSeconds, s.steps, double(grid.interiorSize()));
  if (run.checkpoint) writeCheckpoint();
  if (run.dump) {
    std::vector<float> field;
    solver->readField(field);  // collective under mpirun
    if (writes) {
      const std::vector<float> velocity = keepModel ? std::vector<float>() : buildVelocityModel(s);
      std::printf("u is u^%ld: ", solver->currentStep());
      writeGridFile(*run.dump, "u", field, grid, dx, keepModel ? &model : &velocity);
    }
  }
  if (run.dumpModel && writes) writeGridFile(*run.dumpModel, "velocity (m/s)", model, grid, dx, nullptr);
  if (run.traces) {
    const std::vector<float> traces = solver->traces();  // collective under mpirun
    if (writes) writeTracesFile(*run.traces, traces, s, dt, initialTraces);
  }
  return 0;
}

int benchCommand(const ScenarioOptions& opts, const BenchOptions& bench) {
  const Scenario base = opts.resolve();
  const auto stages = expandStages(bench.stages.empty() ? std::vector<std::string>{"all"} : bench.stages);
  checkDeviceUse(opts, stages);
  checkOutputs({{"--json", bench.json}, {"--csv", bench.csv}}, opts.inputFiles(base));
  std::vector<Scenario> runs;
  for (int n : bench.sizes) {
    if (n < 1 || n > kMaxAxisCells)
      throw UsageError("--sizes " + std::to_string(n) + ": each size must be from 1 to " + std::to_string(kMaxAxisCells));
    runs.push_back(resizedScenario(base, n, n, n));
  }
  if (runs.empty()) runs.push_back(base);
  for (const Scenario& s : runs) buildProblem(s);  // every grid is checked before the first one runs
  printHeader(buildProblem(runs.front()));
  std::printf("%d steps per stage (%d warm-up, then up to %d timed chunks; median chunk)\n\n", base.steps,
              base.steps >= 2 ? 1 : 0, bench.repeat);

  BenchmarkReport all;
  for (const Scenario& s : runs) {
    if (bench.tune) {
      const DeviceInfo device = selectDevice(s.device);
      iso::TuneOptions options;  // stored, so that the timed run below picks the best up from the database
      for (const Stage* stage : tunableStages()) {
        if (std::find(stages.begin(), stages.end(), stage->id()) == stages.end()) continue;
        std::printf("tuning %s at %dx%dx%d\n", stage->id().c_str(), s.n1, s.n2, s.n3);
        noteKeptDatabase(tuneStage(tuningProblem(s), device, *stage->openCl(), options,
                                   [&](const StageTiming& t) { printTiming(stage->id(), t); }));
      }
    }
    BenchmarkRunner runner({s, stages, 1, bench.repeat}, [](const BenchmarkProgress& p) {
      if (!p.row) return;
      std::fprintf(stderr, "  %-14s %dx%dx%d %s\n", p.stage.c_str(), p.row->n1, p.row->n2, p.row->n3,
                   p.row->error.empty() ? "done" : "FAILED");
    });
    BenchmarkReport report = runner.run();
    if (all.rows.empty()) {
      all = std::move(report);
    } else {
      for (auto& row : report.rows) all.rows.push_back(std::move(row));
    }
  }
  std::printf("%s", benchmarkTable(all).c_str());
  if (bench.json) {
    writeWholeFile(*bench.json, benchmarkJson(all));
    std::printf("wrote %s\n", bench.json->c_str());
  }
  if (bench.csv) {
    writeWholeFile(*bench.csv, benchmarkCsv(all));
    std::printf("wrote %s\n", bench.csv->c_str());
  }
  return all.anyFailed() ? kFailureExit : 0;
}

namespace {

// One check of `verify`: a stage as a user runs it, or one exact parameter set of it (a candidate or a
// swept set: no tuning database).
struct VerifyCheck {
  const Stage* stage = nullptr;
  std::optional<StageParamMap> params;
};

// Each stage as a user runs it, then every parameter set the tuner may pick (--candidates) or the
// sweep's sets (--sweep) on the scenario's device.
std::vector<VerifyCheck> verifyChecks(const Scenario& s, const std::vector<std::string>& stages,
                                      const VerifyOptions& verify) {
  std::vector<VerifyCheck> checks;
  for (const auto& id : stages) checks.push_back({&resolveStage(id), std::nullopt});
  if (!verify.candidates && verify.sweeps.empty()) return checks;
  if (listDevices().empty())
    throw UsageError("--candidates and --sweep check OpenCL stages, and this machine has no OpenCL device");
  const DeviceInfo device = selectDevice(s.device);
  const Grid grid = buildProblem(s).grid;
  if (!verify.sweeps.empty()) {
    const Sweep sweep = parseSweep(verify.sweeps);
    for (const Stage* stage : sweptStages(sweep, stages))
      for (auto& c : sweepCandidates(sweep, *stage, device, grid)) checks.push_back({stage, std::move(c)});
    return checks;
  }
  for (const Stage* stage : tunableStages())
    for (auto& c : stage->tuningCandidates(device, grid)) checks.push_back({stage, std::move(c)});
  return checks;
}

// The solver of a check: an OpenCL stage's inside NaN guard regions (its OpenClSolver in `openCl`).
// nullptr when the device refuses a candidate (limits, compiler), which is skipped as the tuner skips it.
// A grid cut into slabs (several devices or ranks) runs as the user runs it, without guard regions.
std::unique_ptr<WaveSolver> verifySolver(const Scenario& s, const VerifyCheck& check, OpenClSolver*& openCl) {
  const Stage& stage = *check.stage;
  ExecutionConfig config = stage.execution(s);
  if (check.params) config.params = *check.params;
  const auto ranks = processRanks();
  const bool cut = (stage.openCl() && namesSeveralDevices(config.device)) || (ranks && ranks->size() > 1);
  if (!stage.openCl() || cut) return createSolver(buildProblem(s), config);
  const std::optional<DeviceInfo> device = stage.device(config.device);
  OpenClSolverOptions options;
  options.guardElements = kGuardElements;
  options.guardValue = std::nanf("");
  options.useTuningDatabase = !check.params;
  try {
    auto built = std::make_unique<OpenClSolver>(buildProblem(s), *stage.openCl(), config.params, *device, options);
    openCl = built.get();
    return built;
  } catch (const ComputeError& e) {
    if (!check.params) throw;
    std::printf("%-14s skipped (%s): %s; params %s\n", stage.id().c_str(), toString(e.status()), e.what(),
                formatStageParams(*check.params).c_str());
    return nullptr;
  }
}

// Runs one check against the reference and prints its line; false when it fails.
bool runVerifyCheck(const Scenario& s, const VerifyCheck& check, const SolverOutput& reference,
                    const VerifyOptions& verify) {
  const std::string params = check.params ? formatStageParams(*check.params) : "(as run)";
  const char* id = check.stage->id().c_str();
  try {
    OpenClSolver* openCl = nullptr;
    const std::unique_ptr<WaveSolver> solver = verifySolver(s, check, openCl);
    if (!solver) return true;
    const ReferenceAgreement a = compareWithReference(runCompared(*solver, s.steps), reference);
    const std::size_t guards = openCl ? changedGuards(*openCl) : 0;
    const double tolerance = verify.tolerance.value_or(check.stage->info().agreementTolerance);
    const bool ok = a.withinTolerance(tolerance) && guards == 0;
    const std::string shownParams = openCl ? formatStageParams(solver->parameters()) : params;
    const std::string result = ok ? "ok" : a.field.nonFinite || a.traces.nonFinite ? "FAIL (NaN/Inf)" : "FAIL";
    std::printf("%-14s %-26.26s %11.4g %11.4g %6ld %11.4g %9.3g %-8s %-15s %s\n", id, solver->deviceName().c_str(),
                a.field.maxAbs, a.field.relativeL2, a.worstStep, a.traces.relativeL2, tolerance,
                openCl ? (guards ? "WRITTEN" : "intact") : "-", result.c_str(), shownParams.c_str());
    return ok;
  } catch (const std::exception& e) {
    std::printf("%-14s error: %s; params %s\n", id, e.what(), params.c_str());
    return false;
  }
}

}  // namespace

namespace {

// --analytic: each stage on the analytic scenario (core/AnalyticCheck.h) against the exact solution;
// the scenario's stage parameters and device apply, its physics does not.
int verifyAnalytic(const ScenarioOptions& opts, const VerifyOptions& verify) {
  if (verify.candidates || !verify.sweeps.empty()) throw UsageError("--analytic checks stages as they run: drop --candidates and --sweep");
  const Scenario given = opts.resolve();
  Scenario s = analyticScenario();
  s.device = given.device;
  s.stageParams = given.stageParams;
  const std::vector<std::string> stages = expandStages(verify.stages);
  checkDeviceUse(opts, stages);
  const double tolerance = verify.tolerance.value_or(kAnalyticTolerance);
  printHeader(buildProblem(s));
  std::printf("a Ricker source of %g Hz in %g m/s, dx %g m, dt %g ms, %d steps; relative L2 error of the direct arrival "
              "against the exact solution s(t - r/v) / (4 pi r) at each receiver:\n",
              s.source.frequency, s.model.velocity, s.dx, s.dt * 1e3, s.steps);
  std::string header;
  for (const AnalyticReceiver& r : analyticReceivers())
    header += "  " + std::to_string(int(std::lround(r.distance()))) + " m (" + std::to_string(r.di) + "," +
              std::to_string(r.dj) + "," + std::to_string(r.dk) + ")";
  std::printf("%-14s %-26s%s  result\n", "stage", "device", header.c_str());
  bool allGood = true;
  for (const std::string& id : stages) {
    const Stage& stage = resolveStage(id);
    const ExecutionConfig config = stage.execution(s);
    try {
      auto solver = stage.createSolver(buildProblem(s), config.params, stage.device(config.device));
      solver->advance(s.steps);
      const std::vector<double> errors = analyticErrors(s, analyticReceivers(), solver->traces());
      std::string row;
      bool ok = true;
      for (std::size_t r = 0; r < errors.size(); ++r) {
        char cell[64];
        std::snprintf(cell, sizeof cell, "  %*.3f %%", int(header.size() / errors.size()) - 4, 100.0 * errors[r]);
        row += cell;
        ok = ok && errors[r] <= tolerance;
      }
      allGood = allGood && ok;
      std::printf("%-14s %-26.26s%s  %s %s\n", id.c_str(), solver->deviceName().c_str(), row.c_str(), ok ? "ok" : "FAIL",
                  formatStageParams(solver->parameters()).c_str());
    } catch (const std::exception& e) {
      allGood = false;
      std::printf("%-14s error: %s\n", id.c_str(), e.what());
    }
    std::fflush(stdout);
  }
  std::printf("tolerance: %g %% at every receiver (a float64 run of the same scheme: 0.4, 0.8 and 1.2 %% at 100, 200 "
              "and 300 m)\n", 100.0 * tolerance);
  return allGood ? 0 : kFailureExit;
}

}  // namespace

int verifyCommand(const ScenarioOptions& opts, const VerifyOptions& verify) {
  if (verify.analytic) return verifyAnalytic(opts, verify);
  Scenario s = opts.resolve();
  // Without an iteration count, long enough to be past the default source's onset and to see the wave
  // reach the layer, short enough to stay quick on cpu-serial.
  if (opts.sizes.size() < 4 && s.steps > kVerifyDefaultSteps) {
    std::printf("verifying the first %d of the scenario's %d steps (give an iteration count for more)\n",
                kVerifyDefaultSteps, s.steps);
    s.steps = kVerifyDefaultSteps;
  }
  auto stages = expandStages(verify.stages);
  std::erase(stages, std::string("cpu-serial"));
  if (stages.empty()) throw UsageError("nothing to verify: cpu-serial is the reference itself");
  checkDeviceUse(opts, stages);
  const std::vector<VerifyCheck> checks = verifyChecks(s, stages, verify);
  printHeader(buildProblem(s));
  const SolverOutput reference = runReference(buildProblem(s), s.steps);
  std::printf("%-14s %-26s %11s %11s %6s %11s %9s %-8s %-15s %s\n", "stage", "device", "max|diff|", "error",
              "at", "traces", "tolerance", "guards", "result", "params");
  bool allGood = true;
  for (const VerifyCheck& check : checks) {
    allGood = runVerifyCheck(s, check, reference, verify) && allGood;
    std::fflush(stdout);
  }
  std::string steps;
  for (const long step : comparedSteps(s.steps)) steps += (steps.empty() ? "" : ", ") + std::to_string(step);
  std::printf("error: the largest L2 difference of the field u^n from cpu-serial's at steps %s, each over the "
              "largest L2 norm cpu-serial's field had up to that step ('at': the step); traces: relative L2 of "
              "the receivers' whole records; both within the tolerance (the stage's own unless --tolerance) to "
              "pass. guards: NaN regions around every OpenCL buffer, checked after the run\n",
              steps.c_str());
  return allGood ? 0 : kFailureExit;
}

int stagesCommand() {
  for (const Stage* stage : allStages()) {
    const StageInfo& info = stage->info();
    std::printf("%s — %s%s\n", info.id.c_str(), info.title.c_str(),
                info.sampleName.empty() ? "" : (" (oneAPI sample " + info.sampleName + ")").c_str());
    std::printf("  %s\n", info.description.c_str());
    const std::vector<StageParamSpec> specs = stage->parameterSpecs();
    if (specs.empty()) std::printf("  no parameters\n");
    for (const StageParamSpec& p : specs)
      std::printf("  --param %s=N   %d to %d, default %d: %s\n", p.name.c_str(), p.minValue, p.maxValue,
                  p.defaultValue, p.meaning.c_str());
    std::printf("\n");
  }
  std::printf("OpenCL defaults above are a GPU of no particular vendor's; tuned values for known devices ship with\n"
              "the program (resources/tuning/) and `iso3dfd tune` finds a device's own.\n");
  return 0;
}

namespace {

// Every two devices' links for the planes next to a cut of a 1024 x 1024 grid (R planes of 1040 x 1040).
void printDeviceLinks(const std::vector<DeviceInfo>& devices) {
  const std::size_t bytes = std::size_t(kHalfLength) * 1040 * 1040 * sizeof(float);
  std::printf("\nLinks (%d planes of a 1024 x 1024 grid, %.1f MB; GB/s, median of 5 copies):\n", kHalfLength,
              double(bytes) / 1e6);
  std::printf("  %-6s %-6s %8s %8s %10s %12s\n", "from", "to", "read", "write", "host path", "device copy");
  for (const DeviceLink& l : measureDeviceLinks(devices, bytes)) {
    std::printf("  %-6s %-6s %8.1f %8.1f %10.1f ", l.from.c_str(), l.to.c_str(), l.readGBs, l.writeGBs, l.hostPathGBs);
    if (l.deviceCopyNote.empty())
      std::printf("%12.1f\n", l.deviceCopyGBs);
    else
      std::printf("%12s (%s)\n", "-", l.deviceCopyNote.c_str());
  }
  std::printf("read: device -> page-locked host memory; write: host -> device; host path: both in turn (how slabs "
              "move planes); device copy: clEnqueueCopyBuffer in one context of both devices\n");
}

}  // namespace

int devicesCommand(bool measureBandwidth, bool measureLinks) {
  const auto devices = listDevices();
  if (devices.empty()) {
    std::printf("No OpenCL device found: %s.\nInstall a driver (e.g. pocl-opencl-icd for the CPU, or the GPU vendor's "
                "OpenCL ICD) and check /etc/OpenCL/vendors. CPU stages still run.\n", noOpenClPlatformReason().c_str());
    return 0;
  }
  for (const auto& d : devices) {
    std::printf("[%s] %s\n", d.selector().c_str(), d.name.c_str());
    std::printf("    platform      : %s (%s)\n", d.platformName.c_str(), d.platformVersion.c_str());
    std::printf("    type          : %s, vendor %s, driver %s\n", d.type.c_str(), d.vendor.c_str(),
                d.driverVersion.c_str());
    std::printf("    version       : %s, %s\n", d.deviceVersion.c_str(), d.openclCVersion.c_str());
    std::printf("    compute units : %u\n", d.computeUnits);
    std::printf("    global memory : %s (max allocation %s)\n", byteSize(double(d.globalMemBytes)).c_str(),
                byteSize(double(d.maxAllocBytes)).c_str());
    std::printf("    local memory  : %.1f KiB\n", d.localMemBytes / 1024.0);
    std::string sizes;
    for (auto v : d.maxWorkItemSizes) sizes += (sizes.empty() ? "" : " x ") + std::to_string(v);
    std::printf("    work-group    : max %zu, max item sizes %s\n", d.maxWorkGroupSize, sizes.c_str());
    std::printf("    GL sharing    : %s\n", d.hasExtension("cl_khr_gl_sharing") ? "yes (cl_khr_gl_sharing)" : "no");
    std::string ext;
    for (const auto& e : d.extensions) ext += e + ' ';
    std::printf("    extensions    : %s\n", ext.c_str());
    if (measureBandwidth) {
      const double gbs = copyBandwidthGBs(d, /*remeasure=*/true);
      std::printf("    copy bandwidth: %.1f GB/s (clEnqueueCopyBuffer, read + write, median) => 16 B/pt roofline "
                  "%.1f Gpts/s\n", gbs, gbs / kTrafficBytesPerPoint);
    }
    std::fflush(stdout);
  }
  if (measureLinks) {
    // The GPUs of the platform that has most (the slabs' devices on a GPU server), else every device (one
    // device alone: with itself, the host path only).
    std::vector<DeviceInfo> linked;
    for (const auto& gpus : gpusByPlatform())
      if (gpus.size() > linked.size()) linked = gpus;
    if (linked.size() < 2) linked = devices;
    if (linked.size() == 1) linked.push_back(linked.front());
    printDeviceLinks(linked);
  }
  std::printf("\nStages: ");
  for (const auto& s : availableStages()) std::printf("%s ", s.c_str());
  std::printf("\n");
  return 0;
}

namespace {

// The stages `tune --stage` names, each one with something to tune.
std::vector<const Stage*> stagesToTune(const std::vector<std::string>& ids) {
  std::vector<const Stage*> out;
  for (const std::string& id : ids) {
    const Stage* stage = nullptr;
    try {
      stage = &resolveStage(id);
    } catch (const ComputeError& e) {
      throw UsageError(std::string("--stage: ") + e.what());
    }
    if (!stage->tunable())
      throw UsageError("--stage " + id + ": only " + commaList(tunableStageIds()) + " have parameters to tune");
    out.push_back(stage);
  }
  return out;
}

// NVIDIA's ptxas report of every candidate (and its PTX in ptxDir, if given).
void printPtxasReports(const OpenClStage& stage, const DeviceInfo& device, const std::vector<StageParamMap>& candidates,
                       const Grid& grid, const std::string& ptxDir) {
  if (device.vendor.find("NVIDIA") == std::string::npos) {
    std::printf("--ptxas: %s is not an NVIDIA device; there is no ptxas report\n", device.name.c_str());
    return;
  }
  const ClContext context(device);
  for (const auto& c : candidates) {
    std::string ptx;
    if (!ptxDir.empty()) {
      std::string name = stage.id() + "_" + formatStageParams(c) + ".ptx";
      std::replace(name.begin(), name.end(), ' ', '_');
      ptx = (fs::path(ptxDir) / name).string();
    }
    std::printf("ptxas %s:\n%s\n", formatStageParams(c).c_str(), ptxasReport(context, stage, c, grid, ptx).c_str());
  }
}

// A sweep explores: its sets are timed and the best is named, but the database is the tuner's. Returns
// the best.
StageTiming timeSweep(const Problem& p, const DeviceInfo& device, const OpenClStage& stage,
                      const std::vector<StageParamMap>& candidates, const iso::TuneOptions& options) {
  StageTiming best;
  for (const auto& c : candidates) {
    const StageTiming t = timeStage(p, device, stage, c, options);
    printTiming(stage.id(), t);
    if (t.error.empty() && t.mpts > best.mpts) best = t;
  }
  if (best.mpts <= 0.0) throw std::runtime_error("--sweep: no candidate of " + stage.id() + " ran on " + device.name);
  std::printf("best (sweep): %s at %.1f Mpts/s (database unchanged: a sweep only explores)\n",
              formatStageParams(best.params).c_str(), best.mpts);
  return best;
}

}  // namespace

int tuneCommand(const ScenarioOptions& opts, const TuneOptions& tune) {
  const Scenario s = opts.resolve();
  const std::vector<const Stage*> stages = stagesToTune(tune.stages);
  const std::optional<Sweep> sweep = tune.sweeps.empty() ? std::nullopt : std::optional(parseSweep(tune.sweeps));
  if (sweep) sweptStages(*sweep, tune.stages);  // refuses a sweep that no stage given takes
  if (!tune.ptxDir.empty() && !tune.ptxas) throw UsageError("--ptx-dir goes with --ptxas");
  if (!tune.ptxDir.empty() && !fs::is_directory(tune.ptxDir))
    throw UsageError("--ptx-dir " + tune.ptxDir + " is not an existing folder");
  const DeviceInfo device = selectDevice(s.device);
  std::printf("Tuning on [%s] %s, grid %d x %d x %d (%s grids in the tuning database)\n", device.selector().c_str(),
              device.name.c_str(), s.n1, s.n2, s.n3, gridSizeClass(Grid(s.n1, s.n2, s.n3)).c_str());
  iso::TuneOptions options;
  options.timedSteps = tune.steps;
  options.repeats = tune.repeats;
  options.store = !tune.dryRun;
  for (const Stage* stage : stages) {
    const OpenClStage& descriptor = *stage->openCl();
    const Problem p = tuningProblem(s);
    const bool swept = sweep && sweep->appliesTo(*stage);
    const std::vector<StageParamMap> candidates =
        swept ? sweepCandidates(*sweep, *stage, device, p.grid) : stage->tuningCandidates(device, p.grid);
    std::printf("\n%s: %zu candidates\n", stage->id().c_str(), candidates.size());
    if (tune.ptxas) printPtxasReports(descriptor, device, candidates, p.grid, tune.ptxDir);
    StageParamMap best;
    double bestMpts = 0.0;
    if (swept) {
      const StageTiming t = timeSweep(p, device, descriptor, candidates, options);
      best = t.params, bestMpts = t.mpts;
    } else {
      const TuneResult result =
          tuneStage(p, device, descriptor, options, [&](const StageTiming& t) { printTiming(stage->id(), t); });
      std::printf("best: %s at %.1f Mpts/s%s\n", formatStageParams(result.best).c_str(), result.bestMpts,
                  tune.dryRun ? " (database unchanged: --dry-run)" : " (stored in your tuning database)");
      noteKeptDatabase(result);
      best = result.best, bestMpts = result.bestMpts;
    }
    // For resources/tuning/: the best as an entry of the shipped database.
    std::printf("shipped entry: %s\n", shippedTuningEntry(stage->id(), device, best, p.grid, bestMpts).c_str());
  }
  return 0;
}

namespace {

// --resolution WxH, or a UsageError.
std::pair<int, int> parseResolution(const std::string& text) {
  int width = 0, height = 0;
  char x = 0, rest = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &width, &x, &height, &rest) != 3 || (x != 'x' && x != 'X') || width < 1 ||
      height < 1 || width > VolumeView::kMaxImageSide || height > VolumeView::kMaxImageSide)
    throw UsageError("--resolution " + text + ": expected WxH, each 1 to " + std::to_string(VolumeView::kMaxImageSide) +
                     ", e.g. 1920x1080");
  return {width, height};
}

std::shared_ptr<const VolumeView> viewCostVolume(const Scenario& s, const ViewCostOptions& o) {
  if (o.mode != "volume") return nullptr;
  const auto [width, height] = parseResolution(o.resolution);
  auto view = std::make_shared<VolumeView>(defaultVolumeView(Grid(s.n1, s.n2, s.n3), std::max(1, width / o.imageScale),
                                                             std::max(1, height / o.imageScale)));
  view->samplesPerCell = o.samplesPerCell;
  view->earlyTermination = !o.noEarlyTermination;
  view->velocityContext = o.velocityContext;
  return view;
}

}  // namespace

int viewCostCommand(const ScenarioOptions& opts, const ViewCostOptions& view) {
  const Scenario s = opts.resolve();
  checkDeviceUse(opts, {s.stage});
  const auto volume = viewCostVolume(s, view);
  std::printf("%s", formatViewCost(measureViewCostWithReader(s, view.stepsPerFrame, view.seconds, view.fps,
                                                        view.slicePath == "host" ? SliceReaderPath::Host
                                                                                 : SliceReaderPath::Ring,
                                                        volume))
                        .c_str());
  return 0;
}

}  // namespace iso::cli
