#pragma once
// What the two CPU stages share: the three grid-sized arrays, the time loop (stencil, source,
// receivers, role swap), field and slice read-out and receiver traces. A stage supplies only the
// stencil of one step.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/FieldAllocator.h"
#include "core/PmlMemory.h"
#include "core/Problem.h"
#include "core/VolumeRenderer.h"
#include "core/WaveSolver.h"

namespace iso {

class CpuSolverBase : public WaveSolver {
 public:
  const Grid& grid() const override { return problem_.grid; }
  double advance(int steps) override;  // throws std::invalid_argument for steps < 0
  long currentStep() const override { return step_; }
  void readField(std::vector<float>& interior) override;
  bool startSlices(int i, int j, int k, std::span<float> planes) override;  // throws std::out_of_range
  // Rendered on the stage's threads (runRanges), from u^n where it lies.
  bool startVolume(const VolumeView& view, std::span<std::uint32_t> rgba, double* seconds) override;
  std::vector<float> traces() override { return traces_; }
  SolverState saveState() override;
  void restoreState(const SolverState& state) override;

  // As a slab (WaveSolver): the same code as advance(), a range of planes at a time; copies are
  // plain copies, complete on return. Throw std::logic_error out of order, std::out_of_range for planes
  // outside the padded grid.
  bool runsAsSlab() const override { return true; }
  void beginStep(std::span<const PlaneRange> first) override;
  void finishStep() override;
  void startPlaneRead(int plane, int count, std::span<float> out) override;
  void startPlaneWrite(int plane, int count, std::span<const float> in) override;

 protected:
  // Validates the problem's arrays against its grid (std::invalid_argument naming what is wrong) and
  // takes vel and initialPrev out of it (copied into aligned storage, each freed in the Problem as soon
  // as it is copied), so the solver holds exactly three grid-sized arrays.
  explicit CpuSolverBase(Problem problem);

  // Overwrites the interior of next_ (u^(n-1) on entry) with u^(n+1) computed from prev_ (u^n) on the
  // padded planes [z0, z1) (inside the interior), with the damping layer when problem_.damping is
  // enabled, and with the absorbing layer's terms: correctLayer once on every cell of those planes after
  // writing it (whole boxes at a time), or the same arithmetic of its own (layer()). The halo is never
  // written.
  virtual void computeStencil(int z0, int z1) = 0;
  // The absorbing layer's terms (PmlMemory::correct) on the interior cells of `box`, whose plain
  // stencil is in next_; nothing without the layer. ψ has been advanced to this step before
  // computeStencil() is called.
  void correctLayer(const PmlMemory::Box& box) {
    if (pml_) pml_->correct(prev_.data(), vel_.data(), next_.data(), problem_.coeffs, box);
  }
  // Which axes' ψ the pass before computeStencil() advances (PmlMemory::advancePsi), asked at a step's
  // first planes: x's unless computeStencil() corrects whole rows of x only (then PmlMemory::correct or
  // correctX advances it), y's and z's unless computeStencil() advances them itself box by box
  // (PmlMemory::advanceAcrossPsi).
  struct PsiPass {
    bool x, across;
  };
  virtual PsiPass psiPass(PlaneRange /*first*/) { return {false, true}; }
  // The absorbing layer's memory (null without the layer), for a stage that computes its terms itself.
  PmlMemory* layer() { return pml_ ? &*pml_ : nullptr; }

  // Calls body(begin, end) over ranges covering [0, count) and returns when all are done (the absorbing
  // layer's pass, the volume image); serial here, on the stage's threads in cpu-parallel.
  virtual void runRanges(int count, const std::function<void(int, int)>& body) { body(0, count); }

  Problem problem_;  // everything but vel and initialPrev, which moved into vel_ and prev_
  FieldArray vel_, prev_, next_;

 private:
  // u^(n+1) on interior planes `planes`, complete but for the receivers; the first call of a step
  // advances the absorbing layer's ψ (PmlMemory::advancePsi), which the corrections of every plane read.
  void computePlanes(PlaneRange planes);
  // The receivers' samples of u^(n+1), then u^(n+1) becomes the current field (and ψ^n the layer's older
  // level).
  void finishLevel();
  // The `count` padded planes of `field` from interior plane `plane` (checked against the padded grid).
  std::span<float> planesOf(FieldArray& field, int plane, int count);

  std::vector<PlaneRange> begun_;  // the planes beginStep computed, until finishStep
  bool inStep_ = false, psiAdvanced_ = false;
  long step_ = 0;
  std::optional<PmlMemory> pml_;  // the absorbing layer's memory, when the problem has one
  HostVolumeRenderer volume_;
  std::vector<float> traces_;  // traces_[n*R + r], R = receivers
};

}  // namespace iso
