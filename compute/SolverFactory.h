#pragma once
// One entry point for every stage, from an ExecutionConfig (a stage id, a device selector, parameters):
// the stage is resolved (compute/Stage.h), and builds its solver on its device.
#include <memory>
#include <optional>

#include "compute/DeviceRegistry.h"
#include "compute/Stage.h"
#include "core/Problem.h"
#include "core/WaveSolver.h"

namespace iso {

// Builds the solver for config.stage on config.device. Throws std::runtime_error (or a subclass) with
// a message that says what went wrong and what to do (unknown stage, no such device, grid too large
// for the device, bad stage parameters, kernel build failure with the build log).
std::unique_ptr<WaveSolver> createSolver(Problem problem, const ExecutionConfig& config);

}  // namespace iso
