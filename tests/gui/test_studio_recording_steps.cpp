// Which steps a recording takes its frames at, against a scripted run: the screen may show a frame's step
// while the run has played past it (its pause step was still on its way), and the status that says where
// the run rests may lag behind the slices on screen. No display needed: the pictures are plain images.
#include <gtest/gtest.h>

#include <QImage>
#include <QObject>
#include <vector>

#include "app/studio/RecordableView.h"
#include "app/studio/RecordingSession.h"
#include "tests/ScratchDir.h"
#include "tests/gui/test_studio_support.h"

namespace iso {
namespace {

// A run whose screen and status the test moves by hand. Slices reach the screen through a real
// connection (the QObject's name carries the step), so the session can let go of it as it would.
class ScriptedRun : public RecordableView {
 public:
  void show(long step) {
    shown = step;
    screen.setObjectName(QString::number(step));
  }

  QSize screenPixels() const override { return {32, 18}; }
  long imageStep() const override { return shown; }
  long restingStep() const override { return resting; }
  QMetaObject::Connection connectImageStep(QObject* context, std::function<void(long)> slot) override {
    return QObject::connect(&screen, &QObject::objectNameChanged, context,
                            [slot](const QString& step) { slot(step.toLong()); });
  }
  void setPauseAtStep(long step) override { pauseAt = step; }
  void setRunPlaying(bool playing) override { plays = playing; }
  QImage renderImage(const ImageOptions& options, QString&) override {
    drawnAt.push_back(shown);
    QImage image(options.size, QImage::Format_RGBA8888);
    image.fill(Qt::darkBlue);
    return image;
  }
  void setRecordingNotice(const QString&) override {}
  QString glInfo() const override { return QStringLiteral("none (scripted)"); }

  QObject screen;
  long shown = -1, resting = -1, pauseAt = -1;
  bool plays = true;
  std::vector<long> drawnAt;  // the step on screen at each picture drawn
};

TEST(RecordingSteps, AFrameIsTakenOnlyWhereTheRunRestsSoNoStepsAreSkipped) {
  ScriptedRun run;
  run.show(350);
  RecordingSession session(&run);
  RecordingSettings settings;
  settings.path = QString::fromStdString(test::scratchPath("scripted-frames").string());
  settings.picture.size = QSize(32, 18);
  settings.every = 3;
  ASSERT_TRUE(session.start(settings)) << session.error().toStdString();
  EXPECT_EQ(run.pauseAt, 351);

  // The first frame's slices reach the screen while the run plays on past them: no frame there.
  run.show(351);
  test::runEventsFor(30);
  EXPECT_EQ(session.framesCaptured(), 0);
  // It comes to rest past the step; until its slices arrive, still none.
  run.resting = 356;
  test::runEventsFor(30);
  EXPECT_EQ(session.framesCaptured(), 0);
  // Its slices: the frame moves to the next multiple, and the run is sent on to it.
  run.plays = false;
  run.show(356);
  EXPECT_EQ(run.pauseAt, 357);
  EXPECT_TRUE(run.plays);
  EXPECT_EQ(session.framesCaptured(), 0);

  // The run stops at 357 and its slices come before its status says so: taken once it does.
  run.resting = -1;
  run.show(357);
  test::runEventsFor(30);
  EXPECT_EQ(session.framesCaptured(), 0);
  run.resting = 356;  // the status of the batch before
  test::runEventsFor(30);
  EXPECT_EQ(session.framesCaptured(), 0);
  run.resting = 357;
  ASSERT_TRUE(test::waitUntil([&] { return session.framesCaptured() == 1; }));
  EXPECT_EQ(run.pauseAt, 360);  // this view streams nothing: the run stops at every frame's step

  // The next frames, one multiple after the other.
  for (long step : {360L, 363L}) {
    run.resting = -1;
    run.show(step);
    run.resting = step;
    ASSERT_TRUE(test::waitUntil([&] { return session.framesCaptured() == (step - 354) / 3; })) << step;
  }
  EXPECT_EQ(run.drawnAt, (std::vector<long>{357, 360, 363}));

  bool done = false, ok = false;
  QObject::connect(&session, &RecordingSession::finished, [&](bool success, const QString&) { done = true, ok = success; });
  session.stop();
  ASSERT_TRUE(test::waitUntil([&] { return done; }));
  EXPECT_TRUE(ok) << session.error().toStdString();
  EXPECT_EQ(run.pauseAt, -1);
}

}  // namespace
}  // namespace iso
