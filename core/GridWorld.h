#pragma once
// The 3D views' world coordinates, one convention for the OpenGL side (render/SliceGeometry.h) and the
// volume renderer (core/VolumeView.h), which must draw the same cell at the same place: one unit per
// cell, the grid centred at the origin, OpenGL's Y up:
//   world X = x,  world Y = −z (depth down),  world Z = y,
// grid coordinates in cells (interior point i is the cell [i, i+1)), `size` the interior cells n1, n2, n3.
#include <array>

#include <glm/glm.hpp>

namespace iso {

inline glm::vec3 gridToWorld(const std::array<int, 3>& size, const glm::vec3& g) {
  return {g.x - 0.5f * float(size[0]), 0.5f * float(size[2]) - g.z, g.y - 0.5f * float(size[1])};
}

inline glm::vec3 worldToGrid(const std::array<int, 3>& size, const glm::vec3& w) {
  return {w.x + 0.5f * float(size[0]), w.z + 0.5f * float(size[1]), 0.5f * float(size[2]) - w.y};
}

// worldToGrid as a matrix (column-major, GLM's), to compose with a camera's inverse.
inline glm::mat4 worldToGridMatrix(const std::array<int, 3>& size) {
  glm::mat4 m(0.0f);
  m[0][0] = 1.0f;   // grid x from world X
  m[2][1] = 1.0f;   // grid y from world Z
  m[1][2] = -1.0f;  // grid z from world −Y
  m[3] = glm::vec4(0.5f * float(size[0]), 0.5f * float(size[1]), 0.5f * float(size[2]), 1.0f);
  return m;
}

}  // namespace iso
