#pragma once
// The 3D view's orbit camera, framed on the grid it shows: framed when a frame first shows a grid and
// again when the grid's size changes, while the user's orbit, pan and zoom stay from frame to frame of
// the same grid. Any renderer of the grid in 3D (the slices, a volume) frames its camera this way.
#include <array>

#include "core/OrbitCamera.h"
#include "render/SliceGeometry.h"

namespace iso {

class GridCamera {
 public:
  const OrbitCamera& camera() const { return camera_; }
  OrbitCamera& camera() { return camera_; }  // to orbit, pan and zoom it

  // At each frame of `grid`: frames the camera unless it is framed for a grid of this size already.
  void frame(const SliceGeometry& grid);
  // Back to the default viewpoint on `grid`, or at the next frame with a grid when it is empty.
  void reset(const SliceGeometry& grid);
  // Another view's camera (a compare view links its views, which show the same grid), taken as framed
  // for `grid`: the next frame keeps it.
  void adopt(const OrbitCamera& camera, const SliceGeometry& grid);

 private:
  OrbitCamera camera_;
  std::array<int, 3> framedSize_{0, 0, 0};  // the grid size the camera was framed for
};

}  // namespace iso
