#include "app/studio/LessonHandout.h"

#include <QBuffer>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <algorithm>

#include "app/studio/StaircaseChart.h"
#include "app/studio/PictureFile.h"

namespace iso {
namespace {

constexpr int kDotsPerInch = 300;

QString speedupText(const std::optional<double>& v) { return v ? QStringLiteral("×%1").arg(*v, 0, 'f', *v >= 10 ? 1 : 2) : QString("–"); }

struct Column {
  const char* header;
  double width;  // share of the page's width
};
const Column kColumns[] = {{"stage", 0.16}, {"what changed", 0.38}, {"B/pt", 0.06}, {"your ×", 0.09},
                           {"measured ×", 0.12}, {"Mpts/s", 0.1}, {"% roof", 0.09}};

QStringList cellsOf(const HandoutRow& row) {
  const StaircaseEntry& e = row.entry;
  const QString stage = QString::fromStdString(e.stage) + (e.previous.empty() ? QString() : "\nover " + QString::fromStdString(e.previous));
  return {stage,
          row.takeaway,
          QString::number(e.bytesPerPoint, 'g', 3),
          speedupText(e.predictedSpeedup),
          speedupText(e.measuredSpeedup),
          e.measured ? QString::number(e.measured->mpts, 'f', e.measured->mpts >= 100 ? 0 : 1) : QString("–"),
          e.measured && e.measured->rooflinePercent > 0 ? QString::number(e.measured->rooflinePercent, 'f', 1) : QString("–")};
}

// The table from `top` down; returns where it ends.
double drawTable(QPainter& painter, const QRectF& page, double top, const std::vector<HandoutRow>& rows, const QFont& font) {
  const QFontMetricsF metrics(font);
  const double pad = metrics.height() * 0.25;
  const auto drawRow = [&](const QStringList& cells, bool bold, double y) {
    QFont f = font;
    f.setBold(bold);
    painter.setFont(f);
    double x = page.left(), height = metrics.height();
    std::vector<QRectF> boxes;
    for (int c = 0; c < cells.size(); ++c) {
      const double w = page.width() * kColumns[c].width;
      const QRectF box(x + pad, y + pad, w - 2 * pad, 1e6);
      const int align = (c >= 2 ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop | Qt::TextWordWrap;
      height = std::max(height, painter.boundingRect(box, align, cells[c]).height());
      boxes.push_back(box);
      x += w;
    }
    for (int c = 0; c < cells.size(); ++c)
      painter.drawText(QRectF(boxes[std::size_t(c)].topLeft(), QSizeF(boxes[std::size_t(c)].width(), height)),
                       (c >= 2 ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop | Qt::TextWordWrap, cells[c]);
    return y + height + 2 * pad;
  };
  QStringList header;
  for (const Column& c : kColumns) header << c.header;
  double y = drawRow(header, true, top);
  painter.drawLine(QPointF(page.left(), y), QPointF(page.right(), y));
  for (const HandoutRow& row : rows) {
    y = drawRow(cellsOf(row), false, y);
    painter.setPen(QColor(200, 200, 200));
    painter.drawLine(QPointF(page.left(), y), QPointF(page.right(), y));
    painter.setPen(Qt::black);
  }
  return y;
}

}  // namespace

bool writeLessonHandout(const QString& path, const HandoutContent& content, const StaircaseChart& chart, QString& error) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  {
    QPdfWriter pdf(&buffer);
    pdf.setResolution(kDotsPerInch);
    pdf.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(14, 14, 14, 14), QPageLayout::Millimeter));
    pdf.setTitle(content.title);
    pdf.setCreator("iso3dfd studio");
    QPainter painter;
    if (!painter.begin(&pdf)) {
      error = "could not start a PDF page";
      return false;
    }
    const QRectF page(QPointF(0, 0), QSizeF(pdf.width(), pdf.height()));
    const double pt = kDotsPerInch / 72.0;  // device pixels per typographic point
    QFont title = chart.font(), body = chart.font();
    title.setPixelSize(int(18 * pt));
    title.setBold(true);
    body.setPixelSize(int(8.5 * pt));
    painter.setFont(title);
    const double titleHeight = QFontMetricsF(title).lineSpacing();
    painter.drawText(QRectF(page.left(), page.top(), page.width(), titleHeight), Qt::AlignLeft, content.title);
    painter.setFont(body);
    const double line = QFontMetricsF(body).lineSpacing();
    painter.drawText(QRectF(page.left(), page.top() + titleHeight, page.width(), 2 * line), Qt::AlignLeft | Qt::TextWordWrap, content.subtitle);
    const double chartTop = page.top() + titleHeight + 2.5 * line;
    const QRectF chartArea(page.left(), chartTop, page.width(), page.width() * 0.5);
    chart.paint(painter, chartArea, kDotsPerInch / 96.0 * 0.8, /*withTitle=*/false);
    const double end = drawTable(painter, page, chartArea.bottom() + line, content.rows, body);
    painter.setFont(body);
    painter.setPen(QColor(90, 90, 90));
    painter.drawText(QRectF(page.left(), std::min(end + line, page.bottom() - 2 * line), page.width(), 2 * line),
                     Qt::AlignLeft | Qt::TextWordWrap,
                     "Speed-ups are over the stage each one improves on, measured side by side on the same scenario and device. "
                     "% roof: 16 B per point and step (the traffic's convention, for every stage) × points per second over the "
                     "measured copy bandwidth of the memory the stage ran on; B/pt is what the stage itself moves at best.");
    painter.end();
  }
  return writeFileBytes(path, bytes, error);
}

}  // namespace iso
