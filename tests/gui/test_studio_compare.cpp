// The compare view: several stages on one scenario in lockstep. The coordinator with real CPU solvers
// (no display needed), then the window in-process and the binary end to end (under xvfb-run).
#include <gtest/gtest.h>

#include <QDir>
#include <QImage>
#include <QPainter>
#include <QStatusBar>
#include <QToolBar>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "app/studio/CompareViewport.h"
#include "app/studio/CompareWindow.h"
#include "app/controller/LockstepCoordinator.h"
#include "app/studio/MainWindow.h"
#include "core/ScenarioResize.h"
#include "app/studio/SimulationPane.h"
#include "render/SliceView.h"
#include "tests/gui/test_painted_text.h"
#include "tests/gui/test_render_support.h"
#include "tests/gui/test_studio_support.h"
#include "tests/support/StudioProcess.h"

namespace iso {
namespace {

Scenario smallScenario(int n = 40) {
  Scenario s = resizedScenario(presetScenario("default"), n, n, n);
  s.stage = "cpu-serial";
  return s;
}

// ---- LockstepCoordinator, no window ----

TEST(LockstepCoordinator, SlowAndFastStagesMeetAtEveryCommonStep) {
  // cpu-serial is several times slower than cpu-parallel: without the lockstep the fast ones run away.
  const std::vector<std::string> stages = {"cpu-serial", "cpu-parallel", "cpu-parallel"};
  std::vector<std::unique_ptr<SimulationController>> controllers;
  std::vector<SimulationController*> pointers;
  for (std::size_t n = 0; n < stages.size(); ++n) {
    controllers.push_back(std::make_unique<SimulationController>());
    pointers.push_back(controllers.back().get());
  }
  LockstepCoordinator coordinator;
  coordinator.setControllers(pointers);
  constexpr int kBatch = 3;
  constexpr long kStop = 45;
  coordinator.setBatch(kBatch);
  coordinator.setStopStep(kStop);
  std::vector<std::optional<Scenario>> scenarios;
  for (const std::string& stage : stages) {
    Scenario s = smallScenario(32);
    s.stage = stage;
    scenarios.push_back(s);
  }
  coordinator.restart(scenarios);
  for (auto& c : controllers) c->start();
  coordinator.setPlaying(true);

  std::vector<long> commonSteps;
  long widestGap = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60 * test::timeoutScale());
  while (coordinator.rendezvousStep() < kStop && std::chrono::steady_clock::now() < deadline) {
    if (coordinator.poll()) {
      commonSteps.push_back(coordinator.rendezvousStep());
      for (const auto& slices : coordinator.rendezvousSlices()) {
        ASSERT_TRUE(slices);
        EXPECT_EQ(slices->step, coordinator.rendezvousStep()) << "slices of another step at a common step";
      }
    }
    long lo = 1L << 40, hi = -1;
    for (const auto& c : controllers) {
      const long step = c->status().step;
      lo = std::min(lo, step);
      hi = std::max(hi, step);
    }
    widestGap = std::max(widestGap, hi - lo);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_EQ(coordinator.rendezvousStep(), kStop) << "the run did not reach the stop step";
  EXPECT_LE(widestGap, kBatch) << "a controller ran ahead of another by more than one batch";
  ASSERT_GE(commonSteps.size(), 2u);
  EXPECT_EQ(commonSteps.front(), 0);
  for (std::size_t n = 1; n < commonSteps.size(); ++n) EXPECT_EQ(commonSteps[n] - commonSteps[n - 1], kBatch);
  // The run rests at the stop step: nobody went past it.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  for (const auto& c : controllers) EXPECT_EQ(c->status().step, kStop);
}

TEST(LockstepCoordinator, AnInactiveControllerIsNotWaitedFor) {
  SimulationController good, broken;
  LockstepCoordinator coordinator;
  coordinator.setControllers({&good, &broken});
  coordinator.setBatch(2);
  coordinator.setStopStep(10);
  Scenario bad = smallScenario(24);
  bad.stage = "no-such-stage";
  coordinator.restart({smallScenario(24), bad});
  good.start();
  broken.start();
  coordinator.setPlaying(true);
  // The broken one reports its failure; the GUI then takes it out of the lockstep.
  std::string message;
  ASSERT_TRUE(test::waitUntil([&] {
    for (const auto& e : broken.takeEvents())
      if (e.kind == ControllerEvent::Kind::Error) message = e.message;
    coordinator.poll();
    return !message.empty();
  }));
  EXPECT_NE(message.find("no-such-stage"), std::string::npos) << message;
  EXPECT_EQ(coordinator.rendezvousStep(), -1) << "a common step without the broken controller's slices";
  coordinator.setActive(1, false);
  ASSERT_TRUE(test::waitUntil([&] {
    coordinator.poll();
    return coordinator.rendezvousStep() == 10;
  }));
  EXPECT_TRUE(coordinator.rendezvousSlices()[0]);
  EXPECT_FALSE(coordinator.rendezvousSlices()[1]);
}

// ---- the window ----

class CompareWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
    window_ = std::make_unique<CompareWindow>(smallScenario(), QStringList{"cpu-serial", "cpu-parallel"});
    window_->resize(1280, 720);
    window_->show();
  }
  std::string problems() const {
    std::string out;
    for (int n = 0; n < window_->viewportCount(); ++n)
      if (window_->viewport(n)->hasProblem()) out += window_->viewport(n)->problem().toStdString() + "\n";
    return out;
  }
  std::unique_ptr<CompareWindow> window_;
};

