// The application end to end: the real binary (exit status, screenshot) and the window in-process
// (mid-run changes, bad input, quitting). Needs an X display with OpenGL: run under xvfb-run.
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QMouseEvent>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>

#include "app/studio/MainWindow.h"
#include "app/studio/PhysicsEditor.h"
#include "app/studio/ScenarioForm.h"
#include "core/ScenarioResize.h"
#include "app/studio/SimulationPane.h"
#include "render/SliceView.h"
#include "app/studio/SourceEditor.h"
#include "compute/DeviceRegistry.h"
#include "tests/gui/test_render_support.h"
#include "tests/gui/test_studio_support.h"
#include "tests/support/StudioProcess.h"

namespace iso {
namespace {


// A homogeneous cube with the source at its centre: the wave must be symmetric about the source.
Scenario homogeneousScenario(int n = 49) {  // odd: the centre cell is the plane's centre
  Scenario s = resizedScenario(presetScenario("default"), n, n, n);
  s.name = "homogeneous";
  s.dx = 10.0;
  s.model = VelocityModelSpec{};
  s.model.kind = ModelKind::Constant;
  s.model.velocity = 2000.0;
  s.source.kind = SourceKind::Ricker;
  s.source.i = s.source.j = s.source.k = -1;
  s.source.frequency = 20.0;
  s.source.delay = -1.0;
  s.stage = "cpu-parallel";
  return s;
}

// What the form shows for `s` (it shows an empty layer list as one default layer, for instance).
std::string asShown(const Scenario& s) {
  ScenarioForm form;
  form.setScenario(s);
  return scenarioToJson(form.scenario());
}

double colourStdDev(const QImage& image) {
  double sum = 0.0, sum2 = 0.0;
  const double n = double(image.width()) * image.height();
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QRgb c = image.pixel(x, y);
      const double v = qRed(c) + qGreen(c) + qBlue(c);
      sum += v;
      sum2 += v * v;
    }
  return std::sqrt(std::max(0.0, sum2 / n - (sum / n) * (sum / n)));
}


TEST(StudioApp, ScreenshotAfterNStepsShowsAWave) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  QTemporaryDir dir;
  const QString shot = dir.filePath("view.png");
  const test::StudioRun r = test::runStudio({"--size", "64,64,64", "--steps", "120", "--screenshot", shot});
  ASSERT_EQ(r.exitCode, 0) << r.output.toStdString();
  QImage image(shot);
  ASSERT_FALSE(image.isNull()) << "no PNG at " << shot.toStdString();
  EXPECT_GT(image.width(), 200);
  EXPECT_GT(colourStdDev(image), 20.0) << "the view looks flat";
}

TEST(StudioApp, BadArgumentsAndMissingFilesExitWithAMessage) {
  const test::StudioRun size = test::runStudio({"--size", "0,64,64", "--steps", "1", "--screenshot", "x.png"});
  EXPECT_EQ(size.exitCode, 2);
  EXPECT_TRUE(size.output.contains("--size")) << size.output.toStdString();
  const test::StudioRun file = test::runStudio({"/nonexistent/scenario.json"});
  EXPECT_EQ(file.exitCode, 2);
  EXPECT_TRUE(file.output.contains("/nonexistent/scenario.json")) << file.output.toStdString();
  const test::StudioRun help = test::runStudio({"--help"});
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_TRUE(help.output.contains("--screenshot")) << help.output.toStdString();
}

// Drives a window in this process until its controller reaches a step.
class StudioWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
    window_ = std::make_unique<MainWindow>(homogeneousScenario());
    window_->resize(1100, 700);
    window_->show();
  }
  const ControllerStatus& status() { return window_->pane()->lastStatus(); }
  bool reachStep(long step) {
    return test::waitUntil([&] { return status().hasSolver && status().step >= step; });
  }
  int errorCount() const { return window_->messages()->count(); }
  std::string messages() const {
    std::string out;
    for (int n = 0; n < window_->messages()->count(); ++n) out += window_->messages()->item(n)->text().toStdString() + "\n";
    return out;
  }
  std::unique_ptr<MainWindow> window_;
};

