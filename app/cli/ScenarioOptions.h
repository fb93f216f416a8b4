#pragma once
// The options every command shares: they start from a preset or a scenario file and override single
// parameters, so a command line can say exactly what a run is.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/Scenario.h"

namespace iso::cli {

struct ScenarioOptions {
  std::vector<int> sizes;  // n1 n2 n3 iterations (positional); empty when a scenario file gives them
  std::string scenario = "default";
  std::optional<std::string> stage, device, model, modelFile, modelUnit, source, boundary, coefficients, dt;
  std::optional<double> velocity, dx, frequency, amplitude;
  std::optional<int> boundaryWidth;
  std::optional<std::vector<int>> modelDims, sourcePos;
  std::vector<std::string> params, receivers;

  // Registers the options on a subcommand; `withStage` adds --stage (verify and bench choose stages
  // themselves).
  void addTo(CLI::App& cmd, bool withStage = true);
  // The scenario these options describe. Throws ScenarioError for bad values.
  Scenario resolve() const;
  // Sets the --param values on `s` (resolve does it too). Throws ScenarioError for a malformed one.
  void applyParams(Scenario& s) const;
  // The files a run of `resolved` (these options' scenario) reads: the scenario file and the model
  // file, which no output may replace.
  std::vector<std::string> inputFiles(const Scenario& resolved) const;
};

}  // namespace iso::cli
