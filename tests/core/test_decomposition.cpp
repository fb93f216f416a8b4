// A grid cut along z into slabs of the CPU stages gives the bits of the whole grid's run: field, traces,
// slices and state, with the absorbing layer, the sponge and the reflecting boundary, cuts inside the
// layer, the source and receivers on and next to cuts; and the geometry of the cut itself.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/DecomposedSolver.h"
#include "core/SlabDecomposition.h"
#include "tests/core/SolverTestUtil.h"
#include "tests/support/SameBits.h"

namespace iso {
namespace {

using test::sameBits;

// 41 planes: the absorbing layer is 10 planes deep at each end and its corrections reach 12.
Scenario layeredScenario(BoundaryKind boundary) {
  Scenario s = testing::rickerScenario(23, 19, 41, 2000.0, 10.0, 0.0, 25.0);
  s.model.kind = ModelKind::Layered;
  s.model.layers = {{0.0, 2000.0}, {120.0, 2600.0}, {260.0, 3100.0}};
  s.boundary = {boundary, 10, 1.0e-3};
  s.source.i = 11, s.source.j = 9, s.source.k = 9;  // the first plane of the second slab below
  // On the cuts, next to them on either side, in the layer and far from everything.
  s.receivers = {{3, 4, 8}, {3, 4, 9}, {20, 15, 10}, {5, 5, 31}, {5, 5, 32}, {11, 9, 20}, {0, 0, 40}};
  return s;
}

// Cuts inside both layers: slabs of 9, 23 and 9 planes.
const std::vector<Slab> kThreeSlabs = {{0, 9}, {9, 23}, {32, 9}};

std::unique_ptr<DecomposedSolver> decomposed(const Scenario& s, const std::vector<Slab>& slabs) {
  return std::make_unique<DecomposedSolver>(buildProblem(s), slabs, std::vector<int>(slabs.size(), 0), nullptr,
                                            [&](Problem p, int) { return createCpuSolver(std::move(p), s.stage, s.stageParams); });
}

struct Outcome {
  std::vector<float> field, traces, slices;
  SolverState state;
};

Outcome runFor(WaveSolver& solver, int steps) {
  solver.advance(steps);
  Outcome o;
  solver.readField(o.field);
  o.traces = solver.traces();
  SliceSet set;
  solver.extractSlices(4, 13, 30, set);
  o.slices.assign(set.planes().begin(), set.planes().end());
  o.state = solver.saveState();
  return o;
}

void expectSameOutcome(const Outcome& whole, const Outcome& cut) {
  EXPECT_TRUE(sameBits(whole.field, cut.field)) << "field";
  EXPECT_TRUE(sameBits(whole.traces, cut.traces)) << "traces";
  EXPECT_TRUE(sameBits(whole.slices, cut.slices)) << "slices";
  EXPECT_EQ(whole.state.step, cut.state.step);
  EXPECT_TRUE(sameBits(whole.state.current, cut.state.current)) << "state u^n";
  EXPECT_TRUE(sameBits(whole.state.previous, cut.state.previous)) << "state u^(n-1)";
  EXPECT_TRUE(sameBits(whole.state.boundaryMemory, cut.state.boundaryMemory)) << "state: the layer's memory";
}

struct BitsCase {
  std::string stage;
  BoundaryKind boundary;
};

class DecompositionBits : public ::testing::TestWithParam<BitsCase> {};

TEST_P(DecompositionBits, TwoAndThreeSlabsGiveTheWholeGridsBits) {
  Scenario s = layeredScenario(GetParam().boundary);
  s.stage = GetParam().stage;
  if (s.stage == "cpu-parallel") s.stageParams = {{"threads", 2}};
  constexpr int kSteps = 30;
  const Outcome whole = runFor(*testing::makeSolver(s, s.stage), kSteps);
  double energy = 0.0;
  for (float v : whole.field) energy += double(v) * v;
  ASSERT_GT(energy, 0.0) << "the source has started";
  for (const std::vector<Slab>& slabs : {cutAlongZ(41, std::vector<double>{1.0, 1.0}), kThreeSlabs}) {
    SCOPED_TRACE(std::to_string(slabs.size()) + " slabs");
    auto solver = decomposed(s, slabs);
    expectSameOutcome(whole, runFor(*solver, kSteps));
  }
}

INSTANTIATE_TEST_SUITE_P(Stages, DecompositionBits,
                         ::testing::Values(BitsCase{"cpu-serial", BoundaryKind::Absorbing},
                                           BitsCase{"cpu-serial", BoundaryKind::Sponge},
                                           BitsCase{"cpu-serial", BoundaryKind::Reflecting},
                                           BitsCase{"cpu-parallel", BoundaryKind::Absorbing},
                                           BitsCase{"cpu-parallel", BoundaryKind::Sponge}),
                         [](const auto& info) {
                           return std::string(info.param.stage == "cpu-serial" ? "Serial" : "Parallel") +
                                  toString(info.param.boundary);
                         });

TEST(Decomposition, ARestoredStateContinuesBitForBit) {
  Scenario s = layeredScenario(BoundaryKind::Absorbing);
  s.stage = "cpu-serial";
  auto whole = testing::makeSolver(s, s.stage);
  whole->advance(12);
  const SolverState halfway = whole->saveState();
  const Outcome expected = runFor(*whole, 10);
  // The whole grid's state, restored into slabs, and a decomposed run's state, restored into slabs again.
  auto cut = decomposed(s, kThreeSlabs);
  cut->restoreState(halfway);
  cut->advance(4);
  const SolverState fromCut = cut->saveState();
  auto again = decomposed(s, cutAlongZ(41, std::vector<double>{1.0, 3.0}));
  again->restoreState(fromCut);
  expectSameOutcome(expected, runFor(*again, 6));
}

TEST(Decomposition, ARestoreOfAnotherGridIsRefused) {
  Scenario s = layeredScenario(BoundaryKind::Absorbing);
  s.stage = "cpu-serial";
  SolverState state = testing::makeSolver(s, s.stage)->saveState();
  state.current.pop_back();
  EXPECT_THROW(decomposed(s, kThreeSlabs)->restoreState(state), std::invalid_argument);
}

TEST(Decomposition, ItsLayoutNamesEverySlab) {
  Scenario s = layeredScenario(BoundaryKind::Sponge);
  s.stage = "cpu-serial";
  auto solver = decomposed(s, kThreeSlabs);
  EXPECT_EQ(solver->stage(), "cpu-serial");
  EXPECT_EQ(solver->deviceName(), "3 × host CPU (1 thread, scalar)");
  const std::vector<std::string> lines = solver->layout();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], "slab 1: planes 9-31 (23), host CPU (1 thread, scalar)");
}