TEST_F(StudioWindow, WaveInAHomogeneousModelIsSymmetricAboutTheSource) {
  // Reflecting faces: the absorbing layer's shading and its label (text, not symmetric) stay off the plane.
  Scenario s = homogeneousScenario();
  s.boundary.kind = BoundaryKind::Reflecting;
  s.receivers.clear();
  window_->applyScenario(s);
  window_->setViewMode(1);  // plane XY through the source
  window_->pane()->controller().setPauseAtStep(150);
  window_->setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return window_->pane()->shownStep() == 150; })) << messages();
  SliceView* view = window_->pane()->view();
  // The status bar's progress display appears with the run and may resize the view: compare the
  // plane once its rectangle has stopped changing.
  QRectF settled;
  ASSERT_TRUE(test::waitUntil([&] {
    QCoreApplication::processEvents();
    const QRectF now = view->planeRect();
    const bool same = now == settled;
    settled = now;
    return same;
  }));
  // The plane's place in the grabbed frame, asked after grabbing: the HUD above the plane can gain or
  // lose a line (the overlay's note, a warning) when the frame takes the newest slices, moving the plane.
  const QImage frame = view->grabFramebuffer();
  const QRect plane = view->planeRect().toAlignedRect();
  ASSERT_FALSE(plane.isEmpty());
  const QImage image = frame.copy(plane);
  if (qEnvironmentVariableIsSet("ISO_TEST_SAVE_IMAGES")) image.save(QDir::temp().filePath("studio_symmetry.png"));
  ASSERT_GT(colourStdDev(image), 10.0) << "no wave in the plane";
  // Mirror about the vertical and the horizontal centre lines (the source cell's centre); a cell off in
  // the rounding of the plane's rectangle allowed for by comparing averages over 4×4 pixel blocks.
  auto block = [&](int x, int y) {
    double v = 0.0;
    for (int dy = 0; dy < 4; ++dy)
      for (int dx = 0; dx < 4; ++dx) {
        const QRgb c = image.pixel(std::clamp(x + dx, 0, image.width() - 1), std::clamp(y + dy, 0, image.height() - 1));
        v += qRed(c) - qBlue(c);  // seismic map: red positive, blue negative
      }
    return v / 16.0;
  };
  double worst = 0.0, range = 0.0;
  const int w = image.width(), h = image.height();
  for (int y = 0; y + 4 <= h; y += 4)
    for (int x = 0; x + 4 <= w / 2; x += 4) {
      const double a = block(x, y);
      range = std::max(range, std::abs(a));
      worst = std::max(worst, std::abs(a - block(w - 4 - x, y)));
      worst = std::max(worst, std::abs(a - block(x, h - 4 - y)));
    }
  ASSERT_GT(range, 50.0) << "the wave is too faint to judge";
  EXPECT_LT(worst, 0.25 * range) << "asymmetric about the source";
}

TEST_F(StudioWindow, StageGridAndModelChangeMidRun) {
  window_->setPlaying(true);
  ASSERT_TRUE(reachStep(10)) << messages();
  Scenario s = window_->form()->scenario();
  s = resizedScenario(s, 40, s.n2, s.n3);
  s.stage = "cpu-serial";
  s.model.kind = ModelKind::Gradient;
  window_->applyScenario(s);
  ASSERT_TRUE(test::waitUntil([&] {
    return status().stage == "cpu-serial" && status().grid == Grid(40, 49, 49) && status().step >= 5;
  })) << "stage " << status().stage << ", step " << status().step;
  EXPECT_EQ(errorCount(), 0);
}

// The view leaves the cores to a solver that computes on them, an OpenCL CPU device's included.
TEST_F(StudioWindow, TheViewDrawsAtMost30FramesASecondBesideASolverOnTheHostsCores) {
  ASSERT_TRUE(reachStep(0)) << messages();
  EXPECT_TRUE(status().onHostCores);
  EXPECT_EQ(window_->pane()->view()->maxFrameRate(), 30);
  const std::vector<DeviceInfo> devices = listDevices();
  const auto cpuDevice = std::find_if(devices.begin(), devices.end(), [](const DeviceInfo& d) { return d.type == "CPU"; });
  if (cpuDevice == devices.end()) GTEST_SKIP() << "no OpenCL CPU device (PoCL) to try";
  Scenario s = window_->form()->scenario();
  s.stage = "gpu-basic";
  s.device = cpuDevice->selector();
  window_->applyScenario(s);
  ASSERT_TRUE(test::waitUntil([&] { return status().stage == "gpu-basic"; })) << messages();
  EXPECT_TRUE(status().onHostCores) << status().device;
  EXPECT_EQ(window_->pane()->view()->maxFrameRate(), 30);
}

