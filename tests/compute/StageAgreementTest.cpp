// Every OpenCL stage computes the same field as cpu-serial (within its tolerance on the run's scale, no
// NaN: 1e-5 for the float32 stages), on odd non-cubic grids with a Ricker source, a layered model and
// every boundary, and on the oneapi preset.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <tuple>

#include "tests/compute/OpenClTestSupport.h"
#include "tests/ScratchDir.h"
#include "core/Checkpoint.h"
#include "core/VelocityModel.h"
#include "compute/SolverFactory.h"
#include "compute/stages/OpenClStage.h"

namespace iso::test {
namespace {

struct GridCase {
  int n1, n2, n3;
};

class StageAgreement : public ::testing::TestWithParam<std::tuple<GridCase, BoundaryKind>> {};

TEST_P(StageAgreement, EveryStageMatchesCpuSerial) {
  ISO_REQUIRE_DEVICE();
  const auto [g, boundary] = GetParam();
  const Scenario s = smallScenario(g.n1, g.n2, g.n3, boundary);
  const SolverOutput ref = runReference(s);
  ASSERT_GT(compareFields(ref.field, std::vector<float>(ref.field.size(), 0.0f)).relativeL2, 0.0)
      << "the reference field is all zeros: the test would prove nothing";
  // The GPU form of gpu-optimized runs on every device too (cpu_form=0), so PoCL checks it in CI.
  std::vector<std::pair<std::string, StageParamMap>> runs;
  for (const auto& stage : openClStageIds()) runs.push_back({stage, {}});
  runs.push_back({"gpu-optimized", {{"cpu_form", 0}, {"tile_x", 16}, {"tile_y", 4}, {"y_per_item", 3}}});
  // Vector forms: rows of 53 floats (37 wide) take the unaligned path, of 80 and 32 the aligned one.
  runs.push_back({"gpu-optimized", {{"cpu_form", 0}, {"tile_x", 8}, {"tile_y", 4}, {"x_per_item", 4}, {"y_per_item", 1},
                                    {"prefetch", 2}}});
  runs.push_back({"gpu-optimized", {{"cpu_form", 0}, {"tile_x", 8}, {"tile_y", 2}, {"x_per_item", 2}, {"y_per_item", 2},
                                    {"prefetch", 3}, {"z_unroll", 4}, {"z_chunk", 7}}});
  // The absorbing layer's terms in the stencil's own pass (where the scenario has the layer).
  runs.push_back({"gpu-optimized", {{"cpu_form", 0}, {"fold_layer", 1}, {"tile_x", 8}, {"tile_y", 4}, {"y_per_item", 2}}});
  runs.push_back({"gpu-optimized", {{"cpu_form", 1}, {"vec", 8}}});
  // Half storage in each form (incremental or plain, vel half or float), partial tiles and z chunks.
  for (int storage = 0; storage < 4; ++storage)
    runs.push_back({"gpu-half", {{"storage", storage}, {"tile_x", 8}, {"tile_y", 4}, {"x_per_item", 2 + 2 * (storage % 2)},
                                 {"y_per_item", 1 + storage / 2}, {"z_chunk", 9}}});
  // Incremental storage with the layer folded (plain storage always folds; incremental runs its passes).
  runs.push_back({"gpu-half", {{"fold_layer", 1}, {"tile_x", 8}, {"tile_y", 4}, {"z_chunk", 9}}});
  // Two steps per pass: several z chunks (the last one partial), a tile that is no power of two, a block
  // of another shape than the default.
  runs.push_back({"gpu-temporal", {{"tile_x", 12}, {"tile_y", 10}, {"x_per_item", 4}, {"y_per_item", 2}, {"z_chunk", 5}}});
  // Planes of u^n three ahead through registers, the z loop unrolled with a remainder (7 planes).
  runs.push_back({"gpu-temporal", {{"tile_x", 8}, {"tile_y", 12}, {"x_per_item", 2}, {"y_per_item", 4}, {"prefetch", 3},
                                   {"z_unroll", 2}, {"z_chunk", 7}}});
  for (const auto& [stage, params] : runs) {
    OpenClSolver solver(buildProblem(s), openClStage(stage), params, *device);
    const SolverOutput got = runSolver(solver, s.steps);
    const std::string what = stage + " " + formatStageParams(solver.parameters()) + " on " + std::to_string(g.n1) +
                             "x" + std::to_string(g.n2) + "x" + std::to_string(g.n3) +
                             " " + toString(boundary);
    expectStageAgrees(got, ref, stage, what);
    EXPECT_EQ(solver.currentStep(), s.steps);
  }
}

INSTANTIATE_TEST_SUITE_P(OddGrids, StageAgreement,
                         ::testing::Combine(::testing::Values(GridCase{37, 29, 23}, GridCase{64, 40, 24},
                                                              GridCase{16, 16, 80}),
                                            ::testing::Values(BoundaryKind::Reflecting, BoundaryKind::Absorbing,
                                                              BoundaryKind::Sponge)),
                         [](const auto& info) {
                           const GridCase& g = std::get<0>(info.param);
                           return std::to_string(g.n1) + "x" + std::to_string(g.n2) + "x" + std::to_string(g.n3) +
                                  "_" + toString(std::get<1>(info.param));
                         });

TEST(StageAgreementOneApi, EveryStageMatchesCpuSerialOnTheOneApiPreset) {
  ISO_REQUIRE_DEVICE();
  Scenario s = presetScenario("oneapi");
  s.n1 = 40;
  s.n2 = 36;
  s.n3 = 44;
  s.steps = 20;
  const SolverOutput ref = runReference(s);
  for (const auto& stage : openClStageIds()) {
    auto solver = createSolver(buildProblem(s), ExecutionConfig{stage, device->selector(), {}});  // as the CLI does
    EXPECT_EQ(solver->stage(), stage);
    const SolverOutput got = runSolver(*solver, s.steps);
    expectStageAgrees(got, ref, stage, stage + " on the oneapi preset");
  }
}

// gpu-half's scale follows the source: amplitudes that half could not hold unscaled (1e12 overflows its
// 65504, 1e-20 is below its smallest subnormal) agree with cpu-serial as the default's does.
TEST(StageAgreementHalf, TheScaleFollowsTheSourcesAmplitude) {
  ISO_REQUIRE_DEVICE();
  for (const float amplitude : {1e-20f, 1.0f, 1e12f}) {  // 1e12: the largest a scenario takes
    Scenario s = smallScenario(37, 29, 23, BoundaryKind::Absorbing);
    s.source.amplitude = amplitude;
    const SolverOutput ref = runReference(s);
    OpenClSolver solver(buildProblem(s), openClStage("gpu-half"), {}, *device);
    expectStageAgrees(runSolver(solver, s.steps), ref, "gpu-half", "gpu-half, amplitude " + std::to_string(amplitude));
  }
}

// A state saved by gpu-half continues in a float stage and back: the layer's memory, like the field, is saved
// in u's units (half storage holds both scaled).
TEST(StageAgreementHalf, ItsSavedStateContinuesInAFloatStageAndBack) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = smallScenario(37, 29, 23, BoundaryKind::Absorbing);
  const SolverOutput ref = runReference(s);
  const Problem problem = buildProblem(s);
  const int first = s.steps / 2;
  for (const auto& [from, to] : {std::pair{"gpu-half", "gpu-optimized"}, std::pair{"gpu-optimized", "gpu-half"}}) {
    OpenClSolver before(problem, openClStage(from), {}, *device), after(problem, openClStage(to), {}, *device);
    before.advance(first);
    after.restoreState(before.saveState());
    after.advance(s.steps - first);
    expectStageAgrees(readSolverOutput(after), ref, "gpu-half", std::string(from) + " then " + to);
  }
}

// Checkpoint files of format version 2 load, except gpu-half's with the absorbing layer: that stage then
// saved the layer's memory in its half fields' scale, and such a file would resume wrong.
TEST(StageAgreementHalf, ItsVersionTwoCheckpointsWithTheLayerAreRefused) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = smallScenario(37, 29, 23, BoundaryKind::Absorbing);
  OpenClSolver solver(buildProblem(s), openClStage("gpu-half"), {}, *device);
  solver.advance(5);
  const SolverState state = solver.saveState();
  ASSERT_FALSE(state.boundaryMemory.empty()) << "the scenario needs its absorbing layer";
  const std::string path = test::scratchPath("half-version2.ckp").string();
  const auto save = [&](const std::string& stage, char version) {
    Scenario as = s;
    as.stage = stage;
    saveCheckpoint(path, {as, buildVelocityModel(as), state});
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(8);  // the format version, after the magic
    f.put(version);
  };
  save("gpu-half", '\x03');
  EXPECT_EQ(loadCheckpoint(path).state.boundaryMemory, state.boundaryMemory);
  save("gpu-optimized", '\x02');
  EXPECT_EQ(loadCheckpoint(path).state.current, state.current);
  save("gpu-half", '\x02');
  try {
    loadCheckpoint(path);
    ADD_FAILURE() << "accepted gpu-half's version 2 file";
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("written by gpu-half before version 3"), std::string::npos) << e.what();
  }
}