TEST_F(CompareWindowTest, FourStagesStayInLockstepAndAgreeWithCpuSerial) {
  constexpr int kBatch = 4;
  constexpr long kStop = 80;
  window_->setStages({"cpu-serial", "cpu-parallel", "gpu-basic", "gpu-optimized"});
  window_->setStepsPerFrame(kBatch);
  window_->setStopStep(kStop);
  window_->setPlaying(true);
  // Sample what the views show while playing: every drawn frame is a common step, and the views never
  // show steps further apart than one common frame.
  long widestShownGap = 0, widestRunGap = 0;
  int samples = 0;
  ASSERT_TRUE(test::waitUntil([&] {
    long lo = 1L << 40, hi = -1, runLo = 1L << 40, runHi = -1;
    for (int n = 0; n < window_->viewportCount(); ++n) {
      const long shown = window_->viewport(n)->pane()->shownStep();
      const long running = window_->viewport(n)->pane()->controller().status().step;
      if (shown >= 0) {
        EXPECT_EQ(shown % kBatch, 0) << "viewport " << n + 1 << " drew step " << shown;
      }
      lo = std::min(lo, shown);
      hi = std::max(hi, shown);
      runLo = std::min(runLo, running);
      runHi = std::max(runHi, running);
    }
    if (lo >= 0) widestShownGap = std::max(widestShownGap, hi - lo);
    widestRunGap = std::max(widestRunGap, runHi - runLo);
    ++samples;
    return lo == kStop;
  }, 120000)) << problems();
  EXPECT_GT(samples, 10);
  EXPECT_LE(widestShownGap, kBatch) << "views showed steps more than one common frame apart";
  EXPECT_LE(widestRunGap, kBatch) << "a stage ran more than one batch ahead";
  EXPECT_EQ(window_->shownStep(), kStop);
  EXPECT_EQ(problems(), "");
  // The lockstep keeps copies of each common step: every viewport names the host path and why (in the
  // counters' tooltip: the views keep the room).
  for (int n = 0; n < 4; ++n)
    EXPECT_TRUE(test::waitUntil([&] {
      return window_->viewport(n)->countersDetail().contains("slices: host copy (triple buffer): 2 host copies per frame "
                                                             "(the compare view's lockstep keeps copies");
    })) << window_->viewport(n)->countersDetail().toStdString();
  ASSERT_EQ(window_->referenceIndex(), 0) << "cpu-serial is the reference";
  for (int n = 1; n < 4; ++n) {
    const CompareWindow::Agreement& a = window_->agreement(n);
    ASSERT_TRUE(a.run.compared()) << "viewport " << n + 1;
    EXPECT_TRUE(a.agrees()) << "viewport " << n + 1 << ": error " << a.run.worst().relativeL2 << ", max |diff| "
                            << a.run.worst().maxAbs;
  }
}

