// buildProblem: arrays, sources, damping, stability and every input it must refuse.
#include <gtest/gtest.h>

#include <cmath>

#include "core/Problem.h"

namespace iso {
namespace {

// A small constant-velocity scenario that builds in milliseconds.
Scenario smallScenario(int n1 = 20, int n2 = 18, int n3 = 16) {
  Scenario s;
  s.n1 = n1, s.n2 = n2, s.n3 = n3;
  s.dx = 10.0;
  s.model.kind = ModelKind::Constant;
  s.model.velocity = 2000.0;
  s.source.frequency = 15.0;
  s.boundary.kind = BoundaryKind::Reflecting;
  s.stage = "cpu-serial";
  return s;
}

template <class F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Problem, OneApiPresetReproducesTheSample) {
  Scenario s = presetScenario("oneapi");
  s.n1 = s.n2 = s.n3 = 32;
  const Problem p = buildProblem(s);
  EXPECT_EQ(p.dt, 0.002);
  EXPECT_FALSE(p.source.has_value());
  EXPECT_FALSE(p.damping.enabled());
  for (float v : p.vel) ASSERT_EQ(v, 9.0f);
  ASSERT_EQ(p.initialPrev.size(), p.grid.paddedSize());
  // nx = ny = nz = 48: x, y centred at 12, z at 24; shells of side 10, 8, 6, 4, 2 hold 1 .. 10000.
  const Grid& g = p.grid;
  EXPECT_EQ(p.initialPrev[g.index(7, 7, 19)], 1.0f);
  EXPECT_EQ(p.initialPrev[g.index(16, 16, 28)], 1.0f);
  EXPECT_EQ(p.initialPrev[g.index(17, 12, 24)], 0.0f);
  EXPECT_EQ(p.initialPrev[g.index(6, 12, 24)], 0.0f);
  EXPECT_EQ(p.initialPrev[g.index(8, 8, 20)], 10.0f);
  EXPECT_EQ(p.initialPrev[g.index(10, 10, 22)], 1000.0f);
  EXPECT_EQ(p.initialPrev[g.index(11, 11, 23)], 10000.0f);
  EXPECT_EQ(p.initialPrev[g.index(12, 12, 24)], 10000.0f);
  double sum = 0.0;
  std::size_t nonzero = 0;
  for (float v : p.initialPrev) {
    sum += v;
    nonzero += v != 0.0f;
  }
  EXPECT_EQ(nonzero, 1000u);
  EXPECT_EQ(sum, 488 * 1.0 + 296 * 10.0 + 152 * 100.0 + 56 * 1000.0 + 8 * 10000.0);
}

TEST(Problem, AutoDtIsTheFractionOfTheStabilityLimit) {
  Scenario s = smallScenario();
  s.dtAutoFraction = 0.5;
  const Problem p = buildProblem(s);
  EXPECT_NEAR(p.stability.courantLimit, 0.424, 0.005);
  EXPECT_DOUBLE_EQ(p.stability.dtLimit, p.stability.courantLimit * 10.0 / 2000.0);
  EXPECT_DOUBLE_EQ(p.dt, 0.5 * p.stability.dtLimit);
  EXPECT_DOUBLE_EQ(p.stability.courant, 2000.0 * p.dt / 10.0);
  EXPECT_DOUBLE_EQ(p.stability.pointsPerWavelength, 2000.0 / (2.5 * 15.0 * 10.0));
  EXPECT_NE(p.stability.summary().find("points per wavelength"), std::string::npos);
}

TEST(Problem, UnstableDtIsRefusedNamingTheLimit) {
  Scenario s = smallScenario();
  s.model.velocity = 4500.0;
  s.dt = 0.004;
  const std::string msg = errorOf([&] { buildProblem(s); });
  EXPECT_NE(msg.find("dt = 0.004 s exceeds the stability limit 0.00094"), std::string::npos) << msg;
  EXPECT_NE(msg.find("v_max = 4500 m/s, dx = 10 m"), std::string::npos) << msg;
  s.dt = 0.0009;  // just below the limit: accepted as given
  EXPECT_EQ(buildProblem(s).dt, 0.0009);

  // Just above the limit: the message shows two numbers that differ.
  const double limit = buildProblem(s).stability.dtLimit;
  s.dt = limit * (1.0 + 1e-6);
  const std::string close = errorOf([&] { buildProblem(s); });
  const auto number = [&](const std::string& after) {
    const auto at = close.find(after) + after.size();
    return close.substr(at, close.find(' ', at) - at);
  };
  EXPECT_NE(number("dt = "), number("stability limit ")) << close;
  EXPECT_GT(std::stod(number("dt = ")), std::stod(number("stability limit "))) << close;
}

TEST(Problem, RickerInjectionScaleAndWavelet) {
  Scenario s = smallScenario();
  s.source = {SourceKind::Ricker, 3, 4, 5, 20.0, 2.0, -1.0};
  const Problem p = buildProblem(s);
  ASSERT_TRUE(p.source.has_value());
  EXPECT_EQ(p.source->index, p.grid.interiorIndex(3, 4, 5));
  EXPECT_DOUBLE_EQ(p.source->scale, 2000.0 * 2000.0 * p.dt * p.dt / 1000.0);
  EXPECT_DOUBLE_EQ(p.source->wavelet.delay, 1.5 / 20.0);
  const RickerWavelet& w = p.source->wavelet;
  EXPECT_DOUBLE_EQ(w(0.075), 2.0);                                      // peak A at t0
  EXPECT_NEAR(w(0.075 + 1.0 / (M_PI * 20.0 * std::sqrt(2.0))), 0.0, 1e-12);  // zero crossing
  const double a = M_PI * M_PI * 400.0 * 1e-4;  // π²f0²(t-t0)² at t - t0 = 10 ms
  EXPECT_NEAR(w(0.085), 2.0 * (1.0 - 2.0 * a) * std::exp(-a), 1e-12);
  EXPECT_NEAR(w(0.065), w(0.085), 1e-12);  // symmetric about t0
  // Far from the peak it is zero, not NaN, even where π²f0²(t-t0)² overflows.
  EXPECT_EQ((RickerWavelet{20.0, 2.0, 1e308})(0.0), 0.0);
  EXPECT_EQ((RickerWavelet{20.0, 2.0, 0.075})(10.0), 0.0);
  // The centre convention: -1 means n/2.
  s.source.i = s.source.j = s.source.k = -1;
  EXPECT_EQ(buildProblem(s).source->index, p.grid.interiorIndex(10, 9, 8));
}

TEST(Problem, NoSourceGivesNeitherInjectionNorInitialField) {
  Scenario s = smallScenario();
  s.source.kind = SourceKind::None;
  const Problem p = buildProblem(s);
  EXPECT_FALSE(p.source.has_value());
  EXPECT_TRUE(p.initialPrev.empty());
  EXPECT_EQ(p.stability.pointsPerWavelength, 0.0);
}

TEST(Problem, VelocityHaloCopiesTheNearestInteriorCell) {
  Scenario s = smallScenario(12, 10, 20);
  s.model.kind = ModelKind::Layered;
  s.model.layers = {{0.0, 1500.0}, {100.0, 3000.0}};  // k >= 10 is the second layer
  const Problem p = buildProblem(s);
  const Grid& g = p.grid;
  const double dt2 = p.dt * p.dt;
  EXPECT_FLOAT_EQ(p.vel[g.interiorIndex(0, 0, 9)], float(1500.0 * 1500.0 * dt2));
  EXPECT_FLOAT_EQ(p.vel[g.interiorIndex(0, 0, 10)], float(3000.0 * 3000.0 * dt2));
  EXPECT_EQ(p.vel[g.index(0, 0, 0)], p.vel[g.interiorIndex(0, 0, 0)]);
  EXPECT_EQ(p.vel[g.index(g.nx() - 1, 3, g.nz() - 1)], p.vel[g.interiorIndex(11, 0, 19)]);
  EXPECT_EQ(p.vel[g.index(0, 0, 8 + 9)], p.vel[g.interiorIndex(0, 0, 9)]);
}

TEST(Problem, SpongeProfileShape) {
  Scenario s = smallScenario(100, 40, 12);
  s.boundary = {BoundaryKind::Sponge, 20, 1e-3};
  const Problem p = buildProblem(s);
  ASSERT_TRUE(p.damping.enabled());
  const auto& gx = p.damping.gx;
  ASSERT_EQ(gx.size(), std::size_t(p.grid.nx()));
  const int R = kHalfLength;
  // x: a 20-cell layer on each side, 1 in between, strictly decreasing outward, halo = edge value.
  for (int i = 20; i < 80; ++i) EXPECT_EQ(gx[std::size_t(i + R)], 1.0f) << i;
  for (int i = 0; i < 20; ++i) {
    EXPECT_LT(gx[std::size_t(i + R)], gx[std::size_t(i + R + 1)]) << i;
    EXPECT_EQ(gx[std::size_t(i + R)], gx[std::size_t(99 - i + R)]) << i;  // symmetric
  }
  const double sigmaMax = 0.6 * 3.0 * 2000.0 * std::log(1e3) / (2.0 * 20 * 10.0);
  EXPECT_FLOAT_EQ(gx[R], float(std::exp(-sigmaMax * p.dt)));
  EXPECT_FLOAT_EQ(gx[R + 19], float(std::exp(-sigmaMax * p.dt / 400.0)));
  for (int h = 0; h < R; ++h) EXPECT_EQ(gx[std::size_t(h)], gx[R]);
  // y (40 cells) clamps the layer to 10 cells, z (12 cells) to 3.
  EXPECT_EQ(p.damping.gy[R + 10], 1.0f);
  EXPECT_LT(p.damping.gy[R + 9], 1.0f);
  EXPECT_EQ(p.damping.gz[R + 3], 1.0f);
  EXPECT_LT(p.damping.gz[R + 2], 1.0f);
  EXPECT_FLOAT_EQ(p.damping.at(R, R, R), gx[R] * p.damping.gy[R] * p.damping.gz[R]);
}

TEST(Problem, DerivedSpongeWidthFollowsTheWavelength) {
  Scenario s = smallScenario(240, 8, 8);  // only x matters here; a quarter of it is 60 cells
  s.boundary = {BoundaryKind::Sponge, 0, 1e-3};
  s.source.frequency = 10.0;  // λ at 2000 m/s = 200 m = 20 cells: 2.5 wavelengths
  EXPECT_EQ(buildProblem(s).damping.width, 50);
  s.source.frequency = 5.0;  // 100 cells, more than a quarter of the longest axis
  EXPECT_EQ(buildProblem(s).damping.width, 60);
  s.source.frequency = 40.0;  // λ = 5 cells: the 20-cell floor
  EXPECT_EQ(buildProblem(s).damping.width, 20);
}

TEST(Problem, PerfectlyMatchedLayerShape) {
  Scenario s = smallScenario(100, 40, 12);
  s.boundary = {BoundaryKind::Absorbing, 20, 1e-3};
  s.source.frequency = 10.0;
  const Problem p = buildProblem(s);
  EXPECT_FALSE(p.damping.enabled());
  ASSERT_TRUE(p.pml.enabled());
  // Each axis keeps at most a quarter of itself: 20, 10 and 3 cells.
  EXPECT_EQ(p.pml.axes[0].width, 20);
  EXPECT_EQ(p.pml.axes[1].width, 10);
  EXPECT_EQ(p.pml.axes[2].width, 3);
  EXPECT_EQ(boundaryLayerCells(p), (std::array<int, 3>{20, 10, 3}));
  const PmlAxis& x = p.pml.axes[0];
  ASSERT_EQ(x.zetaDecay.size(), 40u);
  ASSERT_EQ(x.psiGain.size(), 40u);
  // d = d0 q², α = π f0 (1 − q): the outermost cell has q = 1 (no shift), the innermost q = 1/20.
  const double d0 = 3.0 * 2000.0 * std::log(1e3) / (2.0 * 20 * 10.0), pi = 3.14159265358979323846;
  EXPECT_FLOAT_EQ(x.zetaDecay[0], float(std::exp(-d0 * p.dt)));
  EXPECT_FLOAT_EQ(x.zetaGain[0], float(std::exp(-d0 * p.dt) - 1.0));
  const double dIn = d0 / 400.0, alphaIn = pi * 10.0 * (1.0 - 1.0 / 20.0);
  const double bIn = std::exp(-(dIn + alphaIn) * p.dt);
  EXPECT_FLOAT_EQ(x.zetaDecay[19], float(bIn));
  EXPECT_FLOAT_EQ(x.zetaGain[19], float(dIn * (bIn - 1.0) / (dIn + alphaIn)));
  // Mirror images: slot t on the low side and slot 2W−1−t on the high side are at the same depth.
  for (int t = 0; t < 20; ++t) {
    EXPECT_EQ(x.zetaDecay[t], x.zetaDecay[39 - t]) << t;
    EXPECT_EQ(x.psiDecay[t], x.psiDecay[39 - t]) << t;
    EXPECT_LT(x.zetaGain[t], 0.0f) << t;
  }
  // ψ's half points lie between the cells: depth (W − m − 1/2)/W on the low side.
  EXPECT_GT(x.psiGain[0], x.zetaGain[0]);
  EXPECT_LT(x.psiGain[0], x.zetaGain[1]);
  // Slots map to the cells and half points of both ends and back.
  EXPECT_EQ(x.zetaCell(20), 80);
  EXPECT_EQ(x.zetaSlot(99), 39);
  EXPECT_EQ(x.zetaSlot(50), -1);
  EXPECT_EQ(x.psiPoint(20), 79);  // half point 79 + 1/2: the first with depth > 0 on the high side
  EXPECT_EQ(x.psiSlot(98), 39);
  EXPECT_EQ(x.psiSlot(99), -1);  // between the last cell and the halo: outside
  EXPECT_EQ(x.reachCells(), 44);  // the layer and the derivative's kPmlHalfLength = 2 cells beyond it
  EXPECT_EQ(x.reachCell(22), 78);
  // ψ and ζ of every axis: (2·20·40·12 + 100·2·10·12 + 100·40·2·3)·2.
  EXPECT_EQ(p.pml.memoryFloats(), std::size_t(2 * (2 * 20 * 40 * 12 + 100 * 20 * 12 + 100 * 40 * 6)));
}

TEST(Problem, PerfectlyMatchedLayerDefaultWidthIsTenCells) {
  Scenario s = smallScenario(240, 80, 70);
  s.boundary = {BoundaryKind::Absorbing, 0, 1e-3};
  EXPECT_EQ(buildProblem(s).pml.axes[0].width, 10);
  s.boundary.kind = BoundaryKind::Reflecting;
  EXPECT_FALSE(buildProblem(s).pml.enabled());
  EXPECT_EQ(boundaryLayerCells(buildProblem(s)), (std::array<int, 3>{0, 0, 0}));
}

TEST(Problem, StaggeredFirstDerivativeWeightsAreTheFourthOrderOnes) {
  const auto w = staggeredFirstDerivativeWeights();
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NEAR(w[0], 9.0 / 8.0, 1e-14);
  EXPECT_NEAR(w[1], -1.0 / 24.0, 1e-14);
}

TEST(Problem, ReceiversArePaddedIndices) {
  Scenario s = smallScenario();
  s.receivers = {{0, 0, 0}, {19, 17, 15}};
  const Problem p = buildProblem(s);
  ASSERT_EQ(p.receivers.size(), 2u);
  EXPECT_EQ(p.receivers[0], p.grid.index(8, 8, 8));
  EXPECT_EQ(p.receivers[1], p.grid.index(27, 25, 23));
}

TEST(Problem, RefusesBadSizesPositionsAndStages) {
  Scenario s = smallScenario();
  s.n1 = 0;
  EXPECT_NE(errorOf([&] { buildProblem(s); }).find("n1 = 0 is out of range (allowed: [1, 16384])"), std::string::npos);
  s = smallScenario();
  s.n1 = s.n2 = s.n3 = 16000;  // 3 x 4 x 16016³ bytes = 45 TiB
  const std::string memory = errorOf([&] { buildProblem(s); });
  EXPECT_NE(memory.find("needs 44.84 TiB of host memory for stage '"), std::string::npos) << memory;
  EXPECT_NE(memory.find(" is available (free memory, within the container's and the address-space limits)"), std::string::npos) << memory;
  s = smallScenario();
  s.receivers = {{1, 1, 16}};
  EXPECT_NE(errorOf([&] { buildProblem(s); }).find("receivers[0].k = 16 is outside the grid (allowed: 0 to 15"),
            std::string::npos);
  s = smallScenario();
  s.source.i = 20;
  EXPECT_NE(errorOf([&] { buildProblem(s); }).find("source.i = 20 is outside the grid"), std::string::npos);
  s = smallScenario();
  s.stage = "gpu-magic";
  const std::string stage = errorOf([&] { buildProblem(s); });
  EXPECT_NE(stage.find("unknown stage 'gpu-magic'"), std::string::npos) << stage;
  EXPECT_NE(stage.find("cpu-serial, cpu-parallel"), std::string::npos) << stage;
}

TEST(Problem, SolverBytesAreThreePaddedArrays) {
  EXPECT_EQ(solverBytes(Grid(10, 20, 30)), 3u * 26 * 36 * 46 * 4);
}

}  // namespace
}  // namespace iso
