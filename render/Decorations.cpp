#include "render/Decorations.h"

#include <algorithm>
#include <cmath>

#include <QDebug>
#include <QFontMetricsF>
#include <QPainterPath>

#include "render/OverlayLayer.h"

namespace iso {
namespace {
constexpr double kTwoColourBarsHeight = 260;  // below it, a frame shows the first colour bar alone
}  // namespace

bool Decorations::create(GlFunctions* gl) { return lines_.create(gl); }

void Decorations::destroy(GlFunctions* gl) { lines_.destroy(gl); }

// ---- What is marked --------------------------------------------------------------------------------

bool Decorations::setGridSpacing(double dxMetres) {
  if (!(std::isfinite(dxMetres) && dxMetres > 0.0)) {
    qWarning() << "setGridSpacing: the spacing must be a positive number of metres, got" << dxMetres;
    return false;
  }
  dx_ = dxMetres;
  return true;
}

std::optional<Cell> Decorations::sourceIn(const SliceGeometry& grid) const {
  const Cell& s = source_;
  if (s.i < 0 || grid.empty()) return std::nullopt;
  if (s.i >= grid.size[0] || s.j < 0 || s.j >= grid.size[1] || s.k < 0 || s.k >= grid.size[2]) return std::nullopt;
  return s;
}

bool Decorations::setReceivers(const std::vector<Cell>& cells) {
  if (cells == receivers_) return false;
  receivers_ = cells;
  return true;
}

bool Decorations::setAbsorbingLayer(const std::array<int, 3>& cells) {
  if (cells == absorbingCells_) return false;
  absorbingCells_ = cells;
  return true;
}

bool Decorations::setHudLines(const QStringList& lines) {
  if (lines == hudLines_) return false;
  hudLines_ = lines;
  return true;
}

bool Decorations::setScreenNotice(const QString& line) {
  if (line == screenNotice_) return false;
  screenNotice_ = line;
  return true;
}

QByteArray Decorations::marksKey() const {
  return OverlayLayer::keyOf([&](QDataStream& out) {
    out << dx_ << source_.i << source_.j << source_.k << absorbingCells_[0] << absorbingCells_[1]
        << absorbingCells_[2] << qint64(receivers_.size());
    for (const Cell& r : receivers_) out << r.i << r.j << r.k;
  });
}

// ---- Layout ----------------------------------------------------------------------------------------

QStringList Decorations::hudText(const FrameTarget& target, const SliceGeometry& grid, const QStringList& warnings) const {
  if (!target.hud) return {};
  QStringList lines = hudLines_;
  if (target.onScreen && !screenNotice_.isEmpty()) lines << screenNotice_;
  if (const auto source = sourceIn(grid)) {
    const std::array<int, 3> at{source->i, source->j, source->k};
    for (std::size_t a = 0; a < 3; ++a)
      if (absorbingCells_[a] > 0 && (at[a] < absorbingCells_[a] || at[a] >= grid.size[a] - absorbingCells_[a])) {
        lines << "warning: the source is inside the absorbing layer: its wave is damped as it starts";
        break;
      }
  }
  lines << warnings;
  return lines;
}

double Decorations::hudHeight(int lines) const { return lines > 0 ? hud_.textLinesHeight(lines) + 4.0 : 0.0; }

// Below the HUD panel, so that the HUD and the plane's heading never hide each other.
double Decorations::contentTop(int hudLines) const { return kMarginTop + hudHeight(hudLines); }

float Decorations::coveredTop(const FrameTarget& target, int hudLines) const {
  const double hud = hudHeight(hudLines);
  return float((hud > 0.0 ? kHudInset + hud : 0.0) / std::max(target.canvas.height(), 1.0));
}

int Decorations::sceneWidth(const FrameTarget& target) const {
  // The 3D scene leaves the colour bar its own column, so the bar never hides the volume.
  const int width = int(std::lround(target.canvas.width()));
  return target.colourBar ? std::max(width - int(kMarginRight), width / 2) : width;
}

QRectF Decorations::colourBarColumn(const FrameTarget& target) const {
  const double width = target.canvas.width(), left = std::max(width - kMarginRight, 0.0);
  return QRectF(left, 0.0, width - left, target.canvas.height());
}

double Decorations::hudMaxWidth(const FrameTarget& target) const { return target.canvas.width() - 2 * kHudInset; }

QRectF Decorations::hudBand(const FrameTarget& target, const QStringList& lines) const {
  if (lines.isEmpty()) return {};
  // One pixel more than the panel on its right (its antialiased edge), rounded up to a whole number of
  // 64-pixel steps: the counters' widths change from frame to frame, and a band of another size is a new
  // image (and texture) for the overlay.
  constexpr double kStep = 64.0;
  const double width = std::ceil((kHudInset + hud_.textLinesWidth(lines, hudMaxWidth(target)) + 1.0) / kStep) * kStep;
  return QRectF(0.0, 0.0, std::min(width, target.canvas.width()),
                std::min(kHudInset + hudHeight(int(lines.size())), target.canvas.height()));
}

PlaneLayout Decorations::planeLayout(SlicePlane plane, const SliceGeometry& grid, const FrameTarget& target,
                                     int hudLines) const {
  const double top = contentTop(hudLines);
  const QSizeF size = target.canvas;
  const QRectF area(kMarginLeft, top, std::max(size.width() - kMarginLeft - kMarginRight, 16.0),
                    std::max(size.height() - top - kMarginBottom, 16.0));
  return PlaneLayout::fit(plane, grid, area);
}

// ---- 3D --------------------------------------------------------------------------------------------

bool Decorations::update3D(GlFunctions* gl, const SliceGeometry& grid, bool sliceOutlines) {
  return lines_.update(gl, {grid, dx_, sourceIn(grid), absorbingCells_, sliceOutlines});
}

void Decorations::paint3D(QPainter& painter, const OrbitCamera& camera, const FrameTarget& target,
                          const SliceGeometry& grid, bool receiversOnSlicesOnly) const {
  const int width = sceneWidth(target), height = int(std::lround(target.canvas.height()));
  lines_.paintLabels3D(painter, camera, width, height, hud_);
  Overlays::paintReceivers3D(painter, camera, width, height, grid, receivers_, hud_, receiversOnSlicesOnly);
}

// ---- 2D --------------------------------------------------------------------------------------------

void Decorations::paint2D(QPainter& painter, const PlaneLayout& layout, const SliceGeometry& grid) const {
  paintAbsorbingLayer(painter, layout);
  lines_.paint2D(painter, layout, grid, dx_, sourceIn(grid), hud_);
  Overlays::paintReceivers2D(painter, layout, grid, receivers_, hud_);
}

void Decorations::paintAbsorbingLayer(QPainter& painter, const PlaneLayout& layout) const {
  const PlaneAxes axes = planeAxes(layout.plane);
  const double across = absorbingCells_[std::size_t(axes.column)] * layout.pixelsPerCell;
  const double down = absorbingCells_[std::size_t(axes.row)] * layout.pixelsPerCell;
  if (across <= 0.0 && down <= 0.0) return;
  const QRectF& outer = layout.rect;
  const QRectF inner = outer.adjusted(across, down, -across, -down);
  painter.save();
  QPainterPath layer;
  layer.addRect(outer);
  layer.addRect(inner);  // odd-even fill: the frame between the two
  painter.fillPath(layer, QColor(255, 255, 255, 38));
  painter.setPen(QPen(QColor(255, 255, 255, 150), 1.0, Qt::DashDotLine));
  painter.drawRect(inner);
  painter.setFont(hud_.smallFont());
  painter.setPen(QColor(255, 255, 255, 190));
  const QString label = QStringLiteral("absorbing layer (%1 cells)").arg(absorbingCells_[std::size_t(axes.column)]);
  if (down >= QFontMetricsF(hud_.smallFont()).height() + 2)
    painter.drawText(QRectF(inner.left(), outer.top(), inner.width(), down), Qt::AlignCenter, label);
  painter.restore();
}

// ---- Text and colour bars --------------------------------------------------------------------------

std::vector<std::pair<const Decorations::ColourBar*, QRectF>> Decorations::colourBarAreas(
    const FrameTarget& target, int hudLines, const ColourBar& first, const std::optional<ColourBar>& second) const {
  const QSizeF area = target.canvas;
  const double top = contentTop(hudLines), bottom = area.height() - kMarginBottom;
  const double left = area.width() - kMarginRight + 14, width = kMarginRight - 18;
  // The second bar only where both bars keep room for their ticks; the first comes first.
  const bool both = second && second->table != nullptr && bottom - top >= kTwoColourBarsHeight;
  const double split = both ? top + 0.58 * (bottom - top) : bottom;
  std::vector<std::pair<const ColourBar*, QRectF>> areas;
  if (first.table != nullptr) areas.emplace_back(&first, QRectF(left, top, width, split - top));
  if (both) areas.emplace_back(&*second, QRectF(left, split + 12, width, bottom - split - 12));
  return areas;
}

void Decorations::paintColourBars(QPainter& painter, const FrameTarget& target, int hudLines, const ColourBar& first,
                                  const std::optional<ColourBar>& second, ColourBarPart part) const {
  for (const auto& [bar, at] : colourBarAreas(target, hudLines, first, second)) {
    if (part != ColourBarPart::Labels) hud_.drawColourBarFrame(painter, at, *bar->table, bar->title, bar->caption);
    if (part != ColourBarPart::Frames) hud_.drawColourBarLabels(painter, at, bar->lo, bar->hi, bar->caption);
  }
}

// A frame is its area, table, title and the bar's place (which the caption's lines move); labels are the
// bar's place, range and caption.
QByteArray Decorations::colourBarsKey(const FrameTarget& target, int hudLines, const ColourBar& first,
                                      const std::optional<ColourBar>& second, ColourBarPart part) const {
  return OverlayLayer::keyOf([&](QDataStream& out) {
    out << int(part);
    for (const auto& [bar, at] : colourBarAreas(target, hudLines, first, second)) {
      out << at << hud_.colourBarRect(at, bar->caption);
      if (part != ColourBarPart::Labels) out << quintptr(bar->table) << bar->title;
      if (part != ColourBarPart::Frames) out << bar->lo << bar->hi << bar->caption;
    }
  });
}

void Decorations::paintHud(QPainter& painter, const FrameTarget& target, const QStringList& lines) const {
  hud_.drawTextLines(painter, QPointF(kHudInset, kHudInset), lines, hudMaxWidth(target));
}

void Decorations::paintMouseHint(QPainter& painter, const FrameTarget& target) const {
  const QSizeF area = target.canvas;
  painter.save();
  painter.setFont(hud_.smallFont());
  painter.setPen(QColor(170, 173, 180));
  // One line where it fits, else two (the second starting at the mouse's clicks), elided only beyond that.
  const QString view = QString::fromUtf8("z is depth, pointing down \u00b7 drag: orbit \u00b7 right drag: pan \u00b7 wheel: zoom");
  const QString clicks = QString::fromUtf8("double click: reset \u00b7 click: pick a cell \u00b7 shift+click: add a receiver");
  const QString joined = view + QString::fromUtf8(" \u00b7 ") + clicks;
  const QFontMetricsF metrics(hud_.smallFont());
  const double width = area.width() - 16;
  const QStringList lines = metrics.horizontalAdvance(joined) <= width ? QStringList{joined} : QStringList{view, clicks};
  for (int n = 0; n < lines.size(); ++n)
    painter.drawText(QRectF(8, area.height() - 22 - 16.0 * (lines.size() - 1 - n), width, 18),
                     Qt::AlignLeft | Qt::AlignVCenter, metrics.elidedText(lines[n], Qt::ElideRight, width));
  painter.restore();
}

void Decorations::paintMessage(QPainter& painter, const FrameTarget& target, const QString& text, bool error) const {
  hud_.drawMessage(painter, QRectF(QPointF(0, 0), target.canvas), text, error);
}

}  // namespace iso
