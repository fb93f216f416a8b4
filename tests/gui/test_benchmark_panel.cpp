// The benchmark panel: a run of every stage at a small size fills the table row by row and draws the
// three charts; the exports parse back; Cancel stops a long run within a second; loaded runs join the
// charts; "Use this" stores the chosen candidate; the --bench-panel command writes its PNG and JSON.
#include <gtest/gtest.h>

#include <QAction>
#include <QBarSet>
#include <QGraphicsSimpleTextItem>
#include <QFile>
#include <QHorizontalBarSeries>
#include <QImage>
#include <QLogValueAxis>
#include <QMenu>
#include <QProgressBar>
#include <QRadioButton>
#include <QScatterSeries>
#include <QSet>
#include <QTableWidget>
#include <QTextBrowser>
#include <QValueAxis>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/studio/BenchmarkPanel.h"
#include "app/studio/StageExplorer.h"
#include "app/studio/MainWindow.h"
#include "app/studio/SimulationPane.h"
#include "compute/DeviceRegistry.h"
#include "compute/StageParams.h"
#include "compute/TuningDatabase.h"
#include "core/Metrics.h"
#include "core/ScenarioResize.h"
#include "core/StageRegistry.h"
#include "tests/ScratchDir.h"
#include "tests/gui/test_render_support.h"
#include "tests/gui/test_studio_support.h"
#include "tests/support/StudioProcess.h"

namespace iso {
namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The fields of one CSV line (RFC 4180: quoted fields, inner quotes doubled).
std::vector<std::string> csvFields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// Stages this machine runs: every OpenCL stage needs a device (PoCL in CI).
std::vector<std::string> availableStages() { return StageRegistry::ids(/*includeOpenCL=*/!listDevices().empty()); }

// A picture is drawn, not blank: many pixels away from the background and several colours.
void expectDrawn(const QImage& image, const char* what) {
  ASSERT_FALSE(image.isNull()) << what;
  const QRgb background = image.pixel(image.width() - 2, 2);
  int differing = 0;
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 2)
    for (int x = 0; x < image.width(); x += 2) {
      const QRgb c = image.pixel(x, y);
      if (c != background) ++differing;
      colours.insert(c);
    }
  EXPECT_GT(differing, image.width() * image.height() / 4 / 50) << what << ": almost nothing drawn";
  EXPECT_GT(colours.size(), 8) << what << ": too few colours for axes, labels and data";
}

class BenchmarkPanelRun : public ::testing::Test {
 protected:
  static Scenario smallScenario() {
    Scenario s = presetScenario("default");
    return s;
  }
  // Runs `panel` to its end; false when it did not finish in time.
  static bool runToEnd(BenchmarkPanel& panel, bool& stopped) {
    bool done = false;
    QObject::connect(&panel, &BenchmarkPanel::finished, &panel, [&](bool s) {
      done = true;
      stopped = s;
    });
    if (!panel.start()) return false;
    return test::waitUntil([&] { return done; }, 180000);
  }
};