// Long enough that advance() folds its profiling events in several batches.
TEST(StageAgreementOneApi, AdvanceInSeveralCallsEqualsOneCall) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = smallScenario(37, 29, 23, BoundaryKind::Absorbing);
  const Problem problem = buildProblem(s);
  OpenClSolver once(problem, openClStage("gpu-optimized"), {}, *device);
  OpenClSolver pieces(problem, openClStage("gpu-optimized"), {}, *device);
  const int steps = 1100;
  const double seconds = once.advance(steps);
  EXPECT_GT(seconds, 0.0);
  double pieceSeconds = 0.0;
  for (const int n : {5, 0, 700, steps - 705}) pieceSeconds += pieces.advance(n);
  std::vector<float> a, b;
  once.readField(a);
  pieces.readField(b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(once.traces(), pieces.traces());
  EXPECT_EQ(once.counters().steps, steps);
  EXPECT_EQ(once.counters().lastAdvanceSteps, steps);
  EXPECT_NEAR(once.counters().kernelSeconds, seconds, 1e-12);
  EXPECT_NEAR(pieces.counters().kernelSeconds, pieceSeconds, 1e-12);
  // Every launch's time is in the sum: on the same device, it cannot be a fraction of the other run's.
  EXPECT_GT(pieceSeconds, 0.5 * seconds);
  EXPECT_GT(seconds, 0.5 * pieceSeconds);
}

