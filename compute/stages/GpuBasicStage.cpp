// gpu-basic (2_GPU_basic): a 3D NDRange, one cell per work-item, every neighbour addressed through the
// 3D index function (resources/kernels/basic.cl).
#include "compute/stages/OpenClStage.h"

namespace iso {

const OpenClStage& gpuBasicStage() {
  static const stage_parts::CellPerWorkItemStage stage(
      {.id = "gpu-basic",
       .title = "GPU basic",
       .description = "OpenCL, a 3D NDRange with one cell per work-item and 3D index arithmetic.",
       .sampleName = "2_GPU_basic",
       .bytesPerPointStep = 16,
       .previous = "cpu-serial",
       .sourceFiles = {"resources/kernels/basic.cl"}});
  return stage;
}

}  // namespace iso
