// The frame writers on their own (no window): VideoEncoder decoded back, PngSequenceWriter's files, and
// every failure leaving nothing under the target name and an older file as it was.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>

#include "app/studio/PngSequenceWriter.h"
#include "app/studio/ViewImage.h"
#include "tests/ScratchDir.h"
#include "app/export/VideoEncoder.h"
#include "core/TemporaryFiles.h"
#include "tests/gui/test_studio_export_support.h"

namespace iso {
namespace {

namespace fs = std::filesystem;

// A picture that changes with `index`: a red disc moving right over a blue-white gradient.
std::vector<std::uint8_t> syntheticFrame(int width, int height, int index) {
  std::vector<std::uint8_t> rgba(std::size_t(width) * height * 4);
  const double cx = width * (0.2 + 0.05 * index), cy = height * 0.5, radius = height * 0.2;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      std::uint8_t* p = &rgba[(std::size_t(y) * width + x) * 4];
      const bool disc = std::hypot(x - cx, y - cy) < radius;
      p[0] = disc ? 230 : std::uint8_t(255 * x / width);
      p[1] = disc ? 20 : std::uint8_t(255 * x / width);
      p[2] = disc ? 20 : 255;
      p[3] = 255;
    }
  return rgba;
}

// A fresh folder holding `name` with older content; returns the target path.
fs::path folderWithOlderFile(const std::string& folder, const std::string& name) {
  const fs::path dir = test::scratchPath(folder);
  fs::create_directories(dir);
  test::writeText(dir / name, "older file");
  return dir / name;
}

void expectOnlyTheOlderFile(const fs::path& target) {
  EXPECT_EQ(test::fileText(target), "older file") << target;
  EXPECT_EQ(test::filesIn(target.parent_path()), std::set<std::string>{target.filename().string()})
      << "a temporary file was left in " << target.parent_path();
}

TEST(ExportWriters, VideoDecodesBackWithEveryFrameTheSizeAndTheRate) {
  const fs::path path = folderWithOlderFile("video", "out.mp4");
  constexpr int kWidth = 320, kHeight = 240, kFrames = 17, kFps = 25;
  {
    VideoEncoder encoder(path, kWidth, kHeight, kFps);
    for (int i = 0; i < kFrames; ++i) {
      const auto frame = syntheticFrame(kWidth, kHeight, i);
      encoder.push(frame.data(), kWidth * 4);
    }
    EXPECT_EQ(test::fileText(path), "older file") << "the target changed before the video was complete";
    encoder.finish();
    EXPECT_EQ(encoder.framesWritten(), kFrames);
    EXPECT_GT(encoder.bytesWritten(), 1000u);
  }
  const test::DecodedVideo video = test::decodeVideo(path);
  ASSERT_EQ(video.error, "");
  EXPECT_EQ(video.frames, kFrames);
  EXPECT_EQ(video.width, kWidth);
  EXPECT_EQ(video.height, kHeight);
  EXPECT_NEAR(video.fps, kFps, 1e-6);
  EXPECT_NEAR(video.durationSeconds, double(kFrames) / kFps, 0.05);
  // The last frame's disc is where it was drawn (x = 0.2 + 0.05*16 of the width, i.e. near the right).
  const auto& rgba = video.lastFrameRgba;
  const auto pixel = [&](int x, int y) { return &rgba[(std::size_t(y) * kWidth + x) * 4]; };
  EXPECT_GT(pixel(kWidth - 10, kHeight / 2)[0], 180);
  EXPECT_LT(pixel(kWidth - 10, kHeight / 2)[2], 90);
  EXPECT_GT(pixel(10, kHeight / 2)[2], 180);  // gradient, blue side
  EXPECT_EQ(test::filesIn(path.parent_path()), std::set<std::string>{"out.mp4"});
}

// The planes a GPU would hand over (render/VideoPlanes.h's layout and formula), made here from `rgba`.
std::vector<std::uint8_t> bt709Planes(const std::vector<std::uint8_t>& rgba, int width, int height) {
  std::vector<std::uint8_t> planes(std::size_t(width) * (height + height / 2));
  const auto weighted = [&](int x, int y, double r, double g, double b) {
    const std::uint8_t* p = &rgba[(std::size_t(y) * width + x) * 4];
    return (r * p[0] + g * p[1] + b * p[2]) / 255.0;
  };
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      planes[std::size_t(y) * width + x] = std::uint8_t(std::lround(16.0 + 219.0 * weighted(x, y, 0.2126, 0.7152, 0.0722)));
  for (int r = 0; r < height / 2; ++r)
    for (int c = 0; c < width / 2; ++c) {
      double cb = 0.0, cr = 0.0;
      for (int d = 0; d < 4; ++d) {
        cb += weighted(2 * c + d % 2, 2 * r + d / 2, -0.114572, -0.385428, 0.5) / 4.0;
        cr += weighted(2 * c + d % 2, 2 * r + d / 2, 0.5, -0.454153, -0.045847) / 4.0;
      }
      std::uint8_t* row = &planes[std::size_t(height + r) * width];
      row[c] = std::uint8_t(std::lround(128.0 + 224.0 * cb));
      row[width / 2 + c] = std::uint8_t(std::lround(128.0 + 224.0 * cr));
    }
  return planes;
}

double meanDifference(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  double sum = 0.0;
  for (std::size_t i = 0; i < a.size(); i += 4)
    for (int c = 0; c < 3; ++c) sum += std::abs(int(a[i + c]) - int(b[i + c]));
  return sum / double(a.size() / 4 * 3);
}

// A video written from RGBA (converted on the writer's thread) and one written from the same picture's
// planes (as a GPU converts it) decode, as players read the stream's BT.709 description, to the picture
// pushed: both within a few levels of it on average, and of each other.
TEST(ExportWriters, RgbaAndPlanesGiveTheSameColoursMarkedBt709) {
  constexpr int kWidth = 320, kHeight = 240;
  const auto frame = syntheticFrame(kWidth, kHeight, 3);
  const fs::path dir = test::scratchPath("planes");
  fs::create_directories(dir);
  std::vector<std::uint8_t> decoded[2];
  for (int planes = 0; planes < 2; ++planes) {
    const fs::path path = dir / (planes ? "planes.mp4" : "rgba.mp4");
    VideoEncoder encoder(path, kWidth, kHeight, 25);
    if (planes) {
      const auto yuv = bt709Planes(frame, kWidth, kHeight);
      encoder.push(yuv.data(), kWidth, PixelLayout::Yuv420);
    } else {
      encoder.push(frame.data(), kWidth * 4);
    }
    encoder.finish();
    const test::DecodedVideo video = test::decodeVideo(path);
    ASSERT_EQ(video.error, "");
    ASSERT_EQ(video.frames, 1);
    decoded[planes] = video.lastFrameRgba;
  }
  EXPECT_LT(meanDifference(decoded[0], frame), 3.0) << "RGBA converted by the encoder";
  EXPECT_LT(meanDifference(decoded[1], frame), 3.0) << "planes converted as on a GPU";
  EXPECT_LT(meanDifference(decoded[0], decoded[1]), 2.0);
  // The disc's red, where the BT.601 matrix would read BT.709 planes 20 levels off in green.
  const auto at = [&](const std::vector<std::uint8_t>& rgba, int c) { return int(rgba[(std::size_t(120) * kWidth + 112) * 4 + c]); };
  for (int planes = 0; planes < 2; ++planes) {
    EXPECT_NEAR(at(decoded[planes], 0), 230, 6) << planes;
    EXPECT_NEAR(at(decoded[planes], 1), 20, 6) << planes;
  }
}

// A writer that takes RGBA only refuses planes with a clear error, and rows shorter than a plane's.
TEST(ExportWriters, PlanesGoOnlyToAWriterThatTakesThem) {
  const fs::path dir = test::scratchPath("planes-refused");
  fs::create_directories(dir);
  std::vector<std::uint8_t> planes(std::size_t(64) * 48, 128);
  PngSequenceWriter frames(dir / "seq", 64, 32);
  EXPECT_FALSE(frames.takes(PixelLayout::Yuv420));
  try {
    frames.push(planes.data(), 64, PixelLayout::Yuv420);
    ADD_FAILURE() << "planes were taken";
  } catch (const ExportError& e) {
    EXPECT_NE(std::string(e.what()).find("takes RGBA pixels"), std::string::npos) << e.what();
  }
  frames.abort();
  VideoEncoder video(dir / "v.mp4", 64, 32, 25);
  EXPECT_THROW(video.push(planes.data(), 63, PixelLayout::Yuv420), ExportError);
  video.push(planes.data(), 64, PixelLayout::Yuv420);
  video.finish();
  EXPECT_EQ(test::decodeVideo(dir / "v.mp4").frames, 1);
}

TEST(ExportWriters, BadVideoSettingsAreRefusedAndLeaveTheOlderFile) {
  const fs::path target = folderWithOlderFile("bad-settings", "out.mp4");
  const auto refused = [&](int w, int h, int fps, const VideoOptions& options, const std::string& expected) {
    try {
      VideoEncoder encoder(target, w, h, fps, options);
      ADD_FAILURE() << w << "x" << h << " at " << fps << " fps with " << options.codec << " was accepted";
    } catch (const ExportError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("out.mp4"), std::string::npos) << e.what();
    }
    expectOnlyTheOlderFile(target);
  };
  refused(321, 240, 30, {}, "even width");
  refused(320, 241, 30, {}, "even width");
  refused(0, 240, 30, {}, "out of range");
  refused(0, 0, 30, {}, "out of range");
  refused(100000, 100000, 30, {}, "out of range");
  refused(320, 240, 0, {}, "frame rate");
  VideoOptions unknown;
  unknown.codec = "no-such-codec";
  refused(320, 240, 30, unknown, "unknown video encoder 'no-such-codec'");
  VideoOptions badPreset;
  badPreset.preset = "warp-speed";
  refused(320, 240, 30, badPreset, "opening the encoder libx264");
}

