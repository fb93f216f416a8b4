#pragma once
// The quads the slices are drawn on, in one vertex buffer of x y z s t vertices: the three slices of
// the 3D view in world space (quads 0, 1, 2: XY, XZ, YZ) and the plane of a 2D view in logical pixels
// (quad 3), texture row 0 (the array's first row) at its top. Sent again only when they move.
#include <array>

#include <QRectF>
#include <QString>

#include "render/GlCheck.h"
#include "render/SliceGeometry.h"

namespace iso {

class SliceQuads {
 public:
  static constexpr int kPlaneQuad = 3;  // the 2D view's plane

  bool create(GlFunctions* gl);  // needs a current context; false (see lastError) on a GL error
  void destroy(GlFunctions* gl);
  const QString& lastError() const { return error_; }

  void place3D(GlFunctions* gl, const SliceGeometry& geometry);  // the slices where `geometry` puts them
  void place2D(GlFunctions* gl, const QRectF& rect);            // the plane over `rect`
  // Between bind and release, draws quad `index` (a triangle fan) with whatever program and textures are bound.
  void bind(GlFunctions* gl) const;
  void draw(GlFunctions* gl, int index) const;
  void release(GlFunctions* gl) const;

 private:
  static constexpr int kFloatsPerQuad = 4 * 5;
  void send(GlFunctions* gl, int firstQuad, int quads);

  GLuint vao_ = 0, vbo_ = 0;
  std::array<float, 4 * kFloatsPerQuad> vertices_{};  // what the buffer holds
  QString error_;
};

}  // namespace iso
