#pragma once
// The subcommands of `iso3dfd`. Each returns the process exit status; errors go to stderr. A wrong
// command line (an option value, a combination, an output path that cannot be written) throws
// UsageError before anything is computed; main turns it into exit status kUsageExit.
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/cli/ScenarioOptions.h"

namespace iso::cli {

inline constexpr int kUsageExit = 2;  // the command line is wrong (CLI11's own errors included)
inline constexpr int kFailureExit = 1;  // the run failed, or a check (verify, bench) did not pass

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RunOptions {
  std::optional<std::string> dump, dumpModel, traces, saveScenario;
  std::optional<std::string> checkpoint;  // the run's state at its end (core/Checkpoint.h)
  int checkpointEvery = 0;                // also every k steps (> 0), each write replacing the last
  std::optional<std::string> restart;     // continue from this checkpoint for the given steps
  std::vector<std::string> dumpEvery;     // --dump-every K DIR: the wavefield every K steps (ParaView series)
  int dumpStride = 1;                     // ... keeping every stride-th point along each axis
};
// Registers run's options for the wavefield series (--dump-every, --dump-stride) on `cmd`.
void addSeriesOptions(CLI::App& cmd, RunOptions& run);
int runCommand(const ScenarioOptions& opts, const RunOptions& run);

struct BenchOptions {
  std::vector<std::string> stages;  // empty: every stage available here
  std::vector<int> sizes;           // cubes n³ timed one after the other; empty: the scenario's grid
  bool tune = false;                // tune the tunable OpenCL stages at each size before timing them
  int repeat = 5;
  std::optional<std::string> json, csv;
};
int benchCommand(const ScenarioOptions& opts, const BenchOptions& bench);

// A sweep's parameter sets: the products of "key=v1,v2;key=v3" (one per spec), each merged over a
// stage's built-in defaults for the device, as its tuning candidates are. It applies to the stages
// given that take every key it names.
struct VerifyOptions {
  std::vector<std::string> stages{"all"};
  std::optional<double> tolerance;   // for every stage; default: each stage's own (StageInfo)
  bool candidates = false;           // also every tuning candidate of the tunable OpenCL stages
  std::vector<std::string> sweeps;   // check these sets instead of the tuner's candidates
  bool analytic = false;             // against the exact solution (core/AnalyticCheck.h) instead
};
int verifyCommand(const ScenarioOptions& opts, const VerifyOptions& verify);

// measureLinks: the copy paths between every two devices (compute/DeviceLinks.h), for slabs on several.
int devicesCommand(bool measureBandwidth, bool measureLinks = false);

// Every stage with its learner's title, oneAPI sample, description and parameters (from the descriptors).
int stagesCommand();

// The stages with something to tune (compute/Stage.h: Stage::tunable), in teaching order.
std::vector<std::string> tunableStageIds();

struct TuneOptions {
  std::vector<std::string> stages = tunableStageIds();
  int steps = 10, repeats = 3;
  bool dryRun = false;              // time the candidates but keep the database as it is
  std::vector<std::string> sweeps;  // time these sets instead of the tuner's candidates (database unchanged)
  bool ptxas = false;               // NVIDIA's register/spill report of every candidate
  std::string ptxDir;               // with ptxas: write each candidate's PTX there
};
int tuneCommand(const ScenarioOptions& opts, const TuneOptions& tune);

struct ViewCostOptions {
  double seconds = 5.0;    // measured time of each of the two runs (after a warm-up)
  double fps = 60.0;       // how often the reader takes slices, like the view's repaints
  int stepsPerFrame = 4;   // the application's default
  std::string slicePath = "ring";  // "ring" (the studio's default path, host memory for its GL buffers) or "host"
  // The volume view: "slices" (the default) or "volume" (each frame also renders an image of the field).
  std::string mode = "slices";
  std::string resolution = "1280x720";  // the view's size in pixels, WxH
  int imageScale = 1;                   // the image is rendered at resolution / imageScale
  float samplesPerCell = 1.0f;
  bool noEarlyTermination = false;
  bool velocityContext = false;
};
int viewCostCommand(const ScenarioOptions& opts, const ViewCostOptions& view);

// Stages that can run on this machine: the CPU stages, plus the OpenCL ones when a device exists.
std::vector<std::string> availableStages();
// Expands "all" and checks every name (UsageError naming the known stages).
std::vector<std::string> expandStages(const std::vector<std::string>& names);

}  // namespace iso::cli
