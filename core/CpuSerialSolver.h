#pragma once
// cpu-serial: the scalar reference, the oneAPI sample's 1_CPU_only loop order and float order.
#include "core/CpuSolverBase.h"

namespace iso {

class CpuSerialSolver final : public CpuSolverBase {
 public:
  // Takes no stage parameters: throws std::invalid_argument naming any it is given.
  CpuSerialSolver(Problem problem, const StageParamMap& params = {});
  std::string stage() const override { return "cpu-serial"; }
  std::string deviceName() const override;

 protected:
  void computeStencil(int z0, int z1) override;
};

}  // namespace iso
