// gpu-private-z (4_GPU_private_memory_I): a 2D NDRange over x/y, each work-item streaming along z with
// its z-neighbours in registers (resources/kernels/private_z.cl).
#include "compute/stages/OpenClStage.h"

namespace iso {
namespace {

using namespace stage_parts;

class GpuPrivateZStage final : public OpenClStage {
 public:
  GpuPrivateZStage()
      : OpenClStage({.id = "gpu-private-z",
                     .title = "GPU private z",
                     .description =
                         "A 2D NDRange over x/y; each work-item streams along z and keeps the 17 z-neighbours in "
                         "registers.",
                     .sampleName = "4_GPU_private_memory_I",
                     .bytesPerPointStep = 16,
                     .previous = "gpu-linear",
                     .sourceFiles = {"resources/kernels/private_z.cl"}}) {}

  // CPU devices: chunks of 16 planes give every core work; GPUs: one chunk, the whole axis.
  std::vector<StageParamSpec> parameters(const DeviceInfo& device) const override {
    return {workGroupX(32), workGroupY(4), chunk("z_chunk", 'z', device.type == "CPU" ? 16 : 0)};
  }
  std::string kernelFile(const StageParamMap&) const override { return "private_z.cl"; }
  std::array<std::size_t, 2> workGroup(const StageParamMap& p) const override {
    return {std::size_t(p.at("wg_x")), std::size_t(p.at("wg_y"))};
  }
  StageLaunch launch(const StageParamMap& p, const Grid& g) const override {
    const int zc = chunkLength(p.at("z_chunk"), g.n3);
    StageLaunch l = workGroupGrid(p.at("wg_x"), p.at("wg_y"), g.n1, g.n2, ceilDiv(g.n3, zc));
    l.extraArgs = {zc};
    return l;
  }
};

}  // namespace

const OpenClStage& gpuPrivateZStage() {
  static const GpuPrivateZStage stage;
  return stage;
}

}  // namespace iso