TEST_F(BenchmarkPanelRun, EveryStageFillsTheTableAndTheChartsAndExportsParseBack) {
  BenchmarkPanel panel(smallScenario());
  panel.setCubeSize(24);
  panel.setSteps(4);
  panel.setSweepEnabled(false);  // compiling every candidate would take most of this test's time
  panel.show();
  const std::vector<std::string> stages = availableStages();
  EXPECT_EQ(panel.checkedStages(), stages) << "every stage is chosen by default";
  std::vector<int> rowsAtSignal;
  QObject::connect(&panel, &BenchmarkPanel::rowAdded, &panel, [&](int) { rowsAtSignal.push_back(panel.table()->rowCount()); });
  bool stopped = true;
  ASSERT_TRUE(runToEnd(panel, stopped)) << panel.statusText().toStdString();
  EXPECT_FALSE(stopped) << panel.statusText().toStdString();

  // Rows appeared one by one as the stages completed, and the table holds every stage.
  ASSERT_EQ(rowsAtSignal.size(), stages.size());
  for (std::size_t n = 0; n < rowsAtSignal.size(); ++n) EXPECT_EQ(rowsAtSignal[n], int(n) + 1);
  QTableWidget* table = panel.table();
  ASSERT_EQ(table->rowCount(), int(stages.size()));
  for (int r = 0; r < table->rowCount(); ++r) {
    const QString cell = table->item(r, 0)->text();
    EXPECT_TRUE(cell.startsWith(QString::fromStdString(stages[std::size_t(r)]) + " — ")) << cell.toStdString();
    EXPECT_GT(table->item(r, 2)->text().toDouble(), 0.0) << "Mpts/s of " << cell.toStdString();
    EXPECT_TRUE(table->item(r, 12)->text().isEmpty()) << table->item(r, 12)->text().toStdString();
    EXPECT_EQ(table->item(r, 6)->text().toDouble(), StageRegistry::get(stages[std::size_t(r)]).bytesPerPointStep) << "B/pt";
  }
  for (int c = 0; c < table->columnCount(); ++c)
    EXPECT_FALSE(table->horizontalHeaderItem(c)->toolTip().isEmpty()) << "column " << c << " has no tooltip";
  ASSERT_NE(panel.currentRun(), nullptr);
  EXPECT_TRUE(BenchmarkPanel::allPassed(panel.currentRun()->report));
  EXPECT_EQ(panel.progressBar()->value(), panel.progressBar()->maximum());

  // Throughput: one bar per stage with the table's Mpts/s.
  auto bars = panel.throughputChart()->chart()->series();
  ASSERT_EQ(bars.size(), 1);
  auto* barSeries = qobject_cast<QHorizontalBarSeries*>(bars.front());
  ASSERT_NE(barSeries, nullptr);
  ASSERT_EQ(barSeries->count(), 1);
  QBarSet* set = barSeries->barSets().front();
  ASSERT_EQ(set->count(), int(stages.size()));
  // The bars count upwards: the last bar is the first stage.
  EXPECT_DOUBLE_EQ(set->at(set->count() - 1), panel.currentRun()->report.rows.front().throughput.mpts);
  panel.throughputChart()->setLogScale(true);
  EXPECT_EQ(panel.throughputChart()->chart()->axes(Qt::Horizontal).front()->type(), QAbstractAxis::AxisTypeLogValue);

  // Roofline: a point per stage at 61/16 flop/B, and the ceilings of the host and the device.
  RooflineChart* roofline = panel.rooflineChart();
  EXPECT_EQ(roofline->stagePointCount(), int(stages.size()));
  // One roof per physical memory: the host's for every stage on its cores, an OpenCL CPU device (PoCL)
  // included; a GPU has its own.
  const auto devices = listDevices();
  const bool gpu = std::any_of(devices.begin(), devices.end(), [](const DeviceInfo& d) { return d.type != "CPU"; });
  EXPECT_EQ(roofline->ceilingLineCount(), gpu ? 2 : 1);
  const auto host = std::find_if(panel.currentRun()->rooflines.begin(), panel.currentRun()->rooflines.end(),
                                 [](const DeviceRoofline& d) { return d.host; });
  ASSERT_NE(host, panel.currentRun()->rooflines.end());
  for (const BenchmarkRow& row : panel.currentRun()->report.rows)
    if (runsOnHostCores(row)) {
      EXPECT_DOUBLE_EQ(row.throughput.ceilingGBs, host->memory.median) << row.stage << " on " << row.device;
    }
  const auto pointsX = [&] {
    for (QAbstractSeries* s : roofline->chart()->series())
      if (auto* scatter = qobject_cast<QScatterSeries*>(s)) return scatter->at(0).x();
    return 0.0;
  };
  EXPECT_DOUBLE_EQ(pointsX(), kFlopsPerPoint / 16.0);
  roofline->setBytesPerPoint(12.0);
  EXPECT_DOUBLE_EQ(pointsX(), kFlopsPerPoint / 12.0);
  EXPECT_EQ(roofline->stagePointCount(), int(stages.size()));
  roofline->setBytesPerPoint(0.0);  // each stage at its own again
  // No two labels on the roofline cover each other (stages of near-equal rates share one label).
  std::vector<QRectF> labels;
  for (QGraphicsItem* item : roofline->chart()->childItems())
    if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item); text && text->isVisible()) labels.push_back(text->sceneBoundingRect());
  EXPECT_GE(labels.size(), 2u);
  for (std::size_t a = 0; a < labels.size(); ++a)
    for (std::size_t b = a + 1; b < labels.size(); ++b) {
      EXPECT_FALSE(labels[a].intersects(labels[b])) << "labels " << a << " and " << b << " overlap";
    }
  for (const DeviceRoofline& d : panel.currentRun()->rooflines) {
    EXPECT_GT(d.memory.min, 0.0) << d.device;
    EXPECT_LE(d.memory.min, d.memory.median);
    EXPECT_LE(d.memory.median, d.memory.max);
    EXPECT_FALSE(d.memory.date.empty());
  }

  // The sweep was left out (its own test draws it): no sweep, no bars.
  EXPECT_EQ(panel.sweep("gpu-slm"), nullptr);
  EXPECT_EQ(panel.sweepChart()->candidateCount(), 0);
  expectDrawn(panel.throughputChart()->image(), "throughput chart");
  expectDrawn(roofline->image(), "roofline");

  // Exports: CSV and JSON of the table parse back; charts as PNG and SVG.
  QString error;
  const std::string json = test::scratchPath("bench.json").string(), csv = test::scratchPath("bench.csv").string();
  ASSERT_TRUE(panel.exportTable(QString::fromStdString(json), error)) << error.toStdString();
  ASSERT_TRUE(panel.exportTable(QString::fromStdString(csv), error)) << error.toStdString();
  const BenchmarkReport back = parseBenchmarkJson(readText(json));
  ASSERT_EQ(back.rows.size(), stages.size());
  for (std::size_t n = 0; n < stages.size(); ++n) {
    EXPECT_EQ(back.rows[n].stage, stages[n]);
    // Each stage's bytes per point from its descriptor (gpu-temporal: 10).
    EXPECT_EQ(back.rows[n].bytesPerPointStep, StageRegistry::get(stages[n]).bytesPerPointStep) << stages[n];
    if (stages[n] == "gpu-temporal") {
      EXPECT_EQ(back.rows[n].bytesPerPointStep, 10.0);
      // ... and the roofline places it there: at 61/10 flop/B.
      EXPECT_DOUBLE_EQ(roofline->intensityOf(back.rows[n]), kFlopsPerPoint / 10.0);
    }
    EXPECT_NEAR(back.rows[n].throughput.mpts, panel.currentRun()->report.rows[n].throughput.mpts,
                1e-6 * back.rows[n].throughput.mpts);
  }
  std::istringstream lines(readText(csv));
  std::string line;
  std::getline(lines, line);
  const std::vector<std::string> header = csvFields(line);
  const auto column = [&](const char* name) { return std::size_t(std::find(header.begin(), header.end(), name) - header.begin()); };
  ASSERT_LT(column("mpts"), header.size()) << line;
  std::size_t rows = 0;
  for (; std::getline(lines, line); ++rows) {
    const std::vector<std::string> fields = csvFields(line);
    ASSERT_EQ(fields.size(), header.size()) << line;
    ASSERT_LT(rows, stages.size());
    EXPECT_EQ(fields[column("stage")], stages[rows]);
    EXPECT_NEAR(std::stod(fields[column("mpts")]), back.rows[rows].throughput.mpts, 1e-6 * back.rows[rows].throughput.mpts);
  }
  EXPECT_EQ(rows, stages.size());
  EXPECT_FALSE(panel.exportTable(QString::fromStdString(test::scratchPath("bench.txt").string()), error));
  EXPECT_TRUE(error.contains(".csv")) << error.toStdString();

  const QString png = QString::fromStdString(test::scratchPath("roofline.png").string());
  const QString svg = QString::fromStdString(test::scratchPath("roofline.svg").string());
  ASSERT_TRUE(roofline->save(png, error)) << error.toStdString();
  ASSERT_TRUE(roofline->save(svg, error)) << error.toStdString();
  expectDrawn(QImage(png), "saved roofline PNG");
  const std::string svgText = readText(svg.toStdString());
  EXPECT_NE(svgText.find("<svg"), std::string::npos);
  EXPECT_NE(svgText.find("GFLOP/s"), std::string::npos) << "the axis title is in the SVG as text";
  EXPECT_FALSE(roofline->save(QString::fromStdString(test::scratchPath("no-such-folder/r.png").string()), error));

  // A loaded run joins the charts as a second series; a broken file is refused with a reason.
  ASSERT_TRUE(panel.loadResults(QString::fromStdString(json), error)) << error.toStdString();
  EXPECT_EQ(panel.runCount(), 1);
  barSeries = qobject_cast<QHorizontalBarSeries*>(panel.throughputChart()->chart()->series().front());
  ASSERT_NE(barSeries, nullptr);
  EXPECT_EQ(barSeries->count(), 2);
  EXPECT_EQ(roofline->stagePointCount(), 2 * int(stages.size()));
  // A file of two grids (iso3dfd bench --sizes) becomes a run per grid.
  BenchmarkReport twoGrids = back;
  for (BenchmarkRow row : back.rows) {
    row.n1 = row.n2 = row.n3 = 32;
    twoGrids.rows.push_back(row);
  }
  std::ofstream(test::scratchPath("two-grids.json")) << benchmarkJson(twoGrids);
  ASSERT_TRUE(panel.loadResults(QString::fromStdString(test::scratchPath("two-grids.json").string()), error)) << error.toStdString();
  EXPECT_EQ(panel.runCount(), 3);
  EXPECT_EQ(roofline->stagePointCount(), 4 * int(stages.size()));
  std::ofstream(test::scratchPath("broken.json")) << "{\"schema\": \"iso3dfd-bench/1\", \"rows\": 3}";
  EXPECT_FALSE(panel.loadResults(QString::fromStdString(test::scratchPath("broken.json").string()), error));
  EXPECT_FALSE(error.isEmpty());
  EXPECT_EQ(panel.runCount(), 3);
}

