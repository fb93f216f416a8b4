#pragma once
// The lesson's summary chart: one column per stage in the lesson's order, its measured Mpts/s as a bar
// on a logarithmic axis (the bars climb like a staircase), its Mpts/s and % of roofline above it, the
// measured speed-up over its previous stage inside it, and the learner's prediction (the previous
// stage's Mpts/s times the predicted speed-up) as a marker beside it. Painted with QPainter, so the same
// drawing goes on screen, into a PNG or SVG file and onto the handout's PDF page.
#include <QWidget>
#include <vector>

#include "app/studio/LessonPlan.h"

namespace iso {

class StaircaseChart : public QWidget {
  Q_OBJECT
 public:
  explicit StaircaseChart(QWidget* parent = nullptr);

  void setEntries(std::vector<StaircaseEntry> entries, const QString& title);
  const std::vector<StaircaseEntry>& entries() const { return entries_; }

  // Draws the chart into `area`; text and lines are `scale` times their size on screen (a PDF page at
  // 300 dpi draws at 300/96). Without its title where the page already has one.
  void paint(QPainter& painter, const QRectF& area, double scale = 1.0, bool withTitle = true) const;
  // The chart alone at `size` pixels.
  QImage image(const QSize& size) const;
  // PNG or SVG by the name's extension, written whole or not at all; false with `error` set.
  bool save(const QString& path, QString& error) const;

  // Where the bar of entry `n` ends on the logarithmic axis that holds every value (measured and
  // predicted), as a fraction of the axis height from the bottom; for tests.
  double barFraction(std::size_t n) const;

  static constexpr QSize kExportSize{1200, 600};

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::pair<double, double> decades() const;  // log10 of the axis' ends (whole decades at the bottom)

  std::vector<StaircaseEntry> entries_;
  QString title_;
};

}  // namespace iso
