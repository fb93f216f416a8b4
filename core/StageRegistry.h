#pragma once
// The optimisation stages of DESIGN.md §4, in teaching order.
#include <string>
#include <vector>

namespace iso {

struct StageInfo {
  std::string id;           // "cpu-serial", "gpu-slm", ...
  std::string title;        // short label for tables and the GUI
  std::string description;  // one or two sentences for tooltips and the teaching view
  std::string sampleName;   // the matching oneAPI guided-sample folder, e.g. "5_GPU_optimized"
  bool opencl = false;      // runs on an OpenCL device
};

class StageRegistry {
 public:
  static const std::vector<StageInfo>& all();
  static const StageInfo* find(const std::string& id);  // nullptr when unknown
  static const StageInfo& get(const std::string& id);   // throws std::invalid_argument naming the ids
  static std::vector<std::string> ids(bool includeOpenCL = true);
};

}  // namespace iso
