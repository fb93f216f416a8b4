#pragma once
// The facts of every optimisation stage, in teaching order (docs/STAGES.md): what core needs to validate
// a scenario and check its memory, and what the studio's menus and teaching views show. Each stage
// describes itself where its code lives: the CPU stages in core/CpuSolvers.cpp, each OpenCL stage in its
// descriptor in compute/stages/. Nothing registers itself: a program registers its stages first thing,
// before it reads a scenario (compute's registerStages() in compute/Stage.h, which also hands out the
// stage objects; registerCpuStages() in a program built on core alone). Reading the registry before
// anything is registered is a programming error (std::logic_error), so a scenario is never accepted or
// refused according to what happens to be linked.
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
  // Bytes of memory traffic per interior point and time step at best (each array crossing DRAM once per
  // pass): 16 for a stage that reads prev, vel and next and writes next once per step, less for one
  // that advances several steps per pass. Its GB/s, % of roofline and place on the roofline plot
  // (61 flop over these bytes) follow from it (docs/METRICS.md). Every stage states it (registration
  // refuses 0).
  double bytesPerPointStep = 0.0;
  // The stage the program runs by default on its kind of device (at most one per kind): the best it has
  // there, where the optimisation story ends.
  bool preferred = false;
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
  // Every registered stage in teaching order; the others throw std::logic_error as well while no stage
  // is registered.
  static const std::vector<StageInfo>& all();
  static const StageInfo* find(const std::string& id);  // nullptr when unknown
  static const StageInfo& get(const std::string& id);   // throws std::invalid_argument naming the ids
  static std::vector<std::string> ids(bool includeOpenCL = true);
  // The first stage of each kind (CPU, and with includeOpenCL OpenCL) and its preferred one, in teaching
  // order: the whole optimisation story, from the reference to the best, in a few viewports.
  static std::vector<std::string> ladderEnds(bool includeOpenCL = true);

  // Appends a stage after those registered so far; for start-up only (references handed out by all(),
  // find() and get() stay valid only while nothing is added). Throws std::logic_error for an id that is
  // already registered, a stage whose `previous` is not, one without its bytes per point-step, or a
  // second preferred stage of a kind.
  static void add(StageInfo stage);

 private:
  static std::vector<StageInfo>& stages();
};

}  // namespace iso
