#pragma once
// The receivers' live traces u(t) as curves against time in seconds (Qt Charts): one series per receiver,
// in its marker's colour and named by its number. Up to kMaxPoints samples a series shows every sample;
// a longer window shows the smallest and largest sample of each group, so peaks survive. Normalized,
// each trace is divided by its own peak |u| (a receiver beside the source no longer hides the others).
#include <QChartView>
#include <QList>

#include "app/controller/SimulationController.h"

class QLineSeries;
class QValueAxis;

namespace iso {

class TracePlot : public QChartView {
  Q_OBJECT
 public:
  // Points per series: about two per pixel column of the plot in the form's tab. Qt Charts strokes every
  // curve again on each update (about 2 µs a point here), so more would cost the GUI thread.
  static constexpr int kMaxPoints = 600;
  static constexpr int kMaxLegendEntries = 16;  // more receivers: no legend (the colours still match)

  explicit TracePlot(QWidget* parent = nullptr);

  void setTraces(const LiveTraces& traces, bool normalize = false);
  const QList<QLineSeries*>& series() const { return series_; }
  QValueAxis* timeAxis() const { return time_; }

 private:
  QList<QLineSeries*> series_;
  QValueAxis *time_ = nullptr, *value_ = nullptr;
};

}  // namespace iso
