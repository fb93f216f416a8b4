// The stage explorer window: every stage's source, the diff against the previous stage, the rendered
// explanation, the command-line screenshot and the main window's Teach menu. The explorer has no
// OpenGL, so all but the main-window test also run on Qt's offscreen platform.
#include <gtest/gtest.h>

#include <QAction>
#include <QDir>
#include <QImage>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextBrowser>

#include "app/studio/CodeView.h"
#include "app/studio/MainWindow.h"
#include "core/ScenarioResize.h"
#include "app/studio/SimulationPane.h"
#include "compute/SolverFactory.h"
#include "app/studio/StageDiffView.h"
#include "app/studio/StageExplorer.h"
#include "app/studio/StageMaterial.h"
#include "core/StageRegistry.h"
#include "app/studio/StageSourceView.h"
#include "tests/gui/test_menu_action.h"
#include "tests/gui/test_studio_support.h"
#include "tests/support/StudioProcess.h"

namespace iso {
namespace {

TEST(StageExplorer, EveryStageShowsItsSourceFiles) {
  StageExplorer explorer;
  for (const StageInfo& stage : StageRegistry::all()) {
    SCOPED_TRACE(stage.id);
    explorer.selectStage(stage.id);
    EXPECT_EQ(explorer.currentStage(), stage.id);
    StageSourceView* source = explorer.sourceView();
    ASSERT_EQ(source->fileCount(), int(stage.sourceFiles.size()));
    for (int i = 0; i < source->fileCount(); ++i) {
      source->showFile(i);
      EXPECT_EQ(source->currentFile().toStdString(), stage.sourceFiles[std::size_t(i)]);
      const auto expected = readStageMaterial(stage.sourceFiles[std::size_t(i)]);
      ASSERT_TRUE(expected);
      EXPECT_FALSE(source->editor()->text().trimmed().isEmpty());
      EXPECT_EQ(source->editor()->text(), *expected);
      EXPECT_TRUE(source->editor()->isReadOnly());
    }
  }
}

TEST(StageExplorer, HeadingListsTheStageParameters) {
  StageExplorer explorer;
  for (const StageInfo& stage : StageRegistry::all()) {
    explorer.selectStage(stage.id);
    const QString heading = explorer.headingText();
    EXPECT_TRUE(heading.contains(QString::fromStdString(stage.title))) << stage.id;
    const auto names = resolveStage(stage.id).parameterNames();
    if (names.empty()) {
      EXPECT_TRUE(heading.contains("Parameters: none")) << stage.id;
    }
    for (const std::string& name : names) {
      EXPECT_TRUE(heading.contains(QString::fromStdString(name))) << stage.id << ": " << name;
    }
  }
}

TEST(StageExplorer, DiffOfLinearAgainstBasicHighlightsTheChangedLines) {
  StageExplorer explorer;
  explorer.selectStage("gpu-linear");
  StageDiffView* diff = explorer.diffView();
  ASSERT_GT(diff->changedRows(), 0);
  EXPECT_TRUE(diff->summary().contains(QString::number(diff->changedRows()))) << diff->summary().toStdString();
  // Most of the small kernel changed: it reads as a rewrite, aligned by sections, on its changed hunks.
  EXPECT_TRUE(diff->rewrite());
  EXPECT_TRUE(diff->changedOnly());
  EXPECT_TRUE(diff->summary().contains("sections")) << diff->summary().toStdString();
  diff->setChangedOnly(false);
  // Both views hold one line per row, so that they scroll together.
  const int rows = int(diff->shownRows().size());
  EXPECT_EQ(diff->leftView()->lines(), rows);
  EXPECT_EQ(diff->rightView()->lines(), rows);
  int linearIndexRow = -1;
  for (int i = 0; i < rows; ++i)
    if (diff->shownRows()[std::size_t(i)].rightText.find("const int c = (z * (n2 + 2 * R) + y) * nx + x;") != std::string::npos) linearIndexRow = i;
  ASSERT_GE(linearIndexRow, 0);
  EXPECT_NE(diff->shownRows()[std::size_t(linearIndexRow)].kind, DiffRow::Kind::Same);
  EXPECT_NE(diff->rightView()->markersAtLine(linearIndexRow), 0u) << "the changed line is not highlighted";
  EXPECT_TRUE(diff->rightView()->text(linearIndexRow).contains("const int c ="));
  // Within a changed line, the characters that differ are boxed, and the common start is not.
  int lapRow = -1;
  for (int i = 0; i < rows; ++i)
    if (diff->shownRows()[std::size_t(i)].rightText.find("float lap = coef[0] * prev[c];") != std::string::npos) lapRow = i;
  ASSERT_GE(lapRow, 0);
  const DiffRow& changed = diff->shownRows()[std::size_t(lapRow)];
  ASSERT_EQ(changed.kind, DiffRow::Kind::Changed);
  const LineChange span = changedSpan(changed.leftText, changed.rightText);
  ASSERT_GT(span.begin, 0);
  auto boxed = [&](CodeView* view, int index) {
    const long position = view->positionFromLineIndex(lapRow, index);
    return view->SendScintilla(QsciScintillaBase::SCI_INDICATORVALUEAT, StageDiffView::kChangedTextIndicator, position) != 0;
  };
  EXPECT_TRUE(boxed(diff->rightView(), span.begin));
  EXPECT_TRUE(boxed(diff->leftView(), span.begin));
  EXPECT_FALSE(boxed(diff->rightView(), 0));

  // "Changed hunks only" folds the unchanged runs and keeps every change.
  diff->setChangedOnly(true);
  const auto& folded = diff->shownRows();
  EXPECT_LE(int(folded.size()), rows);
  EXPECT_EQ(changedRowCount(folded), diff->changedRows());
  EXPECT_EQ(diff->leftView()->lines(), int(folded.size()));
  diff->setChangedOnly(false);
  EXPECT_EQ(int(diff->shownRows().size()), rows);
}

TEST(StageExplorer, LongDiffFoldsWhenAskedAndTheFirstStageHasNone) {
  StageExplorer explorer;
  explorer.selectStage("gpu-private-x");  // private_z.cl -> private_x.cl: long common runs
  StageDiffView* diff = explorer.diffView();
  diff->setChangedOnly(false);
  const std::size_t all = diff->shownRows().size();
  diff->setChangedOnly(true);
  EXPECT_LT(diff->shownRows().size(), all);
  EXPECT_TRUE(std::any_of(diff->shownRows().begin(), diff->shownRows().end(),
                          [](const DiffRow& r) { return r.kind == DiffRow::Kind::Folded; }));
  EXPECT_TRUE(diff->leftView()->text().contains("unchanged lines"));

  explorer.selectStage("cpu-serial");
  EXPECT_TRUE(diff->shownRows().empty());
  EXPECT_TRUE(diff->summary().contains("first stage")) << diff->summary().toStdString();
}

TEST(StageExplorer, ExplanationIsRenderedWithAndWithoutMeasurements) {
  StageExplorer explorer;
  for (const StageInfo& stage : StageRegistry::all()) {
    explorer.selectStage(stage.id);
    const QString text = explorer.explanationView()->toPlainText();
    EXPECT_GT(text.size(), 500) << stage.id;
    EXPECT_FALSE(text.contains("{{")) << stage.id;
    EXPECT_FALSE(text.contains("```")) << stage.id << ": Markdown not rendered";
    EXPECT_TRUE(text.contains(kNotMeasuredText)) << stage.id;
    // Markdown reads "~" pairs as strike-through: an approximate figure must not come out struck.
    for (QTextBlock block = explorer.explanationView()->document()->begin(); block.isValid(); block = block.next())
      for (auto it = block.begin(); !it.atEnd(); ++it) {
        EXPECT_FALSE(it.fragment().charFormat().fontStrikeOut()) << stage.id << ": struck out: " << it.fragment().text().toStdString();
      }
  }
  StageMeasurements measured;
  for (const StageInfo& stage : StageRegistry::all()) measured[stage.id] = {1234.0, 42.5, "test device"};
  explorer.setMeasurements(measured);
  for (const StageInfo& stage : StageRegistry::all()) {
    explorer.selectStage(stage.id);
    const QString text = explorer.explanationView()->toPlainText();
    EXPECT_FALSE(text.contains("{{")) << stage.id;
    EXPECT_FALSE(text.contains("not measured")) << stage.id;
    EXPECT_TRUE(text.contains("1234 Mpts/s")) << stage.id;
    EXPECT_TRUE(text.contains("42.5 %")) << stage.id;
  }
  // One stage's result (the running stage's counters) updates the text shown.
  explorer.selectStage("gpu-slm");
  explorer.setMeasurement("gpu-slm", {57300.0, 30.6, "NVIDIA H100"});
  EXPECT_TRUE(explorer.explanationView()->toPlainText().contains("57.3 Gpts/s"));
}

TEST(StageExplorer, UnknownStageIsRefusedWithTheKnownOnes) {
  StageExplorer explorer;
  explorer.selectStage("gpu-slm");
  try {
    explorer.selectStage("gpu-fastest");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("gpu-optimized"), std::string::npos) << e.what();
  }
  EXPECT_EQ(explorer.currentStage(), "gpu-slm");
}

// The studio binary in --stages-window mode; without a display on Qt's offscreen platform (the
// explorer draws no OpenGL).
test::StudioRun runExplorerBinary(const QStringList& arguments) {
  return test::runStudio(arguments, test::haveDisplay() ? QStringList{} : QStringList{"QT_QPA_PLATFORM=offscreen"}, 60000);
}

TEST(StageExplorer, CommandLineScreenshotOfEachTab) {
  QTemporaryDir dir;
  for (const QString tab : {"source", "diff", "explanation"}) {
    const QString shot = dir.filePath(tab + ".png");
    const test::StudioRun r = runExplorerBinary({"--stages-window", tab, "--stage", "gpu-linear", "--screenshot", shot});
    ASSERT_EQ(r.exitCode, 0) << r.output.toStdString();
    const QImage image(shot);
    ASSERT_FALSE(image.isNull()) << "no PNG at " << shot.toStdString();
    EXPECT_GE(image.width(), 1000);
    EXPECT_GE(image.height(), 600);
    if (qEnvironmentVariableIsSet("ISO_TEST_SAVE_IMAGES")) image.save(QDir::temp().filePath("stages_" + tab + ".png"));
  }
  const test::StudioRun bad = runExplorerBinary({"--stages-window", "assembly", "--screenshot", dir.filePath("x.png")});
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_TRUE(bad.output.contains("--stages-window assembly")) << bad.output.toStdString();
}

TEST(StageExplorer, TeachMenuOpensItOnTheRunningStage) {
  if (!test::haveDisplay()) GTEST_SKIP() << "the main window needs an X display with OpenGL (run under xvfb-run)";
  Scenario scenario = resizedScenario(presetScenario("default"), 24, 24, 24);
  scenario.stage = "cpu-parallel";
  MainWindow window(scenario);
  window.show();
  ASSERT_TRUE(test::waitUntil([&] { return window.pane()->lastStatus().hasSolver; }));
  QAction* open = test::menuAction(window, "Stages");
  ASSERT_NE(open, nullptr) << "no Teach ▸ Stages action";
  EXPECT_EQ(open->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_T));
  open->trigger();
  auto* explorer = window.findChild<StageExplorer*>();
  ASSERT_NE(explorer, nullptr);
  EXPECT_TRUE(explorer->isVisible());
  EXPECT_EQ(explorer->currentStage(), "cpu-parallel");

  // A stage switch in the main window: the open explorer follows it.
  scenario.stage = "cpu-serial";
  window.applyScenario(scenario);
  ASSERT_TRUE(test::waitUntil([&] { return window.pane()->lastStatus().stage == "cpu-serial"; }));
  EXPECT_TRUE(test::waitUntil([&] { return explorer->currentStage() == "cpu-serial"; }));
  window.close();
}

}  // namespace
}  // namespace iso
