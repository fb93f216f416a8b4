#include "core/FieldCompare.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/CpuSolvers.h"
#include "core/StageRegistry.h"

namespace iso {

namespace {

template <class T>
FieldDifference compare(std::span<const T> a, std::span<const T> ref, double scale) {
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
  const double by = scale < 0.0 ? std::sqrt(ref2) : scale;
  d.relativeL2 = by > 0.0 ? std::sqrt(diff2) / by : std::sqrt(diff2);
  return d;
}

void keepWorst(FieldDifference& worst, const FieldDifference& d) {
  worst.maxAbs = std::max(worst.maxAbs, d.maxAbs);
  worst.relativeL2 = std::max(worst.relativeL2, d.relativeL2);
  worst.nonFinite = std::max(worst.nonFinite, d.nonFinite);
}

}  // namespace

FieldDifference compareFields(std::span<const float> a, std::span<const float> ref, double scale) {
  return compare(a, ref, scale);
}
FieldDifference compareFields(std::span<const double> a, std::span<const double> ref, double scale) {
  return compare(a, ref, scale);
}

double stageTolerance(const std::string& stage) { return StageRegistry::get(stage).agreementTolerance; }

double l2Norm(std::span<const float> values) {
  double sum = 0.0;
  for (float v : values)
    if (std::isfinite(v)) sum += double(v) * double(v);
  return std::sqrt(sum);
}

void RunAgreement::add(std::span<const float> got, std::span<const float> ref, double refPeakNorm) {
  peak_ = std::max(peak_, refPeakNorm < 0.0 ? l2Norm(ref) : refPeakNorm);
  last_ = compareFields(got, ref, peak_);
  if (!compared_)
    worst_ = last_;
  else
    keepWorst(worst_, last_);
  compared_ = true;
}

std::vector<long> comparedSteps(long steps) {
  std::vector<long> out;
  for (int i = 1; i <= kComparedSteps && steps > 0; ++i) {
    const long step = steps * i / kComparedSteps;
    if (step > 0 && (out.empty() || step > out.back())) out.push_back(step);
  }
  return out;
}

SolverOutput readSolverOutput(WaveSolver& solver) {
  SolverOutput out;
  out.step = solver.currentStep();
  solver.readField(out.field);
  out.traces = solver.traces();
  return out;
}

SolverOutput runCompared(WaveSolver& solver, int steps, bool trackPeak) {
  SolverOutput out;
  std::vector<float> field;
  solver.readField(field);
  if (trackPeak) out.peakNorm = l2Norm(field);
  long done = 0;
  for (const long step : comparedSteps(steps)) {
    // One step at a time while the peak is tracked (every step's norm), else to the next compared step.
    while (done < step) {
      const long n = trackPeak ? 1 : step - done;
      solver.advance(int(n));
      done += n;
      if (trackPeak || done == step) solver.readField(field);
      if (trackPeak) out.peakNorm = std::max(out.peakNorm, l2Norm(field));
    }
    if (step < steps) out.earlier.push_back({solver.currentStep(), field, out.peakNorm});
  }
  out.step = solver.currentStep();
  out.field = std::move(field);
  out.traces = solver.traces();
  return out;
}

SolverOutput runReference(Problem problem, int steps) {
  auto solver = createCpuSolver(std::move(problem), "cpu-serial");
  return runCompared(*solver, steps, /*trackPeak=*/true);
}

ReferenceAgreement compareWithReference(const SolverOutput& got, const SolverOutput& reference) {
  ReferenceAgreement a;
  RunAgreement run;
  for (const FieldSample& g : got.earlier) {
    const auto r = std::find_if(reference.earlier.begin(), reference.earlier.end(),
                                [&](const FieldSample& s) { return s.step == g.step; });
    if (r == reference.earlier.end()) continue;
    run.add(g.field, r->field, r->peakNorm > 0.0 ? r->peakNorm : -1.0);
    if (run.last().relativeL2 >= run.worst().relativeL2) a.worstStep = g.step;
  }
  run.add(got.field, reference.field, reference.peakNorm > 0.0 ? reference.peakNorm : -1.0);
  if (run.last().relativeL2 >= run.worst().relativeL2) a.worstStep = reference.step;
  a.field = run.worst();
  // The traces on the same scale: their own norm, or, for receivers the wave has not reached (a record of
  // round-off), the norm a record of their length has at the field's RMS level of its peak step.
  const double rms = reference.field.empty() ? 0.0 : reference.peakNorm / std::sqrt(double(reference.field.size()));
  const double floor = rms * std::sqrt(double(reference.traces.size()));
  a.traces = compareFields(got.traces, reference.traces, std::max(l2Norm(reference.traces), floor));
  return a;
}

}  // namespace iso
