// The CPU stages' volume renderer (volume_march.cl compiled for the host) against the reference ray
// marcher, and what its pictures show: a Ricker pulse in a constant medium as a shell of radius v·t.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "core/CpuSolvers.h"
#include "tests/support/VolumeScenes.h"

namespace iso {
namespace {

using test::ImageDifference;

struct RenderedScene {
  Scenario scenario;
  std::unique_ptr<WaveSolver> solver;
  test::ReferenceField field;
  float clip = 1.0f;
};

RenderedScene runScene(const std::string& stage, int steps) {
  RenderedScene r;
  r.scenario = test::volumeScene();
  r.solver = createCpuSolver(buildProblem(r.scenario), stage);
  r.solver->advance(steps);
  r.field = test::referenceField(*r.solver, r.scenario);
  r.clip = test::robustRange(r.field.u);
  return r;
}

std::vector<std::uint32_t> render(WaveSolver& solver, const VolumeView& view, double* seconds = nullptr) {
  std::vector<std::uint32_t> image(view.pixels(), 0xDEADBEEFu);
  EXPECT_TRUE(solver.startVolume(view, image, seconds));  // a CPU stage writes it before returning
  solver.finishSlices();
  return image;
}

// Every channel within 2/255 of the reference but on at most 1 % of the pixels (rays that graze an edge
// of the box, a brick or the plane by a rounding), and those within 12/255.
void expectMatchesReference(const std::vector<std::uint32_t>& image, const VolumeView& view, const OrbitCamera& camera,
                            const test::ReferenceField& field, const std::string& what) {
  const ImageDifference d = test::compareImages(image, test::referenceVolumeImage(view, camera, field));
  EXPECT_GT(d.opaqueShare, 0.05) << what << ": the scene shows nothing, so the comparison proves nothing";
  EXPECT_LE(d.shareAbove2, 0.01) << what;
  EXPECT_LE(d.largest, 12) << what;
}

TEST(VolumeRenderer, HostAgreesWithTheReference) {
  for (const std::string stage : {"cpu-serial", "cpu-parallel"}) {
    RenderedScene s = runScene(stage, 120);
    const Grid& g = s.solver->grid();
    const OrbitCamera camera = test::sceneCamera(g, 40.0f, -25.0f);
    VolumeView view = test::sceneView(g, camera, 37, 23, s.clip);
    expectMatchesReference(render(*s.solver, view), view, camera, s.field, stage + ", the wave alone");

    view.marginCells = {3, 3, 3};
    view.velocityContext = true;
    view.samplesPerCell = 2.0f;
    expectMatchesReference(render(*s.solver, view), view, camera, s.field, stage + ", context, margins, 2 samples per cell");

    view.planeAxis = 2;
    view.planeCell = 8;
    view.samplesPerCell = 0.5f;
    expectMatchesReference(render(*s.solver, view), view, camera, s.field, stage + ", a z plane, 0.5 samples per cell");
  }
}

// A Ricker source at the centre of a constant medium of n³ cells (2000 m/s, 10 m, 1 ms, 25 Hz, t0 60 ms),
// reflecting boundaries.
Scenario shellScenario(int n) {
  Scenario s = presetScenario("default");
  s.n1 = s.n2 = s.n3 = n;
  s.dx = 10.0;
  s.dt = 0.001;
  s.model.kind = ModelKind::Constant;
  s.model.velocity = 2000.0;
  s.model.salt.enabled = false;
  s.boundary.kind = BoundaryKind::Reflecting;
  s.source = {SourceKind::Ricker, -1, -1, -1, 25.0, 1.0e6, 0.06};
  s.receivers.clear();
  return s;
}

TEST(VolumeRenderer, EarlyTerminationChangesLittle) {
  auto solver = createCpuSolver(buildProblem(shellScenario(40)), "cpu-serial");
  solver->advance(120);
  std::vector<float> u;
  solver->readField(u);
  const OrbitCamera camera = test::sceneCamera(solver->grid());
  // A range far below the wave's: every ray through it saturates.
  VolumeView view = test::sceneView(solver->grid(), camera, 31, 19, 0.01f * test::robustRange(u));
  const std::vector<std::uint32_t> full = render(*solver, view);
  view.earlyTermination = true;
  const std::vector<std::uint32_t> stopped = render(*solver, view);
  int largest = 0, opaque = 0;
  for (std::size_t n = 0; n < full.size(); ++n) {
    for (int c = 0; c < 4; ++c) largest = std::max(largest, std::abs(test::channel(full[n], c) - test::channel(stopped[n], c)));
    opaque += test::channel(full[n], 3) >= 253;
  }
  EXPECT_GT(opaque, 20) << "too few rays reach the stopping opacity to test it";
  EXPECT_LE(largest, 3);  // what is left after 99 % opacity
}

TEST(VolumeRenderer, NonFiniteValuesShowInMagenta) {
  RenderedScene s = runScene("cpu-serial", 10);
  SolverState state = s.solver->saveState();
  const Grid& g = s.solver->grid();
  for (int k = 6; k < 12; ++k)
    for (int j = 8; j < 14; ++j)
      for (int i = 11; i < 17; ++i) state.current[g.interiorIndex(i, j, k)] = std::nanf("");
  s.solver->restoreState(state);
  const OrbitCamera camera = test::sceneCamera(g);
  const VolumeView view = test::sceneView(g, camera, 41, 29, s.clip);
  int magenta = 0;
  for (std::uint32_t pixel : render(*s.solver, view)) magenta += pixel == 0xFFFF00FFu;
  EXPECT_GT(magenta, 10);  // the rays through the block, which no brick may skip
}

TEST(VolumeRenderer, RefusesViewsItCannotRender) {
  RenderedScene s = runScene("cpu-serial", 1);
  const Grid& g = s.solver->grid();
  const VolumeView good = test::sceneView(g, test::sceneCamera(g), 16, 8, 1.0f);
  std::vector<std::uint32_t> image(good.pixels());
  const auto refused = [&](VolumeView view, std::size_t pixels) {
    image.resize(pixels);
    EXPECT_THROW(s.solver->startVolume(view, image, nullptr), std::invalid_argument);
  };
  refused(good, good.pixels() - 1);
  VolumeView v = good;
  v.width = 0;
  refused(v, 1);
  v = good, v.clip = 0.0f;
  refused(v, good.pixels());
  v = good, v.samplesPerCell = 0.1f;
  refused(v, good.pixels());
  v = good, v.planeAxis = 1, v.planeCell = g.n2;
  refused(v, good.pixels());
  v = good, v.marginCells = {0, 12, 0};
  refused(v, good.pixels());
  image.resize(good.pixels());
  EXPECT_NO_THROW(s.solver->startVolume(good, image, nullptr));
}

// The radius in pixels at which the image's opacity peaks around `centre`: averaged over 96 directions.
double ringRadius(const std::vector<std::uint32_t>& image, int width, int height, glm::vec2 centre) {
  std::vector<double> profile;
  for (double r = 0.0; r < 0.5 * std::min(width, height); r += 0.5) {
    double sum = 0.0;
    for (int a = 0; a < 96; ++a) {
      const double angle = 2.0 * std::numbers::pi * a / 96;
      const int x = int(std::lround(centre.x + r * std::cos(angle))), y = int(std::lround(centre.y + r * std::sin(angle)));
      if (x >= 0 && y >= 0 && x < width && y < height) sum += test::channel(image[std::size_t(y) * width + x], 3);
    }
    profile.push_back(sum);
  }
  return 0.5 * double(std::max_element(profile.begin(), profile.end()) - profile.begin());
}

// Pixels from the picture of a sphere's centre to its outline: the tangent cone from the eye.
double outlinePixels(const OrbitCamera& camera, glm::vec3 centre, float radius, int width, int height) {
  const glm::vec3 eye = camera.eye(), axis = glm::normalize(centre - eye);
  const glm::vec3 side = glm::normalize(glm::cross(axis, glm::vec3(0.0f, 1.0f, 0.0f)));
  const float distance = glm::length(centre - eye), angle = std::asin(radius / distance);
  const glm::vec3 tangent = eye + distance * std::cos(angle) * (std::cos(angle) * axis + std::sin(angle) * side);
  return glm::length(*camera.project(tangent, width, height) - *camera.project(centre, width, height));
}

// A Ricker pulse from the centre of a constant medium is a spherical shell whose main lobe lies at
// r = v·(t − t0): its picture is a ring, most opaque where rays graze the lobe, at the pixel radius of the
// sphere's outline (within 1.5 cells: the lobe is 3.6 cells thick), and it grows by v·Δt between two
// times (within 1 cell). The range is 3.5 times the lobe's peak, so that only the main lobe shows (the
// side lobes, about half as strong, stay in the dead zone).
TEST(VolumeRenderer, RickerPulseIsAShellOfRadiusVt) {
  const Scenario s = shellScenario(64);
  auto solver = createCpuSolver(buildProblem(s), "cpu-parallel");
  const Grid& g = solver->grid();
  const OrbitCamera camera = test::sceneCamera(g, 30.0f, 10.0f);
  const int width = 256, height = 256;
  const glm::vec3 source = gridToWorld({g.n1, g.n2, g.n3}, glm::vec3(32.5f));
  std::vector<double> measured;
  for (int steps : {150, 200}) {
    solver->advance(steps - int(solver->currentStep()));
    std::vector<float> u;
    solver->readField(u);
    const VolumeView view = test::sceneView(g, camera, width, height, 3.5f * test::largestMagnitude(u));
    const double cells = 2000.0 * (steps * s.dt - 0.06) / s.dx;
    const double expected = outlinePixels(camera, source, float(cells), width, height);
    const double pixelsPerCell = expected / cells;
    const double radius = ringRadius(render(*solver, view), width, height, *camera.project(source, width, height));
    EXPECT_NEAR(radius / pixelsPerCell, cells, 1.5) << "after " << steps << " steps (" << radius << " pixels)";
    measured.push_back(radius / pixelsPerCell);
  }
  EXPECT_NEAR(measured[1] - measured[0], 2000.0 * 50 * s.dt / s.dx, 1.0);
}

}  // namespace
}  // namespace iso
