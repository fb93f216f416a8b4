#pragma once
// A Scenario turned into the arrays and numbers a solver needs (the physics), and the ExecutionConfig
// that says which stage runs it where. Built once, validated, then handed to a solver, which keeps
// exactly three grid-sized arrays: vel, prev and next.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/Coefficients.h"
#include "core/Grid.h"
#include "core/PmlProfile.h"
#include "core/Scenario.h"
#include "core/StageRegistry.h"

namespace iso {

// s(t) = A (1 - 2π²f0²(t-t0)²) exp(-π²f0²(t-t0)²)
struct RickerWavelet {
  double frequency = 15.0, amplitude = 1.0, delay = 0.1;
  double operator()(double t) const;
};

// Point source: the step that produces u^(n+1) adds scale * s(n·dt) at `index` (padded),
// with scale = v(x_s)² dt² / dx³ (docs/NUMERICS.md).
struct PointInjection {
  std::size_t index = 0;
  double scale = 0.0;
  double dt = 0.0;
  RickerWavelet wavelet;
  float valueForStep(long n) const { return float(scale * wavelet(double(n) * dt)); }
};

// The sponge boundary: a damping layer in the spirit of Cerjan: g = gx[x]·gy[y]·gz[z] (padded coordinates), 1 in the interior
// away from the edges. The damped update is next = g·(2·prev − g·next + vel·L(prev)).
struct DampingProfile {
  std::vector<float> gx, gy, gz;  // sizes nx, ny, nz; empty when the boundary reflects
  int width = 0;                  // cells
  bool enabled() const { return !gx.empty(); }
  float at(int x, int y, int z) const { return gx[x] * gy[y] * gz[z]; }
};

struct StabilityReport {
  double dt = 0.0;                 // the time step in use (given, or auto), seconds
  double dtLimit = 0.0;            // largest stable dt for this model and dx, seconds
  double courant = 0.0;            // v_max·dt/dx
  double courantLimit = 0.0;       // 2 / sqrt(3 Σ|w|)
  double pointsPerWavelength = 0.0;  // v_min / (f_max · dx), f_max = 2.5·f0 for a Ricker (0 if no source)
  double vMin = 0.0, vMax = 0.0;
  std::string summary() const;       // one line for users
};

struct Problem {
  Grid grid;
  double dx = 0.0, dt = 0.0;
  CoefficientSet coefficientSet = CoefficientSet::Exact;
  Weights coeffs{};                     // scaled: c0·3/dx², c_k/dx²
  std::vector<float> vel;               // padded, v²·dt² (halo copies the nearest interior value)
  std::vector<float> initialPrev;       // padded u^0 (cubes), or empty for zeros
  std::optional<PointInjection> source;
  DampingProfile damping;               // the sponge boundary (empty otherwise)
  PmlProfile pml;                       // the absorbing boundary (disabled otherwise)
  std::vector<std::size_t> receivers;   // padded indices
  StabilityReport stability;
  // An upper estimate of |u| over any run of the problem (amplitudeBoundOf), from the source and the
  // initial field: what a stage that stores the field in fewer bits scales it by (gpu-half).
  double amplitudeBound = 0.0;
  // The largest v²dt² of the grid a slab's problem was cut from (0: this grid's own, from vel), so that
  // every slab of a stage storing vel in fewer bits scales it alike.
  float velPeak = 0.0f;
};

// How a Problem is run, apart from its physics: the stage (StageRegistry id), the OpenCL device
// selector (DeviceRegistry.h; ignored by CPU stages) and the stage's parameter overrides.
struct ExecutionConfig {
  std::string stage, device;
  StageParamMap params;
};

inline ExecutionConfig executionConfig(const Scenario& s) { return {s.stage, s.device, s.stageParams}; }

// Validates the scenario (sizes, dt against the stability limit, positions inside the grid, memory)
// and builds the arrays. Throws ScenarioError with a message that names the bad value and the limit.
Problem buildProblem(const Scenario& s);
// The same with the velocity model given (interior, m/s, C order (n3, n2, n1)) instead of built from the
// scenario: a checkpoint restores the model its run used, whatever the model file holds now.
Problem buildProblem(const Scenario& s, std::vector<float> model);

// dt limit, Courant number and points per wavelength for a scenario (no arrays built).
StabilityReport analyseStability(const Scenario& s, double vMin, double vMax);

// The problem's amplitude bound: four times the initial field's largest |u| (waves from it may focus),
// plus |A|/dx for a point source of amplitude A. Near the source the field is quasi-static,
// u ≈ s(t)·G/dx with G ≈ 0.2 for this stencil's discrete Green's function (docs/NUMERICS.md, "Half-precision
// storage": 0.2 measured at the source cell, 0.02 and less a few cells away); 1/dx leaves a factor of five.
// At least the smallest normal float.
double amplitudeBoundOf(const Problem& p, double sourceAmplitude);

// The largest v²dt² of the grid p belongs to: p.velPeak where a slab's problem carries its whole grid's,
// else the largest of p.vel (0 when it is empty).
float velPeakOf(const Problem& p);

// Cells of the absorbing or sponge layer along each axis (x, y, z); 0 for a reflecting boundary.
std::array<int, 3> boundaryLayerCells(const Problem& p);

// Bytes a solver for this grid needs (three padded float arrays).
std::size_t solverBytes(const Grid& g);

// The absorbing layer for a grid: `width` cells (clamped to a quarter of each axis) with
// g(d) = exp(-σ(d)·dt), σ(d) = σ_max·(d/W)², σ_max = 0.6·3·vMax·ln(1/reflection)/(2·W·dx) (the PML
// formula scaled down by 0.6, measured best for a sponge; see Problem.cpp), d = cells into
// the layer (1 at its inner edge, W at the outermost interior cell); 1 elsewhere, halo = edge value.
DampingProfile buildDampingProfile(const Grid& g, int width, double dx, double dt, double vMax,
                                   double reflection);

}  // namespace iso
