#pragma once
// The volume view's picture: the RGBA8 image a solver rendered of the whole field (SliceSet::image,
// core/VolumeView.h) as a texture, drawn over the 3D scene's viewport with premultiplied alpha, over the
// background and under the box, axes and markers. Uploads go through glTexSubImage2D, from the set's
// memory or from the mapped pixel-unpack buffer that holds it (the image lies after the planes in the
// same slot); the texture's storage changes only with the image's size. The context current for every
// call from create to destroy.
#include <cstddef>
#include <memory>

#include <QString>

#include "core/SliceSet.h"
#include "render/GlCheck.h"

class QOpenGLShaderProgram;

namespace iso {

class VolumeImageLayer {
 public:
  VolumeImageLayer();
  ~VolumeImageLayer();  // destroy() first, with the context current

  bool create(GlFunctions* gl);  // false (lastError) on a GL or shader error
  void destroy(GlFunctions* gl);

  // Uploads the image of `slices` (none: forgets the last one), from pixel-unpack buffer `buffer` at
  // byte `offset` when `buffer` is not 0. False (lastError) on a GL error.
  bool upload(GlFunctions* gl, const SliceSet& slices, GLuint buffer = 0, std::size_t offset = 0);
  bool hasImage() const { return loaded_; }
  // Draws it over the current viewport, blended; row 0 at the bottom when `rowsDown`.
  void draw(GlFunctions* gl, bool rowsDown);
  const QString& lastError() const { return error_; }

 private:
  std::unique_ptr<QOpenGLShaderProgram> program_;
  GLuint texture_ = 0, vertexArray_ = 0;
  int width_ = 0, height_ = 0;  // the texture's storage
  bool loaded_ = false;
  QString error_;
};

}  // namespace iso
