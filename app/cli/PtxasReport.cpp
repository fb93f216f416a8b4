#include "PtxasReport.h"

#include <fstream>
#include <stdexcept>

#include "ClError.h"
#include "KernelSources.h"
#include "OpenClSolver.h"
#include "OutputFile.h"

namespace iso::cli {

std::string ptxasReport(const ClContext& context, const StageParamMap& params, const Grid& grid,
                        const std::string& ptxPath) {
  try {
    const Program program(context, {kernelSource("common.cl") + "\n" + kernelSource("optimized_gpu.cl"),
                                    stageBuildOptions("gpu-optimized", params, /*damping=*/false, grid) +
                                        " -cl-nv-verbose",
                                    "ptxas report", params.at("max_registers")});
    if (!ptxPath.empty()) {
      const std::vector<unsigned char> binary = program.binary();
      writeFileAtomically(ptxPath, [&](const std::string& temporary) {
        std::ofstream out(temporary, std::ios::binary);
        out.write(reinterpret_cast<const char*>(binary.data()), std::streamsize(binary.size()));
        out.close();
        if (out.fail()) throw std::runtime_error("'" + ptxPath + "': write failed");
      });
    }
    return program.fromCache() ? "(from the kernel cache: no report)" : program.log();
  } catch (const ComputeError& e) {
    return std::string("build failed: ") + e.what();
  }
}

}  // namespace iso::cli
