// Receivers in the studio: placed with Shift+click or Add line…, edited in the table, drawn in the view;
// their live traces (the solver's own samples) in the plot and the seismogram; the run's progress, its
// end at the scenario's steps and Loop. Needs an X display with OpenGL: run under xvfb-run.
#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QLineSeries>
#include <QMouseEvent>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QValueAxis>

#include "app/studio/DataExportActions.h"
#include "app/studio/MainWindow.h"
#include "app/studio/ReceiverEditor.h"
#include "app/studio/RunProgress.h"
#include "app/studio/ScenarioForm.h"
#include "app/studio/SeismogramImage.h"
#include "app/studio/SeismogramView.h"
#include "app/studio/SimulationPane.h"
#include "app/studio/StudioCli.h"
#include "app/studio/TracePlot.h"
#include "app/studio/TracePlotPanel.h"
#include "core/CpuSolvers.h"
#include "core/ScenarioResize.h"
#include "render/SliceView.h"
#include "tests/gui/test_studio_support.h"

namespace iso {
namespace {

Scenario smallScenario(int steps) {
  Scenario s = resizedScenario(presetScenario("default"), 33, 29, 25);
  s.stage = "cpu-parallel";
  s.receivers.clear();
  s.steps = steps;
  return s;
}

// A left click (press and release, no drag) on the view with `modifiers` held.
void click(SliceView* view, const QPointF& at, Qt::KeyboardModifiers modifiers) {
  QMouseEvent press(QEvent::MouseButtonPress, at, view->mapToGlobal(at), Qt::LeftButton, Qt::LeftButton, modifiers);
  QCoreApplication::sendEvent(view, &press);
  QMouseEvent release(QEvent::MouseButtonRelease, at, view->mapToGlobal(at), Qt::LeftButton, Qt::NoButton, modifiers);
  QCoreApplication::sendEvent(view, &release);
}

// The widget position of cell (column, row) of the 2D plane shown.
QPointF cellCentre(SliceView* view, int columns, int column, int row) {
  const QRectF plane = view->planeRect();
  return plane.topLeft() + QPointF(column + 0.5, row + 0.5) * (plane.width() / columns);
}

TEST(StudioReceivers, ShiftClickAddsReceiversWhoseLiveTracesAreTheSolversAndArePlotted) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  MainWindow window(smallScenario(45));
  window.resize(1280, 720);
  window.show();
  SimulationPane* pane = window.pane();
  SliceView* view = pane->view();
  window.setViewMode(2);  // XZ: columns are x (33 cells), rows z
  ASSERT_TRUE(test::waitUntil([&] { return view->slices() && !view->planeRect().isEmpty(); }));
  const int j = view->slices()->j;
  const long generation = pane->lastStatus().generation;

  click(view, cellCentre(view, 33, 5, 10), Qt::ShiftModifier);
  click(view, cellCentre(view, 33, 27, 4), Qt::ShiftModifier);
  const std::vector<ReceiverSpec>& placed = window.form()->receivers()->receivers();
  ASSERT_EQ(placed.size(), 2u);
  EXPECT_EQ(std::make_tuple(placed[0].i, placed[0].j, placed[0].k), std::make_tuple(5, j, 10));
  EXPECT_EQ(std::make_tuple(placed[1].i, placed[1].j, placed[1].k), std::make_tuple(27, j, 4));
  EXPECT_EQ(window.form()->receivers()->table()->item(1, 4)->text(), QStringLiteral("270, %1, 40").arg(j * 10));

  // Through the form's scenario to the controller: one rebuild with both.
  ASSERT_TRUE(test::waitUntil([&] { return pane->controller().activeScenario().receivers.size() == 2; }));
  EXPECT_TRUE(test::waitUntil([&] { return view->receivers().size() == 2; })) << "the view draws the running receivers";
  EXPECT_GT(pane->controller().status().generation, generation);

