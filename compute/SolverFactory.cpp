#include "compute/SolverFactory.h"

#include <stdexcept>

#include "compute/ClError.h"
#include "core/CpuSolvers.h"
#include "compute/OpenClSolver.h"
#include "compute/StageParams.h"

namespace iso {

namespace {

const StageInfo& stageInfo(const std::string& stage) {
  try {
    return StageRegistry::get(stage);  // its message lists the known stages
  } catch (const std::invalid_argument& e) {
    throw ComputeError(ComputeStatus::InvalidParameter, e.what());
  }
}

}  // namespace

std::optional<DeviceInfo> resolveDevice(const ExecutionConfig& config) {
  if (!stageInfo(config.stage).opencl) return std::nullopt;
  return selectDevice(config.device);
}

std::unique_ptr<WaveSolver> createSolver(Problem problem, const ExecutionConfig& config) {
  return createSolver(std::move(problem), config, resolveDevice(config));
}

std::unique_ptr<WaveSolver> createSolver(Problem problem, const ExecutionConfig& config,
                                         const std::optional<DeviceInfo>& device) {
  if (!stageInfo(config.stage).opencl) return createCpuSolver(std::move(problem), config.stage, config.params);
  if (!device)
    throw ComputeError(ComputeStatus::NoDevice, "stage '" + config.stage + "' runs on OpenCL but no device was given");
  return std::make_unique<OpenClSolver>(problem, config.stage, config.params, *device);
}

std::vector<StageParamSpec> stageParameterSpecs(const std::string& stage) {
  if (!stageInfo(stage).opencl) return cpuStageParameterSpecs(stage);
  DeviceInfo gpu;
  gpu.type = "GPU";
  return openClStageParameterSpecs(stage, gpu);
}

std::vector<std::string> stageParameterNames(const std::string& stage) {
  std::vector<std::string> names;
  for (const StageParamSpec& spec : stageParameterSpecs(stage)) names.push_back(spec.name);
  return names;
}

}  // namespace iso