TEST_F(CompareWindowTest, NoVerdictBeforeTheFirstStepThenTheDifferenceIsDrawnAndPrintedAsMeasured) {
  window_->setStages({"cpu-serial", "cpu-parallel"});
  window_->setStepsPerFrame(2);
  // Step 0: both hold the same initial field; nothing was computed to compare.
  ASSERT_TRUE(test::waitUntil([&] { return window_->shownStep() == 0; })) << problems();
  window_->refreshCounters();
  EXPECT_FALSE(window_->agreement(1).run.compared());
  EXPECT_FALSE(window_->viewport(1)->counters().contains("✓")) << window_->viewport(1)->counters().toStdString();
  EXPECT_TRUE(window_->summary().join('\n').contains("not compared yet")) << window_->summary().join('\n').toStdString();

  window_->setDifference(true);
  window_->setStopStep(30);
  window_->setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] {
    return window_->shownStep() == 30 && window_->viewport(1)->pane()->controller().status().throughput.mpts > 0;
  })) << problems();
  ASSERT_TRUE(window_->agreement(1).run.compared());
  // The reference keeps its wavefield; the other viewport draws |u - u_ref| of the same step.
  EXPECT_FALSE(window_->viewport(0)->showsDifference());
  ASSERT_TRUE(window_->viewport(1)->showsDifference());
  SliceView* view = window_->viewport(1)->pane()->view();
  EXPECT_EQ(view->colormap(), "inferno");
  const auto shown = view->slices(), reference = window_->coordinator().rendezvousSlices()[0],
             own = window_->coordinator().rendezvousSlices()[1];
  ASSERT_TRUE(shown && reference && own);
  float largest = 0.0f;
  for (std::size_t i = 0; i < shown->planes().size(); ++i) {
    ASSERT_EQ(shown->planes()[i], std::fabs(own->planes()[i] - reference->planes()[i])) << "sample " << i;
    largest = std::max(largest, shown->planes()[i]);
  }
  EXPECT_FLOAT_EQ(largest, float(window_->agreement(1).run.last().maxAbs)) << "the max printed is the max drawn";
  // The colour bar names what it shows, and under it the max printed above the view.
  const std::vector<test::PaintedText> texts = test::paintedTexts(*view);
  const auto painted = [&](const QString& text) {
    return std::any_of(texts.begin(), texts.end(), [&](const test::PaintedText& t) { return t.text == text; });
  };
  EXPECT_TRUE(painted("|u − u_ref|"));
  const QString max = "max " + QString::number(window_->agreement(1).run.last().maxAbs, 'e', 1);
  EXPECT_TRUE(painted(max)) << max.toStdString();
  EXPECT_TRUE(window_->viewport(1)->counters().contains("max |Δ| " + QString::number(window_->agreement(1).run.last().maxAbs, 'e', 1)));
  // What the window prints is what its counters show: the same Mpts/s.
  window_->refreshCounters();
  const QString counters = window_->viewport(1)->counters();
  const QRegularExpression rate("<b>([0-9.]+) Mpts/s</b>");
  const QRegularExpressionMatch shownRate = rate.match(counters);
  ASSERT_TRUE(shownRate.hasMatch()) << counters.toStdString();
  EXPECT_TRUE(window_->summary()[1].contains(shownRate.captured(1) + " Mpts/s")) << window_->summary()[1].toStdString();
  // Off again: the wavefield, in its own colours.
  window_->setDifference(false);
  EXPECT_FALSE(window_->viewport(1)->showsDifference());
  EXPECT_EQ(view->colormap(), "seismic");
  EXPECT_EQ(view->slices(), own);
}

