// The OpenCL stages' volume renderer (volume.cl on the solver's device, PoCL in CI) against the reference
// ray marcher and against the host renderer of the CPU stages, which compiles the same source.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "OpenClTestSupport.h"
#include "compute/stages/OpenClStage.h"
#include "core/CpuSolvers.h"
#include "tests/support/VolumeScenes.h"

namespace iso {
namespace {

std::vector<std::uint32_t> renderOnDevice(WaveSolver& solver, const VolumeView& view, double& seconds) {
  std::vector<std::uint32_t> image(view.pixels(), 0xDEADBEEFu);
  seconds = -1.0;
  solver.startVolume(view, image, &seconds);
  solver.finishSlices();
  return image;
}

// Tolerance: every channel within 2/255 of the reference but on at most 1 % of the pixels (rays that
// graze an edge by a rounding), those within 12/255; the device may contract a·b + c into one rounding.
TEST(OpenClVolumeRenderer, AgreesWithTheReferenceAndTheHost) {
  ISO_REQUIRE_DEVICE();
  Scenario s = test::volumeScene();
  s.stage = "gpu-basic";
  const int steps = 120;
  OpenClSolver onDevice(buildProblem(s), openClStage(s.stage), {}, *device);
  onDevice.advance(steps);
  auto host = createCpuSolver(buildProblem(s), "cpu-serial");
  host->advance(steps);
  const test::ReferenceField field = test::referenceField(onDevice, s);
  const float clip = test::robustRange(field.u);
  const Grid& g = onDevice.grid();
  const OrbitCamera camera = test::sceneCamera(g, -60.0f, 30.0f);

  VolumeView view = test::sceneView(g, camera, 35, 21, clip);
  for (int form = 0; form < 3; ++form) {
    if (form == 1) view.velocityContext = true, view.marginCells = {3, 3, 3}, view.samplesPerCell = 2.0f;
    if (form == 2) view.planeAxis = 0, view.planeCell = 12, view.jitter = true;
    double seconds = 0.0;
    const std::vector<std::uint32_t> image = renderOnDevice(onDevice, view, seconds);
    EXPECT_GT(seconds, 0.0) << "form " << form << ": the kernels' time";
    if (!view.jitter) {  // the reference starts every ray half a step in
      const test::ImageDifference d = test::compareImages(image, test::referenceVolumeImage(view, camera, field));
      EXPECT_GT(d.opaqueShare, 0.05) << "form " << form << ": the scene shows nothing";
      EXPECT_LE(d.shareAbove2, 0.01) << "form " << form;
      EXPECT_LE(d.largest, 12) << "form " << form;
    }
    std::vector<std::uint32_t> onHost(view.pixels());
    host->startVolume(view, onHost, nullptr);
    int largest = 0;
    for (std::size_t n = 0; n < image.size(); ++n)
      for (int c = 0; c < 4; ++c) largest = std::max(largest, std::abs(test::channel(image[n], c) - test::channel(onHost[n], c)));
    EXPECT_LE(largest, 12) << "form " << form << ": the device and the host compile one source";
  }
}

// The image is read behind the next steps (the transfer queue): after finishSlices it is whole, and the
// field it shows is the one at startVolume, not a later one.
TEST(OpenClVolumeRenderer, ImageIsOfTheStepItWasStartedAt) {
  ISO_REQUIRE_DEVICE();
  Scenario s = test::volumeScene();
  OpenClSolver solver(buildProblem(s), openClStage("gpu-basic"), {}, *device);
  solver.advance(100);
  const test::ReferenceField field = test::referenceField(solver, s);
  const OrbitCamera camera = test::sceneCamera(solver.grid());
  const VolumeView view = test::sceneView(solver.grid(), camera, 24, 16, test::robustRange(field.u));
  std::vector<std::uint32_t> image(view.pixels(), 0xDEADBEEFu);
  EXPECT_FALSE(solver.startVolume(view, image, nullptr));
  solver.advance(20);  // while the image may still be on its way
  solver.finishSlices();
  const test::ImageDifference d = test::compareImages(image, test::referenceVolumeImage(view, camera, field));
  EXPECT_LE(d.shareAbove2, 0.01);
  EXPECT_LE(d.largest, 12);
}

}  // namespace
}  // namespace iso
