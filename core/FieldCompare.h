#pragma once
// Verification against the reference: how far one field is from another, and the one check every front
// end runs ("does this stage compute what cpu-serial computes?"): `iso3dfd verify`, `iso3dfd bench`, the
// benchmark runner, the compare view and the tests all call these.
//
// The verdict judges a difference on the field's scale over the whole run, not on the field of the step
// it is taken at: with the absorbing layer a field drains to a remnant a thousand times smaller than its
// peak, and round-off that was a 1e-7 part of the peak is then a large part of what is left (a relative
// L2 of 2e-4 after 400 steps on a 37 x 29 x 23 grid for every correct stage, while their traces agreed to
// 3e-7). So a run is compared at several steps (comparedSteps), each difference divided by the largest
// L2 norm the reference's field has had at that step or before (its running peak): a correct stage
// passes at any run length, and a wrong one fails at the step where it goes wrong, however small the
// field is by the end. docs/NUMERICS.md, "Verification".
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "core/Problem.h"
#include "core/WaveSolver.h"

namespace iso {

// The tolerance every float32 stage meets against cpu-serial (float32 with reordered sums); a stage that
// stores its fields with fewer bits states its own (StageInfo::agreementTolerance).
inline constexpr double kReferenceTolerance = 1e-5;
// The registered stage's own tolerance (StageRegistry); throws std::invalid_argument for an unknown id.
double stageTolerance(const std::string& stage);

struct FieldDifference {
  double maxAbs = 0.0;        // max |a - ref| over the entries where both are finite
  // ||a - ref||₂ / scale over those entries: scale = ||ref||₂ (compareFields without one) or the run's
  // peak norm (compareWithReference, RunAgreement); the absolute L2 when the scale is 0.
  double relativeL2 = 0.0;
  std::size_t nonFinite = 0;  // entries where a or ref is NaN or Inf
  bool withinTolerance(double relL2Tolerance) const { return nonFinite == 0 && relativeL2 <= relL2Tolerance; }
};

// Throws std::invalid_argument when the sizes differ. `scale` < 0: ||ref||₂.
FieldDifference compareFields(std::span<const float> a, std::span<const float> ref, double scale = -1.0);
FieldDifference compareFields(std::span<const double> a, std::span<const double> ref, double scale = -1.0);
double l2Norm(std::span<const float> values);  // over the finite entries, in double

// The agreement of one run with the reference's over the steps compared so far: each step's difference
// over the reference's running peak norm, and the worst of them. The compare view feeds it slices at
// every common frame; compareWithReference, the fields at comparedSteps.
class RunAgreement {
 public:
  // One compared step. `refPeakNorm`: the largest ||ref||₂ the reference had at this step or before;
  // < 0: the largest this object has been given (the compare view, which sees every frame it judges).
  void add(std::span<const float> got, std::span<const float> ref, double refPeakNorm = -1.0);
  bool compared() const { return compared_; }
  const FieldDifference& last() const { return last_; }    // the latest step's difference
  const FieldDifference& worst() const { return worst_; }  // the largest of every figure so far
  double peakNorm() const { return peak_; }
  bool withinTolerance(double tolerance) const { return compared_ && worst_.withinTolerance(tolerance); }

 private:
  bool compared_ = false;
  double peak_ = 0.0;
  FieldDifference last_, worst_;
};

// The steps at which a run of `steps` steps is compared: up to kComparedSteps, evenly spaced, the last
// being `steps` itself (none for 0 steps).
inline constexpr int kComparedSteps = 8;
std::vector<long> comparedSteps(long steps);

// The interior field (C order) at one compared step, and for a reference run the largest ||u^m||₂ of any
// step m up to it (0 otherwise).
struct FieldSample {
  long step = 0;
  std::vector<float> field;
  double peakNorm = 0.0;
};

// What a run leaves to compare: the interior field u^N (C order), the receivers' traces, and for a run
// made by runCompared the fields at the other compared steps.
struct SolverOutput {
  long step = 0;  // the step of `field`
  std::vector<float> field, traces;
  std::vector<FieldSample> earlier;  // comparedSteps(N) without N, in order
  double peakNorm = 0.0;             // reference runs: the largest ||u^m||₂ of any step m <= N
};
// u^N and the traces as the solver holds them now (no earlier steps).
SolverOutput readSolverOutput(WaveSolver& solver);
// Advances `solver` by `steps`, keeping its field at comparedSteps(steps) (counted from where it starts);
// with `trackPeak` (the reference), the running peak of ||u||₂ over every step, read after each one.
SolverOutput runCompared(WaveSolver& solver, int steps, bool trackPeak = false);

// cpu-serial on `problem` (its stage and stage parameters are replaced) for `steps` steps (runCompared,
// with the peak tracked).
SolverOutput runReference(Problem problem, int steps);

struct ReferenceAgreement {
  // field: the worst step of the compared ones (every step both outputs hold), each over the reference's
  // running peak norm (its own norm where the reference has none); traces: L2 over the whole record, over
  // the reference record's norm or, where that is smaller (receivers the wave has not reached), the norm
  // the record would have at the field's RMS level of its peak step (zero entries without receivers).
  FieldDifference field, traces;
  long worstStep = 0;  // the step of field's figure (the reference's step numbers)
  bool withinTolerance(double relL2Tolerance = kReferenceTolerance) const {
    return field.withinTolerance(relL2Tolerance) && traces.withinTolerance(relL2Tolerance);
  }
};
// Compares u^N, and the earlier steps that both outputs hold; throws std::invalid_argument when their
// final fields' sizes differ.
ReferenceAgreement compareWithReference(const SolverOutput& got, const SolverOutput& reference);

}  // namespace iso
