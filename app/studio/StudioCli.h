#pragma once
// Command line of iso3dfd-studio: parsing it into StudioOptions (the scenario options shared with
// iso3dfd, app/options/ScenarioOptionTable.h, and the studio's own: automation, view, panels) and
// running what it asks for in the window it names.
#include <QString>
#include <QStringList>
#include <optional>

#include "app/studio/StudioOptions.h"

namespace iso {

// Parses the arguments (QCoreApplication::arguments()); on a bad value returns nullopt and sets
// `error` to a message naming the option and its limits. --help and --version exit from inside.
std::optional<StudioOptions> parseStudioOptions(const QStringList& arguments, QString& error);

// The default scenario for this machine: presetScenario("default") at its own size (96³) on the CPU, or
// resized to 256³ on the first GPU when OpenCL offers one.
Scenario defaultScenarioForThisMachine();

// Runs the application (needs a QApplication) in the window the options name (the main window, the
// compare view, the benchmark panel or the stage explorer); returns the exit status.
int runStudio(const StudioOptions& options);

}  // namespace iso
