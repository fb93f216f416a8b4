#pragma once
// The optimisation stages, in teaching order (docs/STAGES.md). Each stage describes itself where its
// code lives: the CPU stages in core/CpuSolvers.cpp, each OpenCL stage in its descriptor in
// compute/stages/. The registry starts with the CPU stages; the OpenCL stages join it while the program
// starts (static initialization), from compute/stages/OpenClStage.cpp, since core cannot call compute.
// That file is linked into every program that can create an OpenCL solver (the solver reads the
// descriptors there); a program that cannot (core alone, or one that never creates a solver) knows the
// CPU stages only, and refuses an OpenCL stage as unknown. Nothing may read the registry during static
// initialization.
#include <map>
#include <string>
#include <vector>

namespace iso {

// A stage's parameters by name, e.g. {"tile_x": 32, "z_chunk": 0}; absent names take the default.
using StageParamMap = std::map<std::string, int>;

// One parameter a stage accepts: what the GUI's spin boxes and every --help derive from.
struct StageParamSpec {
  std::string name;      // "tile_x"
  int defaultValue = 0;  // the built-in default (for OpenCL stages: on the device asked about)
  int minValue = 0, maxValue = 0;  // inclusive; a stage may narrow the range further (e.g. to 1, 2 or 4)
  std::string meaning;   // one line for tooltips and --help
};

// Written with designated initializers, leaving out what does not apply (e.g. the oneAPI sample of a
// stage that has none); the empty braces keep -Wmissing-field-initializers quiet about that.
struct StageInfo {
  std::string id{};           // "cpu-serial", "gpu-slm", ...
  std::string title{};        // short label for tables and the GUI
  std::string description{};  // one or two sentences for tooltips and the teaching view
  std::string sampleName{};   // the matching oneAPI guided-sample folder, e.g. "5_GPU_optimized"
  bool opencl = false;        // runs on an OpenCL device
  // Teaching material: the stage this one is compared with (its diff and speed-up; "" for the first),
  // and its source files relative to the repository root (kernels for OpenCL stages, C++ for CPU stages).
  std::string previous{};
  std::vector<std::string> sourceFiles{};
  // The largest error against cpu-serial that `verify`, the compare view and the tests accept for this
  // stage (core/FieldCompare.h: the field's difference over its running peak norm, and the traces'
  // relative L2): 1e-5 (kReferenceTolerance) for float32 stages; one that stores its fields in fewer
  // bits states its own, measured and explained in its descriptor.
  double agreementTolerance = 1e-5;
  // The learner's explanation (Markdown, relative to resources/): stages/<id>.md for every stage.
  std::string explanationFile() const { return "stages/" + id + ".md"; }
};

class StageRegistry {
 public:
  static const std::vector<StageInfo>& all();
  static const StageInfo* find(const std::string& id);  // nullptr when unknown
  static const StageInfo& get(const std::string& id);   // throws std::invalid_argument naming the ids
  static std::vector<std::string> ids(bool includeOpenCL = true);

  // Appends a stage after those registered so far; for start-up only (references handed out by all(),
  // find() and get() stay valid only while nothing is added). Throws std::logic_error for an id that is
  // already registered or a stage whose `previous` is not.
  static void add(StageInfo stage);

 private:
  static std::vector<StageInfo>& stages();
};

}  // namespace iso
