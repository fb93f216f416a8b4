// RecordingSession inside a running window, as the Record action drives it: started mid-run, stopped by
// the user, the file finished in the background while the GUI goes on.
#include <gtest/gtest.h>

#include "tests/ScratchDir.h"
#include "app/studio/CompareWindow.h"
#include "app/studio/ExportActions.h"
#include "app/studio/MainWindow.h"
#include "app/studio/PngSequenceWriter.h"
#include "app/studio/RecordingSession.h"
#include "core/ScenarioResize.h"
#include "app/studio/SimulationPane.h"
#include "render/SliceView.h"
#include "tests/gui/test_studio_export_support.h"
#include "tests/gui/test_studio_support.h"

namespace iso {
namespace {

// What a session's finished() said, once it has.
struct SessionOutcome {
  explicit SessionOutcome(RecordingSession& session)
      : connection(QObject::connect(&session, &RecordingSession::finished, [this](bool success, const QString& text) {
          done = true, ok = success, message = text;
        })) {}
  ~SessionOutcome() { QObject::disconnect(connection); }
  SessionOutcome(const SessionOutcome&) = delete;
  SessionOutcome& operator=(const SessionOutcome&) = delete;
  QMetaObject::Connection connection;
  bool done = false, ok = false;
  QString message;
};

TEST(StudioExportSession, RecordsFromTheStepOnScreenUntilStoppedThenFinishesTheFile) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario scenario = resizedScenario(presetScenario("default"), 40, 40, 40);
  scenario.stage = "cpu-parallel";
  scenario.steps = 1000000;  // a run that does not come to its end (and loop back to step 0) while recorded
  MainWindow window(scenario);
  window.resize(1000, 640);
  window.show();
  SimulationPane* pane = window.pane();
  window.setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return pane->view()->slices() && pane->view()->slices()->step >= 10; }));
  // The view's mapped buffers are set up (they carry a stream of frames) once the pane has seen the solver.
  ASSERT_TRUE(test::waitUntil([&] { return pane->mappedSlotFloats() > 0; }));

  RecordingSession& session = *window.exportActions()->recording();
  std::vector<long> steps;
  QObject::connect(&session, &RecordingSession::frameCaptured, [&] { steps.push_back(pane->imageStep()); });
  SessionOutcome outcome(session);
  const std::filesystem::path video = test::scratchPath("session.mp4");
  RecordingSettings settings;
  settings.path = QString::fromStdString(video.string());
  settings.picture.size = QSize(320, 180);
  settings.fps = 10;
  settings.every = 3;
  const long pausesBefore = pane->lastStatus().selfPauses;
  ASSERT_TRUE(session.start(settings)) << session.error().toStdString();
  // The run stops at the first frame's step; where it had already passed the step the recording asked
  // for (it plays on while the request is on its way), it stops there first and then goes on to the next
  // multiple: one or two stops. A status past the second frame's step counts every stop before it.
  ASSERT_TRUE(test::waitUntil([&] { return session.framesCaptured() >= 2; }));
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().step > steps.at(1); }));
  const long pausesBeforeStream = pane->lastStatus().selfPauses;
  EXPECT_LE(pausesBeforeStream - pausesBefore, 2);
  // From there the view streams the frames: the run goes on through them without stopping.
  ASSERT_TRUE(test::waitUntil([&] { return session.framesCaptured() >= 6; }));
  const long captured = session.framesCaptured();
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().step > 3 * (captured + 2); }));
  EXPECT_EQ(pane->lastStatus().selfPauses, pausesBeforeStream);
  // The view says it records (and, when the encoder holds the run, that it waits), on screen only.
  EXPECT_TRUE(pane->view()->screenNotice().startsWith("recording: ")) << pane->view()->screenNotice().toStdString();
  session.stop();
  ASSERT_TRUE(test::waitUntil([&] { return outcome.done; }));
  ASSERT_TRUE(outcome.ok) << outcome.message.toStdString();
  EXPECT_EQ(session.state(), RecordingSession::State::Finished);
  EXPECT_EQ(pane->view()->screenNotice(), "");

  const test::DecodedVideo decoded = test::decodeVideo(video);
  ASSERT_EQ(decoded.error, "");
  EXPECT_EQ(decoded.frames, session.framesCaptured());
  EXPECT_EQ(decoded.width, 320);
  EXPECT_EQ(decoded.height, 180);
  EXPECT_NEAR(decoded.fps, 10.0, 1e-6);
  // Every frame was taken at a multiple of 3, one multiple after the frame before.
  ASSERT_EQ(long(steps.size()), session.framesCaptured());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(steps[i] % 3, 0) << "frame " << i;
    if (i > 0) {
      EXPECT_EQ(steps[i], steps[i - 1] + 3) << "frame " << i;
    }
  }
  // The run goes on after the recording (no pause step left behind), even if Play is asked for before
  // the window's button has learnt that the run rested on its last frame's step.
  const long after = pane->lastStatus().step;
  window.setPlaying(true);
  EXPECT_TRUE(test::waitUntil([&] { return pane->lastStatus().step > after + 10; }));
}

