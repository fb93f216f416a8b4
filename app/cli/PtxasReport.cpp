#include "app/cli/PtxasReport.h"

#include <stdexcept>

#include "compute/ClError.h"
#include "compute/OpenClSolver.h"
#include "core/OutputFile.h"

namespace iso::cli {

std::string ptxasReport(const ClContext& context, const OpenClStage& stage, const StageParamMap& params,
                        const Grid& grid, const std::string& ptxPath) {
  try {
    const auto cap = params.find("max_registers");
    const DeviceInfo& device = context.info();
    const std::string options = stageProgramOptions(stage, params, device, /*damping=*/false, grid, /*layer=*/false,
                                                    layerCellsFor(device)) +
                                " -cl-nv-verbose";
    const Program program(context, {stageProgramSource(stage, params), options, "ptxas report",
                                    cap == params.end() ? 0 : cap->second});
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
