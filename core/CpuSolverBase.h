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
#include "core/WaveSolver.h"

namespace iso {

class CpuSolverBase : public WaveSolver {
 public:
  const Grid& grid() const override { return problem_.grid; }
  double advance(int steps) override;  // throws std::invalid_argument for steps < 0
  long currentStep() const override { return step_; }
  void readField(std::vector<float>& interior) override;
  bool startSlices(int i, int j, int k, std::span<float> planes) override;  // throws std::out_of_range
  std::vector<float> traces() override { return traces_; }
  SolverState saveState() override;
  void restoreState(const SolverState& state) override;

 protected:
  // Validates the problem's arrays against its grid (std::invalid_argument naming what is wrong) and
  // takes vel and initialPrev out of it (copied into aligned storage, each freed in the Problem as soon
  // as it is copied), so the solver holds exactly three grid-sized arrays.
  explicit CpuSolverBase(Problem problem);

  // Overwrites the interior of next_ (u^(n-1) on entry) with u^(n+1) computed from prev_ (u^n),
  // with the damping layer when problem_.damping is enabled, and with the absorbing layer's terms:
  // correctLayer once on every cell after writing it (whole boxes at a time), or the same arithmetic of
  // its own (layer()). The halo is never written.
  virtual void computeStencil() = 0;
  // The absorbing layer's terms (PmlMemory::correct) on the interior cells of `box`, whose plain
  // stencil is in next_; nothing without the layer. ψ has been advanced to this step before
  // computeStencil() is called.
  void correctLayer(const PmlMemory::Box& box) {
    if (pml_) pml_->correct(prev_.data(), vel_.data(), next_.data(), problem_.coeffs, box);
  }
  // Which axes' ψ the pass before computeStencil() advances (PmlMemory::advancePsi): x's unless
  // computeStencil() calls correctLayer on whole rows of x only (then correct() advances it), y's and z's
  // unless computeStencil() computes them itself (PmlMemory::rowTerms).
  struct PsiPass {
    bool x, across;
  };
  virtual PsiPass psiPass() const { return {false, true}; }
  // The absorbing layer's memory (null without the layer), for a stage that computes its terms itself.
  PmlMemory* layer() { return pml_ ? &*pml_ : nullptr; }

  // Calls body(begin, end) over ranges covering [0, count) and returns when all are done (the absorbing
  // layer's pass); serial here, on the stage's threads in cpu-parallel.
  virtual void runRanges(int count, const std::function<void(int, int)>& body) { body(0, count); }

  Problem problem_;  // everything but vel and initialPrev, which moved into vel_ and prev_
  FieldArray vel_, prev_, next_;

 private:
  long step_ = 0;
  std::optional<PmlMemory> pml_;  // the absorbing layer's memory, when the problem has one
  std::vector<float> traces_;  // traces_[n*R + r], R = receivers
};

}  // namespace iso