  window.setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().step == 45 && !pane->lastStatus().playing; }))
      << "the run stops at the scenario's 45 steps";
  std::shared_ptr<const LiveTraces> live;
  ASSERT_TRUE(test::waitUntil([&] {
    live = pane->controller().liveTraces();
    return live && live->count() == 45;
  }));
  const Scenario active = pane->controller().activeScenario();
  auto reference = createCpuSolver(buildProblem(active), "cpu-parallel");
  reference->advance(45);
  EXPECT_EQ(live->samples, reference->traces()) << "the live traces are the solver's";

  TracePlotPanel* panel = window.traces();
  panel->parentWidget()->raise();  // its dock, a tab beside the form unless a saved layout moved it
  ASSERT_TRUE(test::waitUntil([&] { return panel->shown() == live; })) << "the panel takes the traces by itself";
  const QList<QLineSeries*>& series = panel->plot()->series();
  ASSERT_EQ(series.size(), 2);
  for (int r = 0; r < 2; ++r) {
    ASSERT_EQ(series[r]->count(), 45);
    EXPECT_DOUBLE_EQ(series[r]->at(44).x(), 45 * live->dt) << "sample n at (n+1)·dt seconds";
    EXPECT_EQ(series[r]->pen().color(), receiverColour(r)) << "the marker's colour";
  }
  panel->normalizeBox()->setChecked(false);
  EXPECT_DOUBLE_EQ(series[1]->at(30).y(), double(reference->traces()[30 * 2 + 1])) << "raw u when not normalized";
  EXPECT_FALSE(panel->seismogram()->image().isNull());

  QProgressBar* bar = window.progress()->bar();
  ASSERT_TRUE(test::waitUntil([&] { return bar->value() == 45; }));
  EXPECT_EQ(bar->maximum(), 45);
  EXPECT_TRUE(bar->text().contains("100 %")) << bar->text().toStdString();

  // The scenario file keeps them.
  QTemporaryDir dir;
  const QString file = dir.filePath("with-receivers.json");
  ASSERT_TRUE(window.saveScenario(file));
  const Scenario saved = loadScenarioFile(file.toStdString());
  ASSERT_EQ(saved.receivers.size(), 2u);
  EXPECT_EQ(saved.receivers[1].i, 27);
  EXPECT_EQ(saved.steps, 45);
}

// The default preset's line of eleven receivers: markers in the view, eleven curves and bands.
TEST(StudioReceivers, TheTracesTabShowsTheDefaultReceiversLine) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario s = resizedScenario(presetScenario("default"), 64, 64, 64);
  s.stage = "cpu-parallel";
  s.steps = 600;
  MainWindow window(s);
  window.resize(1280, 720);
  window.show();
  // The default layout (a saved one may have moved the dock): a tab beside the form.
  auto* traces = qobject_cast<QDockWidget*>(window.traces()->parentWidget());
  ASSERT_NE(traces, nullptr);
  window.tabifyDockWidget(window.findChild<QDockWidget*>("stageDock"), traces);
  traces->raise();
  window.setPlaying(true);
  SimulationPane* pane = window.pane();
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().step == 600 && !pane->lastStatus().playing; }));
  TracePlotPanel* panel = window.traces();
  ASSERT_TRUE(test::waitUntil([&] { return panel->shown() && panel->shown()->count() == 600; }));
  EXPECT_EQ(pane->view()->receivers().size(), 11u);
  ASSERT_EQ(panel->plot()->series().size(), 11);
  EXPECT_EQ(panel->plot()->series()[10]->count(), 600);
  EXPECT_GT(panel->height(), panel->width()) << "a tall tab: plot above seismogram";
  const QImage seismogram = panel->seismogram()->image();
  ASSERT_FALSE(seismogram.isNull());
  EXPECT_EQ(seismogram.size(), panel->seismogram()->size());
  if (qEnvironmentVariableIsSet("ISO_TEST_SAVE_IMAGES")) {
    window.grab().save(QDir::temp().filePath("studio_receivers.png"));
    panel->styleBox()->setCurrentIndex(1);
    panel->grab().save(QDir::temp().filePath("studio_receivers_wiggles.png"));
  }
}

