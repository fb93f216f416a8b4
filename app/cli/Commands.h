#pragma once
// The subcommands of `iso3dfd`. Each returns the process exit status; errors go to stderr.
#include <string>
#include <vector>

#include "ScenarioOptions.h"

namespace iso::cli {

struct RunOptions {
  std::string dump, traces, saveScenario;
};
int runCommand(const ScenarioOptions& opts, const RunOptions& run);

struct BenchOptions {
  std::vector<std::string> stages;  // empty: every stage available here
  int repeat = 5;
  std::string json, csv;
};
int benchCommand(const ScenarioOptions& opts, const BenchOptions& bench);

struct VerifyOptions {
  std::vector<std::string> stages{"all"};
  double tolerance = 1e-5;
};
int verifyCommand(const ScenarioOptions& opts, const VerifyOptions& verify);

int devicesCommand();

struct TuneOptions {
  std::vector<std::string> stages{"gpu-slm", "gpu-optimized"};
  int steps = 10, repeats = 3;
  bool dryRun = false;  // time the candidates but keep the database as it is
};
int tuneCommand(const ScenarioOptions& opts, const TuneOptions& tune);

struct ViewCostOptions {
  double seconds = 5.0;    // measured time of each of the two runs (after a warm-up)
  double fps = 60.0;       // how often the reader takes slices, like the view's repaints
  int stepsPerFrame = 4;   // the application's default
};
// What showing the live view costs the computation: the application's compute thread
// (SimulationController) with a reader taking slices at `fps`, against the solver alone.
int viewCostCommand(const ScenarioOptions& opts, const ViewCostOptions& view);

// Stages that can run on this machine: the CPU stages, plus the OpenCL ones when a device exists.
std::vector<std::string> availableStages();
// Expands "all" and checks every name.
std::vector<std::string> expandStages(const std::vector<std::string>& names);

}  // namespace iso::cli
