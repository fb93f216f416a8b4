#include "core/Scenario.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/Coefficients.h"
#include "core/Format.h"
#include "core/Grid.h"
#include "core/InputFile.h"
#include "core/JsonInput.h"
#include "core/OutputFile.h"
#include "core/StageRegistry.h"

namespace iso {

namespace {

using nlohmann::json;

template <class E>
struct EnumName {
  E value;
  const char* name;
};

constexpr EnumName<ModelKind> kModelKinds[] = {{ModelKind::Constant, "constant"},
                                               {ModelKind::Layered, "layered"},
                                               {ModelKind::Gradient, "gradient"},
                                               {ModelKind::Random, "random"},
                                               {ModelKind::File, "file"}};
constexpr EnumName<VelocityUnit> kVelocityUnits[] = {{VelocityUnit::MetresPerSecond, "m/s"},
                                                    {VelocityUnit::KilometresPerSecond, "km/s"},
                                                    {VelocityUnit::FeetPerSecond, "ft/s"}};
constexpr EnumName<SourceKind> kSourceKinds[] = {
    {SourceKind::None, "none"}, {SourceKind::Ricker, "ricker"}, {SourceKind::OneApiCubes, "oneapi-cubes"}};
constexpr EnumName<BoundaryKind> kBoundaryKinds[] = {
    {BoundaryKind::Reflecting, "reflecting"}, {BoundaryKind::Absorbing, "absorbing"}, {BoundaryKind::Sponge, "sponge"}};

template <class E, std::size_t N>
std::string enumToString(const EnumName<E> (&names)[N], E value) {
  for (const auto& n : names)
    if (n.value == value) return n.name;
  return "?";
}

template <class E, std::size_t N>
E enumFromString(const EnumName<E> (&names)[N], const std::string& text, const char* what) {
  for (const auto& n : names)
    if (text == n.name) return n.value;
  throw ScenarioError("unknown " + std::string(what) + " '" + excerpt(text) +
                      "' (known: " + commaList(names, [](const auto& n) { return std::string(n.name); }) + ")");
}

// Reads the keys of one JSON object into a struct: every key asked for is optional (absent keeps the
// current value), a present key must have the right type, and finish() rejects keys never asked for.
class ObjectReader {
 public:
  ObjectReader(const json& j, std::string path) : j_(j), path_(std::move(path)) {
    if (!j.is_object())
      throw ScenarioError("scenario key '" + path_ + "' must be a JSON object, got " + std::string(j.type_name()));
  }

  const json* child(const std::string& key) {
    known_.insert(key);
    const auto it = j_.find(key);
    return it == j_.end() ? nullptr : &*it;
  }
  std::string keyPath(const std::string& key) const { return excerpt(path_.empty() ? key : path_ + "." + key); }

