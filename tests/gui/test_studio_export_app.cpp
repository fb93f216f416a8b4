// Recording and screenshots from iso3dfd-studio's command line, end to end: the files decoded back.
// Needs an X display with OpenGL (xvfb-run -a -s "-screen 0 1280x720x24 -noreset").
#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QImage>
#include <QRegularExpression>

#include "app/studio/PngSequenceWriter.h"
#include "compute/DeviceRegistry.h"
#include "tests/ScratchDir.h"
#include "tests/gui/test_studio_export_support.h"
#include "tests/gui/test_studio_support.h"
#include "tests/support/StudioProcess.h"

namespace iso {
namespace {

namespace fs = std::filesystem;


QString q(const fs::path& path) { return QString::fromStdString(path.string()); }

// A small, quick run: the source in the middle of a 48³ grid on the CPU.
const QStringList kSmallRun = {"--size", "48,48,48", "--stage", "cpu-parallel", "--mode", "xz"};

TEST(StudioExport, RecordedVideoHasEveryFrameTheSizeTheRateAndTheWave) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const fs::path video = test::scratchPath("run.mp4");
  constexpr int kFrames = 9;
  const test::StudioRun r = test::runStudio(kSmallRun + QStringList{"--record", q(video), "--frames", QString::number(kFrames), "--every",
                                                  "80", "--resolution", "640x360", "--fps", "12"});
  ASSERT_EQ(r.exitCode, 0) << r.output.toStdString();
  EXPECT_TRUE(r.output.contains("recorded 9 frames (640x360, every 80 steps, 12 fps)")) << r.output.toStdString();
  // The summary's timeline: the first frame's step reached, the last frame taken and the file finished, in
  // that order; the run's own rate between the first frame and the last; the first three frames' times.
  const QRegularExpressionMatch timeline =
      QRegularExpression(R"(run: ([0-9.]+) Mpts/s from .* the last frame, ([0-9.]+) s after the start \(the first frame's step )"
                         R"(reached at ([0-9.]+) s, the file finished at ([0-9.]+) s\))")
          .match(r.output);
  ASSERT_TRUE(timeline.hasMatch()) << r.output.toStdString();
  EXPECT_GT(timeline.captured(1).toDouble(), 0.0);
  EXPECT_LE(timeline.captured(3).toDouble(), timeline.captured(2).toDouble());
  EXPECT_LE(timeline.captured(2).toDouble(), timeline.captured(4).toDouble());
  EXPECT_TRUE(QRegularExpression(R"(the first [0-9.]+, [0-9.]+, [0-9.]+ ms\))").match(r.output).hasMatch())
      << r.output.toStdString();
  const test::DecodedVideo decoded = test::decodeVideo(video);
  ASSERT_EQ(decoded.error, "");
  EXPECT_EQ(decoded.frames, kFrames);
  EXPECT_EQ(decoded.width, 640);
  EXPECT_EQ(decoded.height, 360);
  EXPECT_NEAR(decoded.fps, 12.0, 1e-6);
  EXPECT_NEAR(decoded.durationSeconds, kFrames / 12.0, 0.1);
  // The last frame (step 640) shows the wave: both signs of the seismic colormap over many pixels.
  const auto [red, blue] = test::countSigns(decoded.lastFrameRgba);
  EXPECT_GT(red, 300) << "the last frame shows no positive wave";
  EXPECT_GT(blue, 300) << "the last frame shows no negative wave";
}

TEST(StudioExport, RecordedFramesFolderHasOnePngPerFrameShowingItsStep) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const fs::path folder = test::scratchPath("frames");
  constexpr int kFrames = 5;
  const test::StudioRun r = test::runStudio(kSmallRun + QStringList{"--record", q(folder), "--frames", QString::number(kFrames), "--every",
                                                  "55", "--resolution", "640x360"});
  ASSERT_EQ(r.exitCode, 0) << r.output.toStdString();
  std::set<std::string> expected;
  for (int i = 0; i < kFrames; ++i) expected.insert(PngSequenceWriter::frameName(i));
  ASSERT_EQ(test::filesIn(folder), expected);
  // Frame 0 is step 0, where the field is still zero; the last one (step 220) shows the wave: a large
  // part of the plane changed colour, much of it to the blue of the wave's negative part.
  const auto frame = [&](int index) {
    const QImage image(q(folder / PngSequenceWriter::frameName(index)));
    EXPECT_EQ(image.size(), QSize(640, 360));
    return image.convertToFormat(QImage::Format_RGBA8888);
  };
  const QImage first = frame(0), last = frame(kFrames - 1);
  const auto pixels = [](const QImage& image) {
    return std::vector<std::uint8_t>(image.constBits(), image.constBits() + image.sizeInBytes());
  };
  EXPECT_GT(test::countSigns(pixels(last)).second, test::countSigns(pixels(first)).second + 1000);
  long changed = 0;
  for (int y = 0; y < first.height(); ++y)
    for (int x = 0; x < first.width(); ++x) {
      const QColor a = first.pixelColor(x, y), b = last.pixelColor(x, y);
      changed += std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) > 60;
    }
  EXPECT_GT(changed, 5000) << "the wave should have changed a large part of the plane";
}

