// The lesson window: its pages in order, the prediction typed on Predict and measured on Run, the
// annotated hunks on Read, the staircase and its exports (PNG, SVG, the PDF handout).
#include <gtest/gtest.h>

#include <QAction>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTextBrowser>
#include <fstream>

#include "app/studio/CodeView.h"
#include "app/studio/CompareViewport.h"
#include "app/studio/CompareWindow.h"
#include "app/studio/LessonPredictPage.h"
#include "app/studio/LessonRunPage.h"
#include "app/studio/LessonSummaryPage.h"
#include "app/studio/LessonWindow.h"
#include "app/studio/MainWindow.h"
#include "app/studio/SimulationPane.h"
#include "app/studio/StageDiffView.h"
#include "app/studio/StaircaseChart.h"
#include "core/ScenarioResize.h"
#include "compute/DeviceRegistry.h"
#include "tests/ScratchDir.h"
#include "tests/gui/test_menu_action.h"
#include "tests/gui/test_studio_support.h"
#include "tests/support/StudioProcess.h"

namespace iso {
namespace {

Scenario smallScenario() { return resizedScenario(presetScenario("default"), 24, 20, 16); }

std::vector<StaircaseEntry> sampleStaircase() {
  LessonRecord record;
  const auto steps = lessonSteps("gpu-slm", true);
  record.setMeasurement("gpu-private-z", {100.0, 10.0, 50.0, "dev", false});
  record.setMeasurement("gpu-slm", {400.0, 40.0, 50.0, "dev", false});
  record.setMeasurement("gpu-optimized", {1000.0, 80.0, 50.0, "dev", false});
  record.setPrediction("gpu-optimized", 5.0);
  return lessonStaircase(steps, record);
}

TEST(LessonWindow, PagesGoStartThenPredictRunReadPerStepThenSummary) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  LessonWindow w(smallScenario(), "", false);
  const int steps = int(w.steps().size());
  ASSERT_GT(steps, 0);
  ASSERT_EQ(w.pageCount(), 2 + 3 * steps);
  EXPECT_EQ(w.page(0).kind, LessonWindow::PageKind::Start);
  EXPECT_EQ(w.page(1).kind, LessonWindow::PageKind::Predict);
  EXPECT_EQ(w.page(2).kind, LessonWindow::PageKind::Run);
  EXPECT_EQ(w.page(3).kind, LessonWindow::PageKind::Read);
  EXPECT_EQ(w.page(w.pageCount() - 1).kind, LessonWindow::PageKind::Summary);
  EXPECT_EQ(w.pageName(1), "01-cpu-parallel-predict");
  EXPECT_EQ(w.pageName(0), "00-cpu-serial-start");
  EXPECT_TRUE(w.startPage()->toPlainText().contains("How each step goes"));
  w.showPage(1000);
  EXPECT_EQ(w.currentPage(), w.pageCount() - 1) << "clamped";
  w.showPage(-5);
  EXPECT_EQ(w.currentPage(), 0);
  EXPECT_THROW(LessonWindow(smallScenario(), "gpu-fastest", true), std::invalid_argument);
}

TEST(LessonWindow, PredictShowsBytesAndLoadsAndKeepsTheGuess) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  LessonWindow w(smallScenario(), "", true);
  ASSERT_GE(w.steps().size(), 2u);
  w.showPage(1);
  const QString page = w.predictPage()->textView()->toPlainText();
  EXPECT_TRUE(page.contains("memory traffic per step")) << page.toStdString();
  EXPECT_TRUE(page.contains("16 B")) << "the descriptor's bytes per point";
  EXPECT_TRUE(page.contains("instructions")) << "the lesson's own rows";
  w.predictPage()->predictionBox()->setValue(4.0);
  ASSERT_TRUE(w.record().prediction("cpu-parallel"));
  EXPECT_DOUBLE_EQ(*w.record().prediction("cpu-parallel"), 4.0);
  w.showPage(4);  // the next step's Predict: its own, empty box
  EXPECT_EQ(w.predictPage()->predictionBox()->value(), 0.0);
  w.showPage(1);
  EXPECT_EQ(w.predictPage()->predictionBox()->value(), 4.0) << "the guess is kept";
}

