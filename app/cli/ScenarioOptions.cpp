#include "app/cli/ScenarioOptions.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "core/Format.h"
#include "core/ScenarioResize.h"

namespace iso::cli {

namespace {
std::vector<int> parseTriple(const std::string& text, const char* what) {
  std::vector<int> v;
  std::size_t pos = 0;
  try {
    while (pos <= text.size()) {
      const auto comma = text.find(',', pos);
      v.push_back(std::stoi(text.substr(pos, comma - pos)));
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  } catch (const std::exception&) {
    v.clear();
  }
  if (v.size() != 3) throw ScenarioError(std::string(what) + " must be three integers i,j,k, got '" + text + "'");
  return v;
}
}  // namespace

void ScenarioOptions::addTo(CLI::App& cmd, bool withStage) {
  cmd.add_option("sizes", sizes, "n1 n2 n3 [iterations]: interior grid size (x fastest) and time steps")
      ->expected(0, 4);
  cmd.add_option("--scenario", scenario,
                 "preset (" + commaList(presetNames()) + ") or a scenario .json file")
      ->capture_default_str();
  if (withStage) cmd.add_option("--stage", stage, "stage id, e.g. cpu-serial, cpu-parallel, gpu-slm (`iso3dfd stages` lists them with their parameters)");
  cmd.add_option("--device", device, "OpenCL device: gpu, cpu, P:D, N, or a name substring");
  cmd.add_option("--model", model, "velocity model: constant, layered, gradient, random, file (replaces the scenario's model, salt body included)");
  cmd.add_option("--velocity", velocity, "velocity of the constant model / mean of the random model, m/s");
  cmd.add_option("--model-file", modelFile, "velocity model file: .npy, raw float32 (.bin/.raw, needs --model-dims) or SEG-Y");
  cmd.add_option("--model-dims", modelDims, "dims n1,n2,n3 of a raw float32 model file")->expected(3)->delimiter(',');
  cmd.add_option("--model-unit", modelUnit, "unit of the model file's values: m/s (default), km/s or ft/s");
  cmd.add_option("--source", source, "ricker, oneapi-cubes (the oneAPI sample's initial condition) or none");
  cmd.add_option("--source-pos", sourcePos, "source cell i,j,k (interior indices)")->expected(3)->delimiter(',');
  cmd.add_option("--frequency", frequency, "Ricker peak frequency f0, Hz");
  cmd.add_option("--amplitude", amplitude, "Ricker amplitude");
  cmd.add_option("--boundary", boundary, "absorbing (a perfectly matched layer), sponge or reflecting");
  cmd.add_option("--boundary-width", boundaryWidth, "the absorbing or sponge layer's width in cells (0: automatic)");
  cmd.add_option("--coefficients", coefficients, "exact (16th-order closed form) or oneapi (the sample's table)");
  cmd.add_option("--dx", dx, "grid spacing, metres");
  cmd.add_option("--dt", dt, "time step in seconds, or 'auto' (a fraction of the stability limit)");
  cmd.add_option("--param", params, "stage parameter key=value, e.g. tile_x=32 (repeatable)");
  cmd.add_option("--receiver", receivers, "receiver cell i,j,k (repeatable; replaces the scenario's receivers)");
}

namespace {
bool namesAFile(const std::string& scenario) {
  return (scenario.size() > 5 && scenario.substr(scenario.size() - 5) == ".json") || std::filesystem::exists(scenario);
}
}  // namespace

std::vector<std::string> ScenarioOptions::inputFiles(const Scenario& resolved) const {
  std::vector<std::string> files;
  if (namesAFile(scenario)) files.push_back(scenario);
  if (resolved.model.kind == ModelKind::File && !resolved.model.path.empty()) files.push_back(resolved.model.path);
  return files;
}

Scenario ScenarioOptions::resolve() const {
  Scenario s;
  if (namesAFile(scenario))
    s = loadScenarioFile(scenario);
  else
    s = presetScenario(scenario);

  if (!sizes.empty()) {
    if (sizes.size() < 3)
      throw ScenarioError("give n1 n2 n3 [iterations] (got " + std::to_string(sizes.size()) + " numbers)");
    // The sizes are checked by buildProblem; non-positive ones are passed on so its message names them.
    if (sizes[0] > 0 && sizes[1] > 0 && sizes[2] > 0)
      s = resizedScenario(std::move(s), sizes[0], sizes[1], sizes[2]);
    else
      s.n1 = sizes[0], s.n2 = sizes[1], s.n3 = sizes[2];
    if (sizes.size() == 4) s.steps = sizes[3];
  }
  if (stage) s.stage = *stage;
  if (device) s.device = *device;
  // A model named on the command line is the whole model: the scenario's salt body goes with the
  // model it was drawn over (a scenario file keeps both when that is wanted).
  if (model) s.model.kind = modelKindFromString(*model);
  if (velocity) s.model.velocity = *velocity;
  if (modelFile) {
    s.model.kind = ModelKind::File;
    s.model.path = *modelFile;
  }
  if (model || modelFile) s.model.salt.enabled = false;
  if (modelUnit) s.model.fileUnit = velocityUnitFromString(*modelUnit);
  if (modelDims) s.model.fileN1 = (*modelDims)[0], s.model.fileN2 = (*modelDims)[1], s.model.fileN3 = (*modelDims)[2];
  if (source) s.source.kind = sourceKindFromString(*source);
  if (sourcePos) s.source.i = (*sourcePos)[0], s.source.j = (*sourcePos)[1], s.source.k = (*sourcePos)[2];
  if (frequency) s.source.frequency = *frequency;
  if (amplitude) s.source.amplitude = *amplitude;
  if (boundary) s.boundary.kind = boundaryKindFromString(*boundary);
  if (boundaryWidth) s.boundary.width = *boundaryWidth;
  if (coefficients) s.coefficients = *coefficients;
  if (dx) s.dx = *dx;
  if (dt) {
    if (*dt == "auto") {
      s.dt = 0.0;
    } else {
      // The whole text, a finite number ("1e-4abc" is a typo); one that underflows (1e-320) is still a
      // number, which the scenario's check then calls too small.
      char* end = nullptr;
      const double value = std::strtod(dt->c_str(), &end);
      if (dt->empty() || end != dt->c_str() + dt->size() || !std::isfinite(value))
        throw ScenarioError("--dt must be a number of seconds or 'auto', got '" + *dt + "'");
      s.dt = value;
    }
  }
  applyParams(s);
  if (!receivers.empty()) s.receivers.clear();  // the user's receivers replace the scenario's
  for (const auto& r : receivers) {
    const auto v = parseTriple(r, "--receiver");
    s.receivers.push_back({v[0], v[1], v[2]});
  }
  return s;
}

void ScenarioOptions::applyParams(Scenario& s) const {
  for (const auto& p : params) {
    const auto eq = p.find('=');
    int value = 0;
    try {
      if (eq == std::string::npos || eq == 0) throw std::invalid_argument(p);
      std::size_t used = 0;
      value = std::stoi(p.substr(eq + 1), &used);
      if (used != p.size() - eq - 1) throw std::invalid_argument(p);
    } catch (const std::exception&) {
      throw ScenarioError("--param must be key=integer, e.g. tile_x=32, got '" + p + "'");
    }
    s.stageParams[p.substr(0, eq)] = value;
  }
}

}  // namespace iso::cli
