#pragma once
// One entry point for every stage: CPU stages go to core/, OpenCL stages to this folder.
#include <memory>
#include <string>
#include <vector>

#include "Problem.h"
#include "WaveSolver.h"

namespace iso {

// Builds the solver for problem.stage on problem.device. Throws std::runtime_error (or a subclass)
// with a message that says what went wrong and what to do (unknown stage, no such device, grid too
// large for the device, bad stage parameters, kernel build failure with the build log).
std::unique_ptr<WaveSolver> createSolver(Problem problem);

// The stage parameters `stage` accepts (CPU or OpenCL), e.g. {"tile_x", "tile_y", "z_chunk"} for gpu-slm.
std::vector<std::string> stageParameterNames(const std::string& stage);

}  // namespace iso