TEST(StudioReceivers, TheRunStopsAtItsEndAndLoopStartsItAgain) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  // As the form shows it (it rounds some values), so that an edit of the length alone changes nothing else.
  const Scenario s = [] {
    ScenarioForm form;
    form.setScenario(smallScenario(30));
    return form.scenario();
  }();
  MainWindow window(s);
  window.show();
  SimulationPane* pane = window.pane();
  RunProgress* progress = window.progress();
  EXPECT_EQ(progress->stepsBox()->value(), 30);
  window.setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().step == 30 && !pane->lastStatus().playing; }));
  EXPECT_EQ(progress->bar()->value(), progress->bar()->maximum());
  EXPECT_TRUE(progress->bar()->text().contains("done")) << progress->bar()->text().toStdString();

  // A longer run from the box: the run goes on from step 30, without a rebuild.
  const long generation = pane->lastStatus().generation;
  progress->stepsBox()->setValue(60);
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().runLength == 60; }));
  EXPECT_EQ(window.form()->scenario().steps, 60);
  window.setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().step == 60 && !pane->lastStatus().playing; }));
  EXPECT_EQ(pane->lastStatus().generation, generation);

  progress->loopBox()->setChecked(true);
  window.setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().loops >= 2; })) << "Loop starts the run again";
  EXPECT_TRUE(pane->lastStatus().playing);
  EXPECT_TRUE(test::waitUntil([&] { return progress->bar()->text().contains("loop"); }));
  // The rate is measured across the restarts too: the time left of the pass shows.
  EXPECT_TRUE(test::waitUntil([&] { return progress->bar()->text().contains(" left"); })) << progress->bar()->text().toStdString();
  EXPECT_GT(progress->stepsPerSecond(), 0.0);
  progress->loopBox()->setChecked(false);
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().step == 60 && !pane->lastStatus().playing; }))
      << "without Loop the run stops at its end again";
}

TEST(StudioReceivers, LinesTableEditsDeletionAndTheAbsorbingLayerWarning) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario s = smallScenario(100);
  s = resizedScenario(s, 49, 49, 49);  // the automatic layer: 10 cells on each face
  MainWindow window(s);
  window.show();
  SimulationPane* pane = window.pane();
  ReceiverEditor* editor = window.form()->receivers();
  ASSERT_TRUE(test::waitUntil([&] { return pane->lastStatus().hasSolver; }));

  editor->addLine({0, 24, 24}, {48, 24, 24}, 5);
  ASSERT_EQ(editor->receivers().size(), 5u);
  for (int n = 0; n < 5; ++n) EXPECT_EQ(editor->receivers()[std::size_t(n)].i, 12 * n);
  ASSERT_TRUE(test::waitUntil([&] { return pane->controller().activeScenario().receivers.size() == 5; }));
  QTableWidget* table = editor->table();
  ASSERT_TRUE(test::waitUntil([&] { return table->item(0, 1)->toolTip().startsWith("Inside the absorbing layer along x (10"); }))
      << table->item(0, 1)->toolTip().toStdString();
  EXPECT_FALSE(table->item(2, 1)->toolTip().startsWith("Inside")) << "the centre is outside the layer";
  EXPECT_TRUE(table->item(4, 1)->toolTip().startsWith("Inside")) << "cell 48 of 49 is in the far face's layer";
  EXPECT_NE(table->item(0, 1)->background().color(), table->item(2, 1)->background().color()) << "tinted";

  // An edit in the table: clamped into the grid.
  table->item(2, 3)->setData(Qt::EditRole, 500);
  EXPECT_EQ(editor->receivers()[2].k, 48);
  editor->removeReceivers({0, 4});
  ASSERT_EQ(editor->receivers().size(), 3u);
  EXPECT_EQ(editor->receivers()[0].i, 12);
  EXPECT_EQ(table->rowCount(), 3);
  ASSERT_TRUE(test::waitUntil([&] {
    const auto running = pane->controller().activeScenario().receivers;
    return running.size() == 3 && running[1].k == 48;
  }));

  // Add line…: the dialog's defaults, eleven receivers along x.
  QDialog* dialog = editor->openLineDialog();
  if (qEnvironmentVariableIsSet("ISO_TEST_SAVE_IMAGES")) {
    editor->grab().save(QDir::temp().filePath("studio_receivers_table.png"));
    dialog->grab().save(QDir::temp().filePath("studio_receivers_line.png"));
  }
  auto* buttons = dialog->findChild<QDialogButtonBox*>();
  ASSERT_NE(buttons, nullptr);
  buttons->button(QDialogButtonBox::Ok)->click();
  ASSERT_EQ(editor->receivers().size(), 14u);
  EXPECT_EQ(editor->receivers()[3].i, 49 / 8);
  EXPECT_EQ(editor->receivers()[13].i, 48 - 49 / 8);
}

