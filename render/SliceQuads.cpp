#include "render/SliceQuads.h"

#include <algorithm>
#include <limits>

namespace iso {

bool SliceQuads::create(GlFunctions* gl) {
  gl->glGenVertexArrays(1, &vao_);
  gl->glGenBuffers(1, &vbo_);
  gl->glBindVertexArray(vao_);
  gl->glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  gl->glBufferData(GL_ARRAY_BUFFER, sizeof(vertices_), nullptr, GL_DYNAMIC_DRAW);
  vertices_.fill(std::numeric_limits<float>::quiet_NaN());  // unequal to anything: forces the first send
  const GLsizei stride = 5 * sizeof(float);
  gl->glEnableVertexAttribArray(0);
  gl->glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
  gl->glEnableVertexAttribArray(1);
  gl->glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(3 * sizeof(float)));
  gl->glBindVertexArray(0);
  error_ = drainGlErrors(gl, "creating the slice quads");
  return error_.isEmpty();
}

void SliceQuads::destroy(GlFunctions* gl) {
  if (vbo_ != 0) gl->glDeleteBuffers(1, &vbo_);
  if (vao_ != 0) gl->glDeleteVertexArrays(1, &vao_);
  vao_ = vbo_ = 0;
}

void SliceQuads::send(GlFunctions* gl, int firstQuad, int quads) {
  const std::size_t first = std::size_t(firstQuad) * kFloatsPerQuad;
  gl->glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  gl->glBufferSubData(GL_ARRAY_BUFFER, GLintptr(first * sizeof(float)), GLsizeiptr(quads * kFloatsPerQuad * sizeof(float)),
                      &vertices_[first]);
}

void SliceQuads::place3D(GlFunctions* gl, const SliceGeometry& geometry) {
  std::array<float, 3 * kFloatsPerQuad> quads{};
  const float corners[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (SlicePlane p : kSlicePlanes)
    for (int c = 0; c < 4; ++c) {
      const glm::vec3 w = geometry.planeCorner(p, corners[c][0], corners[c][1]);
      float* v = &quads[std::size_t((4 * int(p) + c) * 5)];
      v[0] = w.x, v[1] = w.y, v[2] = w.z, v[3] = corners[c][0], v[4] = corners[c][1];
    }
  if (std::equal(quads.begin(), quads.end(), vertices_.begin())) return;
  std::copy(quads.begin(), quads.end(), vertices_.begin());
  send(gl, 0, 3);
}

void SliceQuads::place2D(GlFunctions* gl, const QRectF& r) {
  const float quad[kFloatsPerQuad] = {float(r.left()),  float(r.top()),    0, 0, 0,  //
                                      float(r.right()), float(r.top()),    0, 1, 0,  //
                                      float(r.right()), float(r.bottom()), 0, 1, 1,  //
                                      float(r.left()),  float(r.bottom()), 0, 0, 1};
  float* target = &vertices_[std::size_t(kPlaneQuad) * kFloatsPerQuad];
  if (std::equal(quad, quad + kFloatsPerQuad, target)) return;
  std::copy(quad, quad + kFloatsPerQuad, target);
  send(gl, kPlaneQuad, 1);
}

void SliceQuads::bind(GlFunctions* gl) const { gl->glBindVertexArray(vao_); }

void SliceQuads::draw(GlFunctions* gl, int index) const { gl->glDrawArrays(GL_TRIANGLE_FAN, 4 * index, 4); }

void SliceQuads::release(GlFunctions* gl) const { gl->glBindVertexArray(0); }

}  // namespace iso
