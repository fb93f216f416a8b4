#pragma once
// The live seismogram of the receivers: seismogramImage drawn at the widget's size, as variable density
// or wiggles, over the recent samples the controller keeps (LiveTraces).
#include <QWidget>
#include <memory>

#include "app/controller/SimulationController.h"
#include "app/studio/SeismogramImage.h"

namespace iso {

class SeismogramView : public QWidget {
  Q_OBJECT
 public:
  explicit SeismogramView(QWidget* parent = nullptr);

  void setTraces(std::shared_ptr<const LiveTraces> traces);  // drawn at the next paint
  void setStyle(SeismogramStyle style);
  void setNormalized(bool on);  // each trace scaled to its own peak
  // The grid spacing and the source cell: the axis gives each receiver's offset in metres.
  void setOffsets(double dx, int sourceI, int sourceJ);
  // How it draws (style, normalisation, offsets): what File ▸ Export data ▸ Seismogram draws with too.
  SeismogramOptions options() const;
  QImage image() const;  // what the widget shows now (null without samples)

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::shared_ptr<const LiveTraces> traces_;
  SeismogramOptions options_;  // its style, normalisation and offsets; the size is the widget's
};

}  // namespace iso
