#include "compute/SlabCounters.h"

#include "compute/OpenClSolver.h"
#include "core/DecomposedSolver.h"

namespace iso {

std::vector<SlabCounter> slabCounters(const WaveSolver& solver) {
  std::vector<SlabCounter> out;
  const auto* cut = dynamic_cast<const DecomposedSolver*>(&solver);
  if (!cut) return out;
  const std::vector<WaveSolver*> local = cut->localSlabs();
  for (std::size_t s = 0, l = 0; s < cut->slabs().size() && l < local.size(); ++s) {
    if (!cut->isLocal(int(s))) continue;
    const WaveSolver& slab = *local[l++];
    SlabCounter c{slab.deviceName(), cut->slabs()[s].first, cut->slabs()[s].planes, 0.0};
    if (const auto* openCl = dynamic_cast<const OpenClSolver*>(&slab)) {
      c.device += " [" + openCl->device().selector() + "]";
      c.kernelSeconds = openCl->counters().kernelSeconds;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace iso
