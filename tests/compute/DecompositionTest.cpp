// Every OpenCL stage cut into slabs on the test device (one device named several times, "P:D,P:D", as
// `--device cpu,cpu` does in one process) gives the bits of its run on one device (gpu-half in every
// storage form): field, traces and state, with the absorbing layer (cuts inside it) and the sponge, the
// source and receivers next to cuts.
#include <sys/mman.h>

#include <algorithm>

#include "compute/SolverFactory.h"
#include "core/DecomposedSolver.h"
#include "tests/compute/OpenClTestSupport.h"
#include "tests/support/SameBits.h"

namespace iso::test {
namespace {

// 27 planes: three slabs of 9, the absorbing layer 6 planes deep (its corrections reach 8), so that the
// cuts lie at the layer's reach; the source on the first plane of the middle slab.
Scenario cutScenario(BoundaryKind boundary) {
  Scenario s = smallScenario(21, 13, 27, boundary);
  s.boundary.width = 6;
  s.source.i = 7, s.source.j = 6, s.source.k = 9;
  s.receivers = {{1, 6, 8}, {2, 6, 9}, {20, 12, 17}, {5, 5, 18}, {10, 3, 13}};
  s.steps = 24;
  return s;
}

struct Outcome {
  std::vector<float> field, traces;
  SolverState state;
};

Outcome runFor(WaveSolver& solver, int steps) {
  solver.advance(steps);
  Outcome o;
  solver.readField(o.field);
  o.traces = solver.traces();
  o.state = solver.saveState();
  return o;
}

struct StageRun {
  std::string stage;
  StageParamMap params;
};

class SlabsOnOneDevice : public ::testing::TestWithParam<BoundaryKind> {};

TEST_P(SlabsOnOneDevice, EveryStageGivesItsOwnBitsInTwoAndThreeSlabs) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = cutScenario(GetParam());
  std::vector<StageRun> runs;
  for (const std::string& stage : openClStageIds()) runs.push_back({stage, {}});
  for (int storage : {1, 2, 3}) runs.push_back({"gpu-half", {{"storage", storage}}});  // the default is 0
  runs.push_back({"gpu-half", {{"fold_layer", 1}}});  // incremental storage runs the layer's passes by default
  runs.push_back({"gpu-optimized", {{"cpu_form", 0}, {"tile_x", 8}, {"tile_y", 4}, {"x_per_item", 2}, {"z_chunk", 5}}});
  runs.push_back({"gpu-optimized", {{"cpu_form", 0}, {"fold_layer", 1}, {"tile_x", 8}, {"tile_y", 4}, {"z_chunk", 5}}});
  runs.push_back({"gpu-temporal", {{"tile_x", 8}, {"tile_y", 12}, {"x_per_item", 2}, {"y_per_item", 4}, {"z_chunk", 7}}});
  const std::string one = device->selector();
  for (const StageRun& run : runs) {
    SCOPED_TRACE(run.stage + " " + formatStageParams(run.params) + " " + toString(GetParam()));
    const Outcome whole = runFor(*createSolver(buildProblem(s), ExecutionConfig{run.stage, one, run.params}), s.steps);
    for (const std::string& devices : {one + "," + one, one + "," + one + "," + one}) {
      auto solver = createSolver(buildProblem(s), ExecutionConfig{run.stage, devices, run.params});
      auto* cut = dynamic_cast<DecomposedSolver*>(solver.get());
      ASSERT_NE(cut, nullptr) << devices << " cuts the grid";
      const Outcome got = runFor(*solver, s.steps);
      EXPECT_TRUE(sameBits(whole.field, got.field)) << devices << " field";
      EXPECT_TRUE(sameBits(whole.traces, got.traces)) << devices << " traces";
      EXPECT_TRUE(sameBits(whole.state.current, got.state.current)) << devices << " state";
      EXPECT_TRUE(sameBits(whole.state.boundaryMemory, got.state.boundaryMemory)) << devices << " layer memory";
      for (WaveSolver* slab : cut->localSlabs()) {
        const auto& counters = dynamic_cast<const OpenClSolver&>(*slab).counters();
        EXPECT_EQ(counters.steps, s.steps);
        EXPECT_GT(counters.planeCopyBytes, 0u) << "the slabs exchanged planes";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Boundaries, SlabsOnOneDevice,
                         ::testing::Values(BoundaryKind::Absorbing, BoundaryKind::Sponge),
                         [](const auto& info) { return toString(info.param); });

// Cuts inside the layer's memory of z: a 28-plane axis with a 7-cell layer (ψ at half points 0 .. 6 and
// 20 .. 26) cut at 8 and 20, so that the cells next to each cut read ψ of half points that the neighbour
// owns (6 below the first cut, 20 above the second). A stage that folds the layer (gpu-optimized's GPU
// form with fold_layer=1) computes those itself from its ghost planes; it would read stale memory otherwise.
TEST(SlabsOnOneDevice, AFoldedLayerCutInsideItsMemoryGivesTheWholeGridsBits) {
  ISO_REQUIRE_DEVICE();
  Scenario s = smallScenario(29, 11, 28, BoundaryKind::Absorbing);
  s.boundary.width = 7;
  s.source.i = 14, s.source.j = 5, s.source.k = 4;
  s.receivers = {{14, 5, 7}, {14, 5, 8}, {14, 5, 20}};
  s.steps = 40;
  const std::string one = device->selector();
  const StageParamMap gpuForm{{"cpu_form", 0}, {"fold_layer", 1}, {"tile_x", 8}, {"tile_y", 4}, {"x_per_item", 2},
                              {"z_chunk", 5}};
  const ExecutionConfig config{"gpu-optimized", one, gpuForm};
  const Outcome whole = runFor(*createSolver(buildProblem(s), config), s.steps);
  DecomposedSolver cut(buildProblem(s), {{0, 8}, {8, 12}, {20, 8}}, {0, 0, 0}, nullptr,
                       [&](Problem slab, int) { return createSolver(std::move(slab), config); });
  const Outcome got = runFor(cut, s.steps);
  EXPECT_TRUE(sameBits(whole.field, got.field));
  EXPECT_TRUE(sameBits(whole.traces, got.traces));
  EXPECT_TRUE(sameBits(whole.state.boundaryMemory, got.state.boundaryMemory));
}

TEST(SlabsOnOneDevice, AStateRestoredIntoSlabsContinuesBitForBit) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = cutScenario(BoundaryKind::Absorbing);
  const std::string one = device->selector();
  auto whole = createSolver(buildProblem(s), ExecutionConfig{"gpu-slm", one, {}});
  whole->advance(10);
  const SolverState halfway = whole->saveState();
  const Outcome expected = runFor(*whole, 7);
  auto cut = createSolver(buildProblem(s), ExecutionConfig{"gpu-slm", one + "," + one + "," + one, {}});
  cut->restoreState(halfway);
  const Outcome got = runFor(*cut, 7);
  EXPECT_TRUE(sameBits(expected.field, got.field));
  EXPECT_TRUE(sameBits(expected.traces, got.traces));
}

TEST(SlabsOnOneDevice, SlicesAreGatheredFromTheSlabs) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = cutScenario(BoundaryKind::Sponge);
  const std::string one = device->selector();
  auto whole = createSolver(buildProblem(s), ExecutionConfig{"gpu-linear", one, {}});
  auto cut = createSolver(buildProblem(s), ExecutionConfig{"gpu-linear", one + "," + one, {}});
  whole->advance(12);
  cut->advance(12);
  SliceSet a, b;
  whole->extractSlices(5, 7, 20, a);
  cut->extractSlices(5, 7, 20, b);
  EXPECT_TRUE(sameBits({a.planes().begin(), a.planes().end()}, {b.planes().begin(), b.planes().end()}));
}

TEST(SlabsOnOneDevice, AGridTooThinForTheSlabsIsRefused) {
  ISO_REQUIRE_DEVICE();
  Scenario s = cutScenario(BoundaryKind::Sponge);
  s.n3 = 20;
  s.boundary.width = 5;  // the widest layer 20 planes allow
  const std::string one = device->selector();
  try {
    createSolver(buildProblem(s), ExecutionConfig{"gpu-basic", one + "," + one + "," + one, {}});
    FAIL() << "20 planes cannot make three slabs of at least 8";
  } catch (const ComputeError& e) {
    EXPECT_NE(std::string(e.what()).find("fewer devices"), std::string::npos) << e.what();
  }
}

// What ranks of one host do with their shared window: a slab's device locks pages it did not allocate
// and copies its planes into them, the same values as into its own page-locked memory.
TEST(SlabsOnOneDevice, PlanesCopiedIntoLockedSharedMemoryAreTheSlabsPlanes) {
  ISO_REQUIRE_DEVICE();
  const Scenario s = cutScenario(BoundaryKind::Sponge);
  auto slab = createSolver(buildProblem(s), ExecutionConfig{"gpu-basic", device->selector(), {}});
  slab->advance(5);  // a field that is not all zeros
  const std::size_t floats = std::size_t(kHalfLength) * slab->grid().planeSize();
  const std::size_t bytes = (floats * sizeof(float) + 4095) / 4096 * 4096;
  void* shared = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(shared, MAP_FAILED);
  const std::span<float> window(static_cast<float*>(shared), bytes / sizeof(float));
  EXPECT_TRUE(slab->lockHostMemory(window));
  HostPlanes own = slab->allocateHostPlanes(floats);
  const PlaneRange first[] = {{0, kHalfLength}};
  slab->beginStep(first);
  slab->startPlaneRead(0, kHalfLength, window.first(floats));
  slab->startPlaneRead(0, kHalfLength, own.floats);
  slab->finishStep();
  slab->waitPlaneCopies();
  EXPECT_TRUE(std::any_of(own.floats.begin(), own.floats.end(), [](float v) { return v != 0.0f; }));
  EXPECT_TRUE(sameBits({own.floats.begin(), own.floats.end()}, {window.begin(), window.begin() + std::ptrdiff_t(floats)}));
  slab.reset();  // the buffer over the pages goes before the pages
  ::munmap(shared, bytes);
}

}  // namespace
}  // namespace iso::test
