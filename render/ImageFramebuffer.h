#pragma once
// Pictures of a chosen size drawn off screen: a renderer draws a frame into a framebuffer object of
// that size, which is read back into an image. Not a scaled grab of a window: text, margins and lines
// are laid out for the picture's size (ImageOptions::scale). The framebuffer is kept for the next
// picture of the same size and samples (a recording draws hundreds), and so is the memory of the last
// image, once its holder has let go of it.
//
// A stream of pictures (a recording) is read back a picture late instead: start() draws one and starts
// copying it into a pixel-pack buffer, returning at once, and collect() hands over the oldest started
// once it has arrived, straight from the mapped buffer. Waiting for each picture to be drawn and read
// back before the next is drawn costs a GPU's frame most of its time (docs/PERFORMANCE.md).
#include <deque>
#include <functional>
#include <memory>

#include <QImage>
#include <QString>

#include "render/FrameTarget.h"
#include "render/GlCheck.h"
#include "render/VideoPlanes.h"

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
  // otherwise), as opaque RGBA bytes (Format_RGBX8888; PNG saves it as RGB): options.videoPlanes applies
  // to start() only (optionsProblem still asks it for even sides). The context is current. A null image and `error` set when the options are
  // out of range, the GL implementation cannot draw that size, or GL fails.
  QImage render(GlFunctions* gl, const ImageOptions& options, int samples, const Draw& draw, QString& error);

  // The stream's pictures in flight at most: a start() with as many pending drops the oldest.
  static constexpr int kReadSlots = 2;
  // Draws the picture as render() does and starts reading it back; "" or what failed (nothing pending).
  QString start(GlFunctions* gl, const ImageOptions& options, int samples, const Draw& draw);
  // Waits for the oldest started picture and calls use(image) with it (valid during the call only):
  // opaque RGBA, or with options.videoPlanes the planes as one Format_Grayscale8 image of
  // VideoPlanes::planesSize(options.size); "" or what failed, the picture then lost. The context is current.
  QString collect(GlFunctions* gl, const std::function<void(const QImage& image)>& use);
  int pending() const { return int(pending_.size()); }

  // Lets go of the framebuffers, the pixel-pack buffers (the context is current) and the kept memory.
  void destroy(GlFunctions* gl);

 private:
  // The framebuffer's size for a picture of `size` at `scale`: QPainter cannot draw with fewer than one
  // pixel per logical pixel, so a smaller scale is drawn at scale 1 into a larger framebuffer, then
  // reduced to the size asked for.
  static QSize drawnSize(QSize size, double scale);
  static QString limitProblem(GlFunctions* gl, QSize drawn);
  QString bind(GlFunctions* gl, QSize drawn, int samples);
  // Checks the options, binds the framebuffer and draws the frame; "" or what failed.
  QString drawPicture(GlFunctions* gl, const ImageOptions& options, int samples, const Draw& draw);
  // The framebuffer to read from bound: the drawn one, or its samples resolved into resolved_; false
  // when resolved_ cannot be made.
  bool bindForReading(QSize drawn, int samples);
  QImage readBack(GlFunctions* gl, QSize drawn, int samples);
  // The picture as asked for, from the drawn one (reduced when drawn at a larger size: drawnSize).
  static QString delivered(QImage& image, QSize size);

  struct PendingRead {
    int slot;
    QSize drawn, size;
    bool videoPlanes;
    GLsync fence;
  };
  // Reads the bound framebuffer (the resolved picture, or its video planes) into pack buffer `slot`,
  // behind a fence; null when GL fails.
  GLsync startRead(GlFunctions* gl, int slot, QSize read, bool videoPlanes);
  void dropOldest(GlFunctions* gl);

  std::unique_ptr<QOpenGLFramebufferObject> framebuffer_;
  std::unique_ptr<QOpenGLFramebufferObject> resolved_;  // the samples of framebuffer_ resolved, when it has any
  QImage memory_;  // the last image read without samples, whose memory the next one reuses
  GLuint packBuffers_[kReadSlots] = {};       // start()'s pictures, read back into them
  std::size_t packBytes_[kReadSlots] = {};
  std::deque<PendingRead> pending_;  // oldest first
  VideoPlanes videoPlanes_;
};

}  // namespace iso
