#include "app/studio/StageDiffView.h"

#include <Qsci/qscistyle.h>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>

#include "app/studio/CodeView.h"
#include "app/studio/StageMaterial.h"
#include "core/StageRegistry.h"

namespace iso {
namespace {

constexpr int kContextRows = 3;  // unchanged rows kept next to each change when folding

// Line backgrounds, one marker each (the same numbers in both views).
enum Marker { kRemoved, kAdded, kChanged, kFiller, kFolded };

void defineMarkers(CodeView* view) {
  const std::pair<Marker, QColor> colours[] = {{kRemoved, QColor(255, 205, 205)},
                                               {kAdded, QColor(200, 240, 200)},
                                               {kChanged, QColor(255, 236, 170)},
                                               {kFiller, QColor(236, 236, 236)},
                                               {kFolded, QColor(214, 226, 240)}};
  for (const auto& [marker, colour] : colours) {
    view->markerDefine(QsciScintilla::Background, marker);
    view->setMarkerBackgroundColor(colour, marker);
  }
  view->indicatorDefine(QsciScintilla::FullBoxIndicator, StageDiffView::kChangedTextIndicator);
  view->setIndicatorForegroundColor(QColor(230, 150, 0, 110), StageDiffView::kChangedTextIndicator);
  view->setMarginType(0, QsciScintilla::TextMarginRightJustified);
  view->setMarginWidth(0, QStringLiteral("0000"));
  view->setMarginWidth(1, 0);  // no symbol margin: the markers colour whole lines
}

QComboBox* filePicker() {
  auto* box = new QComboBox;
  box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  return box;
}

void fillPicker(QComboBox* box, const std::vector<std::string>& paths) {
  const QSignalBlocker block(box);
  box->clear();
  for (const std::string& p : paths) box->addItem(QString::fromStdString(p));
}

std::vector<std::string> linesOf(const QComboBox* box) {
  if (box->count() == 0) return {};
  const auto text = readStageMaterial(box->currentText().toStdString());
  return text ? splitLines(text->toStdString()) : std::vector<std::string>{};
}

}  // namespace

StageDiffView::StageDiffView(QWidget* parent) : QWidget(parent) {
  leftFile_ = filePicker();
  rightFile_ = filePicker();
  leftTitle_ = new QLabel;
  rightTitle_ = new QLabel;
  summary_ = new QLabel;
  changedOnly_ = new QCheckBox("Changed lines only");
  changedOnly_->setToolTip(QStringLiteral("Fold every run of unchanged lines, keeping %1 lines around each change").arg(kContextRows));
  left_ = new CodeView;
  right_ = new CodeView;
  defineMarkers(left_);
  defineMarkers(right_);

  auto* top = new QHBoxLayout;
  top->addWidget(summary_, 1);
  top->addWidget(changedOnly_);
  auto side = [](QLabel* title, QComboBox* picker, CodeView* view) {
    auto* box = new QWidget;
    auto* head = new QHBoxLayout;
    head->addWidget(title);
    head->addWidget(picker);
    head->addStretch(1);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(head);
    layout->addWidget(view, 1);
    return box;
  };
  auto* split = new QSplitter(Qt::Horizontal);
  split->addWidget(side(leftTitle_, leftFile_, left_));
  split->addWidget(side(rightTitle_, rightFile_, right_));
  split->setChildrenCollapsible(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->addLayout(top);
  layout->addWidget(split, 1);

  connect(leftFile_, &QComboBox::currentIndexChanged, this, &StageDiffView::compare);
  connect(rightFile_, &QComboBox::currentIndexChanged, this, &StageDiffView::compare);
  connect(changedOnly_, &QCheckBox::toggled, this, &StageDiffView::showRows);
  linkScrolling(left_, right_);
  linkScrolling(right_, left_);
}

void StageDiffView::linkScrolling(CodeView* from, CodeView* to) {
  // Both views hold the same number of lines (rows without a line on one side are blank there).
  connect(from->verticalScrollBar(), &QScrollBar::valueChanged, to->verticalScrollBar(), &QScrollBar::setValue);
  connect(from->horizontalScrollBar(), &QScrollBar::valueChanged, to->horizontalScrollBar(), &QScrollBar::setValue);
}

void StageDiffView::setStage(const std::string& stageId) {
  const StageInfo& stage = StageRegistry::get(stageId);
  const StageInfo* previous = stage.previous.empty() ? nullptr : &StageRegistry::get(stage.previous);
  leftTitle_->setText(previous ? QStringLiteral("<b>%1</b> (previous)").arg(QString::fromStdString(previous->id))
                               : QStringLiteral("<b>no previous stage</b>"));
  rightTitle_->setText(QStringLiteral("<b>%1</b>").arg(QString::fromStdString(stage.id)));
  fillPicker(leftFile_, previous ? previous->sourceFiles : std::vector<std::string>{});
  fillPicker(rightFile_, stage.sourceFiles);
  compare();
  if (!previous) summary_->setText(QStringLiteral("%1 is the first stage: there is nothing to compare it with.").arg(QString::fromStdString(stage.id)));
}

void StageDiffView::compare() {
  rows_ = leftFile_->count() == 0 ? std::vector<DiffRow>{} : sideBySideDiff(linesOf(leftFile_), linesOf(rightFile_));
  showRows();
}

QString StageDiffView::summary() const { return summary_->text(); }

void StageDiffView::setChangedOnly(bool on) { changedOnly_->setChecked(on); }

void StageDiffView::showRows() {
  shown_ = changedOnly_->isChecked() ? foldUnchanged(rows_, kContextRows) : rows_;
  QStringList leftText, rightText;
  for (const DiffRow& row : shown_) {
    if (row.kind == DiffRow::Kind::Folded) {
      const QString fold = QStringLiteral("    ⋯ %1 unchanged lines ⋯").arg(row.foldedLines);
      leftText << fold;
      rightText << fold;
      continue;
    }
    leftText << QString::fromStdString(row.leftText);
    rightText << QString::fromStdString(row.rightText);
  }
  left_->showText(leftText.join('\n'));
  right_->showText(rightText.join('\n'));

  for (CodeView* view : {left_, right_}) {
    view->clearMarginText();
    view->markerDeleteAll();
  }
  // QScintilla allocates a style number per QsciStyle for good: make one, once.
  static const QsciStyle numberStyle(-1, "line number", QColor(110, 110, 110), QColor(240, 240, 240), left_->font());
  // A side without a line in this row is blank filler; `highlight` < 0: an unchanged line.
  auto mark = [&](CodeView* view, int line, int fileLine, int highlight) {
    if (fileLine == 0) {
      view->markerAdd(line, kFiller);
      return;
    }
    view->setMarginText(line, QString::number(fileLine), numberStyle);
    if (highlight >= 0) view->markerAdd(line, highlight);
  };
  for (int line = 0; line < int(shown_.size()); ++line) {
    const DiffRow& row = shown_[std::size_t(line)];
    switch (row.kind) {
      case DiffRow::Kind::Folded:
        left_->markerAdd(line, kFolded);
        right_->markerAdd(line, kFolded);
        break;
      case DiffRow::Kind::Same:
        mark(left_, line, row.leftLine, -1);
        mark(right_, line, row.rightLine, -1);
        break;
      case DiffRow::Kind::Changed: {
        mark(left_, line, row.leftLine, kChanged);
        mark(right_, line, row.rightLine, kChanged);
        const LineChange span = changedSpan(row.leftText, row.rightText);
        left_->fillIndicatorRange(line, span.begin, line, span.leftEnd, StageDiffView::kChangedTextIndicator);
        right_->fillIndicatorRange(line, span.begin, line, span.rightEnd, StageDiffView::kChangedTextIndicator);
        break;
      }
      case DiffRow::Kind::Removed:
        mark(left_, line, row.leftLine, kRemoved);
        mark(right_, line, row.rightLine, kRemoved);
        break;
      case DiffRow::Kind::Added:
        mark(left_, line, row.leftLine, kAdded);
        mark(right_, line, row.rightLine, kAdded);
        break;
    }
  }
  const int changed = changedRows();
  summary_->setText(rows_.empty() ? QString()
                                  : QStringLiteral("%1 of %2 lines differ:  <span style='background:#ffecaa'>&nbsp;changed&nbsp;</span> "
                                                   "<span style='background:#ffcdcd'>&nbsp;removed&nbsp;</span> "
                                                   "<span style='background:#c8f0c8'>&nbsp;added&nbsp;</span>")
                                        .arg(changed)
                                        .arg(rows_.size()));
}

}  // namespace iso
