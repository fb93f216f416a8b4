#include "core/Problem.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "core/Format.h"
#include "core/Allocation.h"
#include "core/StageRegistry.h"
#include "core/SystemMemory.h"
#include "core/VelocityModel.h"

namespace iso {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kMinDampingWidth = 20;  // cells; thinner sponges reflect from their own gradient
// The PML formula's σ_max assumes no reflection from the damping itself; a sponge does reflect where σ is
// large against ω, so it is scaled down. Echo against the reflecting boundary's (tests/core/test_absorbing.cpp,
// normal incidence, quadratic grading): a one-wavelength layer 10.6 / 8.6 / 14.3 / 20.8 % for factors
// 0.3 / 0.6 / 1.0 / 1.5; a two-wavelength layer 5.7 / 2.4 / 2.7 % for 0.4 / 0.6 / 0.8. Linear and cubic
// gradings were no better (docs/NUMERICS.md).
constexpr double kSpongeStrength = 0.6;
// The automatic width in dominant wavelengths (λ = v_max / f0). A sponge reflects the long waves below
// f0 off its own gradient, so its echo falls slowly with width: 8.6 % at one wavelength, 3.9 % at 1.5,
// 2.4 % at 2, 1.8 % at 2.5 (normal incidence; oblique and corner alike; tests/core/test_absorbing.cpp,
// docs/NUMERICS.md). 2.5 keeps every geometry under 2 %.
constexpr double kAutoWidthWavelengths = 2.5;
// The perfectly matched layer absorbs every frequency alike (its attenuation depends on the damping
// integrated over the layer, not on the wavelength), so its width is counted in cells: from 6 cells on it
// reflects about 0.1 % at normal and oblique incidence and in corners, which is the target reflection
// its strength is set for (tests/core/test_absorbing.cpp, docs/NUMERICS.md); 10 leaves a margin.
constexpr int kAutoPmlWidth = 10;

// The perfectly matched layer's width: the scenario's, or automatic.
int pmlWidth(const Scenario& s) { return s.boundary.width > 0 ? s.boundary.width : kAutoPmlWidth; }

// The absorbing layer's memory variables on a CPU stage.
std::size_t layerMemoryBytes(const Scenario& s, const Grid& g) {
  return s.boundary.kind == BoundaryKind::Absorbing ? pmlMemoryFloats(g, pmlWidth(s)) * sizeof(float) : 0;
}

// The receivers' samples over the scenario's steps, as the solver records them and once more as they are
// handed out to be written.
std::size_t traceBytes(const Scenario& s) {
  return 2 * s.receivers.size() * std::size_t(std::max(s.steps, 0)) * sizeof(float);
}

// Bytes the run holds on the host at its peak: while the problem is built (the interior model, a random
// model's noise, the padded velocity term, the initial field of the cubes), then in the solver (CPU
// stages: vel, prev and next and the absorbing layer's memory; OpenCL stages keep on the host only what
// the Problem carries).
std::size_t hostBytesNeeded(const Scenario& s, const Grid& g, const StageInfo& stage) {
  const std::size_t padded = g.paddedSize() * sizeof(float), interior = g.interiorSize() * sizeof(float);
  const std::size_t initial = s.source.kind == SourceKind::OneApiCubes ? padded : 0;
  const std::size_t model =
      s.model.kind == ModelKind::Random ? randomModelWorkBytes(g, s.dx, s.model.randomCorrelationLength) : interior;
  const std::size_t building = std::max(model, interior + padded + initial);
  return std::max(building, stage.opencl ? padded + initial : solverBytes(g) + layerMemoryBytes(s, g)) + traceBytes(s);
}

// Refuses a run whose arrays would not fit in the memory available now, before anything is allocated.
void checkHostMemory(const Scenario& s, const Grid& g, const StageInfo& stage) {
  const std::size_t available = availableMemoryBytes();
  if (available == 0) return;  // unknown: let the allocation decide
  const std::size_t needed = hostBytesNeeded(s, g, stage);
  if (needed > available)
    throw ScenarioError("grid " + std::to_string(s.n1) + " x " + std::to_string(s.n2) + " x " +
                        std::to_string(s.n3) + " needs " + byteSize(double(needed)) + " of host memory for stage '" +
                        stage.id + "'" + (s.model.kind == ModelKind::Random ? " and its random model" : "") +
                        (traceBytes(s) > needed / 2 ? " and the traces of " + std::to_string(s.receivers.size()) +
                                                          " receivers over " + std::to_string(s.steps) + " steps (" +
                                                          byteSize(double(traceBytes(s))) + ")" : "") +
                        ", but only " + byteSize(double(available)) +
                        " is available (free memory, within the container's and the address-space limits); use " +
                        (traceBytes(s) > needed / 2 ? "fewer receivers or steps" : "a smaller grid"));
}

// u^0 of the oneAPI sample: nested cubes, values 1, 10, ..., 10000 from the outermost inwards.
std::vector<float> oneApiCubes(const Grid& g) {
  std::vector<float> prev = allocateArray(g.paddedSize(), "the initial field (nested cubes)");
  const int nx = g.nx(), ny = g.ny(), nz = g.nz();
  float value = 1.0f;
  for (int s = 5; s >= 0; --s) {
    // Clipped to the array, which only matters for grids smaller than the sample ever used.
    for (int z = std::max(nz / 2 - s, 0); z < std::min(nz / 2 + s, nz); ++z)
      for (int y = std::max(ny / 4 - s, 0); y < std::min(ny / 4 + s, ny); ++y)
        for (int x = std::max(nx / 4 - s, 0); x < std::min(nx / 4 + s, nx); ++x) prev[g.index(x, y, z)] = value;
    value *= 10.0f;
  }
  return prev;
}

// vel = v²·dt² on the padded grid; each halo cell copies the nearest interior cell.
std::vector<float> paddedVelocityTerm(const Grid& g, const std::vector<float>& model, double dt) {
  std::vector<float> vel = allocateArray(g.paddedSize(), "the velocity term on the padded grid");
  const int r = kHalfLength;
  std::size_t n = 0;
  for (int z = 0; z < g.nz(); ++z) {
    const int k = std::clamp(z - r, 0, g.n3 - 1);
    for (int y = 0; y < g.ny(); ++y) {
      const int j = std::clamp(y - r, 0, g.n2 - 1);
      const std::size_t row = (std::size_t(k) * g.n2 + j) * std::size_t(g.n1);
      for (int x = 0; x < g.nx(); ++x) {
        const double vdt = double(model[row + std::size_t(std::clamp(x - r, 0, g.n1 - 1))]) * dt;
        vel[n++] = float(vdt * vdt);
      }
    }
  }
  return vel;
}

// One axis of the damping profile, padded size n + 2R.
std::vector<float> dampingAxis(int n, int width, double dx, double dt, double vMax, double reflection) {
  const int w = layerCellsOnAxis(width, n);
  std::vector<float> axis(std::size_t(n + 2 * kHalfLength), 1.0f);
  if (w < 1) return axis;  // an axis too short for a layer is left undamped
  const double sigmaMax = kSpongeStrength * 3.0 * vMax * std::log(1.0 / reflection) / (2.0 * w * dx);
  auto g = [&](int d) {
    const double ratio = double(d) / w;
    return float(std::exp(-sigmaMax * ratio * ratio * dt));
  };
  for (int i = 0; i < n; ++i) {
    const int d = std::max(w - i, i - (n - 1 - w));  // cells into the nearer layer; <= 0 outside
    if (d > 0) axis[std::size_t(i + kHalfLength)] = g(d);
  }
  for (int h = 0; h < kHalfLength; ++h) {  // halo cells copy the edge value
    axis[std::size_t(h)] = axis[kHalfLength];
    axis[std::size_t(n + kHalfLength + h)] = axis[std::size_t(n + kHalfLength - 1)];
  }
  return axis;
}

}  // namespace

