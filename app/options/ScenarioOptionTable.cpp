#include "app/options/ScenarioOptionTable.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "core/Format.h"
#include "core/CpuSolvers.h"
#include "core/Grid.h"
#include "core/StageRegistry.h"

namespace iso {
namespace {

// The value's parsers: each takes the whole text or throws what it expected (setScenarioOption adds
// the option and the value in front).
int parseInteger(std::string_view text, const char* expected) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) throw ScenarioError(expected);
  return value;
}

double parseNumber(const std::string& text, const char* expected) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value)) throw ScenarioError(expected);
  return value;
}

std::vector<int> parseIntegerList(std::string_view text, const char* expected) {
  std::vector<int> values;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    values.push_back(parseInteger(text.substr(start, comma - start), expected));
    if (comma == std::string_view::npos) return values;
    start = comma + 1;
  }
}

std::array<int, 3> parseCell(const std::string& text) {
  constexpr const char* expected = "expected a cell i,j,k (three integers)";
  const std::vector<int> v = parseIntegerList(text, expected);
  if (v.size() != 3) throw ScenarioError(expected);
  return {v[0], v[1], v[2]};
}

std::array<int, 3> parseGrid(const std::string& text) {
  const std::string expected = "expected a cube N or n1,n2,n3, integers from 1 to " + std::to_string(kMaxAxisCells);
  const std::vector<int> v = parseIntegerList(text, expected.c_str());
  if (v.size() != 1 && v.size() != 3) throw ScenarioError(expected);
  for (int n : v)
    if (n < 1 || n > kMaxAxisCells) throw ScenarioError(expected);
  return v.size() == 1 ? std::array{v[0], v[0], v[0]} : std::array{v[0], v[1], v[2]};
}

std::pair<std::string, int> parseParam(const std::string& text) {
  constexpr const char* expected = "expected key=integer, e.g. tile_x=32";
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw ScenarioError(expected);
  return {text.substr(0, eq), parseInteger(std::string_view(text).substr(eq + 1), expected)};
}

// --threads: cpu-parallel's threads parameter, in its range.
int parseThreads(const std::string& text) {
  const int n = parseInteger(text, "expected an integer");
  for (const StageParamSpec& spec : cpuStageParameterSpecs("cpu-parallel"))
    if (spec.name == "threads" && (n < spec.minValue || n > spec.maxValue))
      throw ScenarioError("expected a number of threads from " + std::to_string(spec.minValue) + " to " +
                          std::to_string(spec.maxValue));
  return n;
}

std::string knownStage(const std::string& id) {
  try {
    StageRegistry::get(id);
  } catch (const std::invalid_argument& e) {
    throw ScenarioError(e.what());
  }
  return id;
}

constexpr const char* kNumber = "expected a number";

using O = ScenarioOverrides;
using V = const std::string&;

// Where the scenario starts, its grid, and how it runs.
std::vector<ScenarioOption> runOptions() {
  return {
      {"scenario", "preset", "NAME|FILE", "the scenario to start from: a preset (" + commaList(presetNames()) + ") or a scenario .json file", false,
       [](O& o, V v) { o.scenario = v; }},
      {"size", "", "N|n1,n2,n3",
       "interior grid size: a cube N³ or n1,n2,n3 (x fastest), 1 to " + std::to_string(kMaxAxisCells) +
           " cells each; the scenario's source, receivers and model scale with it",
       false, [](O& o, V v) { o.size = parseGrid(v); }},
      {"stage", "", "ID", "stage id: " + commaList(StageRegistry::ids()) + " (`iso3dfd stages` lists them with their parameters)", false,
       [](O& o, V v) { o.stage = knownStage(v); }},
      {"device", "", "SELECTOR",
       "OpenCL device of an OpenCL stage: gpu, cpu, P:D, N, or a name substring; several cut the grid into slabs "
       "along z, one per device: P:D,P:D (cpu,cpu: two on one device), all-gpus, or under mpirun local-rank",
       false,
       [](O& o, V v) { o.device = v; }},
      {"param", "", "KEY=VALUE", "stage parameter, e.g. tile_x=32 (repeatable; `iso3dfd stages` lists each stage's)", true,
       [](O& o, V v) { o.params.push_back(parseParam(v)); }},
      {"threads", "", "N", "threads of the cpu-parallel stage, the same as --param threads=N (default: one per hardware thread)", false,
       [](O& o, V v) { o.params.emplace_back("threads", parseThreads(v)); }},
  };
}