TEST_F(BenchmarkPanelRun, SweepDrawsEveryCandidateAndUseThisStoresTheClickedOne) {
  if (listDevices().empty()) GTEST_SKIP() << "no OpenCL device: no tuning sweep";
  BenchmarkPanel panel(smallScenario());
  panel.setStages({"gpu-optimized"});
  panel.setCubeSize(24);
  panel.setSteps(2);
  panel.show();
  bool stopped = true;
  ASSERT_TRUE(runToEnd(panel, stopped));
  ASSERT_FALSE(stopped) << panel.statusText().toStdString();
  const SweepResult* sweep = panel.sweep("gpu-optimized");
  ASSERT_NE(sweep, nullptr);
  // A bar per candidate that ran, the fastest marked as the chosen one.
  int ran = 0;
  for (const StageTiming& t : sweep->candidates) ran += t.error.empty() && t.mpts > 0.0;
  EXPECT_GT(ran, 1);
  EXPECT_EQ(panel.sweepChart()->candidateCount(), ran);
  ASSERT_GE(sweep->best, 0);
  for (const StageTiming& t : sweep->candidates) EXPECT_LE(t.mpts, sweep->candidates[std::size_t(sweep->best)].mpts);
  expectDrawn(panel.sweepChart()->image(), "sweep chart");
  // A candidate other than the fastest, clicked in the chart.
  int other = -1;
  for (int i = 0; i < int(sweep->candidates.size()); ++i)
    if (i != sweep->best && sweep->candidates[std::size_t(i)].error.empty()) other = i;
  ASSERT_GE(other, 0);
  emit panel.sweepChart()->candidateClicked(other);

  // Into a private cache directory: the shared one's tuning database stays as the other tests expect it.
  const QByteArray saved = qgetenv("ISO3DFD_CACHE_DIR");
  qputenv("ISO3DFD_CACHE_DIR", QByteArray::fromStdString(test::scratchPath("cache").string()));
  QString error;
  const bool stored = panel.useChosenCandidate(error);
  const std::optional<TunedParams> found = lookupTuning("gpu-optimized", sweep->device, sweep->grid);
  qputenv("ISO3DFD_CACHE_DIR", saved);
  ASSERT_TRUE(stored) << error.toStdString();
  ASSERT_TRUE(found);
  EXPECT_FALSE(found->shipped);
  EXPECT_EQ(found->params, sweep->candidates[std::size_t(other)].params);
}

