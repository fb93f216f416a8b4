#pragma once
// The native CPU stages: cpu-serial (the scalar reference) and cpu-parallel (threads, SIMD, blocking).
// Everything the program knows about them (learner's facts, parameters, construction) is in
// CpuSolvers.cpp, one entry per stage.
#include <memory>
#include <string>
#include <vector>

#include "core/Problem.h"
#include "core/StageRegistry.h"
#include "core/WaveSolver.h"

namespace iso {

// `stage` must be "cpu-serial" or "cpu-parallel"; throws std::invalid_argument otherwise, or naming a
// parameter the stage does not accept or a value out of its range.
std::unique_ptr<WaveSolver> createCpuSolver(Problem problem, const std::string& stage, const StageParamMap& params = {});

// The parameters a CPU stage accepts (none for cpu-serial), with this machine's defaults.
std::vector<StageParamSpec> cpuStageParameterSpecs(const std::string& stage);

// The CPU stages' facts, in teaching order.
std::vector<StageInfo> cpuStageInfos();

// Registers the CPU stages' facts in the StageRegistry, once (later calls do nothing): what a program
// built on core alone calls first thing; compute's registerStages() calls it before the OpenCL stages.
void registerCpuStages();

}  // namespace iso
