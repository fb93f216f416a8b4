#include "core/StageRegistry.h"

#include <stdexcept>

namespace iso {

const std::vector<StageInfo>& StageRegistry::all() {
  static const std::vector<StageInfo> stages = {
      {"cpu-serial", "CPU serial",
       "Scalar triple loop over the padded grid: the reference every other stage is checked against.",
       "1_CPU_only", false,
       "", {"core/CpuSerialSolver.cpp"}, "stages/cpu-serial.md"},
      {"cpu-parallel", "CPU parallel",
       "All cores, SIMD over x, cache blocking in x/y and streaming along z: the fastest native code here.",
       "", false,
       "cpu-serial", {"core/CpuParallelSolver.cpp", "core/CpuStencilKernel.inc"}, "stages/cpu-parallel.md"},
      {"gpu-basic", "GPU basic",
       "OpenCL, a 3D NDRange with one cell per work-item and 3D index arithmetic.", "2_GPU_basic", true,
       "cpu-serial", {"resources/kernels/basic.cl"}, "stages/gpu-basic.md"},
      {"gpu-linear", "GPU linear",
       "One cell per work-item over a linear index: less index arithmetic than the 3D form.",
       "3_GPU_linear", true,
       "gpu-basic", {"resources/kernels/linear.cl"}, "stages/gpu-linear.md"},
      {"gpu-private-z", "GPU private z",
       "A 2D NDRange over x/y; each work-item streams along z and keeps the 17 z-neighbours in registers.",
       "4_GPU_private_memory_I", true,
       "gpu-linear", {"resources/kernels/private_z.cl"}, "stages/gpu-private-z.md"},
      {"gpu-private-x", "GPU private x",
       "The same streaming along x, the contiguous axis: neighbouring work-items no longer read "
       "neighbouring addresses, so loads do not coalesce. The instructive slow variant.",
       "4_GPU_private_memory_K", true,
       "gpu-private-z", {"resources/kernels/private_x.cl"}, "stages/gpu-private-x.md"},
      {"gpu-slm", "GPU local memory",
       "A 2D local-memory tile holds the x/y neighbours of a plane while each work-item streams along z; "
       "tile and z-chunk are tunable.",
       "5_GPU_optimized", true,
       "gpu-private-z", {"resources/kernels/slm.cl"}, "stages/gpu-slm.md"},
      {"gpu-optimized", "GPU optimized",
       "Our best kernel for the device at hand (register blocking, prefetch of the next plane, vector "
       "loads), with parameters from the tuning database.",
       "", true,
       "gpu-slm", {"resources/kernels/optimized_gpu.cl", "resources/kernels/optimized_cpu.cl"}, "stages/gpu-optimized.md"},
      {"gpu-temporal", "GPU temporal",
       "Temporal blocking: two time steps per pass over memory. The intermediate field is computed on the "
       "tile and its halo and stays on chip, so memory moves 10 instead of 16 bytes per point and step.",
       "", true,
       "gpu-optimized", {"resources/kernels/temporal.cl"}, "stages/gpu-temporal.md"},
  };
  return stages;
}

const StageInfo* StageRegistry::find(const std::string& id) {
  for (const auto& s : all())
    if (s.id == id) return &s;
  return nullptr;
}

const StageInfo& StageRegistry::get(const std::string& id) {
  if (const auto* s = find(id)) return *s;
  std::string known;
  for (const auto& s : all()) known += (known.empty() ? "" : ", ") + s.id;
  throw std::invalid_argument("unknown stage '" + id + "' (known stages: " + known + ")");
}

std::vector<std::string> StageRegistry::ids(bool includeOpenCL) {
  std::vector<std::string> out;
  for (const auto& s : all())
    if (includeOpenCL || !s.opencl) out.push_back(s.id);
  return out;
}

}  // namespace iso
