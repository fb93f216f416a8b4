#pragma once
// Every parameter of a run, so that any run can be repeated exactly (docs/FILES.md).
// Units: metres, seconds, m/s, Hz. Source and receiver positions are interior cell indices
// (0-based, inside the halo); -1 on an axis of the source means "the centre of that axis".
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace iso {

struct ScenarioError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Velocities every model must keep to, files included (m/s): no rock is faster than ~7 km/s, and a
// model in km/s or with a garbage cell falls outside.
constexpr double kMinVelocity = 1.0, kMaxVelocity = 100000.0;
// |amplitude| of the Ricker source: keeps the float field many orders below overflow on any grid.
constexpr double kMaxSourceAmplitude = 1.0e12;
// The most time steps a scenario runs, and the latest step a checkpoint may continue from.
constexpr long long kMaxScenarioSteps = 1000000000;

enum class ModelKind { Constant, Layered, Gradient, Random, File };

// The unit a model file's values are in; they are converted to m/s as the file is read. Velocity models
// come in m/s, km/s (many Python and academic models) and ft/s (much North American SEG-Y).
enum class VelocityUnit { MetresPerSecond, KilometresPerSecond, FeetPerSecond };
double metresPerSecondPer(VelocityUnit u);  // 1, 1000, 0.3048

struct Layer {
  double top = 0.0;          // depth (z, metres from the top of the interior) where this layer starts
  double velocity = 1500.0;  // m/s
};

// A high-velocity sphere ("salt body") drawn over any background model.
struct SaltBody {
  bool enabled = false;
  double centerX = 0.0, centerY = 0.0, centerZ = 0.0;  // metres from the interior origin
  double radius = 0.0;                                 // metres
  double velocity = 4500.0;                            // m/s
};

struct VelocityModelSpec {
  ModelKind kind = ModelKind::Constant;
  double velocity = 1500.0;                   // Constant; also the mean of Random
  std::vector<Layer> layers;                  // Layered, sorted by top; the first starts at 0
  double topVelocity = 1500.0;                // Gradient: v at z = 0 ...
  double bottomVelocity = 3000.0;             // ... and at the bottom of the interior
  double randomStdDev = 200.0;                // Random: standard deviation (m/s)
  double randomCorrelationLength = 100.0;     // Random: metres
  unsigned randomSeed = 1;                    // Random
  std::string path;                           // File: .npy, .bin/.raw (raw float32), .sgy/.segy
  int fileN1 = 0, fileN2 = 0, fileN3 = 0;     // File: dims of a raw float32 file (x fastest)
  VelocityUnit fileUnit = VelocityUnit::MetresPerSecond;  // File: the unit of its values
  SaltBody salt;
};

enum class SourceKind { None, Ricker, OneApiCubes };

struct SourceSpec {
  SourceKind kind = SourceKind::Ricker;
  int i = -1, j = -1, k = -1;  // interior cell; -1 = centre of that axis
  double frequency = 15.0;     // Ricker peak frequency f0, Hz
  double amplitude = 1.0e6;    // Ricker amplitude A (source strength, m³ per unit of u)
  double delay = -1.0;         // t0 in seconds; < 0 means 1.5 / f0
};

// Reflecting: the halo stays 0 (pressure release). Absorbing: a perfectly matched layer (core/PmlProfile.h).
// Sponge: the simpler Cerjan damping layer (core/Problem.h, DampingProfile), kept for comparison.
enum class BoundaryKind { Reflecting, Absorbing, Sponge };

struct BoundarySpec {
  BoundaryKind kind = BoundaryKind::Absorbing;
  int width = 0;                 // layer width in cells; 0 = derived from the model
  double reflection = 1.0e-3;    // target amplitude reflection of the layer (drives its strength)
};

struct ReceiverSpec {
  int i = 0, j = 0, k = 0;  // interior cell
};

struct Scenario {
  std::string name = "default";
  int n1 = 128, n2 = 128, n3 = 128;  // interior sizes
  double dx = 10.0;                  // grid spacing, metres (the same along every axis)
  double dt = 0.0;                   // time step, seconds; <= 0 means auto (a fraction of the limit)
  double dtAutoFraction = 0.5;       // auto dt = this fraction of the stability limit
  int steps = 100;
  std::string coefficients = "exact";  // "exact" | "oneapi"
  VelocityModelSpec model;
  SourceSpec source;
  BoundarySpec boundary;
  std::vector<ReceiverSpec> receivers;
  std::string stage = "cpu-parallel";
  std::string device = "";                 // "", "gpu", "cpu", an index "P:D", or a name substring
  std::map<std::string, int> stageParams;  // e.g. {"tile_x":32,"tile_y":8,"z_chunk":64}
};

// Presets: "default" (Ricker in a layered model with a salt body, absorbing) and "oneapi" (the
// oneAPI sample's run: dx 50 m, dt 2 ms, v 1500 m/s, nested cubes, reflecting).
Scenario presetScenario(const std::string& name);  // throws ScenarioError for an unknown name
std::vector<std::string> presetNames();

// Checks every value against its allowed range (sizes, spacing, velocities, positions inside the
// grid, known stage and coefficient set). Throws ScenarioError naming the JSON key and the range.
// Files and memory are checked later, by buildProblem.
void validateScenario(const Scenario& s);

// JSON (nlohmann). Keys are the field names in snake_case ("n1", "dt_auto_fraction", "model": {"kind":
// "layered", "layers": [{"top": 0, "velocity": 2000}], "salt": {"center_x": ...}}, "source": {"kind":
// "ricker" | "none" | "oneapi-cubes"}, "boundary": {"kind": "absorbing" | "sponge" | "reflecting"}, "receivers":
// [{"i", "j", "k"}], "stage_params": {...}); scenarioToJson writes them all. Absent keys keep their
// defaults; an optional top-level "preset": "oneapi" starts from that preset instead of Scenario{}.
// Unknown keys and wrong types are errors naming the key; values are checked by validateScenario.
// Bounds against broken or hostile files: at most 16 MiB of text and 64 levels of nesting, and errors
// quote at most 60 characters of a value. saveScenarioFile writes the file whole or not at all.
std::string scenarioToJson(const Scenario& s);
Scenario scenarioFromJson(const std::string& text);  // throws ScenarioError
Scenario loadScenarioFile(const std::string& path);  // throws ScenarioError (unreadable / malformed)
void saveScenarioFile(const Scenario& s, const std::string& path);  // throws ScenarioError

std::string toString(ModelKind k);
std::string toString(SourceKind k);
std::string toString(BoundaryKind k);
std::string toString(VelocityUnit u);                        // "m/s", "km/s", "ft/s"
ModelKind modelKindFromString(const std::string& s);        // throws ScenarioError
SourceKind sourceKindFromString(const std::string& s);      // throws ScenarioError
BoundaryKind boundaryKindFromString(const std::string& s);  // throws ScenarioError
VelocityUnit velocityUnitFromString(const std::string& s);  // throws ScenarioError

}  // namespace iso
