#pragma once
// Pictures of a chosen size drawn off screen: a renderer draws a frame into a framebuffer object of
// that size, which is read back into an image. Not a scaled grab of a window: text, margins and lines
// are laid out for the picture's size (ImageOptions::scale). The framebuffer is kept for the next
// picture of the same size and samples (a recording draws hundreds), and so is the memory of the last
// image, once its holder has let go of it.
#include <functional>
#include <memory>

#include <QImage>
#include <QString>

#include "render/FrameTarget.h"
#include "render/GlCheck.h"

class QOpenGLFramebufferObject;

namespace iso {

class ImageFramebuffer {
 public:
  static constexpr QSize kMaxSize{3840, 2160};

  ImageFramebuffer();
  ~ImageFramebuffer();

  // Why a picture with these options cannot be drawn (size or scale out of range), "" when it can.
  static QString optionsProblem(const ImageOptions& options);
  // The frame a picture with these options is drawn as (render).
  static FrameTarget target(const ImageOptions& options);

  // Draws a frame for the target it is given into the bound framebuffer; "" or what failed.
  using Draw = std::function<QString(const FrameTarget& target)>;
  // The picture `draw` draws, of options.size pixels with `samples` per pixel (0: none, resolved
  // otherwise), as opaque RGBA bytes (Format_RGBX8888: what the video encoder takes; PNG saves it as
  // RGB). The context is current. A null image and `error` set when the options are out of range, the
  // GL implementation cannot draw that size, or GL fails.
  QImage render(GlFunctions* gl, const ImageOptions& options, int samples, const Draw& draw, QString& error);
  // Lets go of the framebuffer (the context is current) and the kept memory.
  void destroy();

 private:
  // The framebuffer's size for a picture of `size` at `scale`: QPainter cannot draw with fewer than one
  // pixel per logical pixel, so a smaller scale is drawn at scale 1 into a larger framebuffer, then
  // reduced to the size asked for.
  static QSize drawnSize(QSize size, double scale);
  static QString limitProblem(GlFunctions* gl, QSize drawn);
  QString bind(GlFunctions* gl, QSize drawn, int samples);
  QImage readBack(GlFunctions* gl, QSize drawn, int samples);

  std::unique_ptr<QOpenGLFramebufferObject> framebuffer_;
  std::unique_ptr<QOpenGLFramebufferObject> resolved_;  // the samples of framebuffer_ resolved, when it has any
  QImage memory_;  // the last image read without samples, whose memory the next one reuses
};

}  // namespace iso
