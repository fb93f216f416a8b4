#pragma once
// Teach ▸ Lesson: a guided path through the optimisation stages in teaching order, on the scenario and
// device at hand. A start page, then for each step (a stage against the one it improves on) three pages:
// Predict (what changes, bytes and loads per point, the learner's expected speed-up), Run (both stages
// side by side in lockstep, the measured speed-up against the prediction, the roofline) and Read (the
// changed code as hunks, each with the sentence it implements); at the end the Summary (the staircase,
// the PNG/SVG chart and the PDF handout). The texts are resources/lessons/<stage>.md (LessonText.h).
#include <QMainWindow>
#include <map>
#include <string>
#include <vector>

#include "app/studio/LessonPlan.h"
#include "app/studio/LessonText.h"
#include "core/Scenario.h"

class QLabel;
class QListWidget;
class QPushButton;
class QStackedWidget;
class QTextBrowser;

namespace iso {

class LessonPredictPage;
class LessonRunPage;
class LessonSummaryPage;
class StageDiffView;

class LessonWindow : public QMainWindow {
  Q_OBJECT
 public:
  enum class PageKind { Start, Predict, Run, Read, Summary };
  struct Page {
    PageKind kind = PageKind::Start;
    int step = -1;  // index into steps() (Predict, Run, Read)
  };

  // Starts at the step of `from` ("" or the first stage: the beginning). Throws std::invalid_argument
  // naming the stages it can start from when `from` is none of them. `includeOpenCL`: the machine has an
  // OpenCL device (else the lesson has the CPU's steps only).
  LessonWindow(const Scenario& scenario, const std::string& from, bool includeOpenCL, QWidget* parent = nullptr);
  ~LessonWindow() override;

  const std::vector<LessonStep>& steps() const { return steps_; }
  int pageCount() const { return int(pages_.size()); }
  Page page(int n) const { return pages_.at(std::size_t(n)); }
  int currentPage() const { return current_; }
  // Shows page n (clamped); the Run page plays while it is shown.
  void showPage(int n);
  // "07-gpu-linear-run": the page's number, stage and kind, for screenshots.
  QString pageName(int n) const;
  void setScenario(const Scenario& scenario);  // the Run page's stages restart on it

  LessonRecord& record() { return record_; }
  const LessonText& text(const std::string& stage) const;
  LessonPredictPage* predictPage() const { return predict_; }
  LessonRunPage* runPage() const { return run_; }
  StageDiffView* readView() const { return read_; }
  LessonSummaryPage* summaryPage() const { return summary_; }
  QTextBrowser* startPage() const { return start_; }

 signals:
  void pageShown(int n);
  void message(const QString& text, bool error);

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildPages();
  void buildLayout();
  QString stepHeading(int step) const;  // "Step 2 of 8 · gpu-basic over cpu-serial"
  QString startMarkdown() const;
  void refreshSummary();

  Scenario scenario_;
  std::vector<LessonStep> steps_;
  std::vector<Page> pages_;
  std::map<std::string, LessonText> texts_;
  LessonRecord record_;
  int current_ = -1;

  QListWidget* outline_ = nullptr;
  QLabel* heading_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QTextBrowser* start_ = nullptr;
  LessonPredictPage* predict_ = nullptr;
  LessonRunPage* run_ = nullptr;
  QWidget* readPage_ = nullptr;
  QLabel* readHeading_ = nullptr;
  StageDiffView* read_ = nullptr;
  LessonSummaryPage* summary_ = nullptr;
  QPushButton *back_ = nullptr, *next_ = nullptr;
};

// iso3dfd-studio --lesson: the lesson window on `scenario` from `from`. With `screenshots` (a folder, made
// if needed) or `handout`, goes through every page by itself: each Run page runs `runSteps` steps in
// lockstep and is measured; every page is saved as DIR/<pageName>.png (with a folder), then the handout
// (when given); returns 0, or 1 when a stage failed to run or a file could not be written. Without
// either: runs until the window is closed.
int runLesson(const Scenario& scenario, const std::string& from, const QString& screenshots, const QString& handout, long runSteps);

}  // namespace iso
