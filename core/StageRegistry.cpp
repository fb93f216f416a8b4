#include "core/StageRegistry.h"

#include <stdexcept>
#include <utility>

#include "core/CpuSolvers.h"
#include "core/Format.h"

namespace iso {

std::vector<StageInfo>& StageRegistry::stages() {
  static std::vector<StageInfo> registered = cpuStageInfos();
  return registered;
}

const std::vector<StageInfo>& StageRegistry::all() { return stages(); }

void StageRegistry::add(StageInfo stage) {
  if (find(stage.id)) throw std::logic_error("stage '" + stage.id + "' is registered twice");
  if (!stage.previous.empty() && !find(stage.previous))
    throw std::logic_error("stage '" + stage.id + "' is compared with '" + stage.previous +
                           "', which is not registered before it");
  stages().push_back(std::move(stage));
}

const StageInfo* StageRegistry::find(const std::string& id) {
  for (const auto& s : all())
    if (s.id == id) return &s;
  return nullptr;
}

const StageInfo& StageRegistry::get(const std::string& id) {
  if (const auto* s = find(id)) return *s;
  throw std::invalid_argument("unknown stage '" + id + "' (known stages: " + commaList(ids()) + ")");
}

std::vector<std::string> StageRegistry::ids(bool includeOpenCL) {
  std::vector<std::string> out;
  for (const auto& s : all())
    if (includeOpenCL || !s.opencl) out.push_back(s.id);
  return out;
}

}  // namespace iso
