#pragma once
// Where the three slices of a SliceSet lie, in grid cells and in the 3D view's world coordinates.
//
// Axes shown to users: x (n1) and y (n2) horizontal, z (n3) is depth and points DOWN; (x, y, z) is
// right-handed. Interior grid point i sits at i·dx metres and is drawn as the cell [i, i+1) in grid
// units (so its centre is at i + 0.5).
// World coordinates (3D view): one unit per cell, the volume centred at the origin, OpenGL's Y up:
//   world X = x,  world Y = −z (depth down),  world Z = y  (core/GridWorld.h, shared with the volume
// renderer).
// 2D planes are drawn with the array's first row at the top: the column axis points right and the
// row axis points down — XY: x right, y down (a map seen from above, consistent with z down);
// XZ: x right, z (depth) down; YZ: y right, z (depth) down.
#include <array>
#include <optional>
#include <string>

#include <glm/glm.hpp>

#include "core/SliceSet.h"

namespace iso {

enum class SlicePlane { XY = 0, XZ = 1, YZ = 2 };
inline constexpr std::array<SlicePlane, 3> kSlicePlanes{SlicePlane::XY, SlicePlane::XZ, SlicePlane::YZ};

// Grid axes (0 = x, 1 = y, 2 = z) of a plane: its columns, its rows, and its normal.
struct PlaneAxes {
  int column, row, normal;
};
PlaneAxes planeAxes(SlicePlane plane);

// "" when the slice set is usable, otherwise what is wrong with it (sizes, slice point, plane lengths).
std::string sliceSetProblem(const SliceSet& s);

struct Cell {
  int i = 0, j = 0, k = 0;
  bool operator==(const Cell&) const = default;
};

struct SliceGeometry {
  std::array<int, 3> size{0, 0, 0};   // n1, n2, n3
  std::array<int, 3> point{0, 0, 0};  // the slice point (i, j, k)

  static SliceGeometry of(const SliceSet& s) { return {{s.n1, s.n2, s.n3}, {s.i, s.j, s.k}}; }
  bool empty() const { return size[0] <= 0 || size[1] <= 0 || size[2] <= 0; }
  bool operator==(const SliceGeometry&) const = default;

  int width(SlicePlane p) const { return size[planeAxes(p).column]; }   // texels per row
  int height(SlicePlane p) const { return size[planeAxes(p).row]; }     // rows

  glm::vec3 toWorld(const glm::vec3& grid) const;
  glm::vec3 toGrid(const glm::vec3& world) const;
  glm::vec3 worldDirectionToGrid(const glm::vec3& direction) const;
  float boundingRadius() const;  // half the diagonal of the volume, world units

  // World position of the plane's corner at texture coordinate (s, t), each 0 or 1.
  glm::vec3 planeCorner(SlicePlane p, float s, float t) const;

  // The cell at column `col`, row `row` of plane p (the normal coordinate is the slice point's).
  Cell cellOnPlane(SlicePlane p, int col, int row) const;

  // The first slice hit by a world-space ray, and the cell hit; nullopt if the ray misses all three.
  std::optional<Cell> pick(const glm::vec3& worldOrigin, const glm::vec3& worldDirection) const;
};

}  // namespace iso
