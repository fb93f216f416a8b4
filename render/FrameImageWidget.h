#pragma once
// A raster widget that shows frames made elsewhere (a view's frames made on the solver's device,
// render/SliceView.h): Qt paints each into the window's backing store, and the windowing system shows it
// without any OpenGL. The frames are Qt's RGB32 words, copied into one image that is kept from frame to
// frame (no allocation a frame), drawn at the widget's device pixel ratio. The pointer's events pass
// through to the widget below (the view, which handles them).
#include <cstdint>
#include <span>

#include <QImage>
#include <QWidget>

namespace iso {

class FrameImageWidget : public QWidget {
 public:
  explicit FrameImageWidget(QWidget* parent = nullptr);
  // Shows a frame of `pixels` (width × height RGB32 words, rows packed) at `pixelRatio` pixels per
  // logical pixel, painted at once.
  void showFrame(std::span<const std::uint8_t> pixels, QSize size, double pixelRatio);
  const QImage& frame() const { return frame_; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QImage frame_;
};

}  // namespace iso
