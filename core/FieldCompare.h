#pragma once
// Verification against the reference: how far one field is from another, and the one check every front
// end runs ("does this stage compute what cpu-serial computes?"): `iso3dfd verify`, `iso3dfd bench`, the
// benchmark runner and the tests all call these.
#include <cstddef>
#include <span>
#include <vector>

#include "core/Problem.h"
#include "core/WaveSolver.h"

namespace iso {

// The tolerance every stage meets against cpu-serial (relative L2, float32 with reordered sums).
inline constexpr double kReferenceTolerance = 1e-5;

struct FieldDifference {
  double maxAbs = 0.0;        // max |a - ref| over the entries where both are finite
  double relativeL2 = 0.0;    // ||a - ref||₂ / ||ref||₂ over those entries (absolute L2 when ref is all zeros)
  std::size_t nonFinite = 0;  // entries where a or ref is NaN or Inf
  bool withinTolerance(double relL2Tolerance) const { return nonFinite == 0 && relativeL2 <= relL2Tolerance; }
};

// Throws std::invalid_argument when the sizes differ.
FieldDifference compareFields(std::span<const float> a, std::span<const float> ref);
FieldDifference compareFields(std::span<const double> a, std::span<const double> ref);

// What a run leaves to compare: the interior field u^N (C order) and the receivers' traces.
struct SolverOutput {
  std::vector<float> field, traces;
};
SolverOutput readSolverOutput(WaveSolver& solver);

// cpu-serial on `problem` (its stage and stage parameters are replaced) for `steps` steps.
SolverOutput runReference(Problem problem, int steps);

struct ReferenceAgreement {
  FieldDifference field, traces;  // traces: zero entries, so always within tolerance, without receivers
  bool withinTolerance(double relL2Tolerance = kReferenceTolerance) const {
    return field.withinTolerance(relL2Tolerance) && traces.withinTolerance(relL2Tolerance);
  }
};
ReferenceAgreement compareWithReference(const SolverOutput& got, const SolverOutput& reference);

}  // namespace iso