TEST(StudioReceivers, SeismogramImageStylesAndWindow) {
  const std::vector<ReceiverSpec> receivers{{1, 1, 1}, {2, 2, 2}, {3, 3, 3}};
  std::vector<float> traces(300 * 3);
  for (std::size_t n = 0; n < 300; ++n)
    for (std::size_t r = 0; r < 3; ++r) traces[n * 3 + r] = float((r + 1) * std::sin(0.05 * double(n) * double(r + 1)));
  SeismogramOptions options;
  options.size = QSize(400, 260);
  const QImage density = seismogramImage(traces, receivers, 1e-3, {}, options);
  ASSERT_EQ(density.size(), QSize(400, 260));
  options.style = SeismogramStyle::Wiggle;
  const QImage wiggle = seismogramImage(traces, receivers, 1e-3, {}, options);
  ASSERT_EQ(wiggle.size(), QSize(400, 260));
  // Variable density paints colours; wiggles only black on white (grey at anti-aliased edges).
  const auto coloured = [](const QImage& image) {
    long count = 0;
    for (int y = 0; y < image.height(); ++y)
      for (int x = 0; x < image.width(); ++x) {
        const QRgb c = image.pixel(x, y);
        if (std::abs(qRed(c) - qBlue(c)) > 60) ++count;
      }
    return count;
  };
  EXPECT_GT(coloured(density), 10000);
  EXPECT_EQ(coloured(wiggle), 0);
  long black = 0;
  for (int y = 0; y < wiggle.height(); ++y)
    for (int x = 0; x < wiggle.width(); ++x) black += qGray(wiggle.pixel(x, y)) < 60;
  EXPECT_GT(black, 3000) << "filled positive lobes";
  options.size = QSize(60, 30);
  EXPECT_TRUE(seismogramImage(traces, receivers, 1e-3, {}, options).isNull()) << "no room for the axes";
}

TEST(StudioReceivers, SeismogramOffsetsAreMetresFromTheSource) {
  const std::vector<ReceiverSpec> alongX{{2, 5, 1}, {5, 5, 1}, {9, 5, 1}};
  EXPECT_EQ(receiverOffsets(alongX, 10.0, 5, 7), (std::vector<double>{-30.0, 0.0, 40.0})) << "signed along a line in x";
  const std::vector<ReceiverSpec> alongY{{4, 1, 1}, {4, 8, 1}};
  EXPECT_EQ(receiverOffsets(alongY, 5.0, 0, 3), (std::vector<double>{-10.0, 25.0})) << "signed along a line in y";
  const std::vector<ReceiverSpec> scattered{{3, 4, 0}, {0, 0, 9}};
  EXPECT_EQ(receiverOffsets(scattered, 1.0, 0, 0), (std::vector<double>{5.0, 0.0})) << "the horizontal distance";
  Scenario s = presetScenario("default");
  s.source.i = -1;  // the centre, as the solver places it
  const SeismogramOptions o = withOffsetsOf({}, s);
  EXPECT_EQ(o.sourceI, s.n1 / 2);
  EXPECT_EQ(o.dx, s.dx);
}

// A strong trace beside the source and two weak ones: with one clip the weak bands never reach full
// colour; normalised (the Traces tab's default) each reaches it.
TEST(StudioReceivers, NormalisedSeismogramGivesEveryTraceItsFullRange) {
  const std::vector<ReceiverSpec> receivers{{1, 1, 1}, {2, 1, 1}, {3, 1, 1}};
  std::vector<float> traces(400 * 3);
  for (std::size_t n = 0; n < 400; ++n)
    for (std::size_t r = 0; r < 3; ++r) traces[n * 3 + r] = float((r == 0 ? 100.0 : 1.0) * std::sin(0.05 * double(n)));
  SeismogramOptions options;
  options.size = QSize(400, 300);
  const auto reddestInBand = [&](const QImage& image, int band) {
    const int bandWidth = (400 - 70 - 20) / 3, x = 70 + band * bandWidth + bandWidth / 2;
    int reddest = 0;
    for (int y = 60; y < image.height() - 20; ++y) {
      const QColor c = image.pixelColor(x, y);
      reddest = std::max(reddest, c.red() - c.blue());
    }
    return reddest;
  };
  const QImage clipped = seismogramImage(traces, receivers, 1e-3, {}, options);
  options.normalize = true;
  const QImage normalised = seismogramImage(traces, receivers, 1e-3, {}, options);
  EXPECT_LT(reddestInBand(clipped, 1), 60) << "one clip: the weak trace fades";
  EXPECT_GT(reddestInBand(normalised, 1), 150) << "normalised: the weak trace reaches its full colour";
  EXPECT_GT(reddestInBand(normalised, 0), 150);
}

