#include "core/VolumeView.h"

#include <cmath>

namespace iso {

void VolumeView::setColormap(const ColourTable& table) { colormap = rgbaWords(table); }

void setVolumeCamera(VolumeView& view, const OrbitCamera& camera) {
  const float aspect = float(std::max(view.width, 1)) / float(std::max(view.height, 1));
  view.worldToClip = camera.projection(aspect) * camera.view();
}

VolumeView defaultVolumeView(const Grid& grid, int width, int height, float clip) {
  VolumeView view;
  view.width = width;
  view.height = height;
  view.clip = clip;
  view.setColormap(seismicTable());
  const float n1 = float(grid.n1), n2 = float(grid.n2), n3 = float(grid.n3);
  OrbitCamera camera;
  camera.frame(glm::vec3(0.0f), 0.5f * std::sqrt(n1 * n1 + n2 * n2 + n3 * n3));  // as the 3D view frames a grid
  setVolumeCamera(view, camera);
  return view;
}

std::string volumeViewProblem(const VolumeView& v, const Grid& g, std::size_t pixels) {
  const auto text = [](const char* what, auto value) { return std::string(what) + std::to_string(value); };
  if (v.width < 1 || v.height < 1 || v.width > VolumeView::kMaxImageSide || v.height > VolumeView::kMaxImageSide)
    return "a volume image of " + std::to_string(v.width) + "x" + std::to_string(v.height) +
           " pixels: each side must be 1 to " + std::to_string(VolumeView::kMaxImageSide);
  if (pixels < v.pixels())
    return text("memory for ", pixels) + " pixels cannot hold a volume image of " + std::to_string(v.pixels());
  if (!(v.clip > 0.0f) || !std::isfinite(v.clip)) return text("the volume's colour range must be positive and finite, not ", v.clip);
  if (!(v.samplesPerCell >= VolumeView::kMinSamplesPerCell && v.samplesPerCell <= VolumeView::kMaxSamplesPerCell))
    return text("samples per cell must be 0.25 to 8, not ", v.samplesPerCell);
  const int n[3] = {g.n1, g.n2, g.n3};
  if (v.planeAxis < -1 || v.planeAxis > 2 || (v.planeAxis >= 0 && (v.planeCell < 0 || v.planeCell >= n[v.planeAxis])))
    return "the volume's slice plane (axis " + std::to_string(v.planeAxis) + ", cell " + std::to_string(v.planeCell) +
           ") is not in the grid";
  for (int a = 0; a < 3; ++a)
    if (v.marginCells[a] < 0 || 2 * v.marginCells[a] >= n[a])
      return text("the volume's margin along an axis leaves nothing to render: ", v.marginCells[a]) + " cells of " +
             std::to_string(n[a]);
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (!std::isfinite(v.worldToClip[c][r])) return "the volume's camera matrix is not finite";
  return {};
}

}  // namespace iso