double RickerWavelet::operator()(double t) const {
  const double a = kPi * kPi * frequency * frequency * (t - delay) * (t - delay);
  // Far from the peak the wavelet is below 1e-290 of its amplitude; there, and for a delay so large that a
  // is infinite (where (1 - 2a)·exp(-a) would be -inf·0 = NaN), it is zero.
  if (!(a < 700.0)) return 0.0;
  return amplitude * (1.0 - 2.0 * a) * std::exp(-a);
}

std::string StabilityReport::summary() const {
  std::string line = "dt " + roundedNumber(dt * 1e3) + " ms (stability limit " + roundedNumber(dtLimit * 1e3) + " ms; Courant " +
                     roundedNumber(courant) + " of at most " + roundedNumber(courantLimit) + "), v " + roundedNumber(vMin) + ".." + roundedNumber(vMax) +
                     " m/s";
  if (pointsPerWavelength > 0.0) {
    line += ", " + roundedNumber(pointsPerWavelength) + " points per wavelength at f_max";
    if (pointsPerWavelength < 5.0) line += " (below 5: expect visible numerical dispersion)";
  }
  return line;
}

StabilityReport analyseStability(const Scenario& s, double vMin, double vMax) {
  CoefficientSet set;
  try {
    set = coefficientSetFromString(s.coefficients);
  } catch (const std::invalid_argument& e) {
    throw ScenarioError(std::string("coefficients: ") + e.what());
  }
  StabilityReport r;
  r.vMin = vMin;
  r.vMax = vMax;
  r.courantLimit = 2.0 / std::sqrt(3.0 * absWeightSum(set));
  r.dtLimit = r.courantLimit * s.dx / vMax;
  r.dt = s.dt > 0.0 ? s.dt : s.dtAutoFraction * r.dtLimit;
  r.courant = vMax * r.dt / s.dx;
  if (s.source.kind == SourceKind::Ricker) r.pointsPerWavelength = vMin / (2.5 * s.source.frequency * s.dx);
  return r;
}