// On a GPU the window's 3D frames are made on the solver's device and shown without OpenGL (--view-frames
// auto). Asked for on ISO_TEST_OPENCL_DEVICE, else on an OpenCL CPU device where there is one (PoCL's in
// CI), else the first device:
// the frame shown is the one OpenGL draws of the same slices (below the HUD, whose measured rates change,
// and above the mouse's hint, which a picture leaves out), the HUD says what made it, and the 2D planes go
// back to OpenGL.
TEST_F(StudioWindow, TheWindowsFramesMadeOnTheSolversDeviceAreThoseOpenGlDraws) {
  const std::vector<DeviceInfo> devices = listDevices();
  if (devices.empty()) GTEST_SKIP() << "no OpenCL device on this machine";
  const auto cpuDevice = std::find_if(devices.begin(), devices.end(), [](const DeviceInfo& d) { return d.type == "CPU"; });
  Scenario s = homogeneousScenario();
  s.stage = "gpu-optimized";
  s.device = (cpuDevice != devices.end() ? *cpuDevice : devices.front()).selector();
  if (const std::string chosen = test::testDeviceSelector(); !chosen.empty()) s.device = chosen;
  SliceView* view = window_->pane()->view();
  window_->pane()->setViewFrames(PictureMaker::Device);
  window_->applyScenario(s);
  window_->pane()->controller().setPauseAtStep(60);
  window_->setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return view->framesMadeElsewhere() && window_->pane()->shownStep() == 60; }))
      << messages() << view->frameMakerProblem().toStdString();
  view->showLatestFrame();
  const QImage made = view->madeFrame().convertToFormat(QImage::Format_RGBX8888);
  const QImage drawn = view->grabFramebuffer();
  ASSERT_EQ(made.size(), drawn.size());
  ASSERT_EQ(drawn.format(), QImage::Format_RGBX8888);
  test::saveScreenshot(made, "window-frame-made-on-device");
  test::saveScreenshot(drawn, "window-frame-drawn-by-opengl");
  const int top = made.height() / 3, bottom = made.height() - 40;
  double sum = 0.0;
  long red = 0;
  for (int y = top; y < bottom; ++y)
    for (int x = 0; x < 4 * made.width(); ++x) {
      sum += std::abs(int(made.constScanLine(y)[x]) - int(drawn.constScanLine(y)[x]));
      if (x % 4 == 0) red += made.constScanLine(y)[x] > 150 && made.constScanLine(y)[x + 1] < 90;
    }
  EXPECT_GT(red, 200) << "the frame shows the wave";
  const double mean = sum / (double(bottom - top) * 4 * made.width());
  EXPECT_LT(mean, 1.0) << "mean absolute difference in levels of 255";
  RecordProperty("mean_difference", QString::number(mean, 'f', 3).toStdString());
  EXPECT_TRUE(test::waitUntil([&] { return view->hudLines().join('\n').contains("frames made by OpenCL"); }))
      << view->hudLines().join('\n').toStdString();
  window_->setViewMode(1);  // a plane in 2D: OpenGL's
  ASSERT_TRUE(test::waitUntil([&] { return !view->framesMadeElsewhere(); }));
  EXPECT_EQ(errorCount(), 0) << messages();
}

