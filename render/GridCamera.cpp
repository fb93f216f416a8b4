#include "render/GridCamera.h"

namespace iso {

void GridCamera::frame(const SliceGeometry& grid) {
  if (framedSize_ == grid.size) return;
  camera_.frame(glm::vec3(0.0f), grid.boundingRadius());
  framedSize_ = grid.size;
}

void GridCamera::reset(const SliceGeometry& grid) {
  framedSize_ = {0, 0, 0};  // an empty grid: framed at the first frame with one
  if (!grid.empty()) frame(grid);
}

void GridCamera::adopt(const OrbitCamera& camera, const SliceGeometry& grid) {
  camera_ = camera;
  if (!grid.empty()) framedSize_ = grid.size;
}

}  // namespace iso