TEST(StudioExportSession, RecordsTheWholeCompareViewEachFrameAtItsCommonStep) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  CompareWindow window(resizedScenario(presetScenario("default"), 40, 40, 40), {"cpu-serial", "cpu-parallel"});
  window.resize(1000, 640);
  window.show();
  RecordingSession& session = *window.exportActions()->recording();
  std::vector<long> steps;  // the common step on screen as each frame was drawn
  QObject::connect(&session, &RecordingSession::frameCaptured, [&] { steps.push_back(window.imageStep()); });
  SessionOutcome outcome(session);
  const std::filesystem::path folder = test::scratchPath("compare-frames");
  RecordingSettings settings;
  settings.path = QString::fromStdString(folder.string());
  settings.picture.size = QSize(640, 360);
  settings.every = 40;
  settings.frames = 4;
  ASSERT_TRUE(session.start(settings)) << session.error().toStdString();
  ASSERT_TRUE(test::waitUntil([&] { return outcome.done; }, 60000));
  ASSERT_TRUE(outcome.ok) << outcome.message.toStdString();
  EXPECT_EQ(steps, (std::vector<long>{0, 40, 80, 120}));
  std::set<std::string> expected;
  for (int i = 0; i < 4; ++i) expected.insert(PngSequenceWriter::frameName(i));
  ASSERT_EQ(test::filesIn(folder), expected);

  // The last frame holds both viewports side by side, each showing the wave (the blue of its negative
  // part) in about the same amount: the same field computed by two stages.
  const QImage last = QImage(QString::fromStdString((folder / PngSequenceWriter::frameName(3)).string()))
                          .convertToFormat(QImage::Format_RGBA8888);
  ASSERT_EQ(last.size(), QSize(640, 360));
  const auto blueIn = [&](int x0) {
    const QImage half = last.copy(x0, 0, 320, 360);
    return test::countSigns(std::vector<std::uint8_t>(half.constBits(), half.constBits() + half.sizeInBytes())).second;
  };
  const long left = blueIn(0), right = blueIn(320);
  EXPECT_GT(left, 300);
  EXPECT_NEAR(double(right), double(left), 0.1 * double(left));
}

RecordableView& recordableOf(MainWindow& window) { return *window.pane(); }
RecordableView& recordableOf(CompareWindow& window) { return window; }

// The first line of the counters a recorded frame of the main window carries ("… · playing").
QString recordedStateLine(MainWindow& window) {
  ImageOptions options;
  options.size = QSize(160, 90);
  QString error;
  if (window.pane()->renderImage(options, error).isNull()) return "no picture: " + error;
  return window.pane()->view()->hudLines().value(0);
}

