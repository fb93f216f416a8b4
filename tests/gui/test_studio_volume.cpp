// The volume view in the studio: the pane has its solver render an image of the whole field with each
// frame, through the mapped GL buffers after the planes, at the image scale chosen, for the window or
// for the pictures prepared; the HUD says what it took; screenshots and recordings from the command
// line, of one view and of the compare view. Needs an X display with OpenGL (xvfb-run).
#include <gtest/gtest.h>

#include <QImage>

#include "app/studio/MainWindow.h"
#include "app/studio/PngSequenceWriter.h"
#include "app/studio/SimulationPane.h"
#include "app/studio/StudioCli.h"
#include "app/studio/ViewModes.h"
#include "core/ScenarioResize.h"
#include "render/SliceView.h"
#include "tests/ScratchDir.h"
#include "tests/gui/test_studio_export_support.h"
#include "tests/gui/test_studio_support.h"
#include "tests/support/StudioProcess.h"

namespace iso {
namespace {

namespace fs = std::filesystem;

QString q(const fs::path& path) { return QString::fromStdString(path.string()); }

class StudioVolume : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
    Scenario s = resizedScenario(presetScenario("default"), 40, 36, 32);
    s.stage = "cpu-parallel";
    window_ = std::make_unique<MainWindow>(s);
    window_->resize(1000, 700);
    window_->show();
    window_->setViewMode(viewModeIndex(SliceView::Mode::Volume));
    pane_ = window_->pane();
    pane_->controller().setPauseAtStep(kStep);
    window_->setPlaying(true);
  }

  // The frame shown once the run rests on kStep and a frame of it with an image has come.
  std::shared_ptr<const SliceSet> restingFrame(const std::function<bool(const SliceSet&)>& also = nullptr) {
    std::shared_ptr<const SliceSet> frame;
    EXPECT_TRUE(test::waitUntil([&] {
      pane_->pollStatus();
      frame = pane_->view()->slices();
      return frame && frame->step == kStep && frame->imageView && (!also || also(*frame));
    })) << "step " << pane_->lastStatus().step;
    return frame;
  }

  static constexpr long kStep = 60;
  std::unique_ptr<MainWindow> window_;
  SimulationPane* pane_ = nullptr;
};

TEST_F(StudioVolume, FramesCarryTheImageThroughTheMappedBuffersAndTheHudSaysWhatItTook) {
  VolumeSettings settings;
  settings.imageScale = 2;
  pane_->view()->setVolumeSettings(settings);
  const SliceRenderer::VolumeCamera window = pane_->view()->volumeCamera();
  const auto frame = restingFrame([&](const SliceSet& f) { return f.imageWidth == window.pixels.width() / 2; });
  ASSERT_NE(frame, nullptr);
  EXPECT_EQ(frame->imageHeight, window.pixels.height() / 2);
  EXPECT_GE(pane_->mappedSlotFloats(), frame->memoryFloats()) << "the slots grew to hold the image";
  EXPECT_TRUE(pane_->lastStatus().transferPath.find("mapped") != std::string::npos) << pane_->lastStatus().transferPath;
  EXPECT_EQ(frame->imageView->marginCells, pane_->lastStatus().absorbingCells) << "the absorbing layer left out";
  const auto shown = std::count_if(frame->image.begin(), frame->image.end(), [](std::uint32_t p) { return (p >> 24) > 40; });
  EXPECT_GT(shown, 50) << "the wave of step " << kStep << " shows";
  pane_->pollStatus();
  const QString hud = pane_->view()->hudLines().join('\n');
  EXPECT_TRUE(hud.contains(QStringLiteral("volume: %1x%2 (1/2)").arg(frame->imageWidth).arg(frame->imageHeight))) << hud.toStdString();
  EXPECT_TRUE(hud.contains("ms per image on host CPU")) << hud.toStdString();
}

TEST_F(StudioVolume, PicturesWaitForAnImageRenderedAtTheirSize) {
  ASSERT_NE(restingFrame(), nullptr);
  ImageOptions options;
  options.size = QSize(800, 450);
  options.hud = false;
  options.scale = 1.0;
  pane_->preparePictures(&options);
  const SliceRenderer::VolumeCamera picture = pane_->view()->volumeCamera(&options);
  ASSERT_TRUE(test::waitUntil([&] { return pane_->imageStep() == kStep; })) << "the run rests: it renders for the picture at once";
  const auto frame = pane_->view()->slices();
  EXPECT_EQ(frame->imageWidth, picture.pixels.width());
  EXPECT_EQ(frame->imageHeight, picture.pixels.height());
  EXPECT_EQ(frame->imageView->worldToClip, picture.worldToClip);
  QString error;
  EXPECT_EQ(pane_->renderImage(options, error).size(), options.size) << error.toStdString();
  pane_->preparePictures(nullptr);
  EXPECT_EQ(pane_->imageStep(), kStep) << "the window's pictures again";
}

