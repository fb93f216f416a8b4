#pragma once
// Shared helpers of the compute tests: the device under test, small scenarios and the reference run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compute/ClError.h"
#include "core/CpuSolvers.h"
#include "compute/DeviceRegistry.h"
#include "core/FieldCompare.h"
#include "compute/OpenClSolver.h"
#include "core/Problem.h"
#include "core/Scenario.h"
#include "core/StageRegistry.h"

namespace iso::test {

// The first OpenCL device (PoCL in CI); tests skip when none exists.
inline const DeviceInfo* testDevice() {
  static const std::vector<DeviceInfo> all = listDevices();
  static const DeviceInfo chosen = all.empty() ? DeviceInfo{} : selectDevice("");
  return all.empty() ? nullptr : &chosen;
}

#define ISO_REQUIRE_DEVICE()                                          \
  const ::iso::DeviceInfo* device = ::iso::test::testDevice();         \
  if (!device) GTEST_SKIP() << "no OpenCL device on this machine"

// A Ricker source in a three-layer model on a small odd grid: a wave that crosses layers and reaches the
// boundary's layer (absorbing or sponge) within `steps`.
inline Scenario smallScenario(int n1, int n2, int n3, BoundaryKind boundary) {
  Scenario s = presetScenario("default");
  s.n1 = n1;
  s.n2 = n2;
  s.n3 = n3;
  s.dx = 10.0;
  s.model.kind = ModelKind::Layered;
  s.model.layers = {{0.0, 2000.0}, {n3 * 10.0 * 0.35, 2500.0}, {n3 * 10.0 * 0.7, 3000.0}};
  s.model.salt.enabled = false;
  s.boundary = {boundary, 4, 1.0e-3};
  s.source = {SourceKind::Ricker, n1 / 3, n2 / 2, n3 / 2, 60.0, 1.0e6, 0.006};
  s.receivers = {{1, n2 / 2, n3 / 2}, {n1 - 2, 1, n3 - 2}};
  s.steps = 40;
  return s;
}

inline SolverOutput runSolver(WaveSolver& solver, int steps) {
  solver.advance(steps);
  return readSolverOutput(solver);
}

inline SolverOutput runReference(const Scenario& s) { return iso::runReference(buildProblem(s), s.steps); }

// Within `tolerance` (relative L2) and no NaN/Inf, with a message that names what was compared.
inline void expectAgrees(const std::vector<float>& got, const std::vector<float>& ref, const std::string& what,
                         double tolerance = kReferenceTolerance) {
  const FieldDifference d = compareFields(got, ref);
  EXPECT_EQ(d.nonFinite, 0u) << what;
  EXPECT_LE(d.relativeL2, tolerance) << what << " (max abs " << d.maxAbs << ")";
}

// A run of `stage` against the reference as `iso3dfd verify` judges it (core/FieldCompare.h): the field on
// the reference run's scale and the traces, within the stage's own tolerance.
inline void expectStageAgrees(const SolverOutput& got, const SolverOutput& ref, const std::string& stage,
                              const std::string& what) {
  const ReferenceAgreement a = compareWithReference(got, ref);
  const double tolerance = stageTolerance(stage);
  EXPECT_EQ(a.field.nonFinite + a.traces.nonFinite, 0u) << what;
  EXPECT_LE(a.field.relativeL2, tolerance) << what << " field (max abs " << a.field.maxAbs << ")";
  EXPECT_LE(a.traces.relativeL2, tolerance) << what << " traces";
}

// The OpenCL stages of the registry, in its order.
inline const std::vector<std::string>& openClStageIds() {
  static const std::vector<std::string> stages = [] {
    std::vector<std::string> ids;
    for (const StageInfo& s : StageRegistry::all())
      if (s.opencl) ids.push_back(s.id);
    return ids;
  }();
  return stages;
}

}  // namespace iso::test
