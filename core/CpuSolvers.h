#pragma once
// The native CPU stages: cpu-serial (the scalar reference) and cpu-parallel (threads, SIMD, blocking).
#include <memory>

#include "Problem.h"
#include "WaveSolver.h"

namespace iso {

// problem.stage must be "cpu-serial" or "cpu-parallel"; throws std::invalid_argument otherwise.
std::unique_ptr<WaveSolver> createCpuSolver(Problem problem);

}  // namespace iso