TEST(LessonWindow, RunMeasuresBothStagesAgainstThePrediction) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  LessonWindow w(smallScenario(), "", false);
  w.show();
  w.record().setPrediction("cpu-parallel", 3.0);
  w.runPage()->compare()->setStopStep(6);
  w.showPage(2);
  ASSERT_TRUE(test::waitUntil([&] {
    return w.runPage()->compare()->shownStep() >= 6 && w.runPage()->measurement(0).mpts > 0 && w.runPage()->measurement(1).mpts > 0;
  }, 60000)) << w.runPage()->problem().toStdString();
  EXPECT_TRUE(w.runPage()->problem().isEmpty());
  ASSERT_TRUE(test::waitUntil([&] { return w.runPage()->verdict().contains("Measured: <b>×"); }, 5000)) << w.runPage()->verdict().toStdString();
  EXPECT_TRUE(w.runPage()->verdict().contains("×3.00")) << "the prediction beside the measurement";
  // One speed-up on the page: the verdict's is the one viewport 2's counters show.
  w.runPage()->play(false);
  const QString counters = w.runPage()->compare()->viewport(1)->counters();
  const QRegularExpressionMatch shown = QRegularExpression("<b>([\\d.]+)×</b> over viewport 1").match(counters);
  ASSERT_TRUE(shown.hasMatch()) << counters.toStdString();
  EXPECT_TRUE(w.runPage()->verdict().contains("Measured: <b>×" + shown.captured(1) + "</b>"))
      << w.runPage()->verdict().toStdString() << " against " << counters.toStdString();
  EXPECT_TRUE(w.record().measurement("cpu-serial"));
  EXPECT_TRUE(w.record().measurement("cpu-parallel"));
  // Both ran on the host's cores: one memory roof, two points.
  EXPECT_EQ(w.runPage()->roofline()->stagePointCount(), 2);
  EXPECT_EQ(w.runPage()->roofline()->ceilingLineCount(), 1);
  // Leaving the page pauses the run.
  w.showPage(3);
  EXPECT_FALSE(w.runPage()->compare()->playButtonChecked());
  // The summary has the step's measured speed-up and the guess.
  w.showPage(w.pageCount() - 1);
  QTableWidget* table = w.summaryPage()->table();
  ASSERT_GE(table->rowCount(), 2);
  EXPECT_EQ(table->item(1, 0)->text(), "cpu-parallel");
  EXPECT_EQ(table->item(1, 2)->text(), "×3.00");
  EXPECT_TRUE(table->item(1, 3)->text().startsWith("×"));
}

TEST(LessonWindow, ReadShowsTheChangedHunksEachWithItsSentence) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  LessonWindow w(smallScenario(), "gpu-optimized", true);
  w.resize(1280, 720);
  w.show();
  w.showPage(3);
  StageDiffView* read = w.readView();
  EXPECT_TRUE(read->rewrite());
  EXPECT_TRUE(read->changedOnly()) << "a rewrite opens on its changed hunks";
  int headings = 0;
  for (int row = 0; row < int(read->shownRows().size()); ++row) {
    if (read->shownRows()[std::size_t(row)].kind != DiffRow::Kind::Heading) continue;
    ++headings;
    ASSERT_TRUE(test::waitUntil([&] { return !read->rightView()->annotation(row).isEmpty(); }, 5000)) << "row " << row;
    EXPECT_EQ(read->leftView()->annotation(row), read->rightView()->annotation(row)) << "the same note on both sides";
  }
  EXPECT_EQ(headings, changedHunkCount(read->hunks()));
  EXPECT_EQ(read->leftView()->lines(), read->rightView()->lines());
}

TEST(LessonWindow, TeachMenuOpensItOnTheRunningScenarioAndPausesTheRun) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario scenario = smallScenario();
  scenario.stage = "cpu-serial";
  MainWindow window(scenario);
  window.show();
  ASSERT_TRUE(test::waitUntil([&] { return window.pane()->lastStatus().hasSolver; }));
  QAction* open = test::menuAction(window, "Lesson");
  ASSERT_NE(open, nullptr) << "no Teach ▸ Lesson action";
  EXPECT_EQ(open->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_L));
  for (QAction* a : window.findChildren<QAction*>()) {
    if (a != open) {
      EXPECT_NE(a->shortcut(), open->shortcut()) << a->text().toStdString();
    }
  }
  open->trigger();
  auto* lesson = window.findChild<LessonWindow*>();
  ASSERT_NE(lesson, nullptr);
  EXPECT_TRUE(lesson->isVisible());
  EXPECT_FALSE(window.playButtonChecked()) << "the lesson's stages get the devices";
  EXPECT_TRUE(lesson->startPage()->toPlainText().contains("24×20×16")) << "the running scenario's grid";
  EXPECT_EQ(window.openLesson(), lesson) << "one lesson window, raised again";
  window.close();
}

TEST(StaircaseChart, BarsClimbWithTheMeasurementAndPredictionsShow) {
  StaircaseChart chart;
  chart.setEntries(sampleStaircase(), "test");
  // gpu-slm's predecessor and every stage after it, the measured ones first.
  ASSERT_EQ(chart.entries().size(), lessonStages(lessonSteps("gpu-slm", true)).size());
  ASSERT_GE(chart.entries().size(), 4u);
  EXPECT_LT(chart.barFraction(0), chart.barFraction(1));
  EXPECT_LT(chart.barFraction(1), chart.barFraction(2));
  EXPECT_EQ(chart.barFraction(3), 0.0) << "not measured";
  // The prediction's orange marker is drawn where a prediction exists, and only then.
  const auto orangePixels = [](const QImage& image) {
    int n = 0;
    for (int y = image.height() / 8; y < image.height(); ++y)  // below the legend
      for (int x = 0; x < image.width(); ++x) {
        const QColor c = image.pixelColor(x, y);
        n += c.red() > 200 && c.green() > 90 && c.green() < 150 && c.blue() < 60;
      }
    return n;
  };
  const int withPrediction = orangePixels(chart.image(StaircaseChart::kExportSize));
  auto entries = sampleStaircase();
  for (StaircaseEntry& e : entries) e.predictedMpts.reset();
  chart.setEntries(entries, "test");
  const int without = orangePixels(chart.image(StaircaseChart::kExportSize));
  EXPECT_GT(withPrediction, 30);
  EXPECT_EQ(without, 0);
}