TEST_F(BenchmarkPanelRun, CancelStopsALongRunWithinOneSecond) {
  BenchmarkPanel panel(smallScenario());
  panel.setStages({"cpu-serial", "cpu-parallel"});
  panel.setCubeSize(96);
  panel.setSteps(100000);
  bool done = false, stopped = false;
  QObject::connect(&panel, &BenchmarkPanel::finished, &panel, [&](bool s) {
    done = true;
    stopped = s;
  });
  ASSERT_TRUE(panel.start());
  // Once cpu-serial is stepping (the ceilings are measured before it).
  ASSERT_TRUE(test::waitUntil([&] { return panel.statusText().startsWith("cpu-serial") && !panel.statusText().contains(": 0 of"); }));
  EXPECT_FALSE(panel.start()) << "a second run while one is in progress";
  EXPECT_TRUE(panel.progressBar()->format().contains("cpu-serial")) << "the bar names the stage in progress";
  QElapsedTimer clock;
  clock.start();
  panel.cancel();
  ASSERT_TRUE(test::waitUntil([&] { return done; }, 5000));
  EXPECT_LT(clock.elapsed(), 1000 * test::timeoutScale());
  EXPECT_TRUE(stopped);
  EXPECT_FALSE(panel.running());
  EXPECT_TRUE(panel.statusText().startsWith("Cancelled")) << panel.statusText().toStdString();
  EXPECT_EQ(panel.currentRun(), nullptr) << "no stage completed";
  EXPECT_EQ(panel.table()->rowCount(), 0);
  EXPECT_EQ(panel.progressBar()->format(), "%p%");
}

