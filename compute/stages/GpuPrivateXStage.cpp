// gpu-private-x (4_GPU_private_memory_K): the register streaming of gpu-private-z along x, the
// contiguous axis, so that loads do not coalesce (resources/kernels/private_x.cl). Dimension 0 of the
// NDRange counts y, 1 counts z, 2 counts x chunks.
#include "compute/stages/OpenClStage.h"

namespace iso {
namespace {

using namespace stage_parts;

class GpuPrivateXStage final : public OpenClStage {
 public:
  GpuPrivateXStage()
      : OpenClStage({.id = "gpu-private-x",
                     .title = "GPU private x",
                     .description =
                         "The same streaming along x, the contiguous axis: neighbouring work-items no longer read "
                         "neighbouring addresses, so loads do not coalesce. The instructive slow variant.",
                     .sampleName = "4_GPU_private_memory_K",
                     .bytesPerPointStep = 16,
                     .previous = "gpu-private-z",
                     .sourceFiles = {"resources/kernels/private_x.cl"}}) {}

  std::vector<StageParamSpec> parameters(const DeviceInfo&) const override {
    return {workGroupX(32), workGroupY(4), chunk("x_chunk", 'x', 0)};
  }
  std::string kernelFile(const StageParamMap&) const override { return "private_x.cl"; }
  std::array<std::size_t, 2> workGroup(const StageParamMap& p) const override {
    return {std::size_t(p.at("wg_x")), std::size_t(p.at("wg_y"))};
  }
  StageLaunch launch(const StageParamMap& p, const Grid& g) const override {
    const int xc = chunkLength(p.at("x_chunk"), g.n1);
    StageLaunch l = workGroupGrid(p.at("wg_x"), p.at("wg_y"), g.n2, g.n3, ceilDiv(g.n1, xc));
    l.extraArgs = {xc};
    return l;
  }
};

}  // namespace

const OpenClStage& gpuPrivateXStage() {
  static const GpuPrivateXStage stage;
  return stage;
}

}  // namespace iso
