#include "app/studio/SeismogramImage.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "render/Colormap.h"

namespace iso {
namespace {

constexpr int kLeft = 70, kRight = 20, kBottom = 16;  // margins for the time axis and the frame
constexpr int kTextLine = 18;                          // one line of 12-pixel text

// The 99th percentile of |u| (the largest |u| when that is 0; 1 for an all-zero record). NaN and Inf
// (a run that blew up) count as 0.
float clipOf(const std::vector<float>& traces) {
  std::vector<float> magnitudes(traces.size());
  std::transform(traces.begin(), traces.end(), magnitudes.begin(),
                 [](float v) { return std::isfinite(v) ? std::fabs(v) : 0.0f; });
  const std::size_t at = std::min(magnitudes.size() - 1, std::size_t(0.99 * double(magnitudes.size())));
  std::nth_element(magnitudes.begin(), magnitudes.begin() + std::ptrdiff_t(at), magnitudes.end());
  float clip = magnitudes[at];
  if (!(clip > 0.0f)) clip = *std::max_element(magnitudes.begin(), magnitudes.end());
  return clip > 0.0f ? clip : 1.0f;
}

// The header over the bands: each labelled band's offset (or number), and what they are.
void drawReceiverAxis(QPainter& painter, const std::vector<ReceiverSpec>& receivers, const SeismogramOptions& options, int top,
                      int band, int width) {
  const bool metres = options.dx > 0.0;
  const std::vector<double> offsets = metres ? receiverOffsets(receivers, options.dx, options.sourceI, options.sourceJ) : std::vector<double>{};
  const auto label = [&](std::size_t r) { return metres ? QString::number(offsets[r], 'f', 0) : QString::number(r); };
  int widest = 0;
  for (std::size_t r = 0; r < receivers.size(); ++r) widest = std::max(widest, painter.fontMetrics().horizontalAdvance(label(r)));
  const int labelEvery = std::max(1, (widest + 8 + band - 1) / band);  // labels never overlap
  for (std::size_t r = 0; r < receivers.size(); r += std::size_t(labelEvery))
    painter.drawText(QRect(kLeft + int(r) * band + band / 2 - widest, top - kTextLine, 2 * widest, 16), Qt::AlignCenter, label(r));
  QString caption = metres ? QStringLiteral("offset from the source (m): receivers %1 to %2").arg(0).arg(receivers.size() - 1)
                           : QStringLiteral("receiver (0: cell %1, %2, %3)").arg(receivers[0].i).arg(receivers[0].j).arg(receivers[0].k);
  painter.drawText(QRect(0, top - 2 * kTextLine, width, 16), Qt::AlignCenter, painter.fontMetrics().elidedText(caption, Qt::ElideRight, width - 4));
}

}  // namespace

std::vector<double> receiverOffsets(const std::vector<ReceiverSpec>& receivers, double dx, int sourceI, int sourceJ) {
  const auto sameY = std::all_of(receivers.begin(), receivers.end(), [&](const ReceiverSpec& r) { return r.j == receivers.front().j; });
  const auto sameX = std::all_of(receivers.begin(), receivers.end(), [&](const ReceiverSpec& r) { return r.i == receivers.front().i; });
  std::vector<double> offsets;
  for (const ReceiverSpec& r : receivers) {
    const double x = (r.i - sourceI) * dx, y = (r.j - sourceJ) * dx;
    offsets.push_back(sameY && !sameX ? x : sameX && !sameY ? y : std::hypot(x, y));
  }
  return offsets;
}

SeismogramOptions withOffsetsOf(SeismogramOptions options, const Scenario& scenario) {
  options.dx = scenario.dx;
  options.sourceI = scenario.source.i >= 0 ? scenario.source.i : scenario.n1 / 2;
  options.sourceJ = scenario.source.j >= 0 ? scenario.source.j : scenario.n2 / 2;
  return options;
}

QImage seismogramImage(const std::vector<float>& traces, const std::vector<ReceiverSpec>& receivers, double dt,
                       const QString& title, const SeismogramOptions& options) {
  const std::size_t count = receivers.size();
  if (count == 0 || traces.size() < count) return {};
  const std::size_t samples = traces.size() / count;
  const ColourTable* table = Colormap::table("seismic");
  if (!table) return {};
  const float clip = clipOf(traces);
  // u → [-1, 1] per receiver; in double, where the inverse of a tiny (denormal) peak stays finite.
  std::vector<double> scale(count, 1.0 / double(clip));
  if (options.normalize) {
    std::vector<double> peak(count, 0.0);
    for (std::size_t n = 0; n < traces.size(); ++n)
      if (std::isfinite(traces[n])) peak[n % count] = std::max(peak[n % count], double(std::fabs(traces[n])));
    for (std::size_t r = 0; r < count; ++r) scale[r] = peak[r] > 0.0 ? 1.0 / peak[r] : 1.0;
  }

  // The title takes a line only when there is one; the receiver numbers and the caption take two.
  const int top = (title.isEmpty() ? 4 : kTextLine + 2) + 2 * kTextLine;
  int rows = 0, band = 0;
  if (options.size.isEmpty()) {
    // 400 to 1200 pixel rows: a short record repeats its samples, a long one shows the sample of largest
    // magnitude of each group.
    rows = int(std::clamp<std::size_t>(samples, 400, 1200));
    band = std::clamp(900 / int(count), 6, 60);
  } else {
    rows = options.size.height() - top - kBottom;
    band = (options.size.width() - kLeft - kRight) / int(count);
    if (rows < 8 || band < 1) return {};
  }
  const int plotWidth = band * int(count);
  QImage image(options.size.isEmpty() ? QSize(kLeft + plotWidth + kRight, top + rows + kBottom) : options.size,
               QImage::Format_RGB32);
  image.fill(Qt::white);
  // The sample of largest magnitude among those that share a pixel row.
  const auto rowValue = [&](int row, std::size_t r) {
    const std::size_t first = std::size_t(row) * samples / std::size_t(rows);
    const std::size_t last = std::max(first + 1, std::size_t(row + 1) * samples / std::size_t(rows));
    float value = 0.0f;
    for (std::size_t n = first; n < last; ++n)
      if (std::fabs(traces[n * count + r]) > std::fabs(value)) value = traces[n * count + r];
    const double v = double(value) * scale[r];
    return std::isnan(v) ? 0.0 : std::clamp(v, -1.0, 1.0);
  };

  QPainter painter(&image);
  if (options.style == SeismogramStyle::VariableDensity) {
    for (int row = 0; row < rows; ++row) {
      auto* line = reinterpret_cast<QRgb*>(image.scanLine(top + row));
      for (std::size_t r = 0; r < count; ++r) {
        const QRgb colour = Colormap::colourAt(*table, 0.5 + 0.5 * rowValue(row, r)).rgb();
        std::fill(line + kLeft + int(r) * band, line + kLeft + int(r + 1) * band, colour);
      }
    }
  } else {
    // Wiggles: a full clip swings one band to either side; the positive lobes are filled (variable area).
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setClipRect(QRect(kLeft, top, plotWidth, rows));
    for (std::size_t r = 0; r < count; ++r) {
      const double centre = kLeft + (double(r) + 0.5) * band;
      QPolygonF curve;
      QPainterPath positive;
      for (int row = 0; row < rows; ++row) {
        const double v = rowValue(row, r);
        const double y = top + row + 0.5;
        curve << QPointF(centre + v * band, y);
        if (v > 0.0) positive.addRect(QRectF(centre, y - 0.5, v * band, 1.0));
      }
      painter.fillPath(positive, Qt::black);
      painter.setPen(QPen(Qt::black, 1.0));
      painter.drawPolyline(curve);
    }
    painter.setClipping(false);
    painter.setRenderHint(QPainter::Antialiasing, false);
  }

  painter.setRenderHint(QPainter::TextAntialiasing);
  QFont font = painter.font();
  font.setPixelSize(12);
  painter.setFont(font);
  painter.setPen(Qt::black);
  const QString clipText = options.normalize ? QStringLiteral("each trace scaled to its peak")
                                             : QStringLiteral("clip ±%1 (99th percentile of |u|)").arg(double(clip), 0, 'g', 3);
  if (!title.isEmpty())
    painter.drawText(QRect(0, 2, image.width(), kTextLine), Qt::AlignCenter,
                     painter.fontMetrics().elidedText(title + "  ·  " + clipText, Qt::ElideMiddle, image.width() - 4));
  painter.drawRect(QRect(kLeft - 1, top - 1, plotWidth + 1, rows + 1));
  // Row `row` covers samples [row, row + 1)·samples/rows: sample n lies at time (n+1)·dt.
  const double t0 = double(options.firstSample) * dt, seconds = double(samples) * dt;
  // Ticks at 1, 2 or 5 × 10^k seconds, at least 40 pixels apart.
  const double least = seconds * 40.0 / rows;
  const double decade = std::pow(10.0, std::floor(std::log10(std::max(least, 1e-12))));
  const double tick = least <= decade ? decade : least <= 2 * decade ? 2 * decade : least <= 5 * decade ? 5 * decade : 10 * decade;
  for (double t = std::ceil(t0 / tick - 1e-9) * tick; t <= t0 + seconds + 1e-12; t += tick) {
    const int y = top + int(std::lround((t - t0) / seconds * rows));
    painter.drawLine(kLeft - 5, y, kLeft - 1, y);
    painter.drawText(QRect(0, y - 8, kLeft - 8, 16), Qt::AlignRight | Qt::AlignVCenter, QString::number(t, 'g', 3));
  }
  painter.save();
  painter.translate(12, top + rows / 2);
  painter.rotate(-90);
  painter.drawText(QRect(-60, -8, 120, 16), Qt::AlignCenter, "time (s)");
  painter.restore();
  drawReceiverAxis(painter, receivers, options, top, band, image.width());
  if (title.isEmpty())  // the live view has no title line: how the traces are scaled goes in the corner
    painter.drawText(QRect(0, image.height() - kBottom, image.width() - kRight, kBottom), Qt::AlignRight | Qt::AlignVCenter, clipText);
  return image;
}

}  // namespace iso
