#pragma once
// The "Stages" window for teaching: the optimisation stages in order, and for the selected one its
// source (Source), what changed against the stage it is compared with (Diff), and the explanation
// for learners with this device's measured numbers filled in (Explanation).
#include <QWidget>
#include <string>

#include "app/studio/StageExplanation.h"

class QLabel;
class QListWidget;
class QTabWidget;
class QTextBrowser;

namespace iso {

class StageDiffView;
class StageSourceView;

class StageExplorer : public QWidget {
  Q_OBJECT
 public:
  enum Tab { SourceTab, DiffTab, ExplanationTab };

  explicit StageExplorer(QWidget* parent = nullptr);

  // Selects a registry stage; an unknown id throws std::invalid_argument naming the known ones.
  void selectStage(const std::string& stageId);
  std::string currentStage() const;
  void showTab(Tab tab);

  // The measured results the explanations quote (e.g. from a benchmark); replaces all of them.
  void setMeasurements(const StageMeasurements& measurements);
  // One stage's result (e.g. the running stage's live counters).
  void setMeasurement(const std::string& stageId, const StageMeasurement& measurement);

  StageSourceView* sourceView() const { return source_; }
  StageDiffView* diffView() const { return diff_; }
  QTextBrowser* explanationView() const { return explanation_; }
  QString headingText() const;  // title, sample, description and parameters of the stage shown

 private:
  void showStage(int row);
  void showExplanation(bool keepScroll);

  QListWidget* stages_ = nullptr;
  QLabel* heading_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  StageSourceView* source_ = nullptr;
  StageDiffView* diff_ = nullptr;
  QTextBrowser* explanation_ = nullptr;
  StageMeasurements measurements_;
};

// iso3dfd-studio --stages-window TAB: the window alone on `stageId`; with `screenshot`, saves a PNG of
// it once shown and returns (0, or 1 when the file could not be written); otherwise runs until closed.
int runStageExplorer(const std::string& stageId, StageExplorer::Tab tab, const QString& screenshot);

}  // namespace iso