// The absorbing layer's passes are timed apart from the stencil: z's ψ, then the three corrections (x's and
// y's advance their ψ themselves); together with the stencil they are in the kernels' sum.
TEST(StageAgreementOneApi, TheLayersPassesAreTimedOnTheirOwn) {
  ISO_REQUIRE_DEVICE();
  const Problem problem = buildProblem(smallScenario(37, 29, 23, BoundaryKind::Absorbing));
  OpenClSolver solver(problem, openClStage("gpu-basic"), {}, *device);
  solver.advance(20);
  const SolverCounters& c = solver.counters();
  double layer = 0.0;
  for (std::size_t pass = 0; pass < 4; ++pass) {
    EXPECT_GT(c.layerSeconds[pass], 0.0) << "pass " << pass;
    layer += c.layerSeconds[pass];
  }
  EXPECT_GT(c.stencilSeconds, 0.0);
  EXPECT_GE(c.kernelSeconds, c.stencilSeconds + layer);

  OpenClSolver reflecting(buildProblem(smallScenario(37, 29, 23, BoundaryKind::Reflecting)),
                          openClStage("gpu-basic"), {}, *device);
  reflecting.advance(5);
  for (double seconds : reflecting.counters().layerSeconds) EXPECT_EQ(seconds, 0.0);
}