// The physics: model, source, boundary, numerics and receivers.
std::vector<ScenarioOption> physicsOptions() {
  return {
      {"model", "", "KIND", "velocity model: constant, layered, gradient, random, file (replaces the scenario's model, salt body included)", false,
       [](O& o, V v) { o.model = modelKindFromString(v); }},
      {"velocity", "", "M/S", "velocity of the constant model, the mean of the random model, m/s", false,
       [](O& o, V v) { o.velocity = parseNumber(v, kNumber); }},
      {"model-file", "", "FILE", "velocity model file: .npy, raw float32 (.bin/.raw, needs --model-dims) or SEG-Y", false,
       [](O& o, V v) { o.modelFile = v; }},
      {"model-dims", "", "n1,n2,n3", "dims of a raw float32 model file", false, [](O& o, V v) { o.modelDims = parseCell(v); }},
      {"model-unit", "", "UNIT", "unit of the model file's values: m/s (default), km/s or ft/s", false,
       [](O& o, V v) { o.modelUnit = velocityUnitFromString(v); }},
      {"source", "", "KIND", "ricker, oneapi-cubes (the oneAPI sample's initial condition) or none", false,
       [](O& o, V v) { o.source = sourceKindFromString(v); }},
      {"source-pos", "", "i,j,k", "source cell (interior indices; -1 on an axis: its centre)", false,
       [](O& o, V v) { o.sourcePos = parseCell(v); }},
      {"frequency", "", "HZ", "Ricker peak frequency f0, Hz", false, [](O& o, V v) { o.frequency = parseNumber(v, kNumber); }},
      {"amplitude", "", "A", "Ricker amplitude", false, [](O& o, V v) { o.amplitude = parseNumber(v, kNumber); }},
      {"boundary", "", "KIND", "absorbing (a perfectly matched layer), sponge or reflecting", false,
       [](O& o, V v) { o.boundary = boundaryKindFromString(v); }},
      {"boundary-width", "", "CELLS", "the absorbing or sponge layer's width in cells (0: automatic)", false,
       [](O& o, V v) { o.boundaryWidth = parseInteger(v, "expected an integer"); }},
      {"coefficients", "", "SET", "exact (16th-order closed form) or oneapi (the sample's table)", false,
       [](O& o, V v) { o.coefficients = v; }},
      {"dx", "", "METRES", "grid spacing, metres", false, [](O& o, V v) { o.dx = parseNumber(v, kNumber); }},
      {"dt", "", "SECONDS|auto", "time step in seconds, or auto (a fraction of the stability limit)", false,
       [](O& o, V v) { o.dt = v == "auto" ? 0.0 : parseNumber(v, "expected a number of seconds or auto"); }},
      {"receiver", "", "i,j,k", "receiver cell (repeatable; replaces the scenario's receivers)", true, [](O& o, V v) {
         const auto c = parseCell(v);
         o.receivers.push_back({c[0], c[1], c[2]});
       }},
  };
}

}  // namespace

const std::vector<ScenarioOption>& scenarioOptionTable() {
  static const std::vector<ScenarioOption> table = [] {
    std::vector<ScenarioOption> all = runOptions();
    for (ScenarioOption& option : physicsOptions()) all.push_back(std::move(option));
    return all;
  }();
  return table;
}

void setScenarioOption(ScenarioOverrides& overrides, const ScenarioOption& option, const std::vector<std::string>& values) {
  if (values.size() > 1 && !option.repeatable)
    throw ScenarioError("--" + option.name + " " + values[0] + " and " + values[1] + ": give it once");
  for (const std::string& value : values) {
    try {
      option.set(overrides, value);
    } catch (const ScenarioError& e) {
      throw ScenarioError("--" + option.name + " " + value + ": " + e.what());
    }
  }
}

}  // namespace iso
