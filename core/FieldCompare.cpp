#include "core/FieldCompare.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/CpuSolvers.h"

namespace iso {

namespace {

template <class T>
FieldDifference compare(std::span<const T> a, std::span<const T> ref) {
  if (a.size() != ref.size())
    throw std::invalid_argument("cannot compare fields of " + std::to_string(a.size()) + " and " +
                                std::to_string(ref.size()) + " values");
  FieldDifference d;
  double diff2 = 0.0, ref2 = 0.0;
  for (std::size_t n = 0; n < a.size(); ++n) {
    if (!std::isfinite(a[n]) || !std::isfinite(ref[n])) {
      ++d.nonFinite;
      continue;
    }
    const double e = double(a[n]) - double(ref[n]);
    d.maxAbs = std::max(d.maxAbs, std::fabs(e));
    diff2 += e * e;
    ref2 += double(ref[n]) * double(ref[n]);
  }
  d.relativeL2 = ref2 > 0.0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  return d;
}

}  // namespace

FieldDifference compareFields(std::span<const float> a, std::span<const float> ref) { return compare(a, ref); }
FieldDifference compareFields(std::span<const double> a, std::span<const double> ref) { return compare(a, ref); }

SolverOutput readSolverOutput(WaveSolver& solver) {
  SolverOutput out;
  solver.readField(out.field);
  out.traces = solver.traces();
  return out;
}

SolverOutput runReference(Problem problem, int steps) {
  auto solver = createCpuSolver(std::move(problem), "cpu-serial");
  solver->advance(steps);
  return readSolverOutput(*solver);
}

ReferenceAgreement compareWithReference(const SolverOutput& got, const SolverOutput& reference) {
  return {compareFields(got.field, reference.field), compareFields(got.traces, reference.traces)};
}

}  // namespace iso
