#include "app/studio/SeismogramImage.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

#include "render/Colormap.h"

namespace iso {

QImage seismogramImage(const std::vector<float>& traces, const std::vector<ReceiverSpec>& receivers, double dt,
                       const QString& title) {
  const std::size_t count = receivers.size();
  if (count == 0 || traces.size() < count) return {};
  const std::size_t samples = traces.size() / count;
  const ColourTable* table = Colormap::table("seismic");
  if (!table) return {};

  std::vector<float> magnitudes(traces.size());
  std::transform(traces.begin(), traces.end(), magnitudes.begin(), [](float v) { return std::fabs(v); });
  const std::size_t at = std::min(magnitudes.size() - 1, std::size_t(0.99 * double(magnitudes.size())));
  std::nth_element(magnitudes.begin(), magnitudes.begin() + std::ptrdiff_t(at), magnitudes.end());
  float clip = magnitudes[at];
  if (!(clip > 0.0f)) clip = *std::max_element(magnitudes.begin(), magnitudes.end());
  if (!(clip > 0.0f)) clip = 1.0f;

  // 400 to 1200 pixel rows: a short record repeats its samples, a long one shows the sample of largest
  // magnitude of each group.
  const int rows = int(std::clamp<std::size_t>(samples, 400, 1200));
  const int band = std::clamp(900 / int(count), 6, 60);
  const int left = 70, top = 56, right = 20, bottom = 16;
  QImage image(left + band * int(count) + right, top + rows + bottom, QImage::Format_RGB32);
  image.fill(Qt::white);
  for (int row = 0; row < rows; ++row) {
    const std::size_t first = std::size_t(row) * samples / std::size_t(rows);
    const std::size_t last = std::max(first + 1, std::size_t(row + 1) * samples / std::size_t(rows));
    auto* line = reinterpret_cast<QRgb*>(image.scanLine(top + row));
    for (std::size_t r = 0; r < count; ++r) {
      float value = 0.0f;
      for (std::size_t n = first; n < last; ++n)
        if (std::fabs(traces[n * count + r]) > std::fabs(value)) value = traces[n * count + r];
      const QRgb colour = Colormap::colourAt(*table, 0.5 + 0.5 * std::clamp(double(value / clip), -1.0, 1.0)).rgb();
      std::fill(line + left + int(r) * band, line + left + int(r + 1) * band, colour);
    }
  }

  QPainter painter(&image);
  painter.setRenderHint(QPainter::TextAntialiasing);
  QFont font = painter.font();
  font.setPixelSize(12);
  painter.setFont(font);
  painter.setPen(Qt::black);
  painter.drawText(QRect(0, 2, image.width(), 18), Qt::AlignCenter,
                   title + QStringLiteral("  ·  clip ±%1 (99th percentile of |u|)").arg(double(clip), 0, 'g', 3));
  painter.drawRect(QRect(left - 1, top - 1, band * int(count) + 1, rows + 1));
  const double seconds = double(samples) * dt;
  // Ticks at 1, 2 or 5 × 10^k seconds, at least 40 pixels apart.
  const double least = seconds * 40.0 / rows;
  const double decade = std::pow(10.0, std::floor(std::log10(std::max(least, 1e-12))));
  const double tick = least <= decade ? decade : least <= 2 * decade ? 2 * decade : least <= 5 * decade ? 5 * decade : 10 * decade;
  for (double t = 0.0; t <= seconds + 1e-12; t += tick) {
    const int y = top + int(std::lround(t / seconds * rows));
    painter.drawLine(left - 5, y, left - 1, y);
    painter.drawText(QRect(0, y - 8, left - 8, 16), Qt::AlignRight | Qt::AlignVCenter, QString::number(t, 'g', 3));
  }
  painter.save();
  painter.translate(12, top + rows / 2);
  painter.rotate(-90);
  painter.drawText(QRect(-60, -8, 120, 16), Qt::AlignCenter, "time (s)");
  painter.restore();
  const int labelEvery = std::max(1, 40 / band);
  for (std::size_t r = 0; r < count; r += std::size_t(labelEvery))
    painter.drawText(QRect(left + int(r) * band - 20, top - 18, band + 40, 16), Qt::AlignCenter, QString::number(r));
  painter.drawText(QRect(left, top - 36, band * int(count), 16), Qt::AlignCenter,
                   QStringLiteral("receiver (0: cell %1, %2, %3)").arg(receivers[0].i).arg(receivers[0].j).arg(receivers[0].k));
  return image;
}

}  // namespace iso
