#include "render/SliceTextures.h"

namespace iso {
namespace {
std::span<const float> planeData(const SliceSet& s, SlicePlane p) {
  switch (p) {
    case SlicePlane::XY: return s.xy;
    case SlicePlane::XZ: return s.xz;
    case SlicePlane::YZ: return s.yz;
  }
  return s.xy;
}
}  // namespace

bool SliceTextures::create(GlFunctions* gl) {
  gl->glGenTextures(3, textures_.data());
  for (GLuint texture : textures_) {
    gl->glBindTexture(GL_TEXTURE_2D, texture);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, nearest_ ? GL_NEAREST : GL_LINEAR);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  allocated_ = {};
  loaded_ = false;
  error_ = drainGlErrors(gl, "creating the slice textures");
  return error_.isEmpty();
}

void SliceTextures::destroy(GlFunctions* gl) {
  if (textures_[0] != 0) gl->glDeleteTextures(3, textures_.data());
  textures_ = {0, 0, 0};
  allocated_ = {};
  loaded_ = false;
}

bool SliceTextures::upload(GlFunctions* gl, const SliceSet& slices, std::optional<MappedPixelBuffers::Location> from) {
  const SliceGeometry geometry = SliceGeometry::of(slices);
  gl->glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  for (SlicePlane p : kSlicePlanes) {
    const int index = int(p);
    const int w = geometry.width(p), h = geometry.height(p);
    gl->glBindTexture(GL_TEXTURE_2D, textures_[index]);
    if (allocated_[index] != std::array<int, 2>{w, h}) {
      gl->glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);  // no data: a bound buffer would be read from
      gl->glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, w, h, 0, GL_RED, GL_FLOAT, nullptr);
      allocated_[index] = {w, h};
    }
    const float* data = planeData(slices, p).data();
    if (from) {  // the plane's byte offset in the bound buffer
      gl->glBindBuffer(GL_PIXEL_UNPACK_BUFFER, from->buffer);
      const std::size_t offset = from->offset + std::size_t(data - slices.xy.data()) * sizeof(float);
      gl->glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RED, GL_FLOAT, reinterpret_cast<const void*>(offset));
    } else {
      gl->glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RED, GL_FLOAT, data);
    }
  }
  if (from) gl->glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  error_ = drainGlErrors(gl, from ? "uploading the slices from a mapped buffer" : "uploading the slices");
  if (!error_.isEmpty()) {
    allocated_ = {};  // storage state unknown: allocate afresh next time
    loaded_ = false;
    return false;
  }
  geometry_ = geometry;
  loaded_ = true;
  return true;
}

void SliceTextures::setMagnifyNearest(GlFunctions* gl, bool nearest) {
  if (nearest == nearest_) return;
  nearest_ = nearest;
  for (GLuint texture : textures_) {
    gl->glBindTexture(GL_TEXTURE_2D, texture);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, nearest ? GL_NEAREST : GL_LINEAR);
  }
}

void SliceTextures::bind(GlFunctions* gl, SlicePlane plane, int unit) const {
  gl->glActiveTexture(GL_TEXTURE0 + GLenum(unit));
  gl->glBindTexture(GL_TEXTURE_2D, textures_[int(plane)]);
}

}  // namespace iso
