#include "app/studio/SeismogramView.h"

#include <QPainter>

namespace iso {

SeismogramView::SeismogramView(QWidget* parent) : QWidget(parent) {
  setMinimumSize(200, 140);
  setToolTip("Seismogram of the receivers: time runs down, one band per receiver, labelled with its offset\n"
             "from the source in metres (receivers in the order of the view's numbers). Variable density: red\n"
             "is positive u, blue negative; wiggles: positive lobes filled black. Clipped at the 99th\n"
             "percentile of |u|, or each trace scaled to its own peak (Normalize). File ▸ Export data ▸\n"
             "Seismogram saves the whole record drawn this way.");
}

void SeismogramView::setTraces(std::shared_ptr<const LiveTraces> traces) {
  traces_ = std::move(traces);
  update();
}

void SeismogramView::setStyle(SeismogramStyle style) {
  options_.style = style;
  update();
}

void SeismogramView::setNormalized(bool on) {
  options_.normalize = on;
  update();
}

void SeismogramView::setOffsets(double dx, int sourceI, int sourceJ) {
  if (dx == options_.dx && sourceI == options_.sourceI && sourceJ == options_.sourceJ) return;
  options_.dx = dx;
  options_.sourceI = sourceI;
  options_.sourceJ = sourceJ;
  update();
}

SeismogramOptions SeismogramView::options() const { return options_; }

QImage SeismogramView::image() const {
  if (!traces_ || traces_->count() == 0) return {};
  SeismogramOptions drawn = options_;
  drawn.firstSample = traces_->firstSample;
  drawn.size = size() * devicePixelRatioF();
  return seismogramImage(traces_->samples, traces_->receivers, traces_->dt, {}, drawn);
}

void SeismogramView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  QImage picture = image();
  if (picture.isNull()) {
    painter.fillRect(rect(), palette().base());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, "The seismogram appears as the run records.");
    return;
  }
  picture.setDevicePixelRatio(devicePixelRatioF());
  painter.drawImage(QPointF(0, 0), picture);
}

}  // namespace iso