// Every 16-byte stage in one column of the roofline, at rates a few per cent to a few tens of per cent
// apart: points too far apart to share a label and too close for labels beside each. Every name still
// finds a place that covers no other name, at the panel's smallest sizes too (where labels fell back to
// their first place, names covered each other, depending on the rates a run measured).
BenchmarkRun crowdedRun(double factor) {
  BenchmarkRun run;
  run.report.date = "2026-11-28T10:00:00Z";
  const Grid grid{96, 96, 96};
  double mpts = 300.0;
  for (const char* stage : {"cpu-serial", "cpu-parallel", "gpu-basic", "gpu-linear", "gpu-private-z", "gpu-private-x",
                            "gpu-slm", "gpu-optimized", "gpu-half", "gpu-temporal"}) {
    BenchmarkRow row;
    row.stage = stage;
    row.device = "host CPU";
    row.n1 = grid.n1, row.n2 = grid.n2, row.n3 = grid.n3;
    row.throughput = computeThroughput(double(grid.interiorSize()), 1.0, double(grid.interiorSize()) / (mpts * 1e6), 50.0);
    run.report.rows.push_back(row);
    mpts *= factor;
  }
  run.rooflines = rooflinesOfReport(run.report);
  return run;
}

TEST(RooflineLabels, CrowdedStagesKeepEveryNameClear) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display (run under xvfb-run)";
  for (const double factor : {1.08, 1.15, 1.25, 1.4}) {
    const BenchmarkRun run = crowdedRun(factor);
    for (const QSize size : {QSize(360, 260), QSize(480, 340), QSize(640, 440), QSize(800, 520)}) {
      RooflineChart chart;
      chart.setRuns({&run});
      chart.resize(size);
      chart.show();
      QCoreApplication::processEvents();
      std::vector<QRectF> labels;
      for (QGraphicsItem* item : chart.chart()->childItems())
        if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item); text && text->isVisible())
          labels.push_back(text->sceneBoundingRect());
      const std::string where = std::to_string(size.width()) + "x" + std::to_string(size.height()) + ", rates " +
                                std::to_string(factor) + "x apart";
      EXPECT_GE(labels.size(), 2u) << where;  // the roof's and at least one of the stages'
      for (std::size_t a = 0; a < labels.size(); ++a)
        for (std::size_t b = a + 1; b < labels.size(); ++b)
          EXPECT_FALSE(labels[a].intersects(labels[b])) << "labels " << a << " and " << b << " overlap at " << where;
    }
  }
}

