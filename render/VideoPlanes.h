#pragma once
// A drawn picture converted, on the GPU, into the planes a video encoder takes (yuv420p, BT.709 studio
// range; the layout is in resources/shaders/video_planes.frag): a pass over the picture's texture into a
// single-channel target of width × (height + height/2) texels, which is then read back in place of the
// picture's RGBA. The encoder gets its input as it stores it: no colour conversion on the CPU (at 1080p
// that was most of an encoded frame's time), and 1.5 bytes a pixel cross the bus instead of 4.
#include <QSize>
#include <QString>
#include <memory>

#include "render/GlCheck.h"

class QOpenGLFramebufferObject;
class QOpenGLShaderProgram;

namespace iso {

class VideoPlanes {
 public:
  VideoPlanes();
  ~VideoPlanes();

  // The planes' target for a frame of `size`: width × height·3/2 single bytes.
  static QSize planesSize(QSize size) { return QSize(size.width(), size.height() + size.height() / 2); }
  // Why a frame of `size` cannot be converted (a side odd), "" when it can.
  static QString sizeProblem(QSize size);

  // Draws the planes of `picture` (a texture of the picture, rows top down, any size: sampled with linear
  // filtering) for a frame of `size`, and leaves their target bound for reading (glReadPixels of
  // planesSize(size) texels, GL_RED, one byte each). The context is current; "" or what failed.
  QString convert(GlFunctions* gl, GLuint picture, QSize size);
  // Lets go of the program, the target and the vertex array (the context is current).
  void destroy(GlFunctions* gl);

 private:
  QString create(GlFunctions* gl);

  std::unique_ptr<QOpenGLShaderProgram> program_;
  std::unique_ptr<QOpenGLFramebufferObject> target_;
  GLuint vao_ = 0;  // core profile: a draw needs one bound, even with no attributes
};

}  // namespace iso
