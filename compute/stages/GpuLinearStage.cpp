// gpu-linear (3_GPU_linear): gpu-basic's launch, with the kernel walking a linear index instead of
// three (resources/kernels/linear.cl).
#include "compute/stages/OpenClStage.h"

namespace iso {

const OpenClStage& gpuLinearStage() {
  static const stage_parts::CellPerWorkItemStage stage(
      {.id = "gpu-linear",
       .title = "GPU linear",
       .description = "One cell per work-item over a linear index: less index arithmetic than the 3D form.",
       .sampleName = "3_GPU_linear",
       .bytesPerPointStep = 16,
       .previous = "gpu-basic",
       .sourceFiles = {"resources/kernels/linear.cl"}});
  return stage;
}

}  // namespace iso