TEST(ExportWriters, AnImageThatWasNotDrawnIsRefusedAndLeavesTheOlderFile) {
  const fs::path target = folderWithOlderFile("null-image", "shot.png");
  QString error;
  EXPECT_FALSE(writeImageFile(QImage(), QString::fromStdString(target.string()), error));
  EXPECT_TRUE(error.contains("no picture was drawn")) << error.toStdString();
  EXPECT_TRUE(error.contains("shot.png")) << error.toStdString();
  expectOnlyTheOlderFile(target);
}

TEST(ExportWriters, UnwritableFoldersAreRefused) {
  const fs::path dir = test::scratchPath("unwritable");
  fs::create_directories(dir);
  test::writeText(dir / "a-file", "x");
  for (const fs::path& target : {dir / "a-file" / "out.mp4", dir / "missing" / "out.mp4", fs::path("/proc/iso3dfd-out.mp4")}) {
    try {
      VideoEncoder encoder(target, 320, 240, 30);
      ADD_FAILURE() << target << " was accepted";
    } catch (const ExportError& e) {
      EXPECT_NE(std::string(e.what()).find("cannot write to the folder"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(target));
  }
  EXPECT_EQ(test::filesIn(dir), std::set<std::string>{"a-file"});
}

// Runs `write` in a child process whose files may not grow past 256 KiB (SIGXFSZ ignored, so write()
// fails with EFBIG, as on a full disk) and returns the ExportError message it caught ("no error" if none).
std::string exportErrorWithFullDisk(const std::function<void()>& write) {
  int pipeFds[2];
  if (::pipe(pipeFds) != 0) return "pipe failed";
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child < 0) return "fork failed";
  if (child == 0) {
    ::close(pipeFds[0]);
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{256 * 1024, 256 * 1024};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    std::string message = "no error";
    try {
      write();
    } catch (const ExportError& e) {
      message = e.what();
    }
    (void)!::write(pipeFds[1], message.data(), message.size());
    ::_exit(0);
  }
  ::close(pipeFds[1]);
  std::string message;
  char buffer[512];
  for (ssize_t n; (n = ::read(pipeFds[0], buffer, sizeof buffer)) > 0;) message.append(buffer, std::size_t(n));
  ::close(pipeFds[0]);
  int status = 0;
  if (::waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return "the child died (status " + std::to_string(status) + ")";
  return message;
}

// Noise does not compress: 200 frames of it fill the 256 KiB long before the end.
std::vector<std::uint8_t> noiseFrame(int width, int height, std::mt19937& random) {
  std::vector<std::uint8_t> noise(std::size_t(width) * height * 4);
  for (auto& v : noise) v = std::uint8_t(random());
  return noise;
}

TEST(ExportWriters, AFullDiskFailsWithAMessageAndKeepsTheOlderFile) {
  const fs::path target = folderWithOlderFile("full-disk", "out.mp4");
  const std::string message = exportErrorWithFullDisk([&] {
    constexpr int kW = 640, kH = 480;
    VideoEncoder encoder(target, kW, kH, 30);
    std::mt19937 random(7);
    for (int i = 0; i < 200; ++i) encoder.push(noiseFrame(kW, kH, random).data(), kW * 4);
    encoder.finish();
  });
  EXPECT_NE(message.find("out.mp4"), std::string::npos) << message;
  EXPECT_NE(message.find("too large"), std::string::npos) << message;  // EFBIG: "File too large"
  expectOnlyTheOlderFile(target);
}

TEST(ExportWriters, AFullDiskFailsAFrameSequenceAndLeavesNoFolder) {
  const fs::path folder = test::scratchPath("full-disk-frames");
  const std::string message = exportErrorWithFullDisk([&] {
    constexpr int kW = 640, kH = 480;  // about 900 KiB of noise per PNG, past the limit of one file
    PngSequenceWriter writer(folder, kW, kH);
    std::mt19937 random(11);
    for (int i = 0; i < 3; ++i) writer.push(noiseFrame(kW, kH, random).data(), kW * 4);
    writer.finish();
  });
  EXPECT_NE(message, "no error");
  EXPECT_EQ(message.find("the child died"), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(folder)) << "a half-written sequence was left under the name asked for";
  for (const auto& name : test::filesIn(folder.parent_path()))
    EXPECT_FALSE(TemporaryFiles::isTemporaryName(name)) << "temporary folder left: " << name;
}

TEST(ExportWriters, AbortedVideoLeavesNothing) {
  const fs::path target = folderWithOlderFile("aborted", "out.mp4");
  {
    VideoEncoder encoder(target, 64, 64, 10);
    const auto frame = syntheticFrame(64, 64, 0);
    encoder.push(frame.data(), 64 * 4);
  }  // destroyed unfinished
  expectOnlyTheOlderFile(target);
}

TEST(ExportWriters, FrameSequenceHasOneNumberedPngPerFrame) {
  const fs::path folder = test::scratchPath("writer-frames");
  constexpr int kFrames = 7;
  {
    PngSequenceWriter writer(folder, 96, 64);
    for (int i = 0; i < kFrames; ++i) {
      const auto frame = syntheticFrame(96, 64, i);
      writer.push(frame.data(), 96 * 4);
    }
    EXPECT_FALSE(fs::exists(folder)) << "the folder appeared before it was complete";
    writer.finish();
  }
  std::set<std::string> expected;
  for (int i = 0; i < kFrames; ++i) expected.insert(PngSequenceWriter::frameName(i));
  EXPECT_EQ(test::filesIn(folder), expected);
  EXPECT_EQ(PngSequenceWriter::frameName(3), "000003.png");
  EXPECT_EQ(test::fileText(folder / "000006.png").substr(1, 3), "PNG");
  // Only the folder itself next to it: no temporary folder left.
  for (const auto& name : test::filesIn(folder.parent_path())) EXPECT_FALSE(TemporaryFiles::isTemporaryName(name)) << name;

  // A folder with files in it is refused, its files kept.
  try {
    PngSequenceWriter again(folder, 96, 64);
    ADD_FAILURE() << "a non-empty folder was accepted";
  } catch (const ExportError& e) {
    EXPECT_NE(std::string(e.what()).find("not empty"), std::string::npos) << e.what();
  }
  EXPECT_EQ(test::filesIn(folder), expected);
}

TEST(ExportWriters, PushAfterFinishAndShortRowsAreErrors) {
  const fs::path target = test::scratchPath("misuse.mp4");
  VideoEncoder encoder(target, 64, 64, 10);
  const auto frame = syntheticFrame(64, 64, 0);
  EXPECT_THROW(encoder.push(frame.data(), 63 * 4), ExportError);
  EXPECT_THROW(encoder.push(nullptr, 64 * 4), ExportError);
  encoder.push(frame.data(), 64 * 4);
  encoder.finish();
  EXPECT_THROW(encoder.push(frame.data(), 64 * 4), ExportError);
  EXPECT_EQ(test::decodeVideo(target).frames, 1);
}

}  // namespace
}  // namespace iso
