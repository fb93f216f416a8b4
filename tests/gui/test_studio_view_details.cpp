// Details of the main window's view a class notices: every axis keeps its ticks beside its title, the
// receivers at both ends of a line keep their numbers, the value under the pointer follows the run, a
// run that cannot start says so in the view and offers Play again, and a recorded frame's counters give
// the video's frame rate.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCursor>
#include <QEvent>
#include <QLabel>
#include <QListWidget>
#include <QObject>
#include <algorithm>
#include <cmath>

#include "app/studio/MainWindow.h"
#include "app/studio/SimulationPane.h"
#include "core/ScenarioResize.h"
#include "render/SliceView.h"
#include "tests/gui/test_painted_text.h"
#include "tests/gui/test_studio_support.h"

namespace iso {
namespace {

// How many places the text is painted at: a label's dark halo is the same text drawn a pixel or two
// around it, and counts with it as one.
int count(const std::vector<test::PaintedText>& texts, const QString& text) {
  std::vector<QPointF> places;
  for (const test::PaintedText& t : texts) {
    if (t.text != text) continue;
    const QPointF at = t.box.topLeft();
    const auto near = [&](const QPointF& p) { return std::abs(p.x() - at.x()) <= 2 && std::abs(p.y() - at.y()) <= 2; };
    if (std::none_of(places.begin(), places.end(), near)) places.push_back(at);
  }
  return int(places.size());
}

TEST(ViewDetails, TheDefaultSceneKeepsItsDepthTickAndBothEndsOfTheReceiverLine) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario s = presetScenario("default");  // 96³, eleven receivers on a line
  s.stage = "cpu-parallel";
  MainWindow window(s);
  window.resize(1280, 720);
  window.show();
  ASSERT_TRUE(test::waitUntil([&] { return window.pane()->view()->slices() != nullptr; }));
  test::runEventsFor(300);
  const auto texts = test::paintedTexts(*window.pane()->view());
  EXPECT_EQ(count(texts, "z, depth (m)"), 1);
  EXPECT_EQ(count(texts, "400"), 3) << "the 400 m tick of x, y and z: the depth axis's title hid its own";
  EXPECT_GE(count(texts, "0"), 1) << "receiver 0 is numbered";
  EXPECT_EQ(count(texts, "10"), 1) << "receiver 10, at the other end of the line, is numbered";
}

// Swallows the leave events of the object it filters.
class KeepsThePointerIn : public QObject {
 public:
  bool eventFilter(QObject*, QEvent* event) override { return event->type() == QEvent::Leave; }
};

TEST(ViewDetails, TheValueUnderThePointerFollowsTheRunThroughAReset) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario s = resizedScenario(presetScenario("default"), 32, 32, 32);
  s.stage = "cpu-serial";
  s.steps = 60;
  MainWindow window(s);
  window.show();
  window.setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return window.pane()->view()->slices() && window.pane()->view()->slices()->step >= 60; }));
  const auto source = window.pane()->view()->slices();
  // The X pointer itself over the view: left elsewhere, the server may tell the view it left at any time
  // (a window mapped or moved under it), which rightly clears the probe.
  // The server's crossing events for the move come later, under load well after one pass of the event
  // loop (a leave among them cleared the probe in a loaded run): they are taken first.
  SliceView* view = window.pane()->view();
  const QPoint centre = view->mapToGlobal(view->rect().center());
  QCursor::setPos(centre);
  ASSERT_TRUE(test::waitUntil([&] { return QCursor::pos() == centre; }));
  test::runEventsFor(300);
  // Another test's window, mapped under the pointer on the display the tests share, still makes the
  // server send a leave at any time: the view does not see one while this test looks at the probe.
  KeepsThePointerIn keep;
  view->installEventFilter(&keep);
  emit view->cellHovered(source->i, source->j, source->k);  // the pointer rests on the source
  auto* probe = window.findChild<QLabel*>("probe");
  ASSERT_NE(probe, nullptr);
  EXPECT_FALSE(probe->text().contains("u = 0 ")) << probe->text().toStdString();
  window.pane()->controller().reset();
  ASSERT_TRUE(test::waitUntil([&] { return window.pane()->view()->slices() && window.pane()->view()->slices()->step == 0; }));
  EXPECT_TRUE(test::waitUntil([&] { return probe->text().contains("u = 0 "); })) << "after the reset: " << probe->text().toStdString();
}

TEST(ViewDetails, ARunThatCannotStartSaysWhyAndOffersPlayAgain) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario s = resizedScenario(presetScenario("default"), 24, 24, 24);
  s.stage = "gpu-basic";
  s.device = "no-such-device";
  MainWindow window(s);
  window.show();
  window.setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return window.messages()->count() > 0; }));
  EXPECT_TRUE(test::waitUntil([&] { return !window.playButtonChecked(); })) << "Pause stays offered for a run that never started";
  const auto texts = test::paintedTexts(*window.pane()->view());
  EXPECT_TRUE(std::any_of(texts.begin(), texts.end(), [](const test::PaintedText& t) { return t.text.contains("could not start"); }));
  EXPECT_EQ(count(texts, "No wavefield yet: waiting for the first slices."), 0);
}

TEST(ViewDetails, ARecordedFrameGivesTheVideosFrameRate) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario s = resizedScenario(presetScenario("default"), 24, 24, 24);
  s.stage = "cpu-serial";
  MainWindow window(s);
  window.show();
  // The counters need the solver's status as well as its first slices.
  ASSERT_TRUE(test::waitUntil([&] { return window.pane()->view()->slices() && window.pane()->lastStatus().hasSolver; }));
  ImageOptions picture;
  picture.size = QSize(640, 360);
  picture.framesPerSecond = 12.0;
  QString error;
  ASSERT_FALSE(window.pane()->renderImage(picture, error).isNull()) << error.toStdString();
  EXPECT_TRUE(window.pane()->view()->hudLines().join('\n').contains("· 12 fps")) << window.pane()->view()->hudLines().join('\n').toStdString();
}

}  // namespace
}  // namespace iso