// End to end: a screenshot and a recording of the volume view at their own sizes, and the compare
// view's viewports in it; each picture shows the wave in both signs' colours.
TEST(StudioVolumeBinary, ScreenshotsAndRecordingsOfTheVolume) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  // Without the colour bar, axes and markers, whose reds and blues are not the wave's.
  const QStringList bare = {"--no-hud", "--no-colour-bar", "--no-labels"};
  const QStringList run = QStringList{"--size", "40,36,32", "--stage", "cpu-parallel", "--mode", "volume"} + bare;
  const fs::path shot = test::scratchPath("volume.png"), frames = test::scratchPath("volume-frames"),
                 compare = test::scratchPath("volume-compare.png");
  const test::StudioRun one = test::runStudio(run + QStringList{"--steps", "60", "--screenshot", q(shot), "--resolution", "640x360"});
  ASSERT_EQ(one.exitCode, 0) << one.output.toStdString();
  const test::StudioRun recorded =
      test::runStudio(run + QStringList{"--record", q(frames), "--frames", "3", "--every", "30", "--resolution", "480x270"});
  ASSERT_EQ(recorded.exitCode, 0) << recorded.output.toStdString();
  const test::StudioRun both = test::runStudio(QStringList{"--size", "40,36,32", "--compare", "cpu-serial,cpu-parallel", "--mode",
                                                           "volume", "--steps", "60", "--screenshot", q(compare), "--resolution", "960x400"} +
                                               bare);
  ASSERT_EQ(both.exitCode, 0) << both.output.toStdString();
  for (const auto& [path, size] : {std::pair{shot, QSize(640, 360)}, std::pair{frames / PngSequenceWriter::frameName(2), QSize(480, 270)},
                                   std::pair{compare, QSize(960, 400)}}) {
    const QImage image(q(path));
    ASSERT_EQ(image.size(), size) << path;
    const QImage rgba = image.convertToFormat(QImage::Format_RGBX8888);
    const auto [red, blue] = test::countSigns(std::vector<std::uint8_t>(rgba.constBits(), rgba.constBits() + rgba.sizeInBytes()));
    EXPECT_GT(red, 50) << path << ": the wave's positive part";
    EXPECT_GT(blue, 50) << path << ": its negative part";
  }
}

TEST(StudioVolumeOptions, ModeAndViewSizeAreParsed) {
  QString error;
  const auto options = parseStudioOptions({"iso3dfd-studio", "--mode", "volume", "--view-size", "1280x720", "--volume-context",
                                           "--volume-plane", "z", "--image-scale", "3"},
                                          error);
  ASSERT_TRUE(options) << error.toStdString();
  EXPECT_EQ(viewModes()[std::size_t(options->viewMode)].mode, SliceView::Mode::Volume);
  EXPECT_EQ(options->viewSize, QSize(1280, 720));
  EXPECT_TRUE(options->volume.velocityContext);
  EXPECT_EQ(options->volume.slicePlane, 2);
  EXPECT_EQ(options->volume.imageScale, 3);
  for (const QStringList& bad : {QStringList{"--volume-plane", "w"}, QStringList{"--image-scale", "5"}}) {
    EXPECT_FALSE(parseStudioOptions(QStringList{"iso3dfd-studio"} + bad, error)) << bad.join(' ').toStdString();
    EXPECT_TRUE(error.contains(bad.first())) << error.toStdString();
  }
  EXPECT_FALSE(parseStudioOptions({"iso3dfd-studio", "--view-size", "1280"}, error));
  EXPECT_TRUE(error.contains("--view-size")) << error.toStdString();
}

// The view has the size asked for: a screenshot of it (the view as on screen) is that size.
TEST(StudioVolumeBinary, TheViewHasTheSizeAskedFor) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const fs::path shot = test::scratchPath("view-size.png");
  const test::StudioRun r =
      test::runStudio({"--size", "24", "--stage", "cpu-serial", "--view-size", "760x480", "--steps", "1", "--screenshot", q(shot)});
  ASSERT_EQ(r.exitCode, 0) << r.output.toStdString();
  EXPECT_EQ(QImage(q(shot)).size(), QSize(760, 480));
}

}  // namespace
}  // namespace iso
