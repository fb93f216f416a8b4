#pragma once
// What QPainter draws over the slices (axis labels, receivers, colour bar, HUD text), painted by Qt's
// raster engine into an image and blended over the frame from a texture. Qt's OpenGL paint engine
// would issue GL state changes and draw calls per text item and path, each of which costs a software
// rasterizer (Mesa's llvmpipe) more than painting the same text into memory does. The image is handled
// in tiles: only tiles whose pixels changed since the last frame are uploaded (a compare view redraws
// with the same labels for its neighbours' frames; a recording's labels stay while its HUD changes),
// and only tiles with something painted in them are blended.
#include <QImage>
#include <QString>
#include <memory>
#include <vector>

#include "render/GlCheck.h"

class QOpenGLShaderProgram;

namespace iso {

class OverlayLayer {
 public:
  static constexpr int kTile = 16;  // pixels along each side of a tile

  OverlayLayer();
  ~OverlayLayer();
  bool create(GlFunctions* gl);  // needs a current context; false (see lastError) on a GL error
  void destroy(GlFunctions* gl);

  // A transparent image of widthPx x heightPx pixels at `pixelRatio` device pixels per logical pixel,
  // to paint this frame's overlay on (its memory is reused from frame to frame).
  QImage& begin(int widthPx, int heightPx, double pixelRatio);
  // Blends the image painted since begin() over the current viewport of the bound framebuffer, which has
  // the image's size; upside down with `flipped` (as the rest of a frame drawn for reading back in image
  // row order). False on a GL error (see lastError).
  bool draw(GlFunctions* gl, bool flipped = false);
  const QString& lastError() const { return error_; }

 private:
  // Uploads the painted tiles the texture does not hold yet and collects the quads of the painted ones
  // in vertices_; true when it uploaded any.
  bool sendTiles(GlFunctions* gl, bool fresh, bool flipped);
  void uploadRect(GlFunctions* gl, const QRect& rect);  // that part of the painted image into the texture
  void addQuad(const QRect& rect, bool flipped);       // two triangles over that part of the image

  QImage painted_;   // this frame's
  QImage uploaded_;  // what the texture holds (the previous frame's memory, swapped)
  std::vector<float> vertices_;  // this frame's tiles with something painted: x y s t per vertex
  std::unique_ptr<QOpenGLShaderProgram> program_;
  GLuint texture_ = 0, vao_ = 0, vbo_ = 0;
  QString error_;
};

}  // namespace iso
