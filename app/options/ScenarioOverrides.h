#pragma once
// What a command line says about a run's scenario, in both programs (iso3dfd and iso3dfd-studio): where
// it starts (a preset or a scenario file) and the single parameters that override it. The values are
// parsed already (ScenarioOptionTable.h turns the text of each option into them), so applying them
// cannot fail on syntax; the ranges are checked by validateScenario, as for a scenario file.
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/Scenario.h"

namespace iso {

struct ScenarioOverrides {
  std::string scenario = "default";  // --scenario (--preset): a preset name or a scenario .json file
  std::optional<std::array<int, 3>> size;  // --size: interior n1, n2, n3
  std::optional<std::string> stage, device, modelFile, coefficients;
  std::optional<ModelKind> model;
  std::optional<VelocityUnit> modelUnit;
  std::optional<SourceKind> source;
  std::optional<BoundaryKind> boundary;
  std::optional<double> velocity, dx, dt, frequency, amplitude;  // dt 0: automatic
  std::optional<int> boundaryWidth;
  std::optional<std::array<int, 3>> modelDims, sourcePos;
  std::vector<std::pair<std::string, int>> params;  // --param key=value and --threads, in the order given
  std::vector<ReceiverSpec> receivers;              // replace the scenario's when any is given

  // Whether `scenario` names a file (ends in .json or exists) rather than a preset.
  bool scenarioIsFile() const;
  // The scenario named by `scenario`, before any override. Throws ScenarioError (unknown preset,
  // unreadable or malformed file).
  Scenario baseScenario() const;
  // Applies every override to `s`: the grid first (the picture kept: core/ScenarioResize.h), then the
  // stage and device, model, source, boundary, spacing, time step, stage parameters and receivers. A
  // named model replaces the scenario's whole model, its salt body included.
  void applyTo(Scenario& s) const;
  // The --param and --threads values alone (a restarted run takes only these and the stage).
  void applyParams(Scenario& s) const;
  // baseScenario() with every override applied.
  Scenario resolve() const;
  // The files a run of `resolved` (this scenario) reads: the scenario file and the model file, which no
  // output may replace.
  std::vector<std::string> inputFiles(const Scenario& resolved) const;
};

}  // namespace iso
