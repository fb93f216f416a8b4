#include "compute/Stage.h"

#include <algorithm>
#include <mutex>
#include <utility>

#include "compute/Bandwidth.h"
#include "compute/ClError.h"
#include "compute/OpenClSolver.h"
#include "compute/StageParams.h"
#include "compute/stages/OpenClStage.h"
#include "core/CpuSolvers.h"
#include "core/Format.h"
#include "core/HostBandwidth.h"

namespace iso {
namespace {

// The device the parameters of OpenCL stages are shown for when none is given.
DeviceInfo anyGpu() {
  DeviceInfo gpu;
  gpu.type = "GPU";
  return gpu;
}

// A stage of core/CpuSolvers.cpp: the host's cores, measured against the host's copy bandwidth.
class CpuStage final : public Stage {
 public:
  explicit CpuStage(StageInfo info) : Stage(std::move(info)) {}
  std::vector<StageParamSpec> parameterSpecs(const DeviceInfo*) const override { return cpuStageParameterSpecs(id()); }
  std::optional<DeviceInfo> device(const std::string&) const override { return std::nullopt; }
  RooflineCeiling rooflineCeiling(const std::optional<DeviceInfo>&) const override {
    return {hostCopyBandwidthGBs(), "host memcpy bandwidth"};
  }
  std::unique_ptr<WaveSolver> createSolver(Problem problem, const StageParamMap& params,
                                           const std::optional<DeviceInfo>&) const override {
    return createCpuSolver(std::move(problem), id(), params);
  }
};

// An OpenCL stage: its descriptor (stages/), run by OpenClSolver on a device.
class DeviceStage final : public Stage {
 public:
  explicit DeviceStage(const OpenClStage& descriptor) : Stage(descriptor.info()), descriptor_(descriptor) {}
  const OpenClStage* openCl() const override { return &descriptor_; }
  std::vector<StageParamSpec> parameterSpecs(const DeviceInfo* device) const override {
    return descriptor_.parameters(device ? *device : anyGpu());
  }
  std::optional<DeviceInfo> device(const std::string& selector) const override { return selectDevice(selector); }
  RooflineCeiling rooflineCeiling(const std::optional<DeviceInfo>& device) const override {
    if (!device) return {};
    try {
      return {copyBandwidthGBs(*device), "device copy bandwidth"};
    } catch (const std::exception&) {
      return {};  // the counters then say the ceiling is unknown
    }
  }
  std::vector<StageParamMap> tuningCandidates(const DeviceInfo& device, const Grid& grid) const override {
    return iso::tuningCandidates(descriptor_, device, grid);
  }
  std::unique_ptr<WaveSolver> createSolver(Problem problem, const StageParamMap& params,
                                           const std::optional<DeviceInfo>& device) const override {
    if (!device) throw ComputeError(ComputeStatus::NoDevice, "stage '" + id() + "' runs on OpenCL but no device was given");
    return std::make_unique<OpenClSolver>(problem, descriptor_, params, *device);
  }

 private:
  const OpenClStage& descriptor_;
};

}  // namespace

Stage::Stage(StageInfo info) : info_(std::move(info)) {}

double Stage::bytesPerPointStep(const StageParamMap& params) const {
  return openCl() ? openCl()->bytesPerPointStep(params) : bytesPerPointStep();
}

std::vector<std::string> Stage::parameterNames() const {
  std::vector<std::string> names;
  for (const StageParamSpec& spec : parameterSpecs()) names.push_back(spec.name);
  return names;
}

ExecutionConfig Stage::execution(const Scenario& scenario) const {
  ExecutionConfig config{id(), scenario.device, scenario.stageParams};
  const std::vector<std::string> accepted = parameterNames();
  std::erase_if(config.params, [&](const auto& kv) {
    return std::find(accepted.begin(), accepted.end(), kv.first) == accepted.end();
  });
  return config;
}

std::vector<StageParamMap> Stage::tuningCandidates(const DeviceInfo&, const Grid&) const { return {}; }

bool Stage::tunable() const { return openCl() && !openCl()->proposedCandidates(anyGpu()).empty(); }

const std::vector<const Stage*>& allStages() {
  static const std::vector<std::unique_ptr<const Stage>> owned = [] {
    std::vector<std::unique_ptr<const Stage>> out;
    for (StageInfo& info : cpuStageInfos()) out.push_back(std::make_unique<CpuStage>(std::move(info)));
    for (const OpenClStage* descriptor : openClStages()) out.push_back(std::make_unique<DeviceStage>(*descriptor));
    return out;
  }();
  static const std::vector<const Stage*> stages = [] {
    std::vector<const Stage*> out;
    for (const auto& s : owned) out.push_back(s.get());
    return out;
  }();
  return stages;
}

const Stage& resolveStage(const std::string& id) {
  for (const Stage* s : allStages())
    if (s->id() == id) return *s;
  throw ComputeError(ComputeStatus::InvalidParameter,
                     "unknown stage '" + id + "' (known stages: " +
                         commaList(allStages(), [](const Stage* s) { return s->id(); }) + ")");
}

std::vector<const Stage*> tunableStages() {
  std::vector<const Stage*> out;
  for (const Stage* s : allStages())
    if (s->tunable()) out.push_back(s);
  return out;
}

void registerStages() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerCpuStages();
    for (const Stage* s : allStages())
      if (s->opencl()) StageRegistry::add(s->info());
  });
}

}  // namespace iso