TEST_F(CompareWindowTest, FullScreenLeavesTheRoomToTheViewports) {
  const int before = window_->viewport(0)->height();
  window_->setPresentation(true);
  EXPECT_TRUE(test::waitUntil([&] { return window_->viewport(0)->height() > before; }));
  EXPECT_FALSE(window_->findChild<QToolBar*>("compareToolbar")->isVisible());
  EXPECT_FALSE(window_->statusBar()->isVisible());
  window_->setPresentation(false);
  EXPECT_TRUE(window_->findChild<QToolBar*>("compareToolbar")->isVisible());
  EXPECT_FALSE(window_->isFullScreen());
}

// Auto's rule, apart from the frame rates a loaded machine happens to reach.
TEST(CompareAutoStepsPerFrame, HalvesBelowTheGoalClimbsByOneWellAboveItAndStaysInBetween) {
  constexpr double goal = CompareWindow::kAutoFramesPerSecond;
  EXPECT_EQ(CompareWindow::adaptedStepsPerFrame(8, goal - 1.0), 4);
  EXPECT_EQ(CompareWindow::adaptedStepsPerFrame(1, 2.0), 1) << "never below one step per frame";
  EXPECT_EQ(CompareWindow::adaptedStepsPerFrame(4, goal * 2.0), 5);
  EXPECT_EQ(CompareWindow::adaptedStepsPerFrame(CompareWindow::kMaxAutoStepsPerFrame, 500.0), CompareWindow::kMaxAutoStepsPerFrame);
  EXPECT_EQ(CompareWindow::adaptedStepsPerFrame(6, goal * 1.2), 6) << "between the goal and a third above it: kept";
}

// In the window: auto starts at one step per frame and stays there when a slow setup cannot keep the
// frame rate (whatever else loads the machine, it is only slower), and a fixed value is kept.
TEST_F(CompareWindowTest, AutoStaysAtOneStepPerFrameWhenSlowAndAFixedValueIsKept) {
  window_->setStepsPerFrame(CompareWindow::kAutoStepsPerFrame);
  EXPECT_EQ(window_->stepsPerFrame(), 1) << "auto starts at one step per frame";

  // cpu-serial at 120³ takes tens of milliseconds a step: any batch above one misses 30 frames/s.
  Scenario big = smallScenario(120);
  window_->setStages({"cpu-serial", "cpu-serial"});
  window_->setBaseScenario(big);
  window_->setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return window_->stepsPerFrame() == 1 && window_->shownStep() > 4; }, 120000))
      << "still " << window_->stepsPerFrame() << " steps per frame; " << problems();

  // A fixed value is kept whatever the frame rate: common frames then come 7 steps apart (counted from
  // wherever the run was, so compare consecutive frames, not the step modulo 7).
  std::vector<long> frames;
  QObject::connect(window_.get(), &CompareWindow::commonFrame, window_.get(), [&](long step) { frames.push_back(step); });
  window_->setStepsPerFrame(7);
  ASSERT_TRUE(test::waitUntil([&] { return frames.size() >= 4; }, 120000)) << problems();
  EXPECT_EQ(frames[frames.size() - 1] - frames[frames.size() - 2], 7);
  EXPECT_EQ(frames[frames.size() - 2] - frames[frames.size() - 3], 7);
  EXPECT_EQ(window_->stepsPerFrame(), 7);
}