std::array<int, 3> boundaryLayerCells(const Problem& p) {
  if (p.pml.enabled()) return {p.pml.axes[0].width, p.pml.axes[1].width, p.pml.axes[2].width};
  if (p.damping.enabled()) {
    const Grid& g = p.grid;
    const int w = p.damping.width;
    return {layerCellsOnAxis(w, g.n1), layerCellsOnAxis(w, g.n2), layerCellsOnAxis(w, g.n3)};
  }
  return {0, 0, 0};
}

std::size_t solverBytes(const Grid& g) { return 3 * g.paddedSize() * sizeof(float); }

DampingProfile buildDampingProfile(const Grid& g, int width, double dx, double dt, double vMax,
                                   double reflection) {
  DampingProfile p;
  p.width = layerCellsOnAxis(width, std::max({g.n1, g.n2, g.n3}));  // the widest layer actually used
  p.gx = dampingAxis(g.n1, width, dx, dt, vMax, reflection);
  p.gy = dampingAxis(g.n2, width, dx, dt, vMax, reflection);
  p.gz = dampingAxis(g.n3, width, dx, dt, vMax, reflection);
  return p;
}

namespace {

// The rest of buildProblem once the scenario is valid and the model built.
Problem problemFromModel(const Scenario& s, const std::vector<float>& model) {
  const Grid grid(s.n1, s.n2, s.n3);
  const auto [minIt, maxIt] = std::minmax_element(model.begin(), model.end());
  if (!(*minIt > 0.0f) || !std::isfinite(*maxIt))
    throw ScenarioError("the velocity model has a non-positive or non-finite velocity (" + roundedNumber(*minIt) + " .. " +
                        roundedNumber(*maxIt) + " m/s)");

  Problem p;
  p.stability = analyseStability(s, *minIt, *maxIt);
  const StabilityReport& st = p.stability;
  if (s.dt > st.dtLimit) {
    const auto [dt, limit] = distinctNumbers(s.dt, st.dtLimit);
    throw ScenarioError("dt = " + dt + " s exceeds the stability limit " + limit + " s for v_max = " + roundedNumber(st.vMax) +
                        " m/s, dx = " + roundedNumber(s.dx) + " m (Courant " + roundedNumber(st.courantLimit) + "); use dt <= " +
                        limit + " or dt = 0 for automatic");
  }
  p.grid = grid;
  p.dx = s.dx;
  p.dt = st.dt;
  p.coefficientSet = coefficientSetFromString(s.coefficients);
  p.coeffs = scaledCoefficients(p.coefficientSet, s.dx);
  p.vel = paddedVelocityTerm(grid, model, p.dt);

  const int si = s.source.i >= 0 ? s.source.i : s.n1 / 2;
  const int sj = s.source.j >= 0 ? s.source.j : s.n2 / 2;
  const int sk = s.source.k >= 0 ? s.source.k : s.n3 / 2;
  switch (s.source.kind) {
    case SourceKind::None: break;
    case SourceKind::OneApiCubes: p.initialPrev = oneApiCubes(grid); break;
    case SourceKind::Ricker: {
      PointInjection inj;
      inj.index = grid.interiorIndex(si, sj, sk);
      const double v = model[(std::size_t(sk) * s.n2 + sj) * std::size_t(s.n1) + si];
      inj.scale = v * v * p.dt * p.dt / (s.dx * s.dx * s.dx);
      inj.dt = p.dt;
      inj.wavelet = RickerWavelet{s.source.frequency, s.source.amplitude,
                                  s.source.delay >= 0.0 ? s.source.delay : 1.5 / s.source.frequency};
      p.source = inj;
      break;
    }
  }

  if (s.boundary.kind == BoundaryKind::Absorbing) {
    p.pml = buildPmlProfile(grid, pmlWidth(s), s.dx, p.dt, st.vMax, s.boundary.reflection,
                            s.source.kind == SourceKind::Ricker ? s.source.frequency : 0.0);
  } else if (s.boundary.kind == BoundaryKind::Sponge) {
    int width = s.boundary.width;
    if (width <= 0) {
      // kAutoWidthWavelengths dominant wavelengths at v_max (20 cells without a wavelet to measure it by).
      const double wavelengthCells =
          s.source.kind == SourceKind::Ricker ? st.vMax / (s.source.frequency * s.dx) : 0.0;
      width = std::max(kMinDampingWidth, int(std::lround(std::min(kAutoWidthWavelengths * wavelengthCells, 1.0e6))));
    }
    p.damping = buildDampingProfile(grid, width, s.dx, p.dt, st.vMax, s.boundary.reflection);
  }

  for (const auto& r : s.receivers) p.receivers.push_back(grid.interiorIndex(r.i, r.j, r.k));
  p.amplitudeBound = amplitudeBoundOf(p, s.source.kind == SourceKind::Ricker ? s.source.amplitude : 0.0);
  return p;
}

}  // namespace

