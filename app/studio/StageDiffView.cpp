#include "app/studio/StageDiffView.h"

#include <Qsci/qscistyle.h>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include "app/studio/CodeView.h"
#include "app/studio/StageMaterial.h"
#include "core/StageRegistry.h"

namespace iso {
namespace {

// Line backgrounds, one marker each (the same numbers in both views).
enum Marker { kRemoved, kAdded, kChanged, kFiller, kFolded, kHeading };

void defineMarkers(CodeView* view) {
  const std::pair<Marker, QColor> colours[] = {{kRemoved, QColor(255, 205, 205)}, {kAdded, QColor(200, 240, 200)},
                                               {kChanged, QColor(255, 236, 170)}, {kFiller, QColor(236, 236, 236)},
                                               {kFolded, QColor(226, 232, 240)},  {kHeading, QColor(184, 202, 230)}};
  for (const auto& [marker, colour] : colours) {
    view->markerDefine(QsciScintilla::Background, marker);
    view->setMarkerBackgroundColor(colour, marker);
  }
  view->indicatorDefine(QsciScintilla::FullBoxIndicator, StageDiffView::kChangedTextIndicator);
  view->setIndicatorForegroundColor(QColor(230, 150, 0, 110), StageDiffView::kChangedTextIndicator);
  view->setMarginType(0, QsciScintilla::TextMarginRightJustified);
  view->setMarginWidth(0, QStringLiteral("0000"));
  view->setMarginWidth(1, 0);  // no symbol margin: the markers colour whole lines
  view->setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
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

// "loads · lines 25–31" for a side of a hunk, or that it has none there.
std::string sideTitle(const DiffHunk& hunk, int first, int last, const std::string& stage) {
  const std::string section = sectionName(hunk.section);
  if (first == 0) return "▸ " + section + " · nothing in " + stage;
  return "▸ " + section + " · " + (first == last ? "line " + std::to_string(first) : "lines " + std::to_string(first) + "–" + std::to_string(last));
}

// `text` broken at spaces into lines at most `pixels` wide in `metrics`' font.
QString wrapped(const QString& text, const QFontMetrics& metrics, int pixels) {
  QStringList lines;
  QString line;
  for (const QString& word : text.split(' ', Qt::SkipEmptyParts)) {
    const QString longer = line.isEmpty() ? word : line + ' ' + word;
    if (!line.isEmpty() && metrics.horizontalAdvance(longer) > pixels) {
      lines << line;
      line = word;
    } else {
      line = longer;
    }
  }
  if (!line.isEmpty()) lines << line;
  return lines.join('\n');
}

QFont noteFont() {
  QFont font;
  font.setItalic(true);
  return font;
}

}  // namespace

StageDiffView::StageDiffView(QWidget* parent) : QWidget(parent) {
  leftFile_ = filePicker();
  rightFile_ = filePicker();
  leftTitle_ = new QLabel;
  rightTitle_ = new QLabel;
  summary_ = new QLabel;
  summary_->setWordWrap(true);
  changedOnly_ = new QCheckBox("Changed hunks only");
  changedOnly_->setToolTip(QStringLiteral("Leave out the unchanged code (one line for each run of it), keeping %1 lines around each "
                                          "change. On by default where the new file is a rewrite").arg(kContextRows));
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
  left_->installEventFilter(this);
  right_->installEventFilter(this);
  linkScrolling(left_, right_);
  linkScrolling(right_, left_);
}

void StageDiffView::linkScrolling(CodeView* from, CodeView* to) {
  // Both views hold the same number of lines (rows without a line on one side are blank there) and the
  // same scroll width, so the same scroll bar values show the same rows and columns.
  connect(from->verticalScrollBar(), &QScrollBar::valueChanged, to->verticalScrollBar(), &QScrollBar::setValue);
  connect(from->horizontalScrollBar(), &QScrollBar::valueChanged, to->horizontalScrollBar(), &QScrollBar::setValue);
}

void StageDiffView::setStage(const std::string& stageId) {
  const StageInfo& stage = StageRegistry::get(stageId);
  const StageInfo* previous = stage.previous.empty() ? nullptr : &StageRegistry::get(stage.previous);
  stage_ = stage.id;
  previous_ = previous ? previous->id : std::string();
  const auto lesson = readLessonMarkdown(stage.id);
  notes_ = lesson ? parseLessonText(lesson->toStdString()).notes : std::vector<LessonNote>{};
  leftTitle_->setText(previous ? QStringLiteral("<b>%1</b> (previous)").arg(QString::fromStdString(previous->id))
                               : QStringLiteral("<b>no previous stage</b>"));
  rightTitle_->setText(QStringLiteral("<b>%1</b>").arg(QString::fromStdString(stage.id)));
  fillPicker(leftFile_, previous ? previous->sourceFiles : std::vector<std::string>{});
  fillPicker(rightFile_, stage.sourceFiles);
  compare();
  if (!previous) summary_->setText(QStringLiteral("%1 is the first stage: there is nothing to compare it with.").arg(QString::fromStdString(stage.id)));
}

void StageDiffView::compare() {
  const std::vector<std::string> left = linesOf(leftFile_), right = linesOf(rightFile_);
  const std::vector<DiffRow> rows = leftFile_->count() == 0 ? std::vector<DiffRow>{} : sideBySideDiff(left, right);
  rewrite_ = isRewrite(rows);
  hunks_ = rows.empty() ? std::vector<DiffHunk>{} : rewrite_ ? sectionHunks(left, right) : lineHunks(rows, left, right, kContextRows);
  totalRows_ = 0;
  for (const DiffHunk& h : hunks_) totalRows_ += int(h.rows.size());
  {
    const QSignalBlocker block(changedOnly_);
    changedOnly_->setChecked(rewrite_);
  }
  showRows();
}

QString StageDiffView::summary() const { return summary_->text(); }

void StageDiffView::setChangedOnly(bool on) { changedOnly_->setChecked(on); }
bool StageDiffView::changedOnly() const { return changedOnly_->isChecked(); }

int StageDiffView::changedRows() const {
  int n = 0;
  for (const DiffHunk& h : hunks_) n += changedRowCount(h.rows);
  return n;
}

QString StageDiffView::hunkNote(std::size_t n) const {
  const DiffHunk& hunk = hunks_.at(n);
  if (!hunk.changed()) return {};
  const auto note = noteForCode(hunk.changedText(), notes_);
  return note ? QString::fromStdString(notes_[*note].sentence) : QString();
}

void StageDiffView::showRows() {
  shown_.clear();
  headings_.clear();
  const bool only = changedOnly_->isChecked();
  const auto fold = [&](int lines) {
    DiffRow row;
    row.kind = DiffRow::Kind::Folded;
    row.foldedLines = lines;
    shown_.push_back(row);
  };
  for (std::size_t n = 0; n < hunks_.size(); ++n) {
    const DiffHunk& hunk = hunks_[n];
    if (!hunk.changed()) {
      if (only) fold(int(hunk.rows.size()));
      else shown_.insert(shown_.end(), hunk.rows.begin(), hunk.rows.end());
      continue;
    }
    DiffRow heading;
    heading.kind = DiffRow::Kind::Heading;
    heading.leftText = sideTitle(hunk, hunk.leftFirst, hunk.leftLast, previous_);
    heading.rightText = sideTitle(hunk, hunk.rightFirst, hunk.rightLast, stage_);
    headings_.emplace_back(int(shown_.size()), n);
    shown_.push_back(heading);
    // A section of a rewrite may hold long unchanged runs of its own.
    const std::vector<DiffRow> rows = only && rewrite_ ? foldUnchanged(hunk.rows, kContextRows) : hunk.rows;
    shown_.insert(shown_.end(), rows.begin(), rows.end());
  }
  QStringList leftText, rightText;
  for (const DiffRow& row : shown_) {
    if (row.kind == DiffRow::Kind::Folded) {
      const QString text = QStringLiteral("    ⋯ %1 unchanged lines ⋯").arg(row.foldedLines);
      leftText << text;
      rightText << text;
      continue;
    }
    leftText << QString::fromStdString(row.leftText);
    rightText << QString::fromStdString(row.rightText);
  }
  left_->showText(leftText.join('\n'));
  right_->showText(rightText.join('\n'));
  // The same scroll width on both sides: a scroll bar value means the same column in both.
  const int width = std::max(left_->longestLineWidth(), right_->longestLineWidth());
  left_->setScrollWidth(width);
  right_->setScrollWidth(width);
  markRows();
  annotatedWidth_ = 0;
  annotateNotes();

  const int changed = changedRows(), hunks = changedHunkCount(hunks_);
  const QString legend = QStringLiteral(":  <span style='background:#ffecaa'>&nbsp;changed&nbsp;</span> "
                                        "<span style='background:#ffcdcd'>&nbsp;removed&nbsp;</span> "
                                        "<span style='background:#c8f0c8'>&nbsp;added&nbsp;</span>");
  if (hunks_.empty()) summary_->clear();
  else if (rewrite_)
    summary_->setText(QStringLiteral("A rewrite: %1 of %2 lines differ, so the files are aligned by the kernel's sections (set-up, "
                                     "loads, stencil, store): %3 changed hunks")
                          .arg(changed).arg(totalRows_).arg(hunks) + legend);
  else
    summary_->setText(QStringLiteral("%1 of %2 lines differ, in %3 hunks").arg(changed).arg(totalRows_).arg(hunks) + legend);
}

void StageDiffView::markRows() {
  for (CodeView* view : {left_, right_}) {
    view->clearMarginText();
    view->markerDeleteAll();
  }
  // QScintilla allocates a style number per QsciStyle for good: make them once.
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
      case DiffRow::Kind::Heading:
        left_->markerAdd(line, kHeading);
        right_->markerAdd(line, kHeading);
        break;
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
      case DiffRow::Kind::Replaced:
        mark(left_, line, row.leftLine, kRemoved);
        mark(right_, line, row.rightLine, kAdded);
        break;
    }
  }
}

void StageDiffView::annotateNotes() {
  // The same note under the title row in both views, wrapped to the narrower one: both keep the same
  // lines at the same height, so they still scroll together.
  const int pixels = std::max(200, std::min(left_->textAreaWidth(), right_->textAreaWidth()) - 24);
  if (pixels == annotatedWidth_) return;
  annotatedWidth_ = pixels;
  static const QsciStyle noteStyle(-1, "hunk note", QColor(40, 40, 40), QColor(255, 250, 220), noteFont());
  const QFontMetrics metrics(noteFont());
  for (CodeView* view : {left_, right_}) view->clearAnnotations();
  for (const auto& [line, hunk] : headings_) {
    const QString note = hunkNote(hunk);
    if (note.isEmpty()) continue;
    for (CodeView* view : {left_, right_}) view->annotate(line, wrapped(note, metrics, pixels), noteStyle);
  }
}

bool StageDiffView::eventFilter(QObject* watched, QEvent* event) {
  // After the view has laid out its new size (its viewport's width is what the notes wrap to).
  if (event->type() == QEvent::Resize) QTimer::singleShot(0, this, &StageDiffView::annotateNotes);
  return QWidget::eventFilter(watched, event);
}

}  // namespace iso
