#include "app/studio/StaircaseChart.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "app/studio/PictureFile.h"

namespace iso {
namespace {

const QColor kBar(70, 110, 170), kPrediction(220, 120, 20), kAxis(60, 60, 60), kGrid(225, 225, 225);

QString mptsText(double mpts) {
  return mpts >= 1e4 ? QString::number(mpts / 1e3, 'f', 1) + " G" : QString::number(mpts, 'f', mpts >= 100 ? 0 : 1) + " M";
}

// 0.5, 20, 1 000, 50 000: whole numbers with their thousands apart.
QString axisText(double v) {
  if (v < 1.0) return QString::number(v, 'g', 2);
  QString digits = QString::number(v, 'f', 0);
  for (int at = int(digits.size()) - 3; at > 0; at -= 3) digits.insert(at, QChar(0x2009));
  return digits;
}

QFont sized(const QFont& base, double pixels) {
  QFont font = base;
  font.setPixelSize(std::max(1, int(std::lround(pixels))));
  return font;
}

}  // namespace

StaircaseChart::StaircaseChart(QWidget* parent) : QWidget(parent) {
  setMinimumSize(480, 260);
  setToolTip("Each stage's measured throughput (bars, logarithmic axis), its Mpts/s and share of the memory\n"
             "roofline above it, its speed-up over the stage it improves on inside it, and your prediction\n"
             "(the diamond: the previous stage's Mpts/s times the speed-up you typed)");
}

void StaircaseChart::setEntries(std::vector<StaircaseEntry> entries, const QString& title) {
  entries_ = std::move(entries);
  title_ = title;
  update();
}

std::pair<double, double> StaircaseChart::decades() const {
  double lo = 0.0, hi = 0.0;
  const auto extend = [&](double v) {
    if (!(v > 0.0)) return;
    lo = lo > 0.0 ? std::min(lo, v) : v;
    hi = std::max(hi, v);
  };
  for (const StaircaseEntry& e : entries_) {
    if (e.measured) extend(e.measured->mpts);
    if (e.predictedMpts) extend(*e.predictedMpts);
  }
  if (!(lo > 0.0)) return {0.0, 3.0};
  // The lowest bar keeps a visible height, even when it ends on a decade; the highest keeps room above
  // it for its figures (the axis may end between two decades).
  const double first = std::floor(std::log10(lo) - 0.25), top = std::log10(hi);
  return {first, std::max(first + 1.0, top + 0.15 * (top - first) + 0.05)};
}

double StaircaseChart::barFraction(std::size_t n) const {
  const StaircaseEntry& e = entries_.at(n);
  if (!e.measured) return 0.0;
  const auto [lo, hi] = decades();
  return std::clamp((std::log10(e.measured->mpts) - lo) / (hi - lo), 0.0, 1.0);
}

void StaircaseChart::paint(QPainter& painter, const QRectF& area, double scale, bool withTitle) const {
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(area, Qt::white);
  const QFont base = font();
  const QFont titleFont = sized(base, 16 * scale), labelFont = sized(base, 12 * scale), smallFont = sized(base, 10.5 * scale);
  const double line = QFontMetricsF(labelFont).lineSpacing();
  // Title and legend on top, the axis' labels on the left, the stage names below.
  painter.setPen(kAxis);
  painter.setFont(titleFont);
  const double titleHeight = withTitle ? QFontMetricsF(titleFont).lineSpacing() : 0.0;
  if (withTitle) painter.drawText(QRectF(area.left(), area.top(), area.width(), titleHeight), Qt::AlignCenter, title_);
  const QRectF plot(area.left() + 70 * scale, area.top() + titleHeight + 2.2 * line, area.width() - 82 * scale,
                    area.height() - titleHeight - 2.2 * line - 2.6 * line);
  painter.setFont(smallFont);
  const double legendY = area.top() + titleHeight + 0.3 * line;
  painter.fillRect(QRectF(plot.left(), legendY + 0.2 * line, 0.8 * line, 0.6 * line), kBar);
  painter.drawText(QPointF(plot.left() + line, legendY + 0.8 * line), "measured Mpts/s · % of the memory roofline · ×speed-up over the previous stage");
  const double legendRight = plot.left() + line + QFontMetricsF(smallFont).horizontalAdvance(
                                 "measured Mpts/s · % of the memory roofline · ×speed-up over the previous stage") + 2 * line;
  const auto diamond = [&](QPointF c, double r) {
    QPainterPath path;
    path.moveTo(c.x(), c.y() - r);
    path.lineTo(c.x() + r, c.y());
    path.lineTo(c.x(), c.y() + r);
    path.lineTo(c.x() - r, c.y());
    path.closeSubpath();
    painter.fillPath(path, kPrediction);
  };
  diamond(QPointF(legendRight, legendY + 0.5 * line), 0.35 * line);
  painter.drawText(QPointF(legendRight + 0.6 * line, legendY + 0.8 * line), "your prediction");

  // The logarithmic axis: a line and a label at every decade, light lines at 2 and 5.
  const auto [lo, hi] = decades();
  const auto yOf = [&, lo = lo, hi = hi](double mpts) { return plot.bottom() - (std::log10(mpts) - lo) / (hi - lo) * plot.height(); };
  for (int d = int(lo); d <= int(std::ceil(hi)); ++d)
    for (int m : {1, 2, 5}) {
      const double v = m * std::pow(10.0, d), y = yOf(v);
      if (y < plot.top() - 0.5) continue;
      painter.setPen(QPen(m == 1 ? QColor(200, 200, 200) : kGrid, scale));
      painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
      if (m != 1 && hi - lo > 3) continue;
      painter.setPen(kAxis);
      painter.drawText(QRectF(area.left(), y - line / 2, plot.left() - area.left() - 6 * scale, line), Qt::AlignRight | Qt::AlignVCenter,
                       axisText(v));
    }
  painter.save();
  painter.translate(area.left() + 0.6 * line, plot.center().y());
  painter.rotate(-90);
  painter.drawText(QRectF(-plot.height() / 2, -line / 2, plot.height(), line), Qt::AlignCenter, "points per second (Mpts/s, log)");
  painter.restore();

  const int count = int(entries_.size());
  const double column = count > 0 ? plot.width() / count : plot.width();
  // The stage names in a size at which the longest fits its column (down to two thirds of the labels').
  double widest = 0.0;
  for (const StaircaseEntry& e : entries_) widest = std::max(widest, QFontMetricsF(labelFont).horizontalAdvance(QString::fromStdString(e.stage)));
  const QFont nameFont = sized(base, 12 * scale * std::clamp((column - 4 * scale) / std::max(widest, 1.0), 0.67, 1.0));
  for (int n = 0; n < count; ++n) {
    const StaircaseEntry& e = entries_[std::size_t(n)];
    const double left = plot.left() + n * column, barWidth = column * 0.62;
    const QRectF bar(left + column * 0.08, 0, barWidth, 0);
    painter.setFont(nameFont);
    painter.setPen(kAxis);
    painter.drawText(QRectF(left, plot.bottom() + 0.3 * line, column, line), Qt::AlignCenter,
                     QFontMetricsF(nameFont).elidedText(QString::fromStdString(e.stage), Qt::ElideMiddle, column - 2));
    painter.setFont(labelFont);
    const QFontMetricsF metrics(labelFont);
    if (!e.measured) {
      painter.setFont(smallFont);
      painter.setPen(QColor(140, 140, 140));
      painter.drawText(QRectF(left, plot.bottom() - 1.4 * line, column, line), Qt::AlignCenter, "not measured");
      continue;
    }
    const double top = yOf(e.measured->mpts);
    painter.fillRect(QRectF(bar.left(), top, bar.width(), plot.bottom() - top), kBar);
    painter.setFont(labelFont);
    painter.setPen(kAxis);
    const QString figures = mptsText(e.measured->mpts) +
                            (e.measured->rooflinePercent > 0 ? QStringLiteral(" · %1 %").arg(e.measured->rooflinePercent, 0, 'f', 0) : QString());
    painter.drawText(QRectF(left - column * 0.2, top - 1.15 * line, column * 1.2, line), Qt::AlignHCenter | Qt::AlignBottom,
                     metrics.elidedText(figures, Qt::ElideRight, column * 1.2));
    if (e.measuredSpeedup && plot.bottom() - top > 1.3 * line) {
      painter.setPen(Qt::white);
      painter.drawText(QRectF(bar.left(), top + 0.15 * line, bar.width(), line), Qt::AlignHCenter | Qt::AlignTop,
                       QStringLiteral("×%1").arg(*e.measuredSpeedup, 0, 'f', *e.measuredSpeedup >= 10 ? 0 : 2));
    }
    if (e.predictedMpts) {
      const QPointF at(bar.right() + column * 0.13, std::clamp(yOf(*e.predictedMpts), plot.top(), plot.bottom()));
      painter.setPen(QPen(kPrediction, 1.5 * scale));
      painter.drawLine(QPointF(bar.left(), at.y()), QPointF(at.x(), at.y()));
      diamond(at, 0.4 * line);
    }
  }
  painter.setPen(QPen(kAxis, scale));
  painter.drawLine(plot.bottomLeft(), plot.bottomRight());
  painter.drawLine(plot.bottomLeft(), plot.topLeft());
  painter.restore();
}

void StaircaseChart::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  paint(painter, rect());
}

QImage StaircaseChart::image(const QSize& size) const {
  QImage image(size, QImage::Format_RGB32);
  QPainter painter(&image);
  paint(painter, QRectF(QPointF(0, 0), QSizeF(size)), size.height() / double(kExportSize.height()));
  return image;
}

bool StaircaseChart::save(const QString& path, QString& error) const {
  return writePictureFile(path, kExportSize, title_, [this](QPainter& painter) { paint(painter, QRectF(QPointF(0, 0), QSizeF(kExportSize))); },
                          error);
}

}  // namespace iso