// A candidate's values label its bar while they fit beside it; a sweep of many parameters (gpu-temporal's)
// numbers its bars instead, where the values were elided to "…" at the panel's size.
TEST(SweepLabels, ManyParametersNumberTheBarsFewNameTheirValues) {
  const auto sweepOf = [](int keys) {
    SweepResult sweep;
    for (int n = 0; n < 3; ++n) {
      StageTiming t;
      for (int k = 0; k < keys; ++k) t.params["p" + std::to_string(k)] = n * 10 + k;
      sweep.candidates.push_back(t);
    }
    return sweep;
  };
  const std::vector<QString> few = SweepChart::candidateLabels(sweepOf(2));
  ASSERT_EQ(few.size(), 3u);
  EXPECT_EQ(few[1], QStringLiteral("2: 10 · 11"));
  const std::vector<QString> many = SweepChart::candidateLabels(sweepOf(int(SweepChart::kLabelledParameters) + 1));
  ASSERT_EQ(many.size(), 3u);
  EXPECT_EQ(many[0], QStringLiteral("1"));
  EXPECT_EQ(many[2], QStringLiteral("3"));
}

// Bars too close for a line of text each show no labels (Qt Charts would elide every one to "…"), and
// show them again once the chart is tall enough.
TEST(SweepLabels, TheBarsAreLabelledOnlyWhereALabelFitsItsRow) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display (run under xvfb-run)";
  SweepResult sweep;
  for (int n = 0; n < 24; ++n) {
    StageTiming t;
    t.params = {{"tile_x", 16 + n}, {"z_chunk", n}};
    t.mpts = 1000.0 + 10.0 * n;
    sweep.candidates.push_back(t);
  }
  sweep.best = 23;
  SweepChart chart;
  chart.setSweep(&sweep, sweep.best);
  const auto shownAt = [&](QSize size) {
    chart.resize(size);
    chart.show();
    QCoreApplication::processEvents();
    return chart.candidateLabelsShown();
  };
  EXPECT_FALSE(shownAt(QSize(320, 300)));
  EXPECT_TRUE(shownAt(QSize(320, 1000)));
  EXPECT_FALSE(shownAt(QSize(320, 300)));
  test::saveScreenshot(chart.image(), "sweep-chart-unlabelled");
}

TEST(BenchmarkPanelMenu, ViewMenuOpensThePanelOnTheRunningScenarioWithCtrlB) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario s = resizedScenario(presetScenario("default"), 40, 32, 24);
  s.stage = "cpu-serial";
  MainWindow window(s);
  window.show();
  ASSERT_TRUE(test::waitUntil([&] { return window.pane()->lastStatus().hasSolver; }));
  QAction* open = nullptr;
  for (QAction* a : window.viewMenu()->actions())
    if (a->text().contains("Benchmark")) open = a;
  ASSERT_NE(open, nullptr);
  EXPECT_EQ(open->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_B));
  // The shortcut is no other action's.
  for (QAction* a : window.findChildren<QAction*>()) {
    if (a != open) {
      EXPECT_NE(a->shortcut(), open->shortcut()) << a->text().toStdString();
    }
  }
  open->trigger();
  auto* panel = window.findChild<BenchmarkPanel*>();
  ASSERT_NE(panel, nullptr);
  EXPECT_TRUE(panel->isVisible());
  EXPECT_TRUE(test::waitUntil([&] { return !window.pane()->controller().status().playing; }))
      << "the main run pauses for the benchmark";
  // "The current scenario" is the running one.
  const auto* scenarioChoice = panel->findChildren<QRadioButton*>().value(0);
  ASSERT_NE(scenarioChoice, nullptr);
  EXPECT_TRUE(scenarioChoice->text().contains("40×32×24")) << scenarioChoice->text().toStdString();
  open->trigger();
  EXPECT_EQ(window.findChildren<BenchmarkPanel*>().size(), 1) << "opened again, not twice";

  // The stage explanations quote the panel's results: cpu-parallel's measured rate, not "not measured".
  panel->setStages({"cpu-serial", "cpu-parallel"});
  panel->setCubeSize(24);
  panel->setSteps(6);
  panel->setSweepEnabled(false);
  ASSERT_TRUE(panel->start());
  ASSERT_TRUE(test::waitUntil([&] { return !panel->running() && panel->currentRun(); }));
  QCoreApplication::processEvents();
  const BenchmarkRow* parallel = nullptr;
  for (const BenchmarkRow& row : panel->currentRun()->report.rows)
    if (row.stage == "cpu-parallel") parallel = &row;
  ASSERT_NE(parallel, nullptr);
  window.showStageExplorer();
  auto* explorer = window.findChild<StageExplorer*>();
  ASSERT_NE(explorer, nullptr);
  explorer->selectStage("cpu-parallel");
  explorer->showTab(StageExplorer::ExplanationTab);
  const QString text = explorer->explanationView()->toPlainText();
  EXPECT_FALSE(text.contains(kNotMeasuredText)) << text.toStdString();
  EXPECT_TRUE(text.contains(QString::number(parallel->throughput.mpts, 'f', 0)) ||
              text.contains(QString::number(parallel->throughput.mpts, 'f', 1)))
      << parallel->throughput.mpts << " in:\n" << text.toStdString();
}