TEST(StudioExport, RecordedCompareViewHoldsEveryViewport) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const fs::path video = test::scratchPath("compare.mp4");
  const test::StudioRun r = test::runStudio({"--size", "48,48,48", "--compare", "cpu-serial,cpu-parallel", "--mode", "xz", "--record",
                                 q(video), "--frames", "4", "--every", "100", "--resolution", "640x360"});
  ASSERT_EQ(r.exitCode, 0) << r.output.toStdString();
  const test::DecodedVideo decoded = test::decodeVideo(video);
  ASSERT_EQ(decoded.error, "");
  EXPECT_EQ(decoded.frames, 4);
  ASSERT_EQ(decoded.width, 640);
  ASSERT_EQ(decoded.height, 360);
  // The last frame (step 300): the wave in both halves, one per stage.
  for (int half = 0; half < 2; ++half) {
    std::vector<std::uint8_t> pixels;
    for (int y = 0; y < 360; ++y) {
      const auto row = decoded.lastFrameRgba.begin() + (std::ptrdiff_t(y) * 640 + half * 320) * 4;
      pixels.insert(pixels.end(), row, row + 320 * 4);
    }
    const auto [red, blue] = test::countSigns(pixels);
    EXPECT_GT(red + blue, 300) << "viewport " << half + 1 << " shows no wave";
  }
}

// A recording of an OpenCL stage whose pictures the solver's device makes (--record-pictures device: PoCL's
// CPU device here) holds the frames OpenGL draws: the same last frame, decoded, within what two encodings of
// nearly the same pictures differ by. Without the HUD, whose measured rates differ from run to run (the
// device's pictures and OpenGL's blend the same painted HUD: DevicePictures.*).
TEST(StudioExport, PicturesMadeOnTheSolversDeviceAreThoseOpenGlDraws) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  if (listDevices().empty()) GTEST_SKIP() << "no OpenCL device on this machine";
  std::map<QString, test::DecodedVideo> decoded;
  for (const QString maker : {"device", "opengl"}) {
    const fs::path video = test::scratchPath(("by-" + maker + ".mp4").toStdString());
    const test::StudioRun r = test::runStudio({"--size", "41,37,33", "--stage", "gpu-optimized", "--record", q(video), "--frames",
                                               "3", "--every", "50", "--resolution", "1280x720", "--no-hud", "--record-pictures", maker});
    ASSERT_EQ(r.exitCode, 0) << r.output.toStdString();
    EXPECT_TRUE(r.output.contains(maker == "device" ? "pictures made by: OpenCL on" : "pictures made by: OpenGL")) << r.output.toStdString();
    decoded[maker] = test::decodeVideo(video);
    ASSERT_EQ(decoded[maker].error, "");
    ASSERT_EQ(decoded[maker].frames, 3);
  }
  const std::vector<std::uint8_t>& a = decoded["device"].lastFrameRgba;
  const std::vector<std::uint8_t>& b = decoded["opengl"].lastFrameRgba;
  ASSERT_EQ(a.size(), b.size());
  const auto [red, blue] = test::countSigns(a);
  EXPECT_GT(red + blue, 2000) << "the last frame shows the wave";
  double sum = 0.0;
  for (std::size_t n = 0; n < a.size(); ++n) sum += std::abs(int(a[n]) - int(b[n]));
  EXPECT_LT(sum / double(a.size()), 1.0) << "mean absolute difference in levels of 255";
}