TEST(StudioReceivers, SeismogramExportIsWhatTheTracesTabShows) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario s = resizedScenario(presetScenario("default"), 33, 29, 25);  // with its line of receivers
  s.stage = "cpu-parallel";
  s.steps = 60;
  MainWindow window(s);
  window.show();
  window.setPlaying(true);
  ASSERT_TRUE(test::waitUntil([&] { return window.pane()->controller().status().step >= 60; }));
  window.traces()->refresh();
  window.traces()->styleBox()->setCurrentIndex(1);  // wiggles
  window.traces()->normalizeBox()->setChecked(true);
  QTemporaryDir dir;
  const QString path = dir.filePath("seismogram.png");
  bool done = false, ok = false;
  QObject::connect(window.dataExport(), &DataExportActions::finished, [&](bool good, const QString&) {
    done = true;
    ok = good;
  });
  window.dataExport()->exportTo(DataExportActions::Data::Seismogram, path);
  ASSERT_TRUE(test::waitUntil([&] { return done; }));
  ASSERT_TRUE(ok);
  const QImage image(path);
  ASSERT_FALSE(image.isNull());
  long coloured = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) coloured += std::abs(qRed(image.pixel(x, y)) - qBlue(image.pixel(x, y))) > 60;
  EXPECT_EQ(coloured, 0) << "wiggles, as the tab draws them, not variable density";
  window.close();
}

TEST(StudioReceivers, TracePlotKeepsThePeaksOfALongWindow) {
  LiveTraces traces;
  traces.receivers = {{1, 1, 1}, {2, 2, 2}};
  traces.dt = 2e-3;
  traces.firstSample = 500;
  const long samples = 3 * TracePlot::kMaxPoints + 7;
  traces.samples.assign(std::size_t(samples) * 2, 0.0f);
  const long spike = samples / 3, trough = samples - 100;
  traces.samples[std::size_t(spike) * 2 + 1] = 5.0f;    // one spike on receiver 1
  traces.samples[std::size_t(trough) * 2 + 1] = -2.0f;  // and a trough
  TracePlot plot;
  plot.setTraces(traces);
  ASSERT_EQ(plot.series().size(), 2);
  QLineSeries* s = plot.series()[1];
  EXPECT_LE(s->count(), TracePlot::kMaxPoints + 2);
  EXPECT_GT(s->count(), TracePlot::kMaxPoints / 4) << "groups of a few samples each";
  double top = 0.0, bottom = 0.0, topTime = 0.0;
  for (const QPointF& p : s->points()) {
    if (p.y() > top) top = p.y(), topTime = p.x();
    bottom = std::min(bottom, p.y());
  }
  EXPECT_EQ(top, 5.0) << "the spike survives the reduction";
  EXPECT_EQ(bottom, -2.0);
  EXPECT_DOUBLE_EQ(topTime, double(500 + spike + 1) * 2e-3) << "at its own time";
  EXPECT_LE(plot.timeAxis()->min(), 500 * 2e-3);
  EXPECT_GE(plot.timeAxis()->max(), (500 + samples) * 2e-3);
  plot.setTraces(traces, true);
  EXPECT_EQ(plot.series()[1]->count(), s->count());
  double normalized = 0.0;
  for (const QPointF& p : plot.series()[1]->points()) normalized = std::max(normalized, p.y());
  EXPECT_DOUBLE_EQ(normalized, 1.0) << "each trace over its own peak";
}

TEST(StudioReceivers, TheStudiosStepsOptionSetsTheRunLength) {
  QString error;
  const auto options = parseStudioOptions({"iso3dfd-studio", "--preset", "default", "--steps", "120"}, error);
  ASSERT_TRUE(options) << error.toStdString();
  EXPECT_EQ(options->steps, 120);
  EXPECT_EQ(options->scenario.steps, 120);
  const auto preset = parseStudioOptions({"iso3dfd-studio", "--preset", "default"}, error);
  ASSERT_TRUE(preset);
  EXPECT_EQ(preset->scenario.steps, presetScenario("default").steps);
}

}  // namespace
}  // namespace iso
