// How the slices reach the view: through persistently mapped GL buffers (llvmpipe has OpenGL 4.5), or
// through the triple buffer's host copies when forced or when the GL cannot; the counters name the path.
#include <gtest/gtest.h>

#include "app/studio/MainWindow.h"
#include "app/studio/SimulationPane.h"
#include "app/studio/StudioCli.h"
#include "core/ScenarioResize.h"
#include "render/SliceView.h"
#include "tests/gui/test_studio_support.h"
#include "tests/support/StudioProcess.h"

namespace iso {
namespace {

constexpr const char* kMapped = "persistently mapped GL buffers (OpenGL 4.";
constexpr const char* kHost = "host copy (triple buffer): 2 host copies per frame";

Scenario smallScenario(int n1, int n2, int n3) {
  Scenario s = resizedScenario(presetScenario("default"), n1, n2, n3);
  s.stage = "cpu-serial";  // the same field whatever the timing
  return s;
}

class StudioSlicePath : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  }

  // A shown window paused at `step`, its view showing that step through the path it is on.
  std::unique_ptr<MainWindow> runTo(const Scenario& scenario, long step, bool host) {
    auto window = std::make_unique<MainWindow>(scenario);
    window->resize(1000, 700);
    window->show();
    SimulationPane* pane = window->pane();
    if (host) pane->setSlicePath(SimulationPane::SlicePath::Host, "--slice-path host");
    // The path is set up before the run starts, so that every frame takes it.
    const std::size_t floats = SliceSet::planeFloats(scenario.n1, scenario.n2, scenario.n3);
    EXPECT_TRUE(test::waitUntil([&] {
      pane->pollStatus();
      return pane->lastStatus().hasSolver && pane->mappedSlotFloats() == (host ? 0 : floats);
    })) << "slot floats " << pane->mappedSlotFloats();
    pane->controller().setPauseAtStep(step);
    window->setPlaying(true);
    EXPECT_TRUE(test::waitUntil([&] {
      const auto& shown = pane->view()->slices();
      return shown && shown->step == step;
    })) << "step " << pane->lastStatus().step;
    pane->pollStatus();
    return window;
  }

  static QImage picture(SliceView& view) {
    ImageOptions options;
    options.size = QSize(640, 480);
    options.hud = false;  // the counters differ: they name the path
    // The colour bar's caption gives the range as a fraction of the peak seen over the frames shown,
    // and which frames a run shows depends on its timing (under AddressSanitizer the two runs differ).
    options.colourBar = false;
    QString error;
    QImage image = view.renderImage(options, error);
    EXPECT_FALSE(image.isNull()) << error.toStdString();
    return image;
  }
};

TEST_F(StudioSlicePath, LlvmpipeGetsTheMappedBuffersAndTheHudSaysSo) {
  const auto window = runTo(smallScenario(30, 24, 18), 25, false);
  SimulationPane* pane = window->pane();
  ASSERT_NE(pane->lastStatus().transferPath.find(kMapped), std::string::npos) << pane->lastStatus().transferPath;
  EXPECT_NE(pane->lastStatus().transferPath.find(": 1 host copy per frame"), std::string::npos);
  const QString hud = counterLines(pane->lastStatus(), 30.0).join("\n");
  EXPECT_TRUE(hud.contains("slices: persistently mapped GL buffers (OpenGL 4.")) << hud.toStdString();
  EXPECT_TRUE(pane->view()->mappedProblem().isEmpty()) << pane->view()->mappedProblem().toStdString();
}

TEST_F(StudioSlicePath, TheMappedPathDrawsWhatTheHostPathDraws) {
  const Scenario scenario = smallScenario(30, 24, 18);
  QImage images[2];
  float probes[2] = {0, 0};
  for (bool host : {false, true}) {
    const auto window = runTo(scenario, 40, host);
    SliceView& view = *window->pane()->view();
    view.setAutoGain(false);  // the automatic range depends on the frames seen before
    view.setClip(1.0f);
    images[host] = picture(view);
    probes[host] = view.slices()->valueAt(15, 12, 9);
    const std::string& path = window->pane()->lastStatus().transferPath;
    EXPECT_NE(path.find(host ? kHost : kMapped), std::string::npos) << path;
  }
  EXPECT_EQ(images[0], images[1]);
  EXPECT_EQ(probes[0], probes[1]) << "the value under the cursor, read in place from the mapped buffer";
  EXPECT_NE(probes[0], 0.0f);
}

