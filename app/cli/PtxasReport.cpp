#include "app/cli/PtxasReport.h"

#include <stdexcept>

#include "compute/ClError.h"
#include "compute/KernelSources.h"
#include "compute/OpenClSolver.h"
#include "core/OutputFile.h"

namespace iso::cli {

std::string ptxasReport(const ClContext& context, const OpenClStage& stage, const StageParamMap& params,
                        const Grid& grid, const std::string& ptxPath) {
  try {
    // The program the solver builds (OpenClSolver.cpp), the absorbing layer's kernels included.
    const auto cap = params.find("max_registers");
    const std::string source = kernelSource("common.cl") + "\n" + kernelSource("pml.cl") + "\n" +
                               kernelSource(stage.kernelFile(params));
    const std::string options = stageBuildOptions(stage, params, /*damping=*/false, grid) + " -DPML_CELLS=" +
                                std::to_string(layerCellsFor(context.info())) + " " +
                                deviceBuildOptions(context.info()) + " -cl-nv-verbose";
    const Program program(context, {source, options, "ptxas report", cap == params.end() ? 0 : cap->second});
    if (!ptxPath.empty()) {
      const std::vector<unsigned char> binary = program.binary();
      writeWholeFile(ptxPath, std::string_view(reinterpret_cast<const char*>(binary.data()), binary.size()));
    }
    return program.fromCache() ? "(from the kernel cache: no report)" : program.log();
  } catch (const ComputeError& e) {
    return std::string("build failed: ") + e.what();
  }
}

}  // namespace iso::cli
