#pragma once
// The lesson's Predict page for one step: what the step changes (the explanation's summary and the
// lesson's text), the bytes per point before and after from the stages' descriptors beside the lesson's
// table of loads per point, and a box where the learner types the speed-up they expect.
#include <QWidget>
#include <optional>

#include "app/studio/LessonPlan.h"
#include "app/studio/LessonText.h"

class QDoubleSpinBox;
class QLabel;
class QTextBrowser;

namespace iso {

class LessonPredictPage : public QWidget {
  Q_OBJECT
 public:
  explicit LessonPredictPage(QWidget* parent = nullptr);

  void setStep(const LessonStep& step, const LessonText& text, std::optional<double> prediction);
  QDoubleSpinBox* predictionBox() const { return prediction_; }
  QTextBrowser* textView() const { return text_; }

  // The page's Markdown: the step's title, the explanation's summary, the lesson's text and the table.
  static QString markdown(const LessonStep& step, const LessonText& text);

 signals:
  void predictionChanged(double speedup);  // 0: none

 private:
  QTextBrowser* text_ = nullptr;
  QLabel* question_ = nullptr;
  QDoubleSpinBox* prediction_ = nullptr;
};

}  // namespace iso