TEST(SlabGeometry, EvenCutsGiveTheLowerSlabsThePlanesLeftOver) {
  const std::vector<Slab> slabs = cutAlongZ(50, std::vector<double>{1.0, 1.0, 1.0});
  EXPECT_EQ(slabs, (std::vector<Slab>{{0, 17}, {17, 17}, {34, 16}}));
}

TEST(SlabGeometry, WeightsShareThePlanesAndEverySlabKeepsRPlanes) {
  EXPECT_EQ(cutAlongZ(100, std::vector<double>{1.0, 3.0}), (std::vector<Slab>{{0, 29}, {29, 71}}));
  EXPECT_EQ(cutAlongZ(40, std::vector<double>{1.0, 1000.0}), (std::vector<Slab>{{0, 8}, {8, 32}}));
  EXPECT_EQ(cutAlongZ(5, std::vector<double>{2.0}), (std::vector<Slab>{{0, 5}}));
  EXPECT_THROW(cutAlongZ(23, std::vector<double>{1.0, 1.0, 1.0}), std::invalid_argument);
  EXPECT_THROW(cutAlongZ(40, std::vector<double>{1.0, 0.0}), std::invalid_argument);
}

TEST(SlabGeometry, AGridPastTheCellLimitTakesTheFewestSlabsPerDeviceThatFit) {
  const Grid g(10, 6, 100);  // padded planes of 26 x 22 = 572 cells
  const std::vector<double> two{1.0, 1.0};
  const auto cells = [](int planes) { return std::size_t(572) * std::size_t(planes + 2 * kHalfLength); };
  EXPECT_EQ(slabsPerDevice(g, two, cells(50)), 1);  // 2 slabs of 50 planes fit
  EXPECT_EQ(slabsPerDevice(g, two, cells(49)), 2);  // 4 of 25
  EXPECT_EQ(slabsPerDevice(g, two, cells(25)), 2);
  EXPECT_EQ(slabsPerDevice(g, two, cells(24)), 3);  // 6 of 17 or 16
  EXPECT_EQ(slabsPerDevice(g, std::vector<double>{1.0}, cells(99)), 2);  // one device, two slabs on it
  EXPECT_EQ(slabsPerDevice(g, two, cells(7)), 1);   // slabs under R planes would be needed: none fits
  EXPECT_EQ(slabsPerDevice(g, std::vector<double>{1.0, 3.0}, cells(40)), 2);  // 12/13 and 37/38 planes
}

TEST(SlabGeometry, ThePlanesNextToCutsComeFirst) {
  EXPECT_EQ(planesNextToCuts(30, true, true), (std::vector<PlaneRange>{{0, 8}, {22, 30}}));
  EXPECT_EQ(planesNextToCuts(30, false, true), (std::vector<PlaneRange>{{22, 30}}));
  EXPECT_EQ(planesNextToCuts(30, true, false), (std::vector<PlaneRange>{{0, 8}}));
  EXPECT_EQ(planesNextToCuts(12, true, true), (std::vector<PlaneRange>{{0, 12}}));
  EXPECT_TRUE(planesNextToCuts(30, false, false).empty());
}

TEST(SlabGeometry, ASlabProblemHoldsItsPlanesWithGhostsAndItsShareOfSourceAndReceivers) {
  Scenario s = layeredScenario(BoundaryKind::Sponge);
  const Problem global = buildProblem(s);
  const Slab slab{9, 23};
  const Problem p = slabProblem(global, slab);
  EXPECT_EQ(p.grid, Grid(23, 19, 23));
  const std::size_t plane = global.grid.planeSize();
  ASSERT_EQ(p.vel.size(), p.grid.paddedSize());
  EXPECT_TRUE(sameBits(p.vel, std::vector<float>(global.vel.begin() + 9 * plane, global.vel.begin() + (9 + 39) * plane)));
  ASSERT_TRUE(p.source);
  EXPECT_EQ(p.source->index, p.grid.interiorIndex(11, 9, 0));
  EXPECT_EQ(slabReceivers(global, slab), (std::vector<std::size_t>{1, 2, 3, 5}));
  EXPECT_EQ(p.receivers, (std::vector<std::size_t>{p.grid.interiorIndex(3, 4, 0), p.grid.interiorIndex(20, 15, 1),
                                                   p.grid.interiorIndex(5, 5, 22), p.grid.interiorIndex(11, 9, 11)}));
  EXPECT_EQ(p.damping.gz.size(), std::size_t(p.grid.nz()));
  EXPECT_FALSE(slabProblem(global, {0, 9}).source) << "the source is the slab's that holds its cell";
  EXPECT_THROW(slabProblem(global, {30, 12}), std::invalid_argument);
}

}  // namespace
}  // namespace iso