TEST_F(CompareWindowTest, PauseStepAndResetActOnAll) {
  window_->setStages({"cpu-serial", "cpu-parallel"});
  window_->setStepsPerFrame(5);
  window_->setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return window_->shownStep() >= 10; })) << problems();
  window_->setPlaying(false);
  // The pause lands on the next common step, which the controllers may still be on their way to (both
  // at the last one and shown is not enough: they must have stopped); then nothing moves.
  ASSERT_TRUE(test::waitUntil([&] {
    const ControllerStatus a = window_->viewport(0)->pane()->controller().status();
    const ControllerStatus b = window_->viewport(1)->pane()->controller().status();
    return !a.playing && !b.playing && a.step == b.step && window_->shownStep() == a.step;
  }));
  const long paused = window_->shownStep();
  EXPECT_EQ(paused % 5, 0);
  window_->stepOnce();
  ASSERT_TRUE(test::waitUntil([&] { return window_->shownStep() == paused + 1; }));
  for (int n = 0; n < 2; ++n) EXPECT_EQ(window_->viewport(n)->pane()->controller().status().step, paused + 1);
  window_->reset();
  ASSERT_TRUE(test::waitUntil([&] {
    return window_->shownStep() == 0 && window_->viewport(0)->pane()->controller().status().step == 0 &&
           window_->viewport(1)->pane()->controller().status().step == 0;
  }));
}

TEST_F(CompareWindowTest, BadStagesShowAMessageInTheirViewportAndTheOthersRun) {
  window_->setStages({"cpu-serial", "no-such-stage", "gpu-basic@9:9", "cpu-parallel"});
  window_->setStopStep(12);
  window_->setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return window_->shownStep() == 12; })) << problems();
  EXPECT_FALSE(window_->viewport(0)->hasProblem());
  EXPECT_FALSE(window_->viewport(3)->hasProblem());
  EXPECT_TRUE(window_->viewport(1)->problem().contains("Unknown stage 'no-such-stage'")) << problems();
  ASSERT_TRUE(test::waitUntil([&] { return window_->viewport(2)->hasProblem(); }));
  EXPECT_TRUE(window_->viewport(2)->problem().contains("9:9")) << problems();
  EXPECT_TRUE(window_->agreement(3).run.compared());
}

TEST_F(CompareWindowTest, MoreThanFourStagesAreRefusedWithAMessage) {
  window_->setStages({"cpu-serial", "cpu-parallel", "cpu-serial", "cpu-parallel", "gpu-basic"});
  EXPECT_EQ(window_->viewportCount(), CompareWindow::kMaxViewports);
  EXPECT_TRUE(window_->notice().contains("at most 4")) << window_->notice().toStdString();
  EXPECT_TRUE(window_->notice().contains("gpu-basic")) << window_->notice().toStdString();
}

TEST_F(CompareWindowTest, LinkedViewsShareModeAndCamera) {
  window_->setStages({"cpu-serial", "cpu-parallel"});
  window_->setStopStep(0);
  ASSERT_TRUE(test::waitUntil([&] { return window_->shownStep() == 0; })) << problems();
  SliceView* first = window_->viewport(0)->pane()->view();
  SliceView* second = window_->viewport(1)->pane()->view();
  window_->setLinked(true);
  window_->setViewMode(2);
  EXPECT_EQ(second->mode(), SliceView::Mode::PlaneXZ);
  window_->setViewMode(0);
  OrbitCamera moved = first->camera();
  moved.orbit(120.0f, 40.0f);
  first->setCamera(moved);
  emit first->cameraMoved();
  EXPECT_FLOAT_EQ(second->camera().yaw(), moved.yaw());
  EXPECT_FLOAT_EQ(second->camera().pitch(), moved.pitch());
  window_->setLinked(false);
  window_->setViewMode(3);  // acts on the current viewport only (the first)
  EXPECT_EQ(first->mode(), SliceView::Mode::PlaneYZ);
  EXPECT_EQ(second->mode(), SliceView::Mode::Orthogonal3D);
}

