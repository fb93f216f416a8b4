#pragma once
// The native CPU stages: cpu-serial (the scalar reference) and cpu-parallel (threads, SIMD, blocking).
#include <memory>
#include <string>
#include <vector>

#include "Problem.h"
#include "WaveSolver.h"

namespace iso {

// problem.stage must be "cpu-serial" or "cpu-parallel"; throws std::invalid_argument otherwise.
std::unique_ptr<WaveSolver> createCpuSolver(Problem problem);

// The stage parameters a CPU stage accepts (none for cpu-serial); any other key is an error.
std::vector<std::string> cpuStageParamNames(const std::string& stage);

}  // namespace iso