TEST(StudioExport, NoColourBarLeavesTheColourBarOut) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  // At step 1 the field is still ~0 (white): in the right-hand strip, where the bar stands, strong red is
  // the top of the colour bar.
  const auto strongRed = [](const fs::path& path) {
    const QImage image(q(path));
    long count = 0;
    for (int y = 0; y < image.height(); ++y)
      for (int x = image.width() * 85 / 100; x < image.width(); ++x) {
        const QColor c = image.pixelColor(x, y);
        count += c.red() > 150 && c.green() < 60 && c.blue() < 60;
      }
    return count;
  };
  const fs::path with = test::scratchPath("bar.png"), without = test::scratchPath("nobar.png");
  for (const auto& [path, extra] : {std::pair{with, QStringList{}}, std::pair{without, QStringList{"--no-colour-bar"}}}) {
    const test::StudioRun r = test::runStudio(kSmallRun + QStringList{"--steps", "1", "--screenshot", q(path), "--resolution", "640x360"} + extra);
    ASSERT_EQ(r.exitCode, 0) << r.output.toStdString();
  }
  EXPECT_GT(strongRed(with), 100);
  EXPECT_EQ(strongRed(without), 0);
}

TEST(StudioExport, A4KScreenshotHasThatSize) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const fs::path shot = test::scratchPath("4k.png");
  const test::StudioRun r = test::runStudio(kSmallRun + QStringList{"--steps", "40", "--screenshot", q(shot), "--resolution", "3840x2160"});
  ASSERT_EQ(r.exitCode, 0) << r.output.toStdString();
  const QImage image(q(shot));
  EXPECT_EQ(image.size(), QSize(3840, 2160));
}

TEST(StudioExport, BadRecordingOptionsExitWithAMessageAndWriteNothing) {
  const fs::path older = test::scratchPath("older.mp4");
  test::writeText(older, "older file");
  const std::pair<QStringList, QString> cases[] = {
      {{"--record", q(older)}, "--record needs --frames"},
      {{"--record", q(older), "--frames", "0"}, "--frames 0"},
      {{"--record", q(older), "--frames", "3", "--resolution", "641x360"}, "even width"},
      {{"--record", q(older), "--frames", "3", "--resolution", "0x360"}, "resolution"},
      {{"--record", q(older), "--frames", "3", "--resolution", "100000x100000"}, "at most 3840x2160"},
      {{"--record", q(older), "--frames", "3", "--fps", "0"}, "--fps 0"},
      {{"--record", q(older), "--frames", "3", "--every", "0"}, "--every 0"},
      {{"--record", q(test::scratchPath("x.avi")), "--frames", "3"}, "expected a video"},
      {{"--frames", "3"}, "--frames belongs to --record"},
      {{"--no-hud"}, "go with --screenshot or --record"},
  };
  for (const auto& [arguments, message] : cases) {
    const test::StudioRun r = test::runStudio(arguments);
    EXPECT_EQ(r.exitCode, 2) << arguments.join(' ').toStdString() << "\n" << r.output.toStdString();
    EXPECT_TRUE(r.output.contains(message)) << arguments.join(' ').toStdString() << "\n" << r.output.toStdString();
  }
  EXPECT_EQ(test::fileText(older), "older file");
}

TEST(StudioExport, RecordingIntoAnUnwritableFolderFailsAndKeepsNothing) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const fs::path file = test::scratchPath("plain-file");
  test::writeText(file, "x");
  const test::StudioRun r = test::runStudio(kSmallRun + QStringList{"--record", q(file / "out.mp4"), "--frames", "2"});
  EXPECT_EQ(r.exitCode, 1) << r.output.toStdString();
  EXPECT_TRUE(r.output.contains("cannot write to the folder")) << r.output.toStdString();
}

}  // namespace
}  // namespace iso
