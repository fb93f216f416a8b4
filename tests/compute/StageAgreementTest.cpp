// Every OpenCL stage computes the same field as cpu-serial (relative L2 <= 1e-5, no NaN), on odd
// non-cubic grids with a Ricker source, a layered model and both boundaries, and on the oneapi preset.
#include <cmath>
#include <map>
#include <tuple>

#include "OpenClTestSupport.h"
#include "SolverFactory.h"

namespace iso::test {
namespace {

struct GridCase {
  int n1, n2, n3;
};

class StageAgreement : public ::testing::TestWithParam<std::tuple<GridCase, bool>> {};

TEST_P(StageAgreement, EveryStageMatchesCpuSerial) {
  ISO_REQUIRE_DEVICE();
  const auto [g, absorbing] = GetParam();
  const Scenario s = smallScenario(g.n1, g.n2, g.n3, absorbing);
  const SolverOutput ref = runReference(s);
  ASSERT_GT(compareFields(ref.field, std::vector<float>(ref.field.size(), 0.0f)).relativeL2, 0.0)
      << "the reference field is all zeros: the test would prove nothing";
  // The GPU form of gpu-optimized runs on every device too (cpu_form=0), so PoCL checks it in CI.
  std::vector<std::pair<std::string, StageParamMap>> runs;
  for (const auto& stage : openClStages()) runs.push_back({stage, {}});
  runs.push_back({"gpu-optimized", {{"cpu_form", 0}, {"tile_x", 16}, {"tile_y", 4}, {"y_per_item", 3}}});
  // Vector forms: rows of 53 floats (37 wide) take the unaligned path, of 80 and 32 the aligned one.
  runs.push_back({"gpu-optimized", {{"cpu_form", 0}, {"tile_x", 8}, {"tile_y", 4}, {"x_per_item", 4}, {"y_per_item", 1},
                                    {"prefetch", 2}}});
  runs.push_back({"gpu-optimized", {{"cpu_form", 0}, {"tile_x", 8}, {"tile_y", 2}, {"x_per_item", 2}, {"y_per_item", 2},
                                    {"prefetch", 3}, {"z_unroll", 4}, {"z_chunk", 7}}});
  runs.push_back({"gpu-optimized", {{"cpu_form", 1}, {"vec", 8}}});
  for (const auto& [stage, params] : runs) {
    OpenClSolver solver(openClProblem(s, stage, params), *device);
    const SolverOutput got = runSolver(solver, s.steps);
    const std::string what = stage + " " + formatStageParams(solver.parameters()) + " on " + std::to_string(g.n1) +
                             "x" + std::to_string(g.n2) + "x" + std::to_string(g.n3) +
                             (absorbing ? " absorbing" : " reflecting");
    expectAgrees(got.field, ref.field, what + " field");
    expectAgrees(got.traces, ref.traces, what + " traces");
    EXPECT_EQ(solver.currentStep(), s.steps);
  }
}

INSTANTIATE_TEST_SUITE_P(OddGrids, StageAgreement,
                         ::testing::Combine(::testing::Values(GridCase{37, 29, 23}, GridCase{64, 40, 24},
                                                              GridCase{16, 16, 80}),
                                            ::testing::Bool()),
                         [](const auto& info) {
                           const GridCase& g = std::get<0>(info.param);
                           return std::to_string(g.n1) + "x" + std::to_string(g.n2) + "x" + std::to_string(g.n3) +
                                  (std::get<1>(info.param) ? "_absorbing" : "_reflecting");
                         });

TEST(StageAgreementOneApi, EveryStageMatchesCpuSerialOnTheOneApiPreset) {
  ISO_REQUIRE_DEVICE();
  Scenario s = presetScenario("oneapi");
  s.n1 = 40;
  s.n2 = 36;
  s.n3 = 44;
  s.steps = 20;
  const SolverOutput ref = runReference(s);
  for (const auto& stage : openClStages()) {
    Problem p = openClProblem(s, stage);
    p.device = device->selector();
    auto solver = createSolver(std::move(p));  // through the factory, as the CLI does
    EXPECT_EQ(solver->stage(), stage);
    const SolverOutput got = runSolver(*solver, s.steps);
    expectAgrees(got.field, ref.field, stage + " on the oneapi preset");
  }
}

TEST(StageAgreementOneApi, AdvanceInSeveralCallsEqualsOneCall) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = smallScenario(37, 29, 23, true);
  OpenClSolver once(openClProblem(s, "gpu-optimized"), *device);
  OpenClSolver pieces(openClProblem(s, "gpu-optimized"), *device);
  const double seconds = once.advance(12);
  EXPECT_GT(seconds, 0.0);
  pieces.advance(5);
  pieces.advance(0);
  pieces.advance(7);
  std::vector<float> a, b;
  once.readField(a);
  pieces.readField(b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(once.traces(), pieces.traces());
  EXPECT_EQ(once.counters().steps, 12);
  EXPECT_NEAR(once.counters().kernelSeconds, seconds, 1e-12);
}

TEST(Slices, SlicesAndDecimatedVolumeMatchTheField) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = smallScenario(37, 29, 23, false);
  OpenClSolver solver(openClProblem(s, "gpu-linear"), *device);
  solver.advance(15);
  std::vector<float> field;
  solver.readField(field);
  const int n1 = 37, n2 = 29, n3 = 23, i = 12, j = 14, k = 11;
  solver.requestSlices(i, j, k);
  solver.advance(3);  // the caller keeps stepping while the copy is in flight
  SliceSet sl;
  solver.takeSlices(sl);
  EXPECT_EQ(sl.step, 15);
  ASSERT_EQ(sl.xy.size(), std::size_t(n1 * n2));
  ASSERT_EQ(sl.xz.size(), std::size_t(n1 * n3));
  ASSERT_EQ(sl.yz.size(), std::size_t(n2 * n3));
  auto at = [&](int a, int b, int c) { return field[(std::size_t(c) * n2 + b) * n1 + a]; };
  for (int b = 0; b < n2; ++b)
    for (int a = 0; a < n1; ++a) ASSERT_EQ(sl.xy[b * n1 + a], at(a, b, k));
  for (int c = 0; c < n3; ++c)
    for (int a = 0; a < n1; ++a) ASSERT_EQ(sl.xz[c * n1 + a], at(a, j, c));
  for (int c = 0; c < n3; ++c)
    for (int b = 0; b < n2; ++b) ASSERT_EQ(sl.yz[c * n2 + b], at(i, b, c));
  EXPECT_THROW(solver.requestSlices(n1, 0, 0), ComputeError);

  std::vector<float> now, dec;
  solver.readField(now);
  int m1 = 0, m2 = 0, m3 = 0;
  solver.extractDecimatedVolume(4, dec, m1, m2, m3);
  EXPECT_EQ(m1, 10);
  EXPECT_EQ(m2, 8);
  EXPECT_EQ(m3, 6);
  ASSERT_EQ(dec.size(), std::size_t(m1 * m2 * m3));
  for (int c = 0; c < m3; ++c)
    for (int b = 0; b < m2; ++b)
      for (int a = 0; a < m1; ++a) {
        const int x = std::min(a * 4 + 2, n1 - 1), y = std::min(b * 4 + 2, n2 - 1), z = std::min(c * 4 + 2, n3 - 1);
        ASSERT_EQ(dec[(std::size_t(c) * m2 + b) * m1 + a], now[(std::size_t(z) * n2 + y) * n1 + x]);
      }
}

}  // namespace
}  // namespace iso::test
