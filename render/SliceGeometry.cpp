#include "render/SliceGeometry.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/GridWorld.h"

namespace iso {

PlaneAxes planeAxes(SlicePlane plane) {
  switch (plane) {
    case SlicePlane::XY: return {0, 1, 2};
    case SlicePlane::XZ: return {0, 2, 1};
    case SlicePlane::YZ: return {1, 2, 0};
  }
  return {0, 1, 2};
}

std::string sliceSetProblem(const SliceSet& s) {
  const auto text = [](auto... parts) {
    std::string out;
    ((out += parts), ...);
    return out;
  };
  if (s.n1 <= 0 || s.n2 <= 0 || s.n3 <= 0)
    return text("slice set has a non-positive grid size (", std::to_string(s.n1), " x ",
                std::to_string(s.n2), " x ", std::to_string(s.n3), ")");
  if (s.i < 0 || s.i >= s.n1 || s.j < 0 || s.j >= s.n2 || s.k < 0 || s.k >= s.n3)
    return text("slice point (", std::to_string(s.i), ", ", std::to_string(s.j), ", ", std::to_string(s.k),
                ") lies outside the interior grid ", std::to_string(s.n1), " x ", std::to_string(s.n2),
                " x ", std::to_string(s.n3));
  const auto expect = [&](std::span<const float> plane, long long a, long long b,
                          const char* name) -> std::string {
    if (static_cast<long long>(plane.size()) == a * b) return {};
    return text("slice ", name, " holds ", std::to_string(plane.size()), " values, expected ",
                std::to_string(a), " x ", std::to_string(b), " = ", std::to_string(a * b));
  };
  for (const std::string& problem : {expect(s.xy, s.n1, s.n2, "xy"), expect(s.xz, s.n1, s.n3, "xz"),
                                     expect(s.yz, s.n2, s.n3, "yz")})
    if (!problem.empty()) return problem;
  return {};
}

glm::vec3 SliceGeometry::toWorld(const glm::vec3& g) const { return gridToWorld(size, g); }

glm::vec3 SliceGeometry::toGrid(const glm::vec3& w) const { return worldToGrid(size, w); }

glm::vec3 SliceGeometry::worldDirectionToGrid(const glm::vec3& d) const { return {d.x, d.z, -d.y}; }

float SliceGeometry::boundingRadius() const {
  return 0.5f * std::sqrt(float(size[0]) * float(size[0]) + float(size[1]) * float(size[1]) +
                          float(size[2]) * float(size[2]));
}

glm::vec3 SliceGeometry::planeCorner(SlicePlane p, float s, float t) const {
  const PlaneAxes a = planeAxes(p);
  glm::vec3 grid(0.0f);
  grid[a.column] = s * float(size[a.column]);
  grid[a.row] = t * float(size[a.row]);
  grid[a.normal] = float(point[a.normal]) + 0.5f;  // through the centre of the slice's cells
  return toWorld(grid);
}

Cell SliceGeometry::cellOnPlane(SlicePlane p, int col, int row) const {
  const PlaneAxes a = planeAxes(p);
  std::array<int, 3> c = point;
  c[a.column] = col;
  c[a.row] = row;
  return {c[0], c[1], c[2]};
}

std::optional<Cell> SliceGeometry::pick(const glm::vec3& worldOrigin, const glm::vec3& worldDirection) const {
  if (empty()) return std::nullopt;
  const glm::vec3 o = toGrid(worldOrigin);
  const glm::vec3 d = worldDirectionToGrid(worldDirection);
  float nearest = std::numeric_limits<float>::infinity();
  std::optional<Cell> hit;
  for (SlicePlane p : kSlicePlanes) {
    const PlaneAxes a = planeAxes(p);
    if (std::abs(d[a.normal]) < 1e-12f) continue;  // parallel to this plane
    const float t = (float(point[a.normal]) + 0.5f - o[a.normal]) / d[a.normal];
    if (t <= 0.0f || t >= nearest) continue;
    const glm::vec3 h = o + t * d;
    const float u = h[a.column], v = h[a.row];
    if (u < 0.0f || v < 0.0f || u > float(size[a.column]) || v > float(size[a.row])) continue;
    nearest = t;
    // A hit exactly on the far edge belongs to the last cell.
    hit = cellOnPlane(p, std::min(int(u), size[a.column] - 1), std::min(int(v), size[a.row] - 1));
  }
  return hit;
}

}  // namespace iso