double amplitudeBoundOf(const Problem& p, double sourceAmplitude) {
  double initial = 0.0;
  for (float v : p.initialPrev) initial = std::max(initial, double(std::fabs(v)));
  const double source = p.source ? std::fabs(sourceAmplitude) / p.dx : 0.0;
  return std::max(4.0 * initial + source, double(std::numeric_limits<float>::min()));
}

float velPeakOf(const Problem& p) {
  if (p.velPeak > 0.0f || p.vel.empty()) return p.velPeak;
  return *std::max_element(p.vel.begin(), p.vel.end());
}

Problem buildProblem(const Scenario& s) {
  validateScenario(s);
  checkHostMemory(s, Grid(s.n1, s.n2, s.n3), StageRegistry::get(s.stage));  // the stage is valid now
  return problemFromModel(s, buildVelocityModel(s));
}

Problem buildProblem(const Scenario& s, std::vector<float> model) {
  validateScenario(s);
  const Grid grid(s.n1, s.n2, s.n3);
  if (model.size() != grid.interiorSize())
    throw ScenarioError("the velocity model has " + std::to_string(model.size()) + " values; the grid " +
                        std::to_string(s.n1) + " x " + std::to_string(s.n2) + " x " + std::to_string(s.n3) + " needs " +
                        std::to_string(grid.interiorSize()));
  checkHostMemory(s, grid, StageRegistry::get(s.stage));
  return problemFromModel(s, model);
}

}  // namespace iso
