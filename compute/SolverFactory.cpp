#include "SolverFactory.h"

#include "CpuSolvers.h"

namespace iso {
std::unique_ptr<WaveSolver> createSolver(Problem problem) { return createCpuSolver(std::move(problem)); }
}  // namespace iso
