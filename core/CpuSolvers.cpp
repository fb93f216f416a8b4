#include "CpuSolvers.h"

#include <stdexcept>
#include <utility>

#include "CpuParallelSolver.h"
#include "CpuSerialSolver.h"

namespace iso {

std::unique_ptr<WaveSolver> createCpuSolver(Problem problem) {
  if (problem.stage == "cpu-serial") return std::make_unique<CpuSerialSolver>(std::move(problem));
  if (problem.stage == "cpu-parallel") return std::make_unique<CpuParallelSolver>(std::move(problem));
  throw std::invalid_argument("createCpuSolver: stage '" + problem.stage +
                              "' is not a CPU stage (expected 'cpu-serial' or 'cpu-parallel')");
}

std::vector<std::string> cpuStageParamNames(const std::string& stage) {
  if (stage == "cpu-parallel") return {"threads", "block_x", "block_y", "block_z", "simd_width"};
  return {};
}

}  // namespace iso
