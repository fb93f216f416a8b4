#include "core/StageRegistry.h"

#include <stdexcept>
#include <utility>

#include "core/Format.h"

namespace iso {

std::vector<StageInfo>& StageRegistry::stages() {
  static std::vector<StageInfo> registered;
  return registered;
}

const std::vector<StageInfo>& StageRegistry::all() {
  if (stages().empty())
    throw std::logic_error("no stage is registered yet: a program registers its stages before it reads a scenario "
                           "(registerStages() in compute/Stage.h, or registerCpuStages() on core alone)");
  return stages();
}

void StageRegistry::add(StageInfo stage) {
  const auto registered = [](const std::string& id) {
    for (const StageInfo& s : stages())
      if (s.id == id) return true;
    return false;
  };
  if (registered(stage.id)) throw std::logic_error("stage '" + stage.id + "' is registered twice");
  if (!stage.previous.empty() && !registered(stage.previous))
    throw std::logic_error("stage '" + stage.id + "' is compared with '" + stage.previous +
                           "', which is not registered before it");
  if (!(stage.bytesPerPointStep > 0.0))
    throw std::logic_error("stage '" + stage.id + "' does not state its bytes per point-step");
  if (stage.preferred)
    for (const StageInfo& s : stages())
      if (s.preferred && s.opencl == stage.opencl)
        throw std::logic_error("stage '" + stage.id + "' is preferred on its kind of device, and so is '" + s.id + "'");
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

std::vector<std::string> StageRegistry::ladderEnds(bool includeOpenCL) {
  std::vector<std::string> out;
  for (const bool opencl : {false, true}) {
    if (opencl && !includeOpenCL) break;
    const StageInfo* first = nullptr;
    for (const auto& s : all()) {
      if (s.opencl != opencl) continue;
      if (!first) out.push_back((first = &s)->id);
      if (s.preferred && &s != first) out.push_back(s.id);
    }
  }
  return out;
}

}  // namespace iso
