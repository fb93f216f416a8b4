#pragma once
// The lesson's Run page for one step: the compare view with two viewports, the previous stage (1) and
// the step's stage (2), on the lesson's scenario and device in lockstep; beside it the learner's
// prediction against the measured speed-up, and both stages on the roofline, their points moving as the
// measurement settles.
#include <QTimer>
#include <QWidget>
#include <optional>

#include "app/studio/BenchmarkCharts.h"
#include "app/studio/HostMemoryRoof.h"
#include "app/studio/LessonPlan.h"
#include "app/studio/LessonText.h"
#include "core/Scenario.h"

class QLabel;
class QTextBrowser;

namespace iso {

class CompareWindow;

class LessonRunPage : public QWidget {
  Q_OBJECT
 public:
  explicit LessonRunPage(const Scenario& scenario, QWidget* parent = nullptr);

  // Restarts both viewports on the step's stages at step 0, paused until play().
  void setStep(const LessonStep& step, const LessonText& text, std::optional<double> prediction);
  void setScenario(const Scenario& scenario);
  void play(bool on);  // the compare view's Play
  CompareWindow* compare() const { return compare_; }
  RooflineChart* roofline() const { return roofline_; }
  QString verdict() const;

  // What viewport n (0: the previous stage, 1: the step's) measures now; mpts 0 until it has.
  LessonMeasurement measurement(int n) const;
  // A viewport that could not run, with its reason; "" when both run.
  QString problem() const;

 signals:
  // A stage's measurement changed (the previous stage's, or the step's).
  void measured(const std::string& stage, const LessonMeasurement& measurement);

 private:
  void refresh();  // a few times a second: the verdict and the roofline

  LessonStep step_;
  std::optional<double> prediction_;
  CompareWindow* compare_ = nullptr;
  QLabel *heading_ = nullptr, *verdict_ = nullptr;
  QTextBrowser* watch_ = nullptr;
  RooflineChart* roofline_ = nullptr;
  BenchmarkRun run_;  // what the roofline shows
  HostMemoryRoof hostRoof_;
  QTimer refresh_;
};

}  // namespace iso
