#include "compute/SolverFactory.h"

#include <utility>

namespace iso {

std::unique_ptr<WaveSolver> createSolver(Problem problem, const ExecutionConfig& config) {
  const Stage& stage = resolveStage(config.stage);
  return stage.createSolver(std::move(problem), config.params, stage.device(config.device));
}

}  // namespace iso