  void read(const std::string& key, int& out) {
    if (const json* v = child(key)) out = int(integer(key, *v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
  }
  void read(const std::string& key, unsigned& out) {
    if (const json* v = child(key)) out = unsigned(integer(key, *v, 0, std::numeric_limits<unsigned>::max()));
  }
  void read(const std::string& key, double& out) {
    if (const json* v = child(key)) {
      if (!v->is_number()) typeError(key, *v, "a number");
      out = v->get<double>();
    }
  }
  void read(const std::string& key, bool& out) {
    if (const json* v = child(key)) {
      if (!v->is_boolean()) typeError(key, *v, "true or false");
      out = v->get<bool>();
    }
  }
  void read(const std::string& key, std::string& out) {
    if (const json* v = child(key)) {
      if (!v->is_string()) typeError(key, *v, "a string");
      out = v->get<std::string>();
    }
  }
  template <class E, std::size_t N>
  void readEnum(const std::string& key, const EnumName<E> (&names)[N], E& out) {
    std::string text;
    if (!child(key)) return;
    read(key, text);
    try {
      out = enumFromString(names, text, "value");
    } catch (const ScenarioError& e) {
      throw ScenarioError(keyPath(key) + ": " + e.what());
    }
  }
  // The array under `key`, or nullptr when absent.
  const json* array(const std::string& key) {
    const json* v = child(key);
    if (v && !v->is_array()) typeError(key, *v, "an array");
    return v;
  }

  void finish() const {
    for (const auto& [key, value] : j_.items()) {
      if (known_.count(key)) continue;
      throw ScenarioError("unknown scenario key '" + keyPath(key) + "' (known keys here: " + commaList(known_) + ")");
    }
  }

 private:
  long long integer(const std::string& key, const json& v, long long lo, long long hi) const {
    if (!v.is_number_integer()) typeError(key, v, "an integer");
    if (v.is_number_unsigned() ? v.get<unsigned long long>() > (unsigned long long)hi
                               : v.get<long long>() < lo || v.get<long long>() > hi)
      throw ScenarioError("scenario key '" + keyPath(key) + "' = " + excerpt(v) + " does not fit its type (allowed " +
                          std::to_string(lo) + " to " + std::to_string(hi) + ")");
    return v.is_number_unsigned() ? (long long)v.get<unsigned long long>() : v.get<long long>();
  }
  [[noreturn]] void typeError(const std::string& key, const json& v, const char* expected) const {
    throw ScenarioError("scenario key '" + keyPath(key) + "' must be " + expected + ", got " +
                        std::string(v.type_name()) + " " + excerpt(v));
  }

  const json& j_;
  std::string path_;
  std::set<std::string> known_;
};

void readModel(ObjectReader& parent, VelocityModelSpec& m) {
  const json* node = parent.child("model");
  if (!node) return;
  ObjectReader r(*node, "model");
  r.readEnum("kind", kModelKinds, m.kind);
  r.read("velocity", m.velocity);
  if (const json* layers = r.array("layers")) {
    m.layers.clear();
    for (std::size_t n = 0; n < layers->size(); ++n) {
      ObjectReader lr((*layers)[n], "model.layers[" + std::to_string(n) + "]");
      Layer layer;
      lr.read("top", layer.top);
      lr.read("velocity", layer.velocity);
      lr.finish();
      m.layers.push_back(layer);
    }
  }
  r.read("top_velocity", m.topVelocity);
  r.read("bottom_velocity", m.bottomVelocity);
  r.read("random_std_dev", m.randomStdDev);
  r.read("random_correlation_length", m.randomCorrelationLength);
  r.read("random_seed", m.randomSeed);
  r.read("path", m.path);
  r.read("file_n1", m.fileN1);
  r.read("file_n2", m.fileN2);
  r.read("file_n3", m.fileN3);
  r.readEnum("file_unit", kVelocityUnits, m.fileUnit);
  if (const json* salt = r.child("salt")) {
    ObjectReader sr(*salt, "model.salt");
    sr.read("enabled", m.salt.enabled);
    sr.read("center_x", m.salt.centerX);
    sr.read("center_y", m.salt.centerY);
    sr.read("center_z", m.salt.centerZ);
    sr.read("radius", m.salt.radius);
    sr.read("velocity", m.salt.velocity);
    sr.finish();
  }
  r.finish();
}

void readSource(ObjectReader& parent, SourceSpec& src) {
  const json* node = parent.child("source");
  if (!node) return;
  ObjectReader r(*node, "source");
  r.readEnum("kind", kSourceKinds, src.kind);
  r.read("i", src.i);
  r.read("j", src.j);
  r.read("k", src.k);
  r.read("frequency", src.frequency);
  r.read("amplitude", src.amplitude);
  r.read("delay", src.delay);
  r.finish();
}

void readBoundary(ObjectReader& parent, BoundarySpec& b) {
  const json* node = parent.child("boundary");
  if (!node) return;
  ObjectReader r(*node, "boundary");
  r.readEnum("kind", kBoundaryKinds, b.kind);
  r.read("width", b.width);
  r.read("reflection", b.reflection);
  r.finish();
}

void readReceivers(ObjectReader& parent, std::vector<ReceiverSpec>& receivers) {
  const json* list = parent.array("receivers");
  if (!list) return;
  receivers.clear();
  for (std::size_t n = 0; n < list->size(); ++n) {
    ObjectReader r((*list)[n], "receivers[" + std::to_string(n) + "]");
    ReceiverSpec rec;
    r.read("i", rec.i);
    r.read("j", rec.j);
    r.read("k", rec.k);
    r.finish();
    receivers.push_back(rec);
  }
}

void readStageParams(ObjectReader& parent, std::map<std::string, int>& params) {
  const json* node = parent.child("stage_params");
  if (!node) return;
  ObjectReader r(*node, "stage_params");
  params.clear();
  for (const auto& [key, value] : node->items()) r.read(key, params[key]);
  r.finish();
}

// --- validation -------------------------------------------------------------------------------------

[[noreturn]] void outOfRange(const std::string& key, double value, const std::string& allowed) {
  throw ScenarioError(key + " = " + shortNumber(value) + " is out of range (allowed: " + allowed + ")");
}

void checkRange(const std::string& key, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) outOfRange(key, value, "[" + shortNumber(lo) + ", " + shortNumber(hi) + "]");
}

// Integer keys print as integers: "steps = 1000000001 is out of range (allowed: [0, 1000000000])".
void checkRange(const std::string& key, long long value, long long lo, long long hi) {
  if (!(value >= lo && value <= hi))
    throw ScenarioError(key + " = " + std::to_string(value) + " is out of range (allowed: [" + std::to_string(lo) +
                        ", " + std::to_string(hi) + "])");
}

constexpr double kMinDt = 1e-12;

void checkFinite(const std::string& key, double value) {
  if (!std::isfinite(value)) outOfRange(key, value, "a finite number");
}

void checkVelocity(const std::string& key, double v) { checkRange(key, v, kMinVelocity, kMaxVelocity); }

// An interior cell index along an axis of n cells; -1 (the centre) only where allowCentre.
void checkCell(const std::string& key, int value, int n, const char* axis, bool allowCentre) {
  if ((value >= 0 && value < n) || (allowCentre && value == -1)) return;
  throw ScenarioError(key + " = " + std::to_string(value) + " is outside the grid (allowed: 0 to " +
                      std::to_string(n - 1) + " for " + axis + " = " + std::to_string(n) +
                      (allowCentre ? ", or -1 for the centre)" : ")"));
}

void validateModel(const Scenario& s) {
  const auto& m = s.model;
  checkVelocity("model.velocity", m.velocity);
  if (m.kind == ModelKind::Layered && m.layers.empty())
    throw ScenarioError("model.layers is empty: a layered model needs at least one layer {top, velocity}");
  for (std::size_t n = 0; n < m.layers.size(); ++n) {
    const std::string key = "model.layers[" + std::to_string(n) + "]";
    checkVelocity(key + ".velocity", m.layers[n].velocity);
    checkFinite(key + ".top", m.layers[n].top);
    if (n == 0 && m.layers[n].top != 0.0) outOfRange(key + ".top", m.layers[n].top, "0: the first layer starts at the top");
    if (n > 0 && !(m.layers[n].top > m.layers[n - 1].top))
      outOfRange(key + ".top", m.layers[n].top, "greater than the previous layer's top " + shortNumber(m.layers[n - 1].top));
  }
  checkVelocity("model.top_velocity", m.topVelocity);
  checkVelocity("model.bottom_velocity", m.bottomVelocity);
  // Clipping at mean ± 3σ keeps every velocity positive when σ < mean/3.
  checkRange("model.random_std_dev", m.randomStdDev, 0.0, m.velocity / 3.0);
  checkRange("model.random_correlation_length", m.randomCorrelationLength, 1e-3, 1e6);
  if (m.kind == ModelKind::File && m.path.empty()) throw ScenarioError("model.path is empty: a file model needs a path");
  checkRange("model.file_n1", m.fileN1, 0LL, kMaxAxisCells);
  checkRange("model.file_n2", m.fileN2, 0LL, kMaxAxisCells);
  checkRange("model.file_n3", m.fileN3, 0LL, kMaxAxisCells);
  checkFinite("model.salt.center_x", m.salt.centerX);
  checkFinite("model.salt.center_y", m.salt.centerY);
  checkFinite("model.salt.center_z", m.salt.centerZ);
  checkRange("model.salt.radius", m.salt.radius, 0.0, 1e7);
  checkVelocity("model.salt.velocity", m.salt.velocity);
}

}  // namespace

std::string toString(ModelKind k) { return enumToString(kModelKinds, k); }
std::string toString(SourceKind k) { return enumToString(kSourceKinds, k); }
std::string toString(BoundaryKind k) { return enumToString(kBoundaryKinds, k); }
std::string toString(VelocityUnit u) { return enumToString(kVelocityUnits, u); }
VelocityUnit velocityUnitFromString(const std::string& s) { return enumFromString(kVelocityUnits, s, "velocity unit"); }
double metresPerSecondPer(VelocityUnit u) {
  switch (u) {
    case VelocityUnit::KilometresPerSecond: return 1000.0;
    case VelocityUnit::FeetPerSecond: return 0.3048;
    case VelocityUnit::MetresPerSecond: break;
  }
  return 1.0;
}
ModelKind modelKindFromString(const std::string& s) { return enumFromString(kModelKinds, s, "model kind"); }
SourceKind sourceKindFromString(const std::string& s) { return enumFromString(kSourceKinds, s, "source kind"); }
BoundaryKind boundaryKindFromString(const std::string& s) {
  return enumFromString(kBoundaryKinds, s, "boundary kind");
}

std::vector<std::string> presetNames() { return {"default", "oneapi"}; }

Scenario presetScenario(const std::string& name) {
  Scenario s;
  s.name = name;
  if (name == "default") {
    // Four layers that get faster with depth and a salt sphere, in a 0.96 km cube. v_min = 2000 m/s and
    // f0 = 10 Hz give 20 points per wavelength at f0 and 8 at f_max = 2.5·f0, where ISO3DFD's error
    // stays below 1 % over the box (docs/NUMERICS.md, "Accuracy"). 96³ rather than a rounder 128³: on a
    // machine of two cores the wave is then on screen within the first second of launch, and the run
    // moves at a lively pace (docs/PERFORMANCE.md, "The default start's first wavefront"); --size gives
    // the same picture on a larger grid.
    s.n1 = s.n2 = s.n3 = 96;
    s.dx = 10.0;
    // dt at 0.8 of the stability limit (0.75 ms): the time-stepping error at f_max, (ω·dt)²/24 ≈ 6e-4, is
    // still far below the spatial one, and the wave needs 3/8 fewer steps than at the general 0.5.
    s.dtAutoFraction = 0.8;
    // 1000 steps of 0.75 ms (0.75 s): the direct wave crosses the receiver line, the reflections of the
    // layers and the salt come back to it (the deepest by about step 600), and the absorbing layer takes
    // the rest (below 1 % of the peak by step 800). The studio stops (or loops) there.
    s.steps = 1000;
    s.model.kind = ModelKind::Layered;
    s.model.layers = {{0.0, 2000.0}, {225.0, 2400.0}, {410.0, 2900.0}, {640.0, 3400.0}};
    s.model.salt = {true, 480.0, 480.0, 540.0, 135.0, 4500.0};
    s.boundary = {BoundaryKind::Absorbing, 0, 1.0e-3};  // the automatic perfectly matched layer, 10 cells
    // t0 = 1/f0 rather than the general 1.5/f0: the wavelet still starts smoothly (s(0) = (1 − 2π²)·e^−π²
    // ≈ −9.7e-4 of its peak) and its peak leaves the source at step 133, early in a live run.
    s.source = {SourceKind::Ricker, 48, 48, 21, 10.0, 1.0e6, 1.0 / 10.0};
    for (int i = 18; i <= 78; i += 6) s.receivers.push_back({i, 48, 21});
    return s;
  }
  if (name == "oneapi") {
    // The oneAPI iso3dfd sample's run (docs/NUMERICS.md); only the coefficient set stays ours unless asked.
    s.n1 = s.n2 = s.n3 = 256;
    s.dx = 50.0;
    s.dt = 0.002;
    s.steps = 100;
    s.model.kind = ModelKind::Constant;
    s.model.velocity = 1500.0;
    s.source.kind = SourceKind::OneApiCubes;
    s.boundary.kind = BoundaryKind::Reflecting;
    return s;
  }
  throw ScenarioError("unknown preset '" + excerpt(name) + "' (known presets: " + commaList(presetNames()) + ")");
}

void validateScenario(const Scenario& s) {
  checkRange("n1", s.n1, 1LL, kMaxAxisCells);
  checkRange("n2", s.n2, 1LL, kMaxAxisCells);
  checkRange("n3", s.n3, 1LL, kMaxAxisCells);
  checkRange("dx", s.dx, 1e-3, 1e5);
  checkFinite("dt", s.dt);
  // dt <= 0 asks for the automatic step; a positive one this small is a typo, and in float32 its v²·dt²
  // would round the wave to nothing.
  if (s.dt > 0.0 && s.dt < kMinDt)
    throw ScenarioError("dt = " + shortNumber(s.dt) + " s is too small (allowed: at least " + shortNumber(kMinDt) +
                        " s, or 0 for the automatic step)");
  if (!(s.dtAutoFraction > 0.0 && s.dtAutoFraction <= 1.0)) outOfRange("dt_auto_fraction", s.dtAutoFraction, "(0, 1]");
  checkRange("steps", s.steps, 0LL, kMaxScenarioSteps);
  if (s.coefficients != "exact" && s.coefficients != "oneapi")
    throw ScenarioError("coefficients = '" + excerpt(s.coefficients) + "' is not a coefficient set (allowed: exact, oneapi)");
  validateModel(s);
  checkCell("source.i", s.source.i, s.n1, "n1", true);
  checkCell("source.j", s.source.j, s.n2, "n2", true);
  checkCell("source.k", s.source.k, s.n3, "n3", true);
  if (!(s.source.frequency > 0.0 && s.source.frequency <= 1e5)) outOfRange("source.frequency", s.source.frequency, "(0, 1e5] Hz");
  checkRange("source.amplitude", s.source.amplitude, -kMaxSourceAmplitude, kMaxSourceAmplitude);
  checkFinite("source.delay", s.source.delay);
  checkRange("boundary.width", s.boundary.width, 0LL, kMaxAxisCells / 4);
  // The layer takes at most a quarter of each axis (PmlProfile.h): a width that no axis can hold would be
  // cut without a word on every one of them.
  if (const int widest = std::max({s.n1, s.n2, s.n3}); s.boundary.kind != BoundaryKind::Reflecting && s.boundary.width > widest / 4)
    throw ScenarioError("boundary.width = " + std::to_string(s.boundary.width) + " cells is wider than the layer of a " +
                        std::to_string(s.n1) + " x " + std::to_string(s.n2) + " x " + std::to_string(s.n3) +
                        " grid can be (allowed: at most a quarter of its longest axis, " + std::to_string(widest / 4) +
                        ", or 0 for the automatic width)");
  if (!(s.boundary.reflection > 0.0 && s.boundary.reflection < 1.0))
    outOfRange("boundary.reflection", s.boundary.reflection, "(0, 1), e.g. 1e-3");
  for (std::size_t n = 0; n < s.receivers.size(); ++n) {
    const std::string key = "receivers[" + std::to_string(n) + "]";
    checkCell(key + ".i", s.receivers[n].i, s.n1, "n1", false);
    checkCell(key + ".j", s.receivers[n].j, s.n2, "n2", false);
    checkCell(key + ".k", s.receivers[n].k, s.n3, "n3", false);
  }
  try {
    StageRegistry::get(s.stage);
  } catch (const std::invalid_argument& e) {
    // A stage id is a short word: a long value is garbage, and is not quoted in full.
    throw ScenarioError(std::string("stage: ") + (s.stage.size() > kExcerptChars ? "'" + excerpt(s.stage) + "' is not a stage" : e.what()));
  }
}

std::string scenarioToJson(const Scenario& s) {
  const auto& m = s.model;
  json layers = json::array();
  for (const auto& l : m.layers) layers.push_back({{"top", l.top}, {"velocity", l.velocity}});
  json receivers = json::array();
  for (const auto& r : s.receivers) receivers.push_back({{"i", r.i}, {"j", r.j}, {"k", r.k}});
  json params = json::object();
  for (const auto& [k, v] : s.stageParams) params[k] = v;
  const json j = {
      {"name", s.name},
      {"n1", s.n1},
      {"n2", s.n2},
      {"n3", s.n3},
      {"dx", s.dx},
      {"dt", s.dt},
      {"dt_auto_fraction", s.dtAutoFraction},
      {"steps", s.steps},
      {"coefficients", s.coefficients},
      {"model",
       {{"kind", toString(m.kind)},
        {"velocity", m.velocity},
        {"layers", layers},
        {"top_velocity", m.topVelocity},
        {"bottom_velocity", m.bottomVelocity},
        {"random_std_dev", m.randomStdDev},
        {"random_correlation_length", m.randomCorrelationLength},
        {"random_seed", m.randomSeed},
        {"path", m.path},
        {"file_n1", m.fileN1},
        {"file_n2", m.fileN2},
        {"file_n3", m.fileN3},
        {"file_unit", toString(m.fileUnit)},
        {"salt",
         {{"enabled", m.salt.enabled},
          {"center_x", m.salt.centerX},
          {"center_y", m.salt.centerY},
          {"center_z", m.salt.centerZ},
          {"radius", m.salt.radius},
          {"velocity", m.salt.velocity}}}}},
      {"source",
       {{"kind", toString(s.source.kind)},
        {"i", s.source.i},
        {"j", s.source.j},
        {"k", s.source.k},
        {"frequency", s.source.frequency},
        {"amplitude", s.source.amplitude},
        {"delay", s.source.delay}}},
      {"boundary",
       {{"kind", toString(s.boundary.kind)}, {"width", s.boundary.width}, {"reflection", s.boundary.reflection}}},
      {"receivers", receivers},
      {"stage", s.stage},
      {"device", s.device},
      {"stage_params", params},
  };
  return j.dump(2);
}

Scenario scenarioFromJson(const std::string& text) {
  json j;
  try {
    j = parseJsonInput(text);
  } catch (const JsonInputError& e) {
    throw ScenarioError(std::string(e.what()) + (text.size() > kMaxJsonBytes ? " (a scenario is a few KiB)" : ""));
  }
  ObjectReader r(j, "");
  Scenario s;
  if (const json* preset = r.child("preset")) {
    if (!preset->is_string()) throw ScenarioError("scenario key 'preset' must be a string naming a preset");
    s = presetScenario(preset->get<std::string>());
  }
  r.read("name", s.name);
  r.read("n1", s.n1);
  r.read("n2", s.n2);
  r.read("n3", s.n3);
  r.read("dx", s.dx);
  r.read("dt", s.dt);
  r.read("dt_auto_fraction", s.dtAutoFraction);
  r.read("steps", s.steps);
  r.read("coefficients", s.coefficients);
  readModel(r, s.model);
  readSource(r, s.source);
  readBoundary(r, s.boundary);
  readReceivers(r, s.receivers);
  r.read("stage", s.stage);
  r.read("device", s.device);
  readStageParams(r, s.stageParams);
  r.finish();
  validateScenario(s);
  return s;
}

Scenario loadScenarioFile(const std::string& path) {
  std::string text;
  try {
    text = readInputFile(path, kMaxJsonBytes, "scenario file");
  } catch (const FileReadError& e) {
    throw ScenarioError(e.what());
  }
  try {
    return scenarioFromJson(text);
  } catch (const ScenarioError& e) {
    throw ScenarioError("scenario file '" + path + "': " + e.what());
  }
}

void saveScenarioFile(const Scenario& s, const std::string& path) {
  try {
    writeWholeFile(path, scenarioToJson(s) + '\n');
  } catch (const FileWriteError& e) {
    throw ScenarioError(std::string("cannot save the scenario: ") + e.what());
  }
}

}  // namespace iso
