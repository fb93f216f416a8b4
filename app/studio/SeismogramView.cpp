#include "app/studio/SeismogramView.h"

#include <QPainter>

namespace iso {

SeismogramView::SeismogramView(QWidget* parent) : QWidget(parent) {
  setMinimumSize(200, 140);
  setToolTip("Seismogram of the receivers: time runs down, one band per receiver (numbered as in the view).\n"
             "Variable density: red is positive u, blue negative; wiggles: positive lobes filled black.\n"
             "Clipped at the 99th percentile of |u|, or each trace scaled to its own peak (Normalize).");
}

void SeismogramView::setTraces(std::shared_ptr<const LiveTraces> traces) {
  traces_ = std::move(traces);
  update();
}

void SeismogramView::setStyle(SeismogramStyle style) {
  style_ = style;
  update();
}

void SeismogramView::setNormalized(bool on) {
  normalized_ = on;
  update();
}

QImage SeismogramView::image() const {
  if (!traces_ || traces_->count() == 0) return {};
  return seismogramImage(traces_->samples, traces_->receivers, traces_->dt, {},
                         {style_, traces_->firstSample, size() * devicePixelRatioF(), normalized_});
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
