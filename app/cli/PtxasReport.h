#pragma once
// NVIDIA's ptxas report (registers, spills, shared memory) of an OpenCL stage's build: what decides
// whether a candidate's register blocking fits, read before timing it.
#include <string>

#include "compute/ClHost.h"
#include "core/Grid.h"
#include "compute/StageParams.h"
#include "compute/stages/OpenClStage.h"

namespace iso::cli {

// Builds `stage`'s program with `params` for `grid` as OpenClSolver does (no damping; the absorbing
// layer's kernels in their separate-pass form, with the device's cells per work-item), plus
// -cl-nv-verbose, and returns the build log (or why there is none). With `ptxPath`, also writes the
// program binary there (PTX text on NVIDIA), whole or not at all, for offline disassembly.
std::string ptxasReport(const ClContext& context, const OpenClStage& stage, const StageParamMap& params,
                        const Grid& grid, const std::string& ptxPath);

}  // namespace iso::cli