// The velocity tint, off at first, for every view; a view too short for two colour bars keeps the
// wavefield's with its ticks and leaves the velocity's out.
TEST_F(CompareWindowTest, VelocityTintsEveryViewAndTheWavefieldsBarKeepsItsTicks) {
  QAction* velocity = window_->findChild<QAction*>("velocityAction");
  ASSERT_NE(velocity, nullptr);
  EXPECT_FALSE(velocity->isChecked());
  const QRegularExpression number("^[-−]?\\d+(\\.\\d+)?(e[-+]?\\d+)?$");
  // In each view: the wavefield bar's numeric ticks (in the bars' column, the view's right 118 px), and
  // whether the velocity bar shows.
  const auto bars = [&](SliceView* view) {
    int ticks = 0;
    bool velocityBar = false;
    for (const test::PaintedText& t : test::paintedTexts(*view)) {
      if (t.text == "v (m/s)") velocityBar = true;
      if (!velocityBar && t.box.left() > view->width() - 118 && number.match(t.text).hasMatch()) ++ticks;
    }
    return std::make_pair(ticks, velocityBar);
  };
  for (const int count : {4, 2}) {
    window_->setStages(count == 4 ? QStringList{"cpu-serial", "cpu-parallel", "cpu-serial", "cpu-parallel"}
                                  : QStringList{"cpu-serial", "cpu-parallel"});
    window_->setStopStep(40);
    window_->setPlaying(true);
    velocity->setChecked(false);
    ASSERT_TRUE(test::waitUntil([&] { return window_->shownStep() == 40; })) << problems();
    SliceView* view = window_->viewport(count - 1)->pane()->view();
    const QImage plain = view->grabFramebuffer();
    velocity->setChecked(true);
    for (int n = 0; n < count; ++n) {
      SliceView* v = window_->viewport(n)->pane()->view();
      const auto [ticks, velocityBar] = bars(v);
      EXPECT_GE(ticks, 2) << count << " views, view " << n << " (" << v->height() << " px tall)";
      EXPECT_EQ(velocityBar, count == 2) << count << " views, view " << n << " (" << v->height() << " px tall)";
    }
    EXPECT_NE(view->grabFramebuffer(), plain) << "the tint changes the picture";
    test::saveScreenshot(SliceView::grabWithViews(*window_), QStringLiteral("compare_velocity_%1").arg(count));
  }
}

TEST(CompareFromMainWindow, OpensOnTheActiveScenarioAndPausesTheMainRun) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario s = smallScenario(28);
  s.stage = "cpu-parallel";
  MainWindow main(s);
  main.show();
  main.setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return main.pane()->lastStatus().step > 0; }));
  CompareWindow* compare = main.openCompareWindow();
  ASSERT_TRUE(compare);
  EXPECT_EQ(main.openCompareWindow(), compare) << "a second request raises the same window";
  ASSERT_TRUE(test::waitUntil([&] {
    bool all = compare->shownStep() == 0;
    for (int n = 0; n < compare->viewportCount(); ++n)
      all = all && compare->viewport(n)->pane()->controller().status().grid == Grid(28, 28, 28);
    return all;
  })) << "the compare view does not run the main window's scenario";
  EXPECT_TRUE(test::waitUntil([&] { return !main.pane()->controller().status().playing; }))
      << "the main run goes on, competing for the devices";
  compare->close();
}

// ---- the binary ----


// Pixels of the seismic colour map's saturated ends (strong red or blue, little green): the wave, not the
// grey interface, the white of a quiet field or the axis labels (whose green is high).
int wavePixels(const QImage& image, const QRect& area) {
  int count = 0;
  for (int y = area.top(); y <= area.bottom(); ++y)
    for (int x = area.left(); x <= area.right(); ++x) {
      const QRgb c = image.pixel(x, y);
      if (std::abs(qRed(c) - qBlue(c)) > 160 && qGreen(c) < 120) ++count;
    }
  return count;
}

