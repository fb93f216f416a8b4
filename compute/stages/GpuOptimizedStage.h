#pragma once
// gpu-optimized's descriptor (GpuOptimizedStage.cpp says what the stage is), open to gpu-half, which
// runs the GPU form's kernel with its fields stored as half (GpuHalfStage.cpp).
#include "compute/stages/OpenClStage.h"

namespace iso {

class GpuOptimizedStage : public OpenClStage {
 public:
  GpuOptimizedStage();

  std::vector<StageParamSpec> parameters(const DeviceInfo& device) const override;
  void checkParameters(const StageParamMap& p, const DeviceInfo& device) const override;
  std::string kernelFile(const StageParamMap& p) const override;
  std::string buildOptions(const StageParamMap& p, const Grid& grid) const override;
  std::array<std::size_t, 2> workGroup(const StageParamMap& p) const override;
  std::size_t localMemoryBytes(const StageParamMap& p) const override;
  StageLaunch launch(const StageParamMap& p, const Grid& grid) const override;
  bool kernelLimitIsReliable(const StageParamMap& p, const DeviceInfo& device) const override;
  std::vector<StageParamMap> proposedCandidates(const DeviceInfo& device) const override;
  // The GPU form with fold_layer = 1 adds the absorbing layer's terms in its own pass (pml.cl, PML_FOLD).
  bool foldsLayer(const StageParamMap& p) const override { return !cpuForm(p) && p.at("fold_layer") != 0; }

 protected:
  explicit GpuOptimizedStage(StageInfo info);
  // Whether `p` selects the CPU form (optimized_cpu.cl) rather than the GPU form (optimized_gpu.cl).
  virtual bool cpuForm(const StageParamMap& p) const;
  // The GPU form's parameters and their defaults on `device`, and the checks between them.
  static std::vector<StageParamSpec> gpuFormParameters(const DeviceInfo& device);
  static StageParamSpec foldLayerParameter();
  void checkGpuForm(const StageParamMap& p, const DeviceInfo& device) const;
  // The cp.async copies the GPU form is built with on `grid` (async_copy, unless the storage cannot).
  virtual int asyncCopies(const StageParamMap& p, const Grid& grid) const;
  // Bytes of one point of the local-memory tile (float, or half where it copies halves).
  virtual std::size_t tileElementBytes(const StageParamMap& p) const;
  // Points of padding at the end of each row in local memory, the tile's and vel's and next's (ROW_PAD).
  virtual std::size_t tileRowPad(const StageParamMap&) const { return 0; }
};

}  // namespace iso
