#include "render/Hud.h"

#include <algorithm>
#include <cmath>

#include <QFontDatabase>
#include <QFontMetricsF>
#include <QImage>

namespace iso {

std::vector<double> niceTicks(double lo, double hi, int target) {
  std::vector<double> ticks;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi) || target < 1) return ticks;
  const double rough = (hi - lo) / double(target);
  const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
  double step = magnitude;
  for (double factor : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    step = factor * magnitude;
    if (step >= rough) break;
  }
  const double first = std::ceil(lo / step - 1e-9) * step;
  for (double v = first; v <= hi + 1e-9 * step; v += step) ticks.push_back(std::abs(v) < 1e-9 * step ? 0.0 : v);
  return ticks;
}

std::vector<double> colourBarTicks(double lo, double hi, double barHeight, double textHeight) {
  // Two wanted ticks over a range symmetric about zero can give a step wider than half the range.
  std::vector<double> ticks = niceTicks(lo, hi, std::max(2, int(barHeight / 40.0)));
  for (int target = 3; ticks.size() < 3 && barHeight >= 3.0 * textHeight && target <= 6; ++target)
    ticks = niceTicks(lo, hi, target);
  return ticks;
}

QString formatTick(double value, double step) {
  if (std::abs(value) < 1e-12 * std::max(std::abs(step), 1e-300)) return "0";
  const double a = std::max(std::abs(value), std::abs(step));
  if (a >= 1e-3 && a < 1e5) {
    // As many decimals as the step needs to be exact (0.25 needs 2), so labels are never rounded.
    int decimals = 0;
    const double s = std::abs(step);
    while (decimals < 6 && std::abs(s * std::pow(10.0, decimals) - std::round(s * std::pow(10.0, decimals))) >
                               1e-6 * s * std::pow(10.0, decimals))
      ++decimals;
    return QString::number(value, 'f', decimals);
  }
  return QString::number(value, 'g', 3);
}

QString gainCaption(const GainControl& gain) {
  const QString mode = QString(gainModeName(gain.mode())) + " gain";
  const double ratio = gain.clipToPeak();
  if (!(ratio > 0.0)) return mode;
  // Two significant digits; an exponent below 0.1, where the ratio spans decades.
  QString value;
  if (ratio >= 0.1) {
    value = QString::number(ratio, 'f', ratio >= 9.95 ? 0 : (ratio >= 0.995 ? 1 : 2));
  } else {
    int exponent = int(std::floor(std::log10(ratio)));
    double mantissa = ratio / std::pow(10.0, exponent);
    if (mantissa >= 9.95) mantissa /= 10.0, ++exponent;
    value = QString("%1e%2").arg(mantissa, 0, 'f', 1).arg(exponent);
  }
  return mode + "\nclip " + value + " of peak";
}

Hud::Hud() : font_(QFontDatabase::systemFont(QFontDatabase::GeneralFont)) {
  font_.setPointSizeF(9.5);
  smallFont_ = font_;
  smallFont_.setPointSizeF(8.5);
}

const QColor& Hud::textColour() {
  static const QColor colour(226, 228, 232);
  return colour;
}

const QColor& Hud::panelColour() {
  static const QColor colour(18, 19, 22, 190);
  return colour;
}