TEST(StudioCompareBinary, FourStagesScreenshotShowsFourWavesAndAgreement) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  QTemporaryDir dir;
  const QString shot = dir.filePath("compare.png");
  // 160 steps (the pulse's peak leaves at 133): the wave has left the source cell and fills a disc of
  // the XZ plane.
  const test::StudioRun r = test::runStudio({"--size", "48,48,48", "--compare", "cpu-serial,cpu-parallel,gpu-basic,gpu-optimized",
                                 "--steps", "160", "--steps-per-frame", "10", "--mode", "xz", "--screenshot", shot});
  ASSERT_EQ(r.exitCode, 0) << r.output.toStdString();
  for (int n = 1; n <= 4; ++n) EXPECT_TRUE(r.output.contains(QStringLiteral("viewport %1:").arg(n))) << r.output.toStdString();
  EXPECT_EQ(r.output.count("of the peak norm"), 3) << r.output.toStdString();
  QImage image(shot);
  ASSERT_FALSE(image.isNull());
  if (qEnvironmentVariableIsSet("ISO_TEST_SAVE_IMAGES")) image.save(QDir::temp().filePath("studio_compare.png"));
  // Each quadrant holds one viewport; its colour bar (the right fifth) is left out.
  const int w = image.width() / 2, h = image.height() / 2;
  for (int q = 0; q < 4; ++q) {
    const QRect plane((q % 2) * w, (q / 2) * h, w * 4 / 5, h);
    EXPECT_GT(wavePixels(image, plane), 300) << "no wave in quadrant " << q + 1;
  }
}

TEST(StudioCompareBinary, DifferenceModeDrawsWhereTheStagesDiffer) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  QTemporaryDir dir;
  const QString shot = dir.filePath("difference.png");
  const test::StudioRun r = test::runStudio({"--size", "32,32,32", "--compare", "cpu-serial,cpu-parallel", "--difference", "--steps",
                                             "40", "--mode", "xz", "--screenshot", shot});
  ASSERT_EQ(r.exitCode, 0) << r.output.toStdString();
  EXPECT_TRUE(r.output.contains("max |diff|")) << r.output.toStdString();
  QImage image(shot);
  ASSERT_FALSE(image.isNull());
  // The right viewport draws in the inferno colours (black to yellow), not the seismic ones (white
  // about zero): its plane (below the headers, left of the colour bar) holds no white; the left one does.
  const int w = image.width() / 2;
  const auto whiteIn = [&](int left) {
    int white = 0;
    for (int y = image.height() / 4; y < image.height() * 19 / 20; ++y)
      for (int x = left; x < left + w * 3 / 5; ++x) {
        const QColor c = image.pixelColor(x, y);
        white += c.red() > 245 && c.green() > 245 && c.blue() > 245;
      }
    return white;
  };
  EXPECT_GT(whiteIn(0), 1000) << "the reference shows its wavefield";
  EXPECT_LT(whiteIn(w), 50) << "the difference viewport shows a wavefield";
  const test::StudioRun alone = test::runStudio({"--difference", "--steps", "1", "--screenshot", dir.filePath("x.png")}, {"QT_QPA_PLATFORM=offscreen"});
  EXPECT_EQ(alone.exitCode, 2);
  EXPECT_TRUE(alone.output.contains("--difference belongs to --compare")) << alone.output.toStdString();
}

TEST(StudioCompareBinary, BadStageListsExitWithAMessage) {
  const test::StudioRun five = test::runStudio({"--compare", "cpu-serial,cpu-serial,cpu-serial,cpu-serial,cpu-serial", "--steps", "1",
                              "--screenshot", "x.png"});
  EXPECT_EQ(five.exitCode, 2);
  EXPECT_TRUE(five.output.contains("expected 2 to 4 stages")) << five.output.toStdString();
  if (!test::haveDisplay()) GTEST_SKIP() << "the unknown-stage run needs an X display with OpenGL";
  QTemporaryDir dir;
  const test::StudioRun unknown = test::runStudio({"--size", "24,24,24", "--compare", "cpu-serial,warp-drive", "--steps", "4",
                                 "--screenshot", dir.filePath("unknown.png")});
  EXPECT_EQ(unknown.exitCode, 1);
  EXPECT_TRUE(unknown.output.contains("Unknown stage 'warp-drive'")) << unknown.output.toStdString();
  EXPECT_TRUE(unknown.output.contains("viewport 1: cpu-serial on")) << "the other viewport ran: " << unknown.output.toStdString();
}

}  // namespace
}  // namespace iso