TEST_F(StudioSlicePath, AGridOfAnotherSizeRemakesTheBuffers) {
  const auto window = runTo(smallScenario(30, 24, 18), 10, false);
  SimulationPane* pane = window->pane();
  const Scenario larger = smallScenario(40, 36, 20);
  pane->controller().setScenario(larger);
  pane->controller().setPauseAtStep(12);
  pane->controller().setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] {
    const auto& shown = pane->view()->slices();
    return shown && shown->n1 == 40 && shown->step == 12 && pane->mappedSlotFloats() == SliceSet::planeFloats(40, 36, 20);
  })) << pane->mappedSlotFloats();
  pane->controller().setScenario(smallScenario(20, 16, 12));  // smaller: made again at its own size
  ASSERT_TRUE(test::waitUntil([&] {
    const auto& shown = pane->view()->slices();
    return shown && shown->n1 == 20 && pane->mappedSlotFloats() == SliceSet::planeFloats(20, 16, 12);
  })) << pane->mappedSlotFloats();
  EXPECT_TRUE(pane->view()->mappedProblem().isEmpty());
}

TEST_F(StudioSlicePath, TheHostPathWhenAskedForAndTheHudSaysWhy) {
  const auto window = runTo(smallScenario(30, 24, 18), 20, true);
  SimulationPane* pane = window->pane();
  EXPECT_EQ(pane->lastStatus().transferPath, std::string(kHost) + " (--slice-path host)");
  const QString hud = counterLines(pane->lastStatus(), 30.0).join("\n");
  EXPECT_TRUE(hud.contains("slices: host copy (triple buffer): 2 host copies per frame (--slice-path host)"))
      << hud.toStdString();
  EXPECT_EQ(pane->mappedSlotFloats(), 0u);
}

TEST(StudioSlicePathOptions, SlicePathIsParsed) {
  QString error;
  const auto host = parseStudioOptions({"iso3dfd-studio", "--slice-path", "host"}, error);
  ASSERT_TRUE(host) << error.toStdString();
  EXPECT_TRUE(host->hostSlicePath);
  const auto mapped = parseStudioOptions({"iso3dfd-studio", "--slice-path", "mapped"}, error);
  ASSERT_TRUE(mapped) << error.toStdString();
  EXPECT_FALSE(mapped->hostSlicePath);
  EXPECT_FALSE(parseStudioOptions({"iso3dfd-studio", "--slice-path", "pbo"}, error));
  EXPECT_TRUE(error.contains("--slice-path pbo: expected mapped or host")) << error.toStdString();
}

// The studio binary's benchmark prints the path it measured: mapped, forced to the host path, and on a GL
// without buffer storage (Mesa told to offer OpenGL 4.3 without ARB_buffer_storage).
TEST(StudioSlicePathBinary, TheBenchmarkNamesThePathAndTheFallbackItsReason) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const auto run = [](const QStringList& extra, const QStringList& environment = {}) {
    return test::runStudio(QStringList{"--size", "24,20,16", "--stage", "cpu-serial", "--benchmark", "0.5"} + extra, environment, 120000)
        .output;
  };
  const QString help = run({"--help"});
  EXPECT_TRUE(help.contains("--slice-path <mapped|host>")) << help.toStdString();
  const QString mapped = run({});
  EXPECT_TRUE(mapped.contains("slices         : persistently mapped GL buffers (OpenGL 4.")) << mapped.toStdString();
  const QString forced = run({"--slice-path", "host"});
  EXPECT_TRUE(forced.contains("slices         : host copy (triple buffer): 2 host copies per frame (--slice-path host)"))
      << forced.toStdString();
  const QString old = run({}, {"MESA_GL_VERSION_OVERRIDE=4.3", "MESA_EXTENSION_OVERRIDE=-GL_ARB_buffer_storage"});
  if (old.contains("persistently mapped")) GTEST_SKIP() << "the GL driver ignores Mesa's overrides";
  EXPECT_TRUE(old.contains("host copy (triple buffer): 2 host copies per frame (no mapped GL buffers: OpenGL 4.3 "
                           "without ARB_buffer_storage)"))
      << old.toStdString();
  EXPECT_TRUE(old.contains("frames/s delivered")) << "the fallback draws";
}

}  // namespace
}  // namespace iso
