#pragma once
// What is painted over the GL picture with QPainter: text lines (counters, paths), the colour bar
// with tick labels and units, and messages (no data yet, GL problems).
#include <vector>

#include <QFont>
#include <QFontMetricsF>
#include <QHash>
#include <QPainter>
#include <QStaticText>
#include <QRectF>
#include <QString>
#include <QStringList>

#include "render/Colormap.h"
#include "render/GainControl.h"

namespace iso {

// "Nice" tick values (1, 2, 2.5, 5 × 10^n steps) inside [lo, hi], about `target` of them.
std::vector<double> niceTicks(double lo, double hi, int target);
// The labelled values of a colour bar `barHeight` px tall over [lo, hi] with labels `textHeight` px
// tall: one per 40 px, and at least three where they fit (never 0 alone on a symmetric range).
std::vector<double> colourBarTicks(double lo, double hi, double barHeight, double textHeight);
// A compact label for a tick value: 3 significant digits, exponent only when needed, "0" for ~0.
QString formatTick(double value, double step);
// The wavefield bar's caption: the gain mode and how the range compares with the peak level, e.g.
// "auto gain\nclip 3.2e-2 of peak" (only the mode before the first non-zero field).
QString gainCaption(const GainControl& gain);

class Hud {
 public:
  Hud();

  // A vertical colour bar inside `area` (logical pixels), in two parts, for a caller that keeps what it
  // paints: the frame (a panel, the bar, `title` (name and unit) above it), which depends on `caption`
  // only through its number of lines, and the labels (ticks and labels from `lo` (bottom) to `hi` (top),
  // `caption` wrapped below the bar), which change with the range. A range with hi <= lo (a constant
  // model) gets one label, at the bottom, where such a value is drawn. Both return the bar's rectangle.
  QRectF drawColourBarFrame(QPainter& painter, const QRectF& area, const ColourTable& table, const QString& title,
                            const QString& caption) const;
  QRectF drawColourBarLabels(QPainter& painter, const QRectF& area, double lo, double hi, const QString& caption) const;
  // The bar's rectangle in `area` with `caption` below it, as the two parts draw it.
  QRectF colourBarRect(const QRectF& area, const QString& caption) const;
  // Lines of text on a translucent panel at the top-left corner, each elided to fit `maxWidth`.
  void drawTextLines(QPainter& painter, const QPointF& topLeft, const QStringList& lines, double maxWidth) const;
  // Width of the panel drawTextLines paints for `lines` within `maxWidth`.
  double textLinesWidth(const QStringList& lines, double maxWidth) const;
  // Height of the panel drawTextLines paints for `lines` (0 for none).
  double textLinesHeight(int lines) const;
  // A centred message panel; `error` paints it in warning colours.
  void drawMessage(QPainter& painter, const QRectF& area, const QString& text, bool error) const;

  const QFont& font() const { return font_; }
  const QFont& smallFont() const { return smallFont_; }

  static const QColor& textColour();
  static const QColor& panelColour();

 private:
  // A line of drawTextLines as drawn: elided to the width it had, its advance, and its glyphs laid out
  // once. Kept by line and width: of a running view's HUD only the counters change from frame to frame,
  // and laying text out (shaping it) cost as much as drawing it.
  struct ShapedLine {
    QString shown;
    double width = 0.0;
    QStaticText text;
  };
  ShapedLine shaped(const QString& line, double maxWidth) const;
  QStaticText tickLabel(const QString& text) const;  // a colour bar's label, laid out once (smallFont_)
  void drawColourBarTicks(QPainter& painter, const QRectF& bar, double lo, double hi, const QFontMetricsF& metrics) const;

  QFont font_, smallFont_;
  mutable QHash<QString, ShapedLine> shapedLines_;
  mutable double shapedWidth_ = -1.0;  // the width shapedLines_ were elided to
  mutable QHash<QString, QStaticText> tickLabels_;
};

}  // namespace iso
