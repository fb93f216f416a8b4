#include "render/FrameImageWidget.h"

#include <cstring>

#include <QPaintEvent>
#include <QPainter>

namespace iso {

FrameImageWidget::FrameImageWidget(QWidget* parent) : QWidget(parent) {
  setAttribute(Qt::WA_OpaquePaintEvent);  // every pixel is painted: no background first
  setAttribute(Qt::WA_TransparentForMouseEvents);
  setFocusPolicy(Qt::NoFocus);
}

void FrameImageWidget::showFrame(std::span<const std::uint8_t> pixels, QSize size, double pixelRatio) {
  if (pixels.size() < std::size_t(size.width()) * std::size_t(size.height()) * 4) return;
  if (frame_.size() != size) frame_ = QImage(size, QImage::Format_RGB32);
  if (frame_.isNull()) return;  // out of memory: the last frame stays
  const std::size_t row = std::size_t(size.width()) * 4;
  for (int y = 0; y < size.height(); ++y) std::memcpy(frame_.scanLine(y), pixels.data() + std::size_t(y) * row, row);
  frame_.setDevicePixelRatio(pixelRatio);
  repaint();
}

void FrameImageWidget::paintEvent(QPaintEvent* event) {
  QPainter painter(this);
  painter.setCompositionMode(QPainter::CompositionMode_Source);
  painter.drawImage(QPointF(0, 0), frame_);
  // What the frame does not cover (a resize in progress), in the background of the view it sits in.
  const QRegion rest = QRegion(event->rect()) - QRect(QPoint(0, 0), frame_.deviceIndependentSize().toSize());
  for (const QRect& r : rest) painter.fillRect(r, palette().window());
}

}  // namespace iso
