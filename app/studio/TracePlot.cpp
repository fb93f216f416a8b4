#include "app/studio/TracePlot.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "render/Overlays.h"

namespace iso {

// The view owns its chart from the start: QChartView::setChart would leave a default chart to delete.
TracePlot::TracePlot(QWidget* parent) : QChartView(new QChart, parent) {
  QChart* chart = this->chart();
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->layout()->setContentsMargins(0, 0, 0, 0);
  chart->setBackgroundRoundness(0);
  chart->legend()->setAlignment(Qt::AlignTop);  // wraps into rows: the plot keeps its width
  QFont small = chart->legend()->font();
  small.setPixelSize(10);
  chart->legend()->setFont(small);
  chart->legend()->setToolTip("Receiver numbers, as on the markers in the view and in the Receivers table");
  time_ = new QValueAxis;
  time_->setTitleText("time (s)");
  time_->setLabelFormat("%.3g");
  value_ = new QValueAxis;
  value_->setTitleText("u (arb. units)");
  value_->setLabelFormat("%.2g");
  for (QValueAxis* axis : {time_, value_}) {
    QFont labels = axis->labelsFont();
    labels.setPixelSize(10);
    axis->setLabelsFont(labels);
    QFont title = axis->titleFont();
    title.setPixelSize(11);
    axis->setTitleFont(title);
  }
  chart->addAxis(time_, Qt::AlignBottom);
  chart->addAxis(value_, Qt::AlignLeft);
  setRenderHint(QPainter::Antialiasing, true);
  setToolTip("u at each receiver against time (the most recent samples of the run)");
  setMinimumSize(240, 140);
}

void TracePlot::setTraces(const LiveTraces& traces, bool normalize) {
  QChart* c = chart();
  const int count = int(traces.receivers.size());
  if (series_.size() != count) {
    for (QLineSeries* s : series_) {
      c->removeSeries(s);
      delete s;
    }
    series_.clear();
    for (int r = 0; r < count; ++r) {
      auto* s = new QLineSeries;
      s->setName(QString::number(r));
      QPen pen(receiverColour(r), 1.3);
      s->setPen(pen);
      c->addSeries(s);
      s->attachAxis(time_);
      s->attachAxis(value_);
      series_ << s;
    }
    c->legend()->setVisible(count > 0 && count <= kMaxLegendEntries);
  }
  const long samples = traces.count();
  // Samples per group: every sample up to kMaxPoints, else pairs (smallest, largest) of groups.
  const long group = samples <= kMaxPoints ? 1 : (samples + kMaxPoints / 2 - 1) / (kMaxPoints / 2);
  double lo = 0.0, hi = 0.0;
  QList<QList<QPointF>> curves(count);
  for (int r = 0; r < count; ++r) {
    QList<QPointF>& points = curves[r];
    points.reserve(int(group == 1 ? samples : 2 * (samples / group + 1)));
    const auto raw = [&](long n) { return double(traces.samples[std::size_t(n) * std::size_t(count) + std::size_t(r)]); };
    // In double: the inverse of a tiny (denormal) peak early in the run stays finite.
    double scale = 1.0;
    if (normalize) {
      double peak = 0.0;
      for (long n = 0; n < samples; ++n)
        if (std::isfinite(raw(n))) peak = std::max(peak, std::fabs(raw(n)));
      if (peak > 0.0) scale = 1.0 / peak;
    }
    // NaN and Inf (a run that blew up; the view warns about them) are drawn at 0.
    const auto at = [&](long n) { return std::isfinite(raw(n)) ? scale * raw(n) : 0.0; };
    const auto time = [&](long n) { return double(traces.firstSample + n + 1) * traces.dt; };
    for (long first = 0; first < samples; first += group) {
      const long last = std::min(samples, first + group);
      long min = first, max = first;
      for (long n = first; n < last; ++n) {
        if (at(n) < at(min)) min = n;
        if (at(n) > at(max)) max = n;
      }
      points << QPointF(time(std::min(min, max)), at(std::min(min, max)));
      if (min != max) points << QPointF(time(std::max(min, max)), at(std::max(min, max)));
      lo = std::min(lo, at(min));
      hi = std::max(hi, at(max));
    }
  }
  // The axes first, then the curves: each change of either lays out every series again.
  // From the step the window starts at to its last sample.
  const double end = double(traces.firstSample + samples) * traces.dt;
  time_->setRange(double(traces.firstSample) * traces.dt, end > 0.0 ? end : 1.0);
  time_->applyNiceNumbers();
  value_->setTitleText(normalize ? "u / peak |u|" : "u (arb. units)");
  // Symmetric about 0, so the sign of each arrival reads at a glance.
  double extent = std::max(std::fabs(lo), std::fabs(hi));
  if (!(extent > 0.0) || !std::isfinite(extent)) extent = 1.0;
  value_->setRange(-extent, extent);
  value_->applyNiceNumbers();
  for (int r = 0; r < count; ++r) series_[r]->replace(curves[r]);
}

}  // namespace iso