namespace {

// The bar itself: one row per table entry, the top one `hi`, framed.
void drawColourStrip(QPainter& painter, const QRectF& bar, const ColourTable& table) {
  QImage strip(1, int(table.size()), QImage::Format_RGB32);
  for (int n = 0; n < int(table.size()); ++n) {
    const auto& c = table[table.size() - 1 - std::size_t(n)];
    strip.setPixel(0, n, qRgb(c[0], c[1], c[2]));
  }
  painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
  painter.drawImage(bar, strip);
  painter.setPen(QPen(QColor(150, 152, 158), 1.0));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(bar);
}

// Where a colour bar's parts go inside `area`: the title's height, the caption's box (wrapped to the
// area's width) and the bar between them.
struct ColourBarLayout {
  double titleHeight;
  QRectF captionBox, bar;
};

ColourBarLayout colourBarLayout(const QRectF& area, const QString& caption, const QFontMetricsF& metrics) {
  ColourBarLayout layout;
  layout.titleHeight = metrics.height() + 6.0;
  if (!caption.isEmpty())
    layout.captionBox = metrics.boundingRect(QRectF(0, 0, area.width(), 1e4), Qt::TextWordWrap | Qt::AlignLeft, caption);
  const double captionHeight = caption.isEmpty() ? 0.0 : layout.captionBox.height() + 4.0;
  const double barWidth = 14.0;
  layout.bar = QRectF(area.left() + 4.0, area.top() + layout.titleHeight + metrics.height() * 0.5, barWidth,
                      std::max(area.height() - layout.titleHeight - metrics.height() - captionHeight, 10.0));
  return layout;
}

}  // namespace

QRectF Hud::colourBarRect(const QRectF& area, const QString& caption) const {
  return colourBarLayout(area, caption, QFontMetricsF(smallFont_)).bar;
}

QRectF Hud::drawColourBarFrame(QPainter& painter, const QRectF& area, const ColourTable& table, const QString& title,
                               const QString& caption) const {
  painter.save();
  painter.setFont(smallFont_);
  const QFontMetricsF metrics(smallFont_);
  const ColourBarLayout layout = colourBarLayout(area, caption, metrics);
  // A translucent panel, so the bar and its labels read over the 3D scene too.
  painter.setPen(Qt::NoPen);
  painter.setBrush(panelColour());
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.drawRoundedRect(area.adjusted(-6, -2, 0, 2), 4.0, 4.0);
  drawColourStrip(painter, layout.bar, table);
  painter.setPen(textColour());
  painter.drawText(QRectF(area.left(), area.top(), area.width(), layout.titleHeight), Qt::AlignLeft | Qt::AlignVCenter,
                   title);
  painter.restore();
  return layout.bar;
}

// Ticks and their labels right of the bar; a constant range (hi <= lo) gets one label, at the bottom.
void Hud::drawColourBarTicks(QPainter& painter, const QRectF& bar, double lo, double hi, const QFontMetricsF& metrics) const {
  const bool constant = !(hi > lo);
  const std::vector<double> ticks =
      constant ? std::vector<double>{lo} : colourBarTicks(lo, hi, bar.height(), metrics.height());
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : std::abs(hi - lo);
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setPen(QPen(Hud::textColour(), 1.0));
  for (double v : ticks) {
    const double y = constant ? bar.bottom() : bar.bottom() - (v - lo) / (hi - lo) * bar.height();
    painter.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 5.0, y));
    // One line, its top half a line above the tick: centred on it.
    painter.drawStaticText(QPointF(bar.right() + 8.0, y - metrics.height() * 0.5), tickLabel(formatTick(v, step)));
  }
}

QRectF Hud::drawColourBarLabels(QPainter& painter, const QRectF& area, double lo, double hi, const QString& caption) const {
  painter.save();
  painter.setFont(smallFont_);
  const QFontMetricsF metrics(smallFont_);
  const ColourBarLayout layout = colourBarLayout(area, caption, metrics);
  painter.setPen(textColour());
  if (!caption.isEmpty())
    painter.drawText(QRectF(area.left(), area.bottom() - layout.captionBox.height(), area.width(), layout.captionBox.height()),
                     Qt::TextWordWrap | Qt::AlignLeft, caption);
  drawColourBarTicks(painter, layout.bar, lo, hi, metrics);
  painter.restore();
  return layout.bar;
}

namespace {
constexpr double kPanelPadding = 6.0;
}

double Hud::textLinesHeight(int lines) const {
  if (lines <= 0) return 0.0;
  const QFontMetricsF metrics(font_);
  return metrics.lineSpacing() * lines + 2 * kPanelPadding - metrics.leading();
}