TEST_F(StudioWindow, BadInputShowsAnErrorAndTheRunGoesOn) {
  // A run far longer than the test, so that "goes on" cannot end at the run's last step.
  Scenario longRun = window_->form()->scenario();
  longRun.steps = 1000000;
  window_->applyScenario(longRun);
  window_->setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return status().runLength == longRun.steps && status().step >= 5; })) << messages();
  const long generation = status().generation;

  Scenario unstable = window_->form()->scenario();
  unstable.dt = 1.0;  // seconds: far above the stability limit
  window_->applyScenario(unstable);
  ASSERT_TRUE(test::waitUntil([&] { return errorCount() >= 1; }));
  EXPECT_TRUE(window_->messages()->item(0)->text().contains("dt")) << window_->messages()->item(0)->text().toStdString();

  Scenario missingModel = window_->form()->scenario();
  missingModel.dt = 0.0;
  missingModel.model.kind = ModelKind::File;
  missingModel.model.path = "/nonexistent/model.npy";
  window_->applyScenario(missingModel);
  ASSERT_TRUE(test::waitUntil([&] { return errorCount() >= 2; }));
  EXPECT_TRUE(window_->messages()->item(1)->text().contains("/nonexistent/model.npy"))
      << window_->messages()->item(1)->text().toStdString();

  const long step = status().step;
  ASSERT_TRUE(reachStep(step + 10)) << "the run stopped after the errors";
  EXPECT_EQ(status().generation, generation) << "the last good solver was replaced";
}

TEST_F(StudioWindow, ARefusedChangeShowsOnItsFieldAndTheFormReturnsToTheRun) {
  window_->setPlaying(true);
  ASSERT_TRUE(reachStep(5)) << messages();
  const std::string running = asShown(window_->pane()->controller().activeScenario());
  // Through the controls, as a user would: a manual dt of 1 s, far above the stability limit.
  ScenarioForm* form = window_->form();
  auto* autoDt = form->physics()->findChild<QCheckBox*>("auto_dt");
  auto* dt = form->physics()->findChild<QDoubleSpinBox*>("dt");
  ASSERT_TRUE(autoDt && dt);
  autoDt->setChecked(false);
  dt->setValue(1000.0);
  ASSERT_TRUE(test::waitUntil([&] { return !form->refusedControls().isEmpty(); })) << messages();
  EXPECT_EQ(scenarioToJson(form->scenario()), running) << "the form shows what runs";
  EXPECT_TRUE(autoDt->isChecked());
  EXPECT_TRUE(form->refusedControls().contains(dt));
  EXPECT_TRUE(form->refusedControls().contains(autoDt));
  EXPECT_FALSE(form->refusedControls().contains(form->physics()->findChild<QDoubleSpinBox*>("dt_auto_fraction")))
      << "the refused scenario did not use the auto fraction";
  EXPECT_FALSE(window_->messages()->parentWidget()->isVisible()) << "the field says it: the panel stays closed";
  EXPECT_TRUE(dt->toolTip().contains("Not applied")) << dt->toolTip().toStdString();
  EXPECT_TRUE(dt->toolTip().contains("dt")) << dt->toolTip().toStdString();
  EXPECT_GE(errorCount(), 1) << "the panel keeps the message too";
  if (qEnvironmentVariableIsSet("ISO_TEST_SAVE_IMAGES")) window_->grab().save(QDir::temp().filePath("studio_refused.png"));

  // Any later change applies: a stage switch included.
  auto* stage = form->stagePage()->findChild<QComboBox*>("stage");
  ASSERT_NE(stage, nullptr);
  stage->setCurrentIndex(stage->findData("cpu-serial"));
  ASSERT_TRUE(test::waitUntil([&] { return status().stage == "cpu-serial"; })) << messages();
  EXPECT_TRUE(form->refusedControls().isEmpty()) << "the marks go with the next change";
  EXPECT_EQ(form->scenario().stage, "cpu-serial");
  EXPECT_EQ(form->scenario().dt, 0.0);
}

