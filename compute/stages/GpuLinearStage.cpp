// gpu-linear (3_GPU_linear): gpu-basic's launch, with the kernel walking a linear index instead of
// three (resources/kernels/linear.cl).
#include "compute/stages/OpenClStage.h"

namespace iso {

const OpenClStage& gpuLinearStage() {
  static const stage_parts::CellPerWorkItemStage stage("gpu-linear", "linear.cl");
  return stage;
}

}  // namespace iso
