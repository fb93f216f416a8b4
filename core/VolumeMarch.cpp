#include "core/VolumeMarch.h"

#include <cstring>

#include <glm/gtc/type_ptr.hpp>

#include "core/GridWorld.h"

namespace iso {

march::vr_params marchParams(const VolumeView& v, const Grid& g, int halo) {
  march::vr_params p{};
  const glm::mat4 clipToGrid = worldToGridMatrix({g.n1, g.n2, g.n3}) * glm::inverse(v.worldToClip);
  std::memcpy(p.clip_to_grid, glm::value_ptr(clipToGrid), sizeof p.clip_to_grid);
  const int n[3] = {g.n1, g.n2, g.n3};
  for (int a = 0; a < 3; ++a) {
    p.box_lo[a] = float(v.marginCells[a]);
    p.box_hi[a] = float(n[a] - v.marginCells[a]);
  }
  p.n1 = g.n1, p.n2 = g.n2, p.n3 = g.n3;
  p.halo = halo;
  p.nb1 = volumeBricks(g.n1), p.nb2 = volumeBricks(g.n2), p.nb3 = volumeBricks(g.n3);
  p.width = v.width, p.height = v.height;
  p.step = 1.0f / v.samplesPerCell;
  p.samples_per_cell = v.samplesPerCell;
  p.inv_clip = 1.0f / v.clip;
  p.dead_zone = VolumeView::kDeadZone;
  p.density = VolumeView::kDensity;
  p.emission = VolumeView::kEmission;
  p.context_density = v.velocityContext ? VolumeView::kContextDensity : 0.0f;
  p.stop_alpha = v.earlyTermination ? VolumeView::kStopAlpha : 2.0f;
  p.jitter = v.jitter ? 1 : 0;
  p.plane_axis = v.planeAxis;
  p.plane_cell = v.planeCell;
  return p;
}

}  // namespace iso
