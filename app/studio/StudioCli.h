#pragma once
// Command line of iso3dfd-studio: which scenario to open, overrides, and the automation modes
// (--steps N --screenshot FILE for tests and scripts; --benchmark SECONDS for the cost of the view).
#include <QString>
#include <QStringList>
#include <optional>

#include "Scenario.h"

namespace iso {

struct StudioOptions {
  Scenario scenario;            // after the file or preset and every override
  bool scenarioGiven = false;   // a file, a preset, --stage or --size was given (no GPU upgrade)
  long steps = -1;              // pause at this step (< 0: run on)
  QString screenshot;           // with steps: save the view there after that step, then quit
  bool screenshotWindow = false;  // ... the whole window (docks and status bar) instead of the view
  double benchmarkSeconds = 0;  // > 0: measure headless and windowed throughput, print, quit
  int stepsPerFrame = 4;
  bool startPaused = false;
  int viewMode = 0;  // 0 3D, 1 XY, 2 XZ, 3 YZ (the View menu's order)
  QStringList compareStages;  // --compare: 2 to 4 "stage" or "stage@device", side by side in lockstep
};

// Parses the arguments (QCoreApplication::arguments()); on a bad value returns nullopt and sets
// `error` to a message naming the option and its limits. --help and --version exit from inside.
std::optional<StudioOptions> parseStudioOptions(const QStringList& arguments, QString& error);

// The default scenario for this machine: presetScenario("default") at 128³ on the CPU, or 256³ on the
// first GPU when OpenCL offers one.
Scenario defaultScenarioForThisMachine();

// Runs the application (needs a QApplication); returns the exit status.
int runStudio(const StudioOptions& options);

}  // namespace iso