TEST(BenchmarkPanelBinary, WritesTheWindowAsPngAndTheResultsAsJson) {
  const QString png = QString::fromStdString(test::scratchPath("panel.png").string());
  const QString json = QString::fromStdString(test::scratchPath("panel.json").string());
  const QString stages = listDevices().empty() ? "cpu-serial,cpu-parallel" : "cpu-serial,cpu-parallel,gpu-basic";
  const test::StudioRun r = test::runStudio({"--bench-panel", "--stages", stages, "--size", "16", "--steps", "3", "--screenshot", png, "--json", json});
  ASSERT_EQ(r.exitCode, 0) << r.output.toStdString();
  const QImage image(png);
  ASSERT_FALSE(image.isNull()) << r.output.toStdString();
  EXPECT_GE(image.width(), 1000);
  expectDrawn(image, "the panel's screenshot");
  const BenchmarkReport report = readBenchmarkJson(json.toStdString());
  ASSERT_EQ(report.rows.size(), std::size_t(stages.count(',') + 1));
  EXPECT_EQ(report.rows.front().stage, "cpu-serial");
  EXPECT_EQ(report.rows.front().n1, 16);
  EXPECT_EQ(report.rows.front().steps, 3);
  EXPECT_TRUE(r.output.contains("cpu-parallel")) << "the table is printed";
}

TEST(BenchmarkPanelBinary, AStageThatFailsMakesTheExitStatusOneAndIsInTheJson) {
  if (listDevices().empty()) GTEST_SKIP() << "no OpenCL stage to fail";
  const QString json = QString::fromStdString(test::scratchPath("failed.json").string());
  const test::StudioRun r = test::runStudio({"--bench-panel", "--stages", "cpu-serial,gpu-basic", "--device", "no-such-device", "--size", "8",
                                 "--steps", "2", "--json", json});
  EXPECT_EQ(r.exitCode, 1) << r.output.toStdString();
  EXPECT_TRUE(r.output.contains("a stage failed")) << r.output.toStdString();
  const BenchmarkReport report = readBenchmarkJson(json.toStdString());
  ASSERT_EQ(report.rows.size(), 2u);
  EXPECT_TRUE(report.rows[0].error.empty()) << report.rows[0].error;
  EXPECT_NE(report.rows[1].error.find("no-such-device"), std::string::npos) << report.rows[1].error;
}

TEST(BenchmarkPanelBinary, RefusesBadOptionsBeforeRunning) {
  test::StudioRun r = test::runStudio({"--bench-panel", "--stages", "cpu-serial,no-such-stage", "--json", "x.json"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_TRUE(r.output.contains("no-such-stage")) << r.output.toStdString();
  r = test::runStudio({"--stages", "cpu-serial", "--steps", "3"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_TRUE(r.output.contains("--stages belongs to --bench-panel")) << r.output.toStdString();
  r = test::runStudio({"--bench-panel", "--json", "results.csv"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_TRUE(r.output.contains(".json")) << r.output.toStdString();
  r = test::runStudio({"--bench-panel", "--json", "/no/such/folder/results.json"});
  EXPECT_NE(r.exitCode, 0);
  EXPECT_TRUE(r.output.contains("does not exist")) << r.output.toStdString();
}

}  // namespace
}  // namespace iso