TEST_F(StudioWindow, AScenarioFileThatDoesNotRunIsRefusedAndNotKeptAsRecent) {
  ASSERT_TRUE(reachStep(0)) << messages();
  const std::string running = asShown(window_->pane()->controller().activeScenario());
  QTemporaryDir dir;
  Scenario bad = homogeneousScenario();
  bad.name = "bad";
  bad.model.kind = ModelKind::File;
  bad.model.path = "/nonexistent/model.npy";
  const QString badPath = dir.filePath("bad.json");
  saveScenarioFile(bad, badPath.toStdString());
  auto recent = [] { return QSettings().value("recentFiles").toStringList(); };

  ASSERT_TRUE(window_->openScenario(badPath)) << "the file itself reads";
  ASSERT_TRUE(test::waitUntil([&] { return errorCount() >= 1; }));
  ASSERT_TRUE(test::waitUntil([&] { return scenarioToJson(window_->form()->scenario()) == running; }))
      << "the form still shows the refused file";
  EXPECT_EQ(window_->form()->presets()->shownText(), "homogeneous");
  EXPECT_FALSE(recent().contains(QFileInfo(badPath).absoluteFilePath()));

  Scenario good = homogeneousScenario();
  good.name = "good";
  good.model.velocity = 2500.0;
  const QString goodPath = dir.filePath("good.json");
  saveScenarioFile(good, goodPath.toStdString());
  ASSERT_TRUE(window_->openScenario(goodPath));
  ASSERT_TRUE(test::waitUntil([&] { return recent().value(0) == QFileInfo(goodPath).absoluteFilePath(); })) << messages();
  EXPECT_EQ(window_->pane()->controller().activeScenario().name, "good");
  EXPECT_EQ(window_->form()->presets()->shownText(), "file: good.json");
  window_->form()->source()->findChild<QDoubleSpinBox*>("frequency")->setValue(25.0);
  EXPECT_EQ(window_->form()->presets()->shownText(), "file: good.json (edited)");
}

TEST_F(StudioWindow, QuitDuringARunIsQuick) {
  Scenario big = homogeneousScenario(128);
  window_->applyScenario(big);
  window_->pane()->controller().setStepsPerFrame(1000);
  window_->setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return status().grid.n1 == 128 && status().step >= 3; }));
  QElapsedTimer clock;
  clock.start();
  window_->close();
  EXPECT_LT(clock.elapsed(), 1000) << "closing waited for the compute thread";
}

TEST_F(StudioWindow, ThePointerShowsTheCellItsPositionAndItsValues) {
  window_->setViewMode(1);  // plane XY through the source, cell (24, 24, 24) at its centre
  window_->pane()->controller().setPauseAtStep(60);
  window_->setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return status().step == 60 && !status().playing; }));
  SliceView* view = window_->pane()->view();
  ASSERT_TRUE(test::waitUntil([&] { return view->slices() && view->slices()->step == 60 && !view->planeRect().isEmpty(); }));
  const QRectF plane = view->planeRect();
  const QPointF centre = plane.topLeft() + QPointF(24.5, 24.5) * (plane.width() / 49.0);
  QMouseEvent move(QEvent::MouseMove, centre, view->mapToGlobal(centre), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
  QCoreApplication::sendEvent(view, &move);
  // The default scenario's automatic 10-cell layer on each face: shaded in the view.
  EXPECT_EQ(status().absorbingCells, (std::array<int, 3>{10, 10, 10}));
  auto* probe = window_->findChild<QLabel*>("probe");
  ASSERT_NE(probe, nullptr);
  const QString text = probe->text();
  EXPECT_TRUE(text.startsWith("cell (24, 24, 24) · x 240 m, y 240 m, z 240 m · u = ")) << text.toStdString();
  EXPECT_TRUE(text.endsWith("v = 2000 m/s")) << text.toStdString();
  const float u = view->slices()->valueAt(24, 24, 24);
  EXPECT_TRUE(text.contains(QString::number(double(u), 'g', 4))) << text.toStdString();
  QEvent leave(QEvent::Leave);
  QCoreApplication::sendEvent(view, &leave);
  EXPECT_TRUE(probe->text().isEmpty());
}

TEST(StudioSourceInLayer, TheFormWarnsOnTheCellInsideTheAbsorbingLayer) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario s = homogeneousScenario();  // a 10-cell layer on each face of 49 cells
  s.source.i = 3;
  MainWindow window(s);
  window.show();
  ASSERT_TRUE(test::waitUntil([&] { return window.pane()->lastStatus().hasSolver; }));
  const auto* i = window.findChild<QSpinBox*>("source_i");
  const auto* j = window.findChild<QSpinBox*>("source_j");
  ASSERT_TRUE(i && j);
  EXPECT_TRUE(test::waitUntil([&] { return i->toolTip().startsWith("Inside the absorbing layer (10 cells"); }))
      << i->toolTip().toStdString();
  EXPECT_FALSE(j->toolTip().startsWith("Inside")) << "the centre is not in the layer";
}

}  // namespace
}  // namespace iso