QStaticText Hud::tickLabel(const QString& text) const {
  constexpr int kMostLabels = 256;
  if (tickLabels_.size() > kMostLabels) tickLabels_.clear();
  if (const auto found = tickLabels_.constFind(text); found != tickLabels_.constEnd()) return *found;
  QStaticText label(text);
  label.setTextFormat(Qt::PlainText);
  label.setPerformanceHint(QStaticText::AggressiveCaching);
  return *tickLabels_.insert(text, label);
}

Hud::ShapedLine Hud::shaped(const QString& line, double maxWidth) const {
  constexpr int kMostLines = 256;  // a running HUD makes a few new lines a frame: forget them in bulk
  if (maxWidth != shapedWidth_ || shapedLines_.size() > kMostLines) {
    shapedLines_.clear();
    shapedWidth_ = maxWidth;
  }
  if (const auto found = shapedLines_.constFind(line); found != shapedLines_.constEnd()) return *found;
  const QFontMetricsF metrics(font_);
  ShapedLine s;
  s.shown = metrics.elidedText(line, Qt::ElideRight, maxWidth);
  s.width = metrics.horizontalAdvance(s.shown);
  s.text = QStaticText(s.shown);
  s.text.setTextFormat(Qt::PlainText);
  s.text.setPerformanceHint(QStaticText::AggressiveCaching);
  return *shapedLines_.insert(line, s);
}

double Hud::textLinesWidth(const QStringList& lines, double maxWidth) const {
  double width = 0.0;
  for (const QString& line : lines) width = std::max(width, shaped(line, std::max(maxWidth - 2 * kPanelPadding, 20.0)).width);
  return width + 2 * kPanelPadding;
}

void Hud::drawTextLines(QPainter& painter, const QPointF& topLeft, const QStringList& lines, double maxWidth) const {
  if (lines.isEmpty()) return;
  painter.save();
  painter.setFont(font_);
  const QFontMetricsF metrics(font_);
  const double pad = kPanelPadding;
  std::vector<ShapedLine> shown;  // copies (their text is shared): a later line may move the cache's
  for (const QString& line : lines) shown.push_back(shaped(line, std::max(maxWidth - 2 * pad, 20.0)));
  const QRectF panel(topLeft, QSizeF(textLinesWidth(lines, maxWidth), textLinesHeight(int(lines.size()))));
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setPen(Qt::NoPen);
  painter.setBrush(panelColour());
  painter.drawRoundedRect(panel, 4.0, 4.0);
  painter.setPen(textColour());
  double top = panel.top() + pad;
  for (const ShapedLine& line : shown) {
    painter.drawStaticText(QPointF(panel.left() + pad, top), line.text);
    top += metrics.lineSpacing();
  }
  painter.restore();
}

void Hud::drawMessage(QPainter& painter, const QRectF& area, const QString& text, bool error) const {
  painter.save();
  painter.setFont(font_);
  const QFontMetricsF metrics(font_);
  const double maxWidth = std::max(area.width() * 0.8, 100.0);
  const QRectF textBox = metrics.boundingRect(QRectF(0, 0, maxWidth, 1e4), Qt::TextWordWrap | Qt::AlignCenter, text);
  QRectF panel = textBox.adjusted(-12, -10, 12, 10);
  panel.moveCenter(area.center());
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setPen(error ? QPen(QColor(235, 90, 80), 1.5) : Qt::NoPen);
  painter.setBrush(error ? QColor(60, 20, 20, 225) : panelColour());
  painter.drawRoundedRect(panel, 6.0, 6.0);
  painter.setPen(error ? QColor(255, 200, 190) : textColour());
  painter.drawText(panel.adjusted(12, 10, -12, -10), Qt::TextWordWrap | Qt::AlignCenter, text);
  painter.restore();
}

}  // namespace iso
