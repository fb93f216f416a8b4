// cpu-serial against a hand computation, cpu-parallel against cpu-serial, the read-out API (field
// parity, slices, traces) and the errors bad stages and parameters give.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/CpuParallelSolver.h"
#include "core/CpuSolvers.h"
#include "core/FieldCompare.h"
#include "core/PmlMemory.h"
#include "tests/core/SolverTestUtil.h"
#include "tests/support/SameBits.h"

namespace iso {
namespace {

using testing::makeSolver;

// ---------------------------------------------------------------------------------------------------
// cpu-parallel == cpu-serial

struct EquivalenceCase {
  std::string name;
  std::function<Scenario()> scenario;
  int steps;
};

Scenario layeredAbsorbing() {
  Scenario s = testing::rickerScenario(37, 29, 23, 2000.0, 10.0, 0.0, 25.0);
  s.model.kind = ModelKind::Layered;
  s.model.layers = {{0.0, 2000.0}, {80.0, 2600.0}, {150.0, 3100.0}};
  s.boundary = {BoundaryKind::Absorbing, 6, 1.0e-3};
  s.source.i = 11, s.source.j = 17, s.source.k = 9;
  s.receivers = {{0, 0, 0}, {36, 28, 22}, {20, 5, 11}};
  return s;
}

Scenario layeredSponge() {
  Scenario s = layeredAbsorbing();
  s.boundary.kind = BoundaryKind::Sponge;
  return s;
}

Scenario cubesReflecting() {
  Scenario s = presetScenario("oneapi");
  s.n1 = 64, s.n2 = 40, s.n3 = 24;
  s.coefficients = "oneapi";
  s.receivers = {{10, 3, 9}};
  return s;
}

Scenario randomModel() {
  Scenario s = testing::rickerScenario(16, 16, 80, 2500.0, 10.0, 0.0, 20.0);
  s.model.kind = ModelKind::Random;
  s.model.velocity = 2500.0;
  s.model.randomStdDev = 300.0;
  s.model.randomCorrelationLength = 30.0;
  s.model.randomSeed = 7;
  s.boundary = {BoundaryKind::Absorbing, 0, 1.0e-3};
  s.source.k = 30;
  s.receivers = {{3, 4, 60}};
  return s;
}

Scenario saltGradientReflecting() {
  Scenario s = testing::rickerScenario(45, 31, 27, 2000.0, 10.0, 0.0, 20.0);
  s.model.kind = ModelKind::Gradient;
  s.model.topVelocity = 1800.0;
  s.model.bottomVelocity = 3000.0;
  s.model.salt = {true, 220.0, 150.0, 140.0, 80.0, 4500.0};
  s.boundary.kind = BoundaryKind::Reflecting;
  s.source.i = 9, s.source.j = 20, s.source.k = 5;
  // The far corner sees only the stencil's precursor in 30 steps (~1e-44, where summation order decides
  // every digit); the cell near the source sees the wavelet.
  s.receivers = {{40, 2, 26}, {13, 22, 8}};
  return s;
}

Scenario singleCell() {
  Scenario s = testing::rickerScenario(1, 1, 1, 2000.0, 10.0, 0.0, 30.0);
  s.source.delay = 0.0;  // the wavelet's peak at t = 0, so the single cell sees it at once
  s.receivers = {{0, 0, 0}};
  return s;
}

Scenario narrowRows() {  // rows shorter than any vector, odd everywhere, absorbing on a tiny grid
  Scenario s = testing::rickerScenario(3, 13, 7, 2000.0, 10.0, 0.0, 30.0);
  s.boundary = {BoundaryKind::Absorbing, 2, 1.0e-3};
  s.receivers = {{2, 12, 6}};
  return s;
}

// The parameter sets cpu-parallel is checked with: defaults, awkward blocks and more threads than
// cores, block_x 0 (the whole row), and every SIMD width this CPU can run.
std::vector<std::map<std::string, int>> parallelParameterSets() {
  std::vector<std::map<std::string, int>> sets = {
      {}, {{"threads", 3}, {"block_x", 5}, {"block_y", 3}, {"block_z", 7}}, {{"threads", 2}, {"block_x", 0}}};
  for (int width = 4; width <= widestSupportedSimdWidth(); width *= 2)
    sets.push_back({{"simd_width", width}, {"block_x", 13}, {"block_y", 2}});
  return sets;
}

class ParallelMatchesSerial : public ::testing::TestWithParam<EquivalenceCase> {};

TEST_P(ParallelMatchesSerial, FieldAndTracesAgreeToFloatRounding) {
  const EquivalenceCase& c = GetParam();
  const Scenario s = c.scenario();
  auto serial = makeSolver(s, "cpu-serial");
  serial->advance(c.steps);
  std::vector<float> reference;
  serial->readField(reference);
  const std::vector<float> referenceTraces = serial->traces();
  const float peak = *std::max_element(reference.begin(), reference.end(),
                                       [](float a, float b) { return std::fabs(a) < std::fabs(b); });
  ASSERT_GT(std::fabs(peak), 0.0f) << "the reference field is all zeros: the comparison would prove nothing";

  for (const auto& params : parallelParameterSets()) {
    Scenario sp = s;
    sp.stageParams = params;
    auto parallel = makeSolver(sp, "cpu-parallel");
    SCOPED_TRACE(parallel->deviceName() + ", " + std::to_string(params.size()) + " parameter(s) set");
    parallel->advance(c.steps);
    std::vector<float> field;
    parallel->readField(field);
    const FieldDifference d = compareFields(field, reference);
    EXPECT_EQ(d.nonFinite, 0u);
    EXPECT_LE(d.relativeL2, 1e-5) << "max |difference| " << d.maxAbs;
    const FieldDifference dt = compareFields(parallel->traces(), referenceTraces);
    EXPECT_EQ(dt.nonFinite, 0u);
    EXPECT_LE(dt.relativeL2, 1e-5);
  }
}

INSTANTIATE_TEST_SUITE_P(
    CpuStages, ParallelMatchesSerial,
    ::testing::Values(EquivalenceCase{"RickerLayeredAbsorbing_37x29x23", layeredAbsorbing, 40},
                      EquivalenceCase{"RickerLayeredSponge_37x29x23", layeredSponge, 40},
                      EquivalenceCase{"CubesReflecting_64x40x24", cubesReflecting, 30},
                      EquivalenceCase{"RandomModelAbsorbing_16x16x80", randomModel, 30},
                      EquivalenceCase{"SaltGradientReflecting_45x31x27", saltGradientReflecting, 30},
                      EquivalenceCase{"SingleCell_1x1x1", singleCell, 20},
                      EquivalenceCase{"NarrowRowsAbsorbing_3x13x7", narrowRows, 25}),
    [](const ::testing::TestParamInfo<EquivalenceCase>& info) { return info.param.name; });

// ---------------------------------------------------------------------------------------------------
// cpu-serial against the first step of the oneAPI scenario, summed out by hand

TEST(CpuSerial, FirstOneApiStepMatchesHandComputation) {
  Scenario s = presetScenario("oneapi");
  s.n1 = 40, s.n2 = 36, s.n3 = 12;  // large enough that the sample's cubes stay inside the interior
  s.coefficients = "oneapi";
  auto solver = makeSolver(s, "cpu-serial");
  solver->advance(1);
  std::vector<float> u1;
  solver->readField(u1);

  const int nx = s.n1 + 16, ny = s.n2 + 16, nz = s.n3 + 16;
  // u^0 of the sample: cubes of half-size 5..1 centred on (nx/4, ny/4, nz/2), holding 1, 10, ... 1e4.
  auto u0 = [&](int x, int y, int z) {
    double value = 0.0, cubeValue = 1.0;
    for (int h = 5; h >= 1; --h, cubeValue *= 10.0)
      if (x >= nx / 4 - h && x < nx / 4 + h && y >= ny / 4 - h && y < ny / 4 + h && z >= nz / 2 - h &&
          z < nz / 2 + h)
        value = cubeValue;
    return value;
  };
  // The sample's literal table, divided by dx² = 2500 m², the centre weight tripled for three axes.
  const std::array<double, 9> w = {-3.0548446, 1.7777778,   -3.1111111e-1, 7.572087e-2, -1.76767677e-2,
                                   3.480962e-3, -5.180005e-4, 5.074287e-5,   -2.42812e-6};
  const double velTerm = (1500.0 * 0.002) * (1500.0 * 0.002);  // v² dt² = 9
  // Padded cells: the innermost cube, the outer cube's faces and corner, and cells outside every cube
  // that only their neighbours reach.
  const std::array<std::array<int, 3>, 7> cells = {
      {{14, 13, 14}, {9, 13, 14}, {18, 17, 18}, {8, 13, 14}, {22, 13, 14}, {14, 20, 11}, {40, 40, 19}}};
  int nonZero = 0;
  for (const auto& [x, y, z] : cells) {
    double laplacian = 3.0 * w[0] / 2500.0 * u0(x, y, z), magnitude = std::fabs(laplacian);
    for (int r = 1; r <= 8; ++r) {
      const double pairs = u0(x + r, y, z) + u0(x - r, y, z) + u0(x, y + r, z) + u0(x, y - r, z) +
                           u0(x, y, z + r) + u0(x, y, z - r);
      laplacian += w[r] / 2500.0 * pairs;
      magnitude += std::fabs(w[r] / 2500.0) * pairs;
    }
    const double expected = 2.0 * u0(x, y, z) - 0.0 + velTerm * laplacian;  // u^-1 = 0
    ASSERT_TRUE(x >= 8 && x < nx - 8 && y >= 8 && y < ny - 8 && z >= 8 && z < nz - 8);  // interior cells only
    const double actual = u1[(std::size_t(z - 8) * s.n2 + (y - 8)) * s.n1 + (x - 8)];
    EXPECT_NEAR(actual, expected, 1e-5 * (2.0 * u0(x, y, z) + velTerm * magnitude) + 1e-30)
        << "padded cell (" << x << ", " << y << ", " << z << ")";
    nonZero += expected != 0.0;
  }
  EXPECT_GE(nonZero, 5);  // the chosen cells really test the stencil, not zeros against zeros
}

// ---------------------------------------------------------------------------------------------------
// Read-out: the current field whatever the parity, slices and traces

class CpuReadOut : public ::testing::TestWithParam<std::string> {};

TEST_P(CpuReadOut, FieldIsCurrentStepWhateverTheParity) {
  const Scenario s = layeredAbsorbing();
  for (int steps : {1, 2, 3, 4}) {
    auto once = makeSolver(s, GetParam());
    auto piecewise = makeSolver(s, GetParam());
    once->advance(steps);
    for (int k = 0; k < steps; ++k) piecewise->advance(1);
    EXPECT_EQ(once->currentStep(), steps);
    EXPECT_EQ(piecewise->currentStep(), steps);
    std::vector<float> a, b;
    once->readField(a);
    piecewise->readField(b);
    EXPECT_EQ(a, b) << "after " << steps << " step(s)";
  }
  // u^1 and u^2 differ, so reading the wrong buffer of the pair cannot pass unnoticed.
  auto solver = makeSolver(s, GetParam());
  std::vector<float> u1, u2, u2again;
  solver->advance(8);
  solver->readField(u1);
  solver->advance(1);
  solver->readField(u2);
  EXPECT_NE(u1, u2);
  solver->readField(u2again);
  EXPECT_EQ(u2, u2again);
}

TEST_P(CpuReadOut, SlicesAndTracesComeFromTheCurrentField) {
  Scenario s = layeredAbsorbing();
  const int steps = 17;
  auto solver = makeSolver(s, GetParam());
  solver->advance(steps);
  std::vector<float> field;
  solver->readField(field);
  auto at = [&](int i, int j, int k) { return field[(std::size_t(k) * s.n2 + j) * s.n1 + i]; };

  SliceSet slices;
  const int i = 20, j = 5, k = 11;
  solver->extractSlices(i, j, k, slices);
  EXPECT_EQ(slices.step, steps);
  EXPECT_EQ(slices.n1, s.n1);
  ASSERT_EQ(slices.xy.size(), std::size_t(s.n1) * s.n2);
  ASSERT_EQ(slices.xz.size(), std::size_t(s.n1) * s.n3);
  ASSERT_EQ(slices.yz.size(), std::size_t(s.n2) * s.n3);
  for (int jj = 0; jj < s.n2; ++jj)
    for (int ii = 0; ii < s.n1; ++ii) ASSERT_EQ(slices.xy[std::size_t(jj) * s.n1 + ii], at(ii, jj, k));
  for (int kk = 0; kk < s.n3; ++kk)
    for (int ii = 0; ii < s.n1; ++ii) ASSERT_EQ(slices.xz[std::size_t(kk) * s.n1 + ii], at(ii, j, kk));
  for (int kk = 0; kk < s.n3; ++kk)
    for (int jj = 0; jj < s.n2; ++jj) ASSERT_EQ(slices.yz[std::size_t(kk) * s.n2 + jj], at(i, jj, kk));

  const std::vector<float> traces = solver->traces();
  const std::size_t receivers = s.receivers.size();
  ASSERT_EQ(traces.size(), steps * receivers);
  for (std::size_t r = 0; r < receivers; ++r) {
    const auto& rc = s.receivers[r];
    EXPECT_EQ(traces[(steps - 1) * receivers + r], at(rc.i, rc.j, rc.k)) << "receiver " << r;
  }
  EXPECT_NE(traces[(steps - 1) * receivers + 2], 0.0f);  // the wave has reached receiver 2 by now
  EXPECT_THROW(solver->extractSlices(s.n1, 0, 0, slices), std::out_of_range);
  EXPECT_THROW(solver->extractSlices(0, -1, 0, slices), std::out_of_range);

  // The same planes into caller memory, written at once (a ring slot of the compute thread).
  solver->extractSlices(i, j, k, slices);
  const std::size_t floats = slices.planeFloats();
  std::vector<float> planes(floats + 1, -7.0f);  // one more, which stays as it is
  EXPECT_TRUE(solver->startSlices(i, j, k, planes));
  EXPECT_TRUE(std::equal(planes.begin(), planes.begin() + std::ptrdiff_t(floats), slices.xy.data()));
  EXPECT_EQ(planes.back(), -7.0f);
  EXPECT_THROW(solver->startSlices(i, j, k, std::span(planes).first(floats - 1)), std::out_of_range);
}

INSTANTIATE_TEST_SUITE_P(CpuStages, CpuReadOut, ::testing::Values("cpu-serial", "cpu-parallel"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param == "cpu-serial" ? std::string("Serial") : std::string("Parallel");
                         });

// cpu-parallel's tiles advance ψ of y and z themselves, just before their rows read it, where each tile
// reads only the slots of its own cells; where the tiles cut the layer's bands a pass over the layer does
// it before them. Both compute every slot with the same code, so they give the same bits.
TEST(CpuParallelLayer, TilesThatAdvanceTheirOwnPsiGiveThePassesBits) {
  const Scenario s = layeredAbsorbing();  // 37 × 29 × 23; the layer 6 cells deep (5 along z), reaching 2 more
  const Problem problem = buildProblem(s);
  const PmlMemory memory(problem.grid, problem.pml);
  const auto box = [](int j0, int j1, int k0, int k1) { return PmlMemory::Box{0, 37, j0, j1, k0, k1}; };
  EXPECT_TRUE(memory.readsOwnAcrossPsi(box(0, 29, 0, 23)));
  EXPECT_TRUE(memory.readsOwnAcrossPsi(box(0, 16, 0, 16)));   // both low bands whole
  EXPECT_TRUE(memory.readsOwnAcrossPsi(box(16, 29, 16, 23)));  // both high bands whole
  EXPECT_TRUE(memory.readsOwnAcrossPsi(box(10, 18, 8, 14)));   // between the bands
  EXPECT_FALSE(memory.readsOwnAcrossPsi(box(0, 5, 0, 23)));    // row 4 reads the slot of cell 5
  EXPECT_FALSE(memory.readsOwnAcrossPsi(box(23, 29, 0, 23)));  // row 23 reads the slot of cell 22
  EXPECT_FALSE(memory.readsOwnAcrossPsi(box(0, 29, 0, 4)));    // plane 3 reads the slot of plane 4
  // A slab of a cut grid reads z's slots from its ghost planes.
  const PmlMemory slab(Grid(37, 29, 12), problem.pml.zWindow(0, 12));
  EXPECT_FALSE(slab.readsOwnAcrossPsi(box(0, 29, 0, 12)));

  const auto run = [&](const StageParamMap& params) {
    Scenario sp = s;
    sp.stageParams = params;
    auto solver = makeSolver(sp, "cpu-parallel");
    solver->advance(40);
    std::vector<float> field;
    solver->readField(field);
    return std::pair{field, solver->saveState().boundaryMemory};
  };
  // The default tiles for two threads are 16 rows by 16 planes: each holds its bands whole.
  const CpuParallelConfig tiles = parseCpuParallelConfig({{"threads", 2}}, problem.grid);
  ASSERT_EQ(tiles.blockY, 16);
  ASSERT_EQ(tiles.blockZ, 16);
  const auto [ownField, ownMemory] = run({{"threads", 2}});
  const auto [passField, passMemory] = run({{"threads", 2}, {"block_y", 4}});  // tiles cutting the bands
  EXPECT_TRUE(test::sameBits(ownField, passField));
  EXPECT_TRUE(test::sameBits(ownMemory, passMemory));
}

// ---------------------------------------------------------------------------------------------------
// Errors

// Calls f, expects std::invalid_argument, and returns its message.
std::string invalidArgumentMessage(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no std::invalid_argument thrown";
  return {};
}

Problem smallProblem() { return buildProblem(testing::rickerScenario(9, 8, 7, 2000.0, 10.0, 0.0, 20.0)); }

// The default tiles give every thread two to take, shrinking no block below 16 cells, and are then
// evened out over their axis (equal blocks, none below 16); blocks that are given stay as given.
TEST(CpuParallelConfig, DefaultTilesShrinkUntilEveryThreadHasTwo) {
  const auto tiles = [](const CpuParallelConfig& c, const Grid& g) {
    const auto count = [](int n, int b) { return (n + b - 1) / b; };
    return count(g.n1, c.blockX) * count(g.n2, c.blockY) * count(g.n3, c.blockZ);
  };
  const Grid cube(96, 96, 96);
  CpuParallelConfig c = parseCpuParallelConfig({{"threads", 2}}, cube);
  EXPECT_EQ(c.blockX, 96);
  EXPECT_EQ(c.blockY, 48);  // 4 tiles, already two per thread: 96 cells in two equal blocks, not 64 + 32
  EXPECT_EQ(c.blockZ, 48);

  c = parseCpuParallelConfig({{"threads", 16}}, cube);
  EXPECT_GE(tiles(c, cube), 32);
  EXPECT_GE(c.blockY, 16);
  EXPECT_GE(c.blockZ, 16);

  const Grid big(256, 256, 256);
  c = parseCpuParallelConfig({{"threads", 16}}, big);
  EXPECT_EQ(tiles(c, big), 32);  // 4 rows of tiles × 8 chunks of z
  EXPECT_EQ(c.blockY, 64);
  EXPECT_EQ(c.blockZ, 32);

  // Given blocks stay, the other one shrinks alone, and never below 16.
  c = parseCpuParallelConfig({{"threads", 16}, {"block_y", 64}}, cube);
  EXPECT_EQ(c.blockY, 64);
  EXPECT_EQ(c.blockZ, 16);
  c = parseCpuParallelConfig({{"threads", 64}, {"block_y", 64}, {"block_z", 0}}, cube);
  EXPECT_EQ(c.blockY, 64);
  EXPECT_EQ(c.blockZ, 96);

  c = parseCpuParallelConfig({{"threads", 2}}, Grid(100, 100, 100));
  EXPECT_EQ(c.blockY, 50);
  EXPECT_EQ(c.blockZ, 50);

  // A grid too small for that many tiles stops at 16-cell blocks, evened out only where no block would
  // fall below 16: 33 and 20 cells stay in blocks of 16, not of 11 and 10.
  const Grid small(40, 33, 20);
  c = parseCpuParallelConfig({{"threads", 32}}, small);
  EXPECT_EQ(c.blockY, 16);
  EXPECT_EQ(c.blockZ, 16);
}

TEST(CpuSolverErrors, NonCpuStageIsRejectedByName) {
  const std::string msg = invalidArgumentMessage([] { createCpuSolver(smallProblem(), "gpu-basic"); });
  EXPECT_NE(msg.find("gpu-basic"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cpu-serial"), std::string::npos) << msg;
}

TEST(CpuSolverErrors, BadParallelParametersNameTheParameterAndTheLimit) {
  std::string msg = invalidArgumentMessage([] { createCpuSolver(smallProblem(), "cpu-parallel", {{"threads", 0}}); });
  EXPECT_NE(msg.find("threads"), std::string::npos) << msg;
  EXPECT_NE(msg.find(">= 1"), std::string::npos) << msg;

  msg = invalidArgumentMessage([] { createCpuSolver(smallProblem(), "cpu-parallel", {{"block_y", -4}}); });
  EXPECT_NE(msg.find("block_y"), std::string::npos) << msg;

  msg = invalidArgumentMessage([] { createCpuSolver(smallProblem(), "cpu-parallel", {{"tile_x", 32}}); });
  EXPECT_NE(msg.find("tile_x"), std::string::npos) << msg;
  EXPECT_NE(msg.find("block_x"), std::string::npos) << msg;  // lists the known names

  msg = invalidArgumentMessage([] { createCpuSolver(smallProblem(), "cpu-parallel", {{"simd_width", 6}}); });
  EXPECT_NE(msg.find("simd_width"), std::string::npos) << msg;

  msg = invalidArgumentMessage([] { createCpuSolver(smallProblem(), "cpu-serial", {{"threads", 2}}); });
  EXPECT_NE(msg.find("cpu-serial takes no parameters"), std::string::npos) << msg;
}

TEST(CpuSolverErrors, InconsistentProblemAndNegativeStepsAreRejected) {
  Problem p = smallProblem();
  p.vel.pop_back();
  std::string msg = invalidArgumentMessage([&] { createCpuSolver(std::move(p), "cpu-serial"); });
  EXPECT_NE(msg.find("velocity"), std::string::npos) << msg;

  p = smallProblem();
  p.receivers.push_back(p.grid.paddedSize());
  msg = invalidArgumentMessage([&] { createCpuSolver(std::move(p), "cpu-parallel"); });
  EXPECT_NE(msg.find("receiver"), std::string::npos) << msg;

  auto solver = createCpuSolver(smallProblem(), "cpu-parallel");
  EXPECT_THROW(solver->advance(-1), std::invalid_argument);
  EXPECT_NO_THROW(solver->advance(0));
  EXPECT_EQ(solver->currentStep(), 0);
}

}  // namespace
}  // namespace iso
