#include "app/studio/StageExplorer.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <cstdio>

#include "compute/Stage.h"
#include "app/studio/MarkdownPage.h"
#include "app/studio/StageDiffView.h"
#include "app/studio/StageMaterial.h"
#include "core/StageRegistry.h"
#include "app/studio/StageSourceView.h"
#include "app/studio/ViewImage.h"

namespace iso {

StageExplorer::StageExplorer(QWidget* parent) : QWidget(parent, Qt::Window) {
  setWindowTitle("iso3dfd studio — stages: source, diff, explanation");
  stages_ = new QListWidget;
  for (const StageInfo& s : StageRegistry::all()) {
    auto* item = new QListWidgetItem(QStringLiteral("%1\n%2").arg(QString::fromStdString(s.title), QString::fromStdString(s.id)));
    item->setData(Qt::UserRole, QString::fromStdString(s.id));
    item->setToolTip(QString::fromStdString(s.description));
    stages_->addItem(item);
  }
  stages_->setSpacing(2);
  stages_->setMinimumWidth(stages_->sizeHintForColumn(0) + 24);

  heading_ = new QLabel;
  heading_->setWordWrap(true);
  heading_->setTextFormat(Qt::RichText);
  source_ = new StageSourceView;
  diff_ = new StageDiffView;
  explanation_ = new QTextBrowser;
  prepareForReading(explanation_);
  tabs_ = new QTabWidget;
  tabs_->addTab(source_, "Source");
  tabs_->addTab(diff_, "Diff");
  tabs_->addTab(explanation_, "Explanation");

  auto* right = new QWidget;
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(6, 0, 0, 0);
  rightLayout->addWidget(heading_);
  rightLayout->addWidget(tabs_, 1);
  auto* split = new QSplitter(Qt::Horizontal);
  split->addWidget(stages_);
  split->addWidget(right);
  split->setStretchFactor(1, 1);
  split->setSizes({stages_->minimumWidth(), 1000});  // the code gets the room
  split->setChildrenCollapsible(false);
  auto* layout = new QHBoxLayout(this);
  layout->addWidget(split);

  connect(stages_, &QListWidget::currentRowChanged, this, &StageExplorer::showStage);
  stages_->setCurrentRow(0);
  resize(1240, 700);
}

void StageExplorer::selectStage(const std::string& stageId) {
  StageRegistry::get(stageId);  // throws for an unknown id
  for (int row = 0; row < stages_->count(); ++row)
    if (stages_->item(row)->data(Qt::UserRole).toString().toStdString() == stageId) stages_->setCurrentRow(row);
}

std::string StageExplorer::currentStage() const {
  const QListWidgetItem* item = stages_->currentItem();
  return item ? item->data(Qt::UserRole).toString().toStdString() : std::string();
}

QString StageExplorer::headingText() const { return heading_->text(); }

void StageExplorer::showTab(Tab tab) { tabs_->setCurrentIndex(int(tab)); }

void StageExplorer::setMeasurements(const StageMeasurements& measurements) {
  measurements_ = measurements;
  showExplanation(true);
}

void StageExplorer::setMeasurement(const std::string& stageId, const StageMeasurement& measurement) {
  measurements_[stageId] = measurement;
  showExplanation(true);
}

void StageExplorer::showStage(int row) {
  if (row < 0) return;
  const StageInfo& stage = StageRegistry::get(currentStage());
  QString heading = QStringLiteral("<span style='font-size:large'><b>%1</b></span> &nbsp;<code>%2</code>")
                        .arg(QString::fromStdString(stage.title).toHtmlEscaped(), QString::fromStdString(stage.id));
  if (!stage.sampleName.empty()) heading += QStringLiteral(" &nbsp;— oneAPI sample <code>%1</code>").arg(QString::fromStdString(stage.sampleName));
  heading += "<br>" + QString::fromStdString(stage.description).toHtmlEscaped();
  QStringList parameters;
  for (const std::string& name : resolveStage(stage.id).parameterNames()) parameters << "<code>" + QString::fromStdString(name) + "</code>";
  heading += "<br>Parameters: " + (parameters.isEmpty() ? QStringLiteral("none") : parameters.join(", "));
  heading_->setText(heading);
  source_->setFiles(stage.sourceFiles);
  diff_->setStage(stage.id);
  showExplanation(false);
}

void StageExplorer::showExplanation(bool keepScroll) {
  const std::string id = currentStage();
  if (id.empty()) return;
  const auto markdown = readStageExplanation(id);
  if (!markdown) {
    explanation_->setPlainText(QStringLiteral("The explanation of %1 is not compiled into this binary.").arg(QString::fromStdString(id)));
    return;
  }
  const int scroll = explanation_->verticalScrollBar()->value();
  showMarkdown(explanation_, QString::fromStdString(fillExplanation(markdown->toStdString(), id, measurements_)));
  explanation_->verticalScrollBar()->setValue(keepScroll ? scroll : 0);  // new numbers keep the reader's place
}

int runStageExplorer(const std::string& stageId, StageExplorer::Tab tab, const QString& screenshot) {
  StageExplorer explorer;
  explorer.selectStage(stageId);
  explorer.showTab(tab);
  explorer.show();
  if (screenshot.isEmpty()) return QApplication::exec();
  int status = 0;
  // After the first paint: the tab's widgets have their final sizes.
  QTimer::singleShot(0, &explorer, [&] {
    if (QString problem; !writeImageFile(explorer.grab().toImage(), screenshot, problem)) {
      std::fprintf(stderr, "iso3dfd-studio: %s\n", qPrintable(problem));
      status = 1;
    }
    QApplication::quit();
  });
  QApplication::exec();
  return status;
}

}  // namespace iso