// The layer's corrections in blocks of several cells of the axis per work-item (a GPU's default) compute
// what one cell per work-item does, with guards that would turn any read or write past the grid into NaN,
// in float and in incremental half storage. 37 × 29 × 23 with a 4-cell layer (6 cells of reach per end):
// ends apart, blocks of 3 that tile them and of 4 that overhang inward. 11 × 9 × 16: x's ends meet (the
// whole axis in blocks, the last one past the end); y's layer narrowed to 2 cells on 9, so that a high
// end's block starts below the low end's last cell; z's ends apart.
TEST(StageAgreementOneApi, TheLayersBlocksOfCellsComputeWhatSingleCellsDo) {
  ISO_REQUIRE_DEVICE();
  for (const GridCase g : {GridCase{37, 29, 23}, GridCase{11, 9, 16}}) {
    const Scenario s = smallScenario(g.n1, g.n2, g.n3, BoundaryKind::Absorbing);
    const SolverOutput ref = runReference(s);
    for (const std::string stage : {"gpu-basic", "gpu-half"}) {
      OpenClSolverOptions o;
      o.guardElements = 4096;
      o.guardValue = std::nanf("");
      o.layerCells = 1;
      OpenClSolver single(buildProblem(s), openClStage(stage), {}, *device, o);
      const SolverOutput one = runSolver(single, s.steps);
      for (const int cells : {3, 4}) {
        o.layerCells = cells;
        OpenClSolver blocked(buildProblem(s), openClStage(stage), {}, *device, o);
        const SolverOutput got = runSolver(blocked, s.steps);
        const std::string what = stage + " with " + std::to_string(cells) + " cells a work-item on " +
                                 std::to_string(g.n1) + "x" + std::to_string(g.n2) + "x" + std::to_string(g.n3);
        expectStageAgrees(got, ref, stage, what);
        expectAgrees(got.field, one.field, what + " against one cell a work-item", 1e-6);
      }
    }
  }
}

// Odd pieces end on a single step, which the next call's two-step passes continue: both levels of a
// pass compute a step as the single step does, so the bits are the same however the count is cut.
TEST(StageAgreementTemporal, AdvanceInSeveralCallsEqualsOneCall) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = smallScenario(37, 29, 23, BoundaryKind::Absorbing);
  const Problem problem = buildProblem(s);
  OpenClSolver once(problem, openClStage("gpu-temporal"), {}, *device);
  OpenClSolver pieces(problem, openClStage("gpu-temporal"), {}, *device);
  const int steps = 24;
  once.advance(steps);
  for (const int n : {5, 0, 1, 3, 1, steps - 10}) pieces.advance(n);
  EXPECT_EQ(pieces.currentStep(), steps);
  const SolverOutput a = readSolverOutput(once), b = readSolverOutput(pieces);
  EXPECT_EQ(a.field, b.field);
  EXPECT_EQ(a.traces, b.traces);
  EXPECT_EQ(pieces.counters().steps, steps);
}

// A stage of several steps per pass ends an odd count with a single step: 7 and 8 steps agree with
// cpu-serial, field and every trace sample (both levels of each pass are recorded).
TEST(StageAgreementTemporal, OddAndEvenStepCountsMatchCpuSerial) {
  ISO_REQUIRE_DEVICE();
  for (const int steps : {7, 8}) {
    Scenario s = smallScenario(37, 29, 23, BoundaryKind::Absorbing);
    s.source.i = 3;  // two cells from a receiver, so that the traces move within 7 steps
    s.steps = steps;
    const SolverOutput ref = runReference(s);
    ASSERT_GT(compareFields(ref.traces, std::vector<float>(ref.traces.size(), 0.0f)).relativeL2, 0.0)
        << "the receivers saw nothing: the test would prove nothing";
    OpenClSolver solver(buildProblem(s), openClStage("gpu-temporal"), {{"z_chunk", 9}}, *device);
    const SolverOutput got = runSolver(solver, steps);
    ASSERT_EQ(got.traces.size(), ref.traces.size());
    const std::string what = "gpu-temporal, " + std::to_string(steps) + " steps";
    expectAgrees(got.field, ref.field, what + " field");
    expectAgrees(got.traces, ref.traces, what + " traces");
    EXPECT_EQ(solver.currentStep(), steps);
  }
}

