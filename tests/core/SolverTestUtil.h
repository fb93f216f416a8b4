#pragma once
// Small helpers shared by the CPU solver, physics and absorbing-boundary tests.
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/CpuSolvers.h"
#include "core/FieldCompare.h"
#include "core/Problem.h"
#include "core/Scenario.h"

namespace iso::testing {

// A scenario with a Ricker source in a constant medium; callers change what their test is about.
inline Scenario rickerScenario(int n1, int n2, int n3, double velocity, double dx, double dt, double f0) {
  Scenario s;
  s.n1 = n1, s.n2 = n2, s.n3 = n3;
  s.dx = dx;
  s.dt = dt;
  s.model.kind = ModelKind::Constant;
  s.model.velocity = velocity;
  s.source.kind = SourceKind::Ricker;
  s.source.frequency = f0;
  s.receivers.clear();
  return s;
}

inline std::unique_ptr<WaveSolver> makeSolver(Scenario s, const std::string& stage) {
  s.stage = stage;
  return createCpuSolver(buildProblem(s), stage, s.stageParams);
}

// The receivers' traces after `steps` steps: traces[n*R + r] = u_r at (n+1)·dt.
inline std::vector<float> runTraces(const Scenario& s, const std::string& stage, int steps) {
  auto solver = makeSolver(s, stage);
  solver->advance(steps);
  return solver->traces();
}

// Receiver r's samples, out of traces laid out as above.
inline std::vector<double> traceOf(const std::vector<float>& traces, std::size_t receivers, std::size_t r) {
  std::vector<double> out;
  for (std::size_t n = r; n < traces.size(); n += receivers) out.push_back(traces[n]);
  return out;
}

// ||a - b||₂ / ||b||₂ over samples [first, last).
inline double relativeL2(const std::vector<double>& a, const std::vector<double>& b, std::size_t first,
                         std::size_t last) {
  const auto window = [&](const std::vector<double>& v) { return std::span<const double>(v).subspan(first, last - first); };
  return compareFields(window(a), window(b)).relativeL2;
}

}  // namespace iso::testing
