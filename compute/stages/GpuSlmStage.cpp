// gpu-slm (5_GPU_optimized): a TILE_X x TILE_Y work-group keeps a plane's x/y neighbours in a
// local-memory tile while each work-item streams along z (resources/kernels/slm.cl).
#include "compute/stages/OpenClStage.h"

namespace iso {
namespace {

using namespace stage_parts;

class GpuSlmStage final : public OpenClStage {
 public:
  GpuSlmStage()
      : OpenClStage({.id = "gpu-slm",
                     .title = "GPU local memory",
                     .description =
                         "A 2D local-memory tile holds the x/y neighbours of a plane while each work-item streams "
                         "along z; tile and z-chunk are tunable.",
                     .sampleName = "5_GPU_optimized",
                     .bytesPerPointStep = 16,
                     .previous = "gpu-private-z",
                     .sourceFiles = {"resources/kernels/slm.cl"}}) {}

  // GPU tiles: the best of the H100 sweep (docs/GPU_NOTES.md); CPU devices: shorter chunks, more work-groups.
  std::vector<StageParamSpec> parameters(const DeviceInfo& device) const override {
    return {{"tile_x", 32, 1, kMaxTile, "local-memory tile (and work-group) width along x"},
            {"tile_y", 4, 1, kMaxTile, "local-memory tile (and work-group) height along y"},
            chunk("z_chunk", 'z', device.type == "CPU" ? 16 : 64), maxRegisters(0)};
  }
  void checkParameters(const StageParamMap& p, const DeviceInfo& device) const override {
    checkMaxRegisters(id(), p, device);
  }
  std::string kernelFile(const StageParamMap&) const override { return "slm.cl"; }
  std::string buildOptions(const StageParamMap& p, const Grid&) const override {
    return "-DTILE_X=" + std::to_string(p.at("tile_x")) + " -DTILE_Y=" + std::to_string(p.at("tile_y"));
  }
  std::array<std::size_t, 2> workGroup(const StageParamMap& p) const override {
    return {std::size_t(p.at("tile_x")), std::size_t(p.at("tile_y"))};
  }
  // The tile with its R-wide halo on the four sides.
  std::size_t localMemoryBytes(const StageParamMap& p) const override {
    return std::size_t(p.at("tile_x") + 2 * kHalfLength) * std::size_t(p.at("tile_y") + 2 * kHalfLength) *
           sizeof(float);
  }
  StageLaunch launch(const StageParamMap& p, const Grid& g) const override {
    const int zc = chunkLength(p.at("z_chunk"), g.n3);
    StageLaunch l = workGroupGrid(p.at("tile_x"), p.at("tile_y"), g.n1, g.n2, ceilDiv(g.n3, zc));
    l.extraArgs = {zc};
    return l;
  }
  std::vector<StageParamMap> proposedCandidates(const DeviceInfo&) const override {
    std::vector<StageParamMap> out;
    for (int tx : {16, 32, 64})
      for (int ty : {4, 8, 16})
        for (int zc : {0, 64}) out.push_back({{"tile_x", tx}, {"tile_y", ty}, {"z_chunk", zc}});
    return out;
  }
};

}  // namespace

const OpenClStage& gpuSlmStage() {
  static const GpuSlmStage stage;
  return stage;
}

}  // namespace iso