// The state saved after an odd count (u^n and u^(n-1) in two of the four buffers) restored into a new
// solver continues bit for bit, and the saved state equals the uninterrupted run's at that step.
TEST(StageAgreementTemporal, SaveAndRestoreContinueBitForBit) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = smallScenario(37, 29, 23, BoundaryKind::Absorbing);
  const Problem problem = buildProblem(s);
  OpenClSolver whole(problem, openClStage("gpu-temporal"), {}, *device), first(problem, openClStage("gpu-temporal"), {}, *device);
  whole.advance(7);
  first.advance(7);
  const SolverState saved = first.saveState();
  const SolverState reference = whole.saveState();
  EXPECT_EQ(saved.step, 7);
  EXPECT_EQ(saved.current, reference.current);
  EXPECT_EQ(saved.previous, reference.previous);
  EXPECT_NE(saved.current, saved.previous);
  whole.advance(10);
  OpenClSolver resumed(problem, openClStage("gpu-temporal"), {}, *device);
  resumed.advance(2);  // a state to overwrite, in other buffers than the saved one's
  resumed.restoreState(saved);
  resumed.advance(10);
  EXPECT_EQ(resumed.currentStep(), 17);
  const SolverOutput a = readSolverOutput(whole), b = readSolverOutput(resumed);
  EXPECT_EQ(a.field, b.field);
  EXPECT_EQ(a.traces, b.traces);
  SliceSet sa, sb;
  whole.extractSlices(20, 14, 11, sa);
  resumed.extractSlices(20, 14, 11, sb);
  EXPECT_TRUE(std::ranges::equal(sa.xy, sb.xy));
  EXPECT_TRUE(std::ranges::equal(sa.yz, sb.yz));
}

TEST(Slices, SlicesMatchTheField) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = smallScenario(37, 29, 23, BoundaryKind::Reflecting);
  OpenClSolver solver(buildProblem(s), openClStage("gpu-linear"), {}, *device);
  solver.advance(15);
  std::vector<float> field;
  solver.readField(field);
  const int n1 = 37, n2 = 29, n3 = 23, i = 12, j = 14, k = 11;
  SliceSet sl;
  solver.extractSlices(i, j, k, sl);
  EXPECT_EQ(sl.step, 15);
  EXPECT_EQ(sl.n1, n1);
  EXPECT_EQ(sl.i, i);
  EXPECT_EQ(sl.k, k);
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
  EXPECT_THROW(solver.extractSlices(n1, 0, 0, sl), ComputeError);
}

// The planes into caller memory, as the compute thread writes them into a mapped GL buffer: one read,
// on its way until finishSlices, behind which the solver may advance.
TEST(Slices, PlanesIntoCallerMemoryEqualExtractSlices) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = smallScenario(37, 29, 23, BoundaryKind::Reflecting);
  OpenClSolver solver(buildProblem(s), openClStage("gpu-linear"), {}, *device);
  solver.advance(15);
  SliceSet sl;
  solver.extractSlices(12, 14, 11, sl);
  const std::size_t floats = SliceSet::planeFloats(37, 29, 23);
  std::vector<float> planes(floats + 1, -7.0f);  // one more, which stays as it is
  EXPECT_FALSE(solver.startSlices(12, 14, 11, planes)) << "an OpenCL read is on its way";
  solver.advance(5);  // runs behind the read
  solver.finishSlices();
  std::vector<float> expected(sl.xy.begin(), sl.xy.end());
  expected.insert(expected.end(), sl.xz.begin(), sl.xz.end());
  expected.insert(expected.end(), sl.yz.begin(), sl.yz.end());
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), planes.begin())) << "the planes of step 15";
  EXPECT_EQ(planes.back(), -7.0f);
  EXPECT_THROW(solver.startSlices(12, 14, 11, std::span(planes).first(floats - 1)), ComputeError);
}

}  // namespace
}  // namespace iso::test
