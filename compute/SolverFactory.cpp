#include "SolverFactory.h"

#include <stdexcept>

#include "ClError.h"
#include "CpuSolvers.h"
#include "DeviceRegistry.h"
#include "OpenClSolver.h"
#include "StageParams.h"
#include "StageRegistry.h"

namespace iso {

std::unique_ptr<WaveSolver> createSolver(Problem problem) {
  const StageInfo* info = StageRegistry::find(problem.stage);
  if (!info) {
    try {
      StageRegistry::get(problem.stage);  // builds the message that lists the known stages
    } catch (const std::invalid_argument& e) {
      throw ComputeError(ComputeStatus::InvalidParameter, e.what());
    }
  }
  if (!info->opencl) return createCpuSolver(std::move(problem));
  const DeviceInfo device = selectDevice(problem.device);
  return std::make_unique<OpenClSolver>(std::move(problem), device);
}

std::vector<std::string> stageParameterNames(const std::string& stage) {
  return StageRegistry::get(stage).opencl ? stageParamNames(stage) : cpuStageParamNames(stage);
}

}  // namespace iso
