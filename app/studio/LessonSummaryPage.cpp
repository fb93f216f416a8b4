#include "app/studio/LessonSummaryPage.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "app/studio/MarkdownPage.h"
#include "app/studio/StaircaseChart.h"

namespace iso {
namespace {

QString times(const std::optional<double>& v) { return v ? QStringLiteral("×%1").arg(*v, 0, 'f', *v >= 10 ? 1 : 2) : QString("–"); }

const char* const kHeaders[] = {"stage", "over", "your ×", "measured ×", "Mpts/s", "% roofline", "B/pt", "what it shows"};

}  // namespace

LessonSummaryPage::LessonSummaryPage(QWidget* parent) : QWidget(parent) {
  subtitle_ = new QLabel;
  subtitle_->setWordWrap(true);
  chart_ = new StaircaseChart;
  table_ = new QTableWidget(0, int(std::size(kHeaders)));
  for (int c = 0; c < table_->columnCount(); ++c) table_->setHorizontalHeaderItem(c, new QTableWidgetItem(kHeaders[c]));
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setWordWrap(false);

  auto* buttons = new QHBoxLayout;
  buttons->addWidget(subtitle_, 1);
  for (const char* format : {"PNG", "SVG"}) {
    auto* button = new QPushButton(QStringLiteral("Save chart as %1…").arg(format));
    connect(button, &QPushButton::clicked, this, [this, format] { saveChartAs(format); });
    buttons->addWidget(button);
  }
  auto* handout = new QPushButton("Handout (PDF)…");
  handout->setToolTip("One page: the staircase and the table, for the learners to take away");
  connect(handout, &QPushButton::clicked, this, &LessonSummaryPage::saveHandoutAs);
  buttons->addWidget(handout);

  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(chart_);
  split->addWidget(table_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setChildrenCollapsible(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(buttons);
  layout->addWidget(split, 1);
}

void LessonSummaryPage::setContent(const std::vector<StaircaseEntry>& entries, const std::map<std::string, QString>& takeaways,
                                   const QString& subtitle) {
  content_.title = "The optimisation staircase";
  content_.subtitle = subtitle;
  content_.rows.clear();
  subtitle_->setText(subtitle);
  chart_->setEntries(entries, content_.title);
  table_->setRowCount(int(entries.size()));
  for (int n = 0; n < int(entries.size()); ++n) {
    const StaircaseEntry& e = entries[std::size_t(n)];
    const auto it = takeaways.find(e.stage);
    const QString takeaway = it == takeaways.end() ? QString() : it->second;
    content_.rows.push_back({e, takeaway});
    const QStringList cells = {QString::fromStdString(e.stage),
                               e.previous.empty() ? QString("(the start)") : QString::fromStdString(e.previous),
                               times(e.predictedSpeedup),
                               times(e.measuredSpeedup),
                               e.measured ? QString::number(e.measured->mpts, 'f', 1) : QString("–"),
                               e.measured && e.measured->rooflinePercent > 0 ? QString::number(e.measured->rooflinePercent, 'f', 1) : QString("–"),
                               QString::number(e.bytesPerPoint, 'g', 3),
                               takeaway};
    for (int c = 0; c < cells.size(); ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      item->setToolTip(cells[c]);
      if (c >= 2 && c <= 6) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      table_->setItem(n, c, item);
    }
  }
}

bool LessonSummaryPage::writeHandout(const QString& path, QString& error) const { return writeLessonHandout(path, content_, *chart_, error); }

void LessonSummaryPage::saveChartAs(const QString& format) {
  const QString ext = format.toLower();
  const QString path = QFileDialog::getSaveFileName(this, "Save the staircase as " + format, "staircase." + ext,
                                                    QStringLiteral("%1 (*.%2)").arg(format, ext));
  if (path.isEmpty()) return;
  QString error;
  const bool ok = chart_->save(path, error);
  emit message(ok ? "Saved " + path : "Not saved: " + error, !ok);
}

void LessonSummaryPage::saveHandoutAs() {
  const QString path = QFileDialog::getSaveFileName(this, "Save the handout", "lesson-handout.pdf", "PDF (*.pdf)");
  if (path.isEmpty()) return;
  QString error;
  const bool ok = writeHandout(path, error);
  emit message(ok ? "Saved " + path : "Not saved: " + error, !ok);
}

}  // namespace iso