// The Play button says what the user asked for while a recording holds the run at each frame: checked
// as the recording starts the run, a pause holds run and recording alike until Play, Stop lets the run
// go on, and a recording of a set number of frames leaves the run, unchecked, on its last frame's step.
template <class Window, class... Args>
void playButtonFollowsTheUser(const std::string& name, Args&&... args) {
  Window window(std::forward<Args>(args)...);
  window.resize(800, 500);
  window.show();
  RecordableView& view = recordableOf(window);
  RecordingSession& session = *window.exportActions()->recording();
  SessionOutcome outcome(session);
  RecordingSettings settings;
  settings.path = QString::fromStdString(test::scratchPath(name + "-held").string());
  settings.picture.size = QSize(160, 90);
  settings.every = 2;
  ASSERT_FALSE(window.playButtonChecked());
  ASSERT_TRUE(session.start(settings)) << session.error().toStdString();
  EXPECT_TRUE(window.playButtonChecked());
  bool everUnchecked = false;
  ASSERT_TRUE(test::waitUntil([&] {
    everUnchecked = everUnchecked || !window.playButtonChecked();
    return session.framesCaptured() >= 8;
  }));
  EXPECT_FALSE(everUnchecked) << "the button showed Play while the recording ran";

  window.setPlaying(false);
  test::runEventsFor(500 * test::timeoutScale());  // a batch under way ends (its frame is still taken)
  const long frames = session.framesCaptured(), step = view.imageStep();
  test::runEventsFor(500);
  EXPECT_EQ(session.framesCaptured(), frames) << "frames taken while paused";
  EXPECT_EQ(view.imageStep(), step) << "the run went on while paused";
  EXPECT_FALSE(window.playButtonChecked());
  if constexpr (std::is_same_v<Window, MainWindow>) {  // and the frames say so
    const QString line = recordedStateLine(window);
    EXPECT_TRUE(line.endsWith("paused")) << line.toStdString();
  }
  window.setPlaying(true);
  EXPECT_TRUE(test::waitUntil([&] { return session.framesCaptured() >= frames + 3; }));
  EXPECT_TRUE(window.playButtonChecked());
  if constexpr (std::is_same_v<Window, MainWindow>) {
    const QString line = recordedStateLine(window);
    EXPECT_TRUE(line.endsWith("playing")) << line.toStdString();
  }

  session.stop();
  ASSERT_TRUE(test::waitUntil([&] { return outcome.done; }));
  EXPECT_TRUE(window.playButtonChecked());
  const long stopped = view.imageStep();
  EXPECT_TRUE(test::waitUntil([&] { return view.imageStep() > stopped + 10; })) << "the run stood after Stop";

  outcome.done = false;
  settings.path = QString::fromStdString(test::scratchPath(name + "-counted").string());
  settings.frames = 3;
  ASSERT_TRUE(session.start(settings)) << session.error().toStdString();
  ASSERT_TRUE(test::waitUntil([&] { return outcome.done; }));
  EXPECT_EQ(session.state(), RecordingSession::State::Finished);
  EXPECT_FALSE(window.playButtonChecked());
  const long rest = view.imageStep();
  test::runEventsFor(500);
  EXPECT_EQ(view.imageStep(), rest);
  EXPECT_EQ(rest % settings.every, 0);
}

TEST(StudioExportSession, ThePlayButtonSaysWhatTheUserAskedForWhileARecordingHoldsTheRun) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const Scenario small = resizedScenario(presetScenario("default"), 40, 40, 40);
  playButtonFollowsTheUser<MainWindow>("play-main", small);
  playButtonFollowsTheUser<CompareWindow>("play-compare", small, QStringList{"cpu-serial", "cpu-parallel"});
}

// Closing a window while it records discards the unfinished file (nothing under its name or beside it),
// with the view the session pauses still there while the session winds down.
template <class Window, class... Args>
void closeMidRecording(const std::string& name, Args&&... args) {
  const std::filesystem::path dir = test::scratchPath(name);
  std::filesystem::create_directories(dir);
  auto window = std::make_unique<Window>(std::forward<Args>(args)...);
  window->resize(800, 500);
  window->show();
  RecordingSession& session = *window->exportActions()->recording();
  RecordingSettings settings;
  settings.path = QString::fromStdString((dir / "clip.mp4").string());
  settings.picture.size = QSize(320, 180);
  settings.every = 2;
  ASSERT_TRUE(session.start(settings)) << session.error().toStdString();
  ASSERT_TRUE(test::waitUntil([&] { return session.framesCaptured() >= 3; }));
  window.reset();
  EXPECT_TRUE(test::filesIn(dir).empty());
}

TEST(StudioExportSession, ClosingAWindowWhileItRecordsDiscardsTheFile) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const Scenario small = resizedScenario(presetScenario("default"), 40, 40, 40);
  closeMidRecording<MainWindow>("close-main", small);
  closeMidRecording<CompareWindow>("close-compare", small, QStringList{"cpu-serial", "cpu-parallel"});
}

TEST(StudioExportSession, BadSettingsAreRefusedWithoutWritingAnything) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  MainWindow window(presetScenario("default"));
  window.show();
  RecordingSession& session = *window.exportActions()->recording();
  const std::filesystem::path dir = test::scratchPath("session-bad");
  std::filesystem::create_directories(dir);
  RecordingSettings settings;
  settings.picture.size = QSize(320, 180);
  for (const QString& path : {QString::fromStdString((dir / "clip.avi").string()), QString::fromStdString((dir / "x" / "clip.mp4").string())}) {
    settings.path = path;
    EXPECT_FALSE(session.start(settings)) << path.toStdString();
    EXPECT_FALSE(session.error().isEmpty());
    EXPECT_EQ(session.state(), RecordingSession::State::Idle);
  }
  settings.path = QString::fromStdString((dir / "clip.mp4").string());
  settings.picture.size = QSize(321, 180);
  EXPECT_FALSE(session.start(settings));
  EXPECT_NE(session.error().indexOf("even width"), -1) << session.error().toStdString();
  EXPECT_TRUE(test::filesIn(dir).empty());
}

}  // namespace
}  // namespace iso
