// Edit ▸ Undo / Redo of the scenario form (its undo stack, each edit one step, quick edits of one part
// merged, a refused edit dropped), and Help ▸ User guide and Keyboard shortcuts (the README's sections,
// searchable; every shortcut of the main window). The form tests run on any Qt platform.
#include <gtest/gtest.h>

#include <QAction>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QTextBrowser>
#include <QThread>
#include <QUndoStack>

#include "app/studio/HelpWindow.h"
#include "app/studio/MainWindow.h"
#include "app/studio/ScenarioForm.h"
#include "app/studio/SimulationPane.h"
#include "app/studio/SourceEditor.h"
#include "core/ScenarioResize.h"
#include "tests/gui/test_studio_support.h"

namespace iso {
namespace {

Scenario small() { return resizedScenario(presetScenario("default"), 24, 20, 16); }

TEST(ScenarioUndo, EachEditIsAStepThatUndoAndRedoWalk) {
  ScenarioForm form;
  form.setScenario(small());
  QUndoStack* undo = form.undoStack();
  EXPECT_FALSE(undo->canUndo()) << "a scenario set from outside is where the steps start";
  int changed = 0;
  QObject::connect(&form, &ScenarioForm::changed, [&] { ++changed; });
  const Scenario original = form.scenario();
  form.setSourceCell(3, 4, 5);
  const Scenario moved = form.scenario();
  ASSERT_NE(scenarioToJson(moved), scenarioToJson(original));
  QThread::msleep(1100);  // past the merge window: another step
  form.addReceiver(6, 7, 8);
  const Scenario withReceiver = form.scenario();
  ASSERT_EQ(undo->count(), 2);
  EXPECT_TRUE(undo->undoText().contains("receivers")) << undo->undoText().toStdString();

  const int edits = changed;
  undo->undo();
  EXPECT_EQ(scenarioToJson(form.scenario()), scenarioToJson(moved));
  EXPECT_EQ(changed, edits + 1) << "an undo is an edit for the run";
  undo->undo();
  EXPECT_EQ(scenarioToJson(form.scenario()), scenarioToJson(original));
  EXPECT_FALSE(undo->canUndo());
  undo->redo();
  undo->redo();
  EXPECT_EQ(scenarioToJson(form.scenario()), scenarioToJson(withReceiver));
  // An edit after an undo drops what could be redone.
  undo->undo();
  form.setSteps(form.scenario().steps + 10);
  EXPECT_FALSE(undo->canRedo());
}

TEST(ScenarioUndo, QuickEditsOfOnePartAreOneStep) {
  ScenarioForm form;
  form.setScenario(small());
  const Scenario original = form.scenario();
  form.setSourceCell(3, 4, 5);
  form.setSourceCell(4, 4, 5);  // e.g. the digits of a number typed one after the other
  form.setSourceCell(5, 4, 5);
  EXPECT_EQ(form.undoStack()->count(), 1);
  form.undoStack()->undo();
  EXPECT_EQ(scenarioToJson(form.scenario()), scenarioToJson(original));
}

TEST(ScenarioUndo, ARefusedEditLeavesTheStack) {
  ScenarioForm form;
  const Scenario running = small();
  form.setScenario(running);
  form.setSteps(running.steps + 5);
  const Scenario accepted = form.scenario();
  QThread::msleep(1100);
  form.setSourceCell(1, 1, 1);
  const Scenario refused = form.scenario();
  ASSERT_EQ(form.undoStack()->count(), 2);
  // The controller runs `accepted` and refuses `refused`: the form goes back, and the refused step with it.
  form.showRefused(refused, accepted, form.origin(), "test");
  EXPECT_EQ(scenarioToJson(form.scenario()), scenarioToJson(accepted));
  EXPECT_EQ(form.undoStack()->count(), 1);
  EXPECT_FALSE(form.undoStack()->canRedo()) << "the refused edit is not offered again";
  form.undoStack()->undo();
  EXPECT_EQ(form.scenario().steps, running.steps) << "the last edit that ran is the one undone";
}

TEST(HelpWindow, TheGuideIsTheReadmeAndSearchKeepsTheSectionsThatMatch) {
  const auto sections = HelpWindow::guideSections();
  ASSERT_GT(sections.size(), 4);
  EXPECT_TRUE(std::any_of(sections.begin(), sections.end(), [](const auto& s) { return s.heading.contains("desktop application"); }));
  HelpWindow help({});
  const int all = help.sections()->count();
  EXPECT_EQ(all, int(sections.size()));
  help.setSearch("seismogram");
  EXPECT_GT(help.sections()->count(), 0);
  EXPECT_LT(help.sections()->count(), all);
  EXPECT_TRUE(help.guide()->toPlainText().contains("seismogram", Qt::CaseInsensitive));
  EXPECT_FALSE(help.guide()->extraSelections().isEmpty()) << "the matches are marked";
  help.setSearch("no-such-word-anywhere");
  EXPECT_EQ(help.sections()->count(), 0);
  EXPECT_TRUE(help.guide()->toPlainText().contains("Nothing in the guide"));
  help.setSearch({});
  EXPECT_EQ(help.sections()->count(), all);
}

TEST(HelpWindow, MainWindowMenusOfferGuideShortcutsAndUndo) {
  if (!test::haveDisplay()) GTEST_SKIP() << "needs an X display with OpenGL (run under xvfb-run)";
  Scenario scenario = small();
  scenario.stage = "cpu-serial";
  MainWindow window(scenario);
  window.show();
  ASSERT_TRUE(test::waitUntil([&] { return window.pane()->lastStatus().hasSolver; }));
  QStringList texts;
  for (QAction* menu : window.menuBar()->actions())
    if (menu->menu())
      for (QAction* a : menu->menu()->actions()) texts << a->text();
  EXPECT_TRUE(texts.contains("&User guide"));
  EXPECT_TRUE(texts.contains("&Keyboard shortcuts"));
  EXPECT_TRUE(std::any_of(texts.begin(), texts.end(), [](const QString& t) { return t.startsWith("&Undo"); }));

  HelpWindow* help = window.showHelp(HelpWindow::ShortcutsTab);
  ASSERT_NE(help, nullptr);
  QStringList keys;
  for (int r = 0; r < help->shortcuts()->rowCount(); ++r) keys << help->shortcuts()->item(r, 1)->text();
  for (const char* expected : {"Play", "Record", "Lesson", "Undo", "Shift+click on a slice"}) {
    const bool listed = std::any_of(keys.begin(), keys.end(), [&](const QString& k) { return k.contains(expected); }) ||
                        [&] {
                          for (int r = 0; r < help->shortcuts()->rowCount(); ++r)
                            if (help->shortcuts()->item(r, 0)->text().contains(expected)) return true;
                          return false;
                        }();
    EXPECT_TRUE(listed) << expected;
  }
  EXPECT_EQ(window.showHelp(HelpWindow::GuideTab), help) << "one help window";

  // Undo through the main window reaches the run: the source moves back and the solver follows.
  const Scenario before = window.form()->scenario();
  window.form()->setSourceCell(2, 2, 2);
  ASSERT_TRUE(test::waitUntil([&] { return window.pane()->controller().activeScenario().source.i == 2; }));
  window.form()->undoStack()->undo();
  EXPECT_TRUE(test::waitUntil([&] { return window.pane()->controller().activeScenario().source.i == before.source.i; }));
  window.close();
}

}  // namespace
}  // namespace iso
