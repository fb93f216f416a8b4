#include "render/VolumeImageLayer.h"

#include <QOpenGLShaderProgram>

namespace iso {

VolumeImageLayer::VolumeImageLayer() = default;
VolumeImageLayer::~VolumeImageLayer() = default;

bool VolumeImageLayer::create(GlFunctions* gl) {
  program_ = std::make_unique<QOpenGLShaderProgram>();
  if (const QString log = buildShaderProgram(*program_, ":/shaders/volume.vert", ":/shaders/volume.frag"); !log.isEmpty()) {
    error_ = log;
    return false;
  }
  gl->glGenVertexArrays(1, &vertexArray_);  // the core profile draws with one bound, even without attributes
  gl->glGenTextures(1, &texture_);
  gl->glBindTexture(GL_TEXTURE_2D, texture_);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);  // an image at a reduced scale
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  width_ = height_ = 0;
  loaded_ = false;
  error_ = drainGlErrors(gl, "creating the volume image's texture");
  return error_.isEmpty();
}

void VolumeImageLayer::destroy(GlFunctions* gl) {
  if (texture_ != 0) gl->glDeleteTextures(1, &texture_);
  if (vertexArray_ != 0) gl->glDeleteVertexArrays(1, &vertexArray_);
  texture_ = vertexArray_ = 0;
  program_.reset();
  loaded_ = false;
}

bool VolumeImageLayer::upload(GlFunctions* gl, const SliceSet& slices, GLuint buffer, std::size_t offset) {
  loaded_ = false;
  if (slices.image.empty()) return true;
  gl->glBindTexture(GL_TEXTURE_2D, texture_);
  gl->glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  if (width_ != slices.imageWidth || height_ != slices.imageHeight) {
    gl->glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);  // no data: a bound buffer would be read from
    gl->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, slices.imageWidth, slices.imageHeight, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    width_ = slices.imageWidth, height_ = slices.imageHeight;
  }
  // Red in the low byte of each 32-bit pixel: bytes R, G, B, A in memory on the little-endian hosts
  // this runs on.
  if (buffer != 0) {
    gl->glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
    gl->glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, reinterpret_cast<const void*>(offset));
    gl->glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  } else {
    gl->glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, slices.image.data());
  }
  error_ = drainGlErrors(gl, buffer != 0 ? "uploading the volume image from a mapped buffer" : "uploading the volume image");
  if (!error_.isEmpty()) {
    width_ = height_ = 0;  // storage state unknown: allocate afresh next time
    return false;
  }
  loaded_ = true;
  return true;
}

void VolumeImageLayer::draw(GlFunctions* gl, bool rowsDown) {
  if (!loaded_) return;
  program_->bind();
  program_->setUniformValue("image", 0);
  program_->setUniformValue("rowsDown", rowsDown);
  gl->glActiveTexture(GL_TEXTURE0);
  gl->glBindTexture(GL_TEXTURE_2D, texture_);
  gl->glEnable(GL_BLEND);
  gl->glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  gl->glBindVertexArray(vertexArray_);
  gl->glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  gl->glBindVertexArray(0);
  gl->glDisable(GL_BLEND);
  program_->release();
}

}  // namespace iso
