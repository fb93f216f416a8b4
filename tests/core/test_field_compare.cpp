// The one verification against cpu-serial: the difference measures and the reference run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/CpuSolvers.h"
#include "core/FieldCompare.h"
#include "core/Problem.h"
#include "core/Scenario.h"

namespace iso {
namespace {

TEST(FieldCompare, MaxAbsAndRelativeL2OfAKnownDifference) {
  const std::vector<float> ref = {3.0f, 4.0f, 0.0f}, got = {3.0f, 4.5f, -0.5f};
  const FieldDifference d = compareFields(got, ref);
  EXPECT_DOUBLE_EQ(d.maxAbs, 0.5);
  EXPECT_NEAR(d.relativeL2, std::sqrt(0.5) / 5.0, 1e-12);  // ||(0, .5, -.5)|| / ||(3, 4, 0)||
  EXPECT_EQ(d.nonFinite, 0u);
  EXPECT_FALSE(d.withinTolerance(0.1));
  EXPECT_TRUE(d.withinTolerance(0.2));
}

TEST(FieldCompare, AllZeroReferenceGivesTheAbsoluteL2) {
  const std::vector<double> ref(4, 0.0), got = {0.0, 3.0, 4.0, 0.0};
  EXPECT_DOUBLE_EQ(compareFields(got, ref).relativeL2, 5.0);
}

TEST(FieldCompare, NaNOrInfOnEitherSideFailsWhateverTheTolerance) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> ref = {1.0f, 2.0f, 3.0f};
  const FieldDifference inGot = compareFields(std::vector<float>{1.0f, nan, 3.0f}, ref);
  EXPECT_EQ(inGot.nonFinite, 1u);
  EXPECT_DOUBLE_EQ(inGot.relativeL2, 0.0) << "the finite entries agree exactly";
  EXPECT_FALSE(inGot.withinTolerance(1e30));
  const FieldDifference inRef = compareFields(ref, std::vector<float>{inf, 2.0f, 3.0f});
  EXPECT_EQ(inRef.nonFinite, 1u);
  EXPECT_FALSE(inRef.withinTolerance(1e30));
}

TEST(FieldCompare, DifferentSizesAreAnError) {
  EXPECT_THROW(compareFields(std::vector<float>(3), std::vector<float>(4)), std::invalid_argument);
}

Scenario smallRun() {
  Scenario s = presetScenario("default");
  s.n1 = 23, s.n2 = 17, s.n3 = 13;
  s.model.salt.enabled = false;
  s.source.i = 11, s.source.j = 8, s.source.k = 6;
  s.receivers = {{2, 8, 6}, {20, 3, 10}};
  s.steps = 12;
  return s;
}

TEST(FieldCompare, ReferenceRunIsCpuSerial) {
  const Scenario s = smallRun();
  const SolverOutput ref = runReference(buildProblem(s), s.steps);
  ASSERT_EQ(ref.field.size(), std::size_t(23 * 17 * 13));
  ASSERT_EQ(ref.traces.size(), std::size_t(2 * 12));

  auto solver = createCpuSolver(buildProblem(s), "cpu-serial");
  solver->advance(s.steps);
  const ReferenceAgreement same = compareWithReference(readSolverOutput(*solver), ref);
  EXPECT_EQ(same.field.maxAbs, 0.0) << "the reference is cpu-serial, bit for bit";
  EXPECT_EQ(same.traces.maxAbs, 0.0);
}

TEST(FieldCompare, AgreementFailsWhenTheFieldOrTheTracesDiffer) {
  const Scenario s = smallRun();
  const SolverOutput ref = runReference(buildProblem(s), s.steps);
  EXPECT_TRUE(compareWithReference(ref, ref).withinTolerance());

  SolverOutput field = ref;
  field.field[field.field.size() / 2] += 1.0f;  // one cell off, far above float rounding
  EXPECT_FALSE(compareWithReference(field, ref).withinTolerance());

  SolverOutput traces = ref;
  float peak = 0.0f;
  for (float v : traces.traces) peak = std::max(peak, std::fabs(v));
  traces.traces.back() += 1.0f + peak;  // one sample off by more than the whole trace's size
  const ReferenceAgreement a = compareWithReference(traces, ref);
  EXPECT_TRUE(a.field.withinTolerance(kReferenceTolerance));
  EXPECT_FALSE(a.withinTolerance());
}

}  // namespace
}  // namespace iso