TEST(LessonSummaryPage, ExportsTheChartAndTheHandout) {
  LessonSummaryPage page;
  page.setContent(sampleStaircase(), {{"gpu-slm", "Explicit reuse."}}, "Scenario test");
  QString error;
  const QString png = QString::fromStdString(test::scratchPath("staircase.png").string());
  const QString svg = QString::fromStdString(test::scratchPath("staircase.svg").string());
  ASSERT_TRUE(page.chart()->save(png, error)) << error.toStdString();
  EXPECT_EQ(QImage(png).size(), StaircaseChart::kExportSize);
  ASSERT_TRUE(page.chart()->save(svg, error)) << error.toStdString();
  QFile svgFile(svg);
  ASSERT_TRUE(svgFile.open(QIODevice::ReadOnly));
  EXPECT_TRUE(svgFile.readAll().contains("<svg"));
  EXPECT_FALSE(page.chart()->save(QString::fromStdString(test::scratchPath("s.bmp").string()), error));

  const QString pdf = QString::fromStdString(test::scratchPath("handout.pdf").string());
  ASSERT_TRUE(page.writeHandout(pdf, error)) << error.toStdString();
  QFile pdfFile(pdf);
  ASSERT_TRUE(pdfFile.open(QIODevice::ReadOnly));
  const QByteArray bytes = pdfFile.readAll();
  EXPECT_TRUE(bytes.startsWith("%PDF"));
  EXPECT_EQ(bytes.count("/Type /Page\n") + bytes.count("/Type /Page\r") + bytes.count("/Type /Page "), 1) << "one page";
  // A folder that does not exist: refused, nothing written.
  EXPECT_FALSE(page.writeHandout(QString::fromStdString(test::scratchPath("missing/h.pdf").string()), error));
  EXPECT_FALSE(error.isEmpty());
}

// What CI runs: the whole lesson headless on a small grid, one picture per page and the handout.
TEST(LessonCommandLine, GoesThroughEveryPageAndWritesTheHandout) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  const QString folder = QString::fromStdString(test::scratchPath("lesson-pages").string());
  const QString handout = QString::fromStdString(test::scratchPath("handout.pdf").string());
  const test::StudioRun run = test::runStudio({"--lesson", "--size", "32", "--screenshots", folder, "--handout", handout});
  ASSERT_EQ(run.exitCode, 0) << run.output.toStdString();
  const auto steps = lessonSteps({}, !listDevices().empty());
  const QStringList pages = QDir(folder).entryList({"*.png"}, QDir::Files, QDir::Name);
  EXPECT_EQ(pages.size(), int(2 + 3 * steps.size())) << pages.join(' ').toStdString();
  for (const std::string& stage : lessonStages(steps)) {
    EXPECT_TRUE(std::any_of(pages.begin(), pages.end(), [&](const QString& p) { return p.contains(QString::fromStdString(stage)); }))
        << "no page of " << stage;
  }
  for (const QString& page : pages) {
    const QImage image(QDir(folder).filePath(page));
    EXPECT_FALSE(image.isNull()) << page.toStdString();
  }
  QFile pdf(handout);
  ASSERT_TRUE(pdf.open(QIODevice::ReadOnly));
  EXPECT_TRUE(pdf.read(5).startsWith("%PDF"));
  // The measurements are printed as they were drawn: each stage with its Mpts/s.
  for (const std::string& stage : lessonStages(steps)) {
    EXPECT_TRUE(run.output.contains(QString::fromStdString(stage) + ": ")) << stage;
  }
}

TEST(LessonCommandLine, RefusesWhatDoesNotBelong) {
  const auto refused = [](const QStringList& arguments, const char* says) {
    const test::StudioRun run = test::runStudio(arguments, {"QT_QPA_PLATFORM=offscreen"});
    EXPECT_EQ(run.exitCode, 2) << arguments.join(' ').toStdString() << ": " << run.output.toStdString();
    EXPECT_TRUE(run.output.contains(says)) << run.output.toStdString();
  };
  refused({"--lesson", "--from", "gpu-fastest"}, "--from gpu-fastest");
  refused({"--from", "cpu-parallel"}, "--from belongs to --lesson");
  refused({"--lesson", "--handout", "notes.txt"}, "expected a name ending in .pdf");
  refused({"--lesson", "--compare", "cpu-serial,cpu-parallel"}, "--lesson runs on its own");
  refused({"--lesson", "--handout", "/no-such-folder/h.pdf"}, "does not exist");
}

}  // namespace
}  // namespace iso
