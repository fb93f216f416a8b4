#include "app/studio/LessonPredictPage.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "app/studio/MarkdownPage.h"
#include "app/studio/StageMaterial.h"
#include "core/StageRegistry.h"

namespace iso {
namespace {

QString cell(std::string text) {
  for (char& c : text)
    if (c == '|') c = '/';
  return QString::fromStdString(text);
}

QString tableRow(const std::vector<std::string>& cells) {
  QStringList parts;
  for (const std::string& c : cells) parts << cell(c);
  return "| " + parts.join(" | ") + " |\n";
}

}  // namespace

LessonPredictPage::LessonPredictPage(QWidget* parent) : QWidget(parent) {
  text_ = new QTextBrowser;
  prepareForReading(text_);
  question_ = new QLabel;
  QFont large = question_->font();
  large.setPointSize(kReadingPointSize + 2);
  question_->setFont(large);
  question_->setWordWrap(true);
  prediction_ = new QDoubleSpinBox;
  prediction_->setObjectName("lessonPrediction");
  prediction_->setFont(large);
  prediction_->setRange(0.0, 10000.0);
  prediction_->setDecimals(2);
  prediction_->setSingleStep(0.1);
  prediction_->setSpecialValueText("your guess");
  prediction_->setSuffix(" ×");
  prediction_->setMinimumWidth(160);
  prediction_->setToolTip("The speed-up you expect: 2 = twice as fast, 0.5 = half as fast. The Run page measures it;\n"
                          "the summary puts your guess beside the measurement");
  connect(prediction_, &QDoubleSpinBox::valueChanged, this, &LessonPredictPage::predictionChanged);
  auto* row = new QHBoxLayout;
  row->addWidget(question_, 1);
  row->addWidget(prediction_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(text_, 1);
  layout->addLayout(row);
}

QString LessonPredictPage::markdown(const LessonStep& step, const LessonText& text) {
  const auto explanation = readStageExplanation(step.stage);
  QString md = QStringLiteral("# %1\n\n").arg(QString::fromStdString(text.title));
  if (explanation) md += QString::fromStdString(explanationSummary(explanation->toStdString())) + "\n\n";
  md += QString::fromStdString(text.predict) + "\n\n";
  // The descriptors' bytes first, then the lesson's facts; the header names the two stages.
  md += tableRow({"per point", step.previous, step.stage}) + "|---|---|---|\n";
  const auto bytes = [](const std::string& id) {
    const double b = lessonBytesPerPoint(id);
    return QString::number(b, 'g', 3).toStdString() + " B";
  };
  md += tableRow({"memory traffic per step at best (the stage's descriptor)", bytes(step.previous), bytes(step.stage)});
  for (const auto& r : text.perPoint.rows) md += tableRow(r);
  return md;
}

void LessonPredictPage::setStep(const LessonStep& step, const LessonText& text, std::optional<double> prediction) {
  showMarkdown(text_, markdown(step, text));
  question_->setText(QStringLiteral("How much faster will <b>%1</b> run than <b>%2</b> here? Your speed-up:")
                         .arg(QString::fromStdString(step.stage), QString::fromStdString(step.previous)));
  const QSignalBlocker block(prediction_);
  prediction_->setValue(prediction.value_or(0.0));
}

}  // namespace iso
