// gpu-basic (2_GPU_basic): a 3D NDRange, one cell per work-item, every neighbour addressed through the
// 3D index function (resources/kernels/basic.cl).
#include "compute/stages/OpenClStage.h"

namespace iso {

const OpenClStage& gpuBasicStage() {
  static const stage_parts::CellPerWorkItemStage stage("gpu-basic", "basic.cl");
  return stage;
}

}  // namespace iso
