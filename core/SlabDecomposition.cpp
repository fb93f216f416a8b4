#include "core/SlabDecomposition.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/Allocation.h"

namespace iso {

namespace {

constexpr int R = kHalfLength;

// Interior plane of a padded index of grid g.
int interiorPlaneOf(const Grid& g, std::size_t padded) { return int(padded / g.planeSize()) - R; }

// Planes [first - R, end + R) of a padded array of grid g (the slab's padded planes), or empty for empty.
std::vector<float> paddedPlanes(const std::vector<float>& array, const Grid& g, const Slab& slab, const char* what) {
  if (array.empty()) return {};
  const std::size_t plane = g.planeSize();
  const auto from = array.begin() + std::ptrdiff_t(std::size_t(slab.first) * plane);
  std::vector<float> out = allocateArray(std::size_t(slab.planes + 2 * R) * plane, what);
  std::copy(from, from + std::ptrdiff_t(out.size()), out.begin());
  return out;
}

}  // namespace

std::vector<Slab> cutAlongZ(int n3, std::span<const double> weights) {
  const int count = int(weights.size());
  if (count < 1) throw std::invalid_argument("a grid is cut into at least one slab");
  for (double w : weights)
    if (!(w > 0.0) || !std::isfinite(w)) throw std::invalid_argument("slab weights must be positive (devices' speeds)");
  const int least = count > 1 ? R : 1;
  if (n3 < least * count)
    throw std::invalid_argument("the grid's " + std::to_string(n3) + " planes along z cannot be cut into " +
                                std::to_string(count) + " slabs of at least " + std::to_string(least) +
                                " planes each (a slab's neighbours read " + std::to_string(R) +
                                " of its planes): use fewer devices or a larger n3");
  // Every slab gets its least share, the rest goes by weight (largest remainders first, then the lower slabs).
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  const int spare = n3 - least * count;
  std::vector<int> planes(std::size_t(count), least);
  std::vector<std::pair<double, int>> remainders;
  int given = 0;
  for (int s = 0; s < count; ++s) {
    const double share = spare * weights[std::size_t(s)] / total;
    const int whole = int(std::floor(share));
    planes[std::size_t(s)] += whole;
    given += whole;
    remainders.push_back({share - whole, s});
  }
  std::stable_sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (int i = 0; i < spare - given; ++i) ++planes[std::size_t(remainders[std::size_t(i) % remainders.size()].second)];
  std::vector<Slab> slabs;
  int first = 0;
  for (int p : planes) {
    slabs.push_back({first, p});
    first += p;
  }
  return slabs;
}

std::vector<PlaneRange> planesNextToCuts(int planes, bool cutBelow, bool cutAbove) {
  const PlaneRange below{0, cutBelow ? std::min(R, planes) : 0};
  const PlaneRange above{cutAbove ? std::max(planes - R, 0) : planes, planes};
  if (!below.empty() && !above.empty() && above.begin <= below.end) return {{0, planes}};
  std::vector<PlaneRange> out;
  for (const PlaneRange& r : {below, above})
    if (!r.empty()) out.push_back(r);
  return out;
}

std::vector<std::size_t> slabReceivers(const Problem& global, const Slab& slab) {
  std::vector<std::size_t> out;
  for (std::size_t r = 0; r < global.receivers.size(); ++r)
    if (const int k = interiorPlaneOf(global.grid, global.receivers[r]); k >= slab.first && k < slab.end()) out.push_back(r);
  return out;
}

int slabOfPlane(std::span<const Slab> slabs, int k) {
  for (std::size_t s = 0; s < slabs.size(); ++s)
    if (k >= slabs[s].first && k < slabs[s].end()) return int(s);
  throw std::out_of_range("plane " + std::to_string(k) + " is in no slab");
}

Problem slabProblem(const Problem& global, const Slab& slab) {
  const Grid& g = global.grid;
  if (slab.first < 0 || slab.planes < 1 || slab.end() > g.n3)
    throw std::invalid_argument("slab planes [" + std::to_string(slab.first) + ", " + std::to_string(slab.end()) +
                                ") are not inside the grid's " + std::to_string(g.n3));
  Problem p;
  p.grid = Grid(g.n1, g.n2, slab.planes);
  p.dx = global.dx;
  p.dt = global.dt;
  p.coefficientSet = global.coefficientSet;
  p.coeffs = global.coeffs;
  p.stability = global.stability;
  p.amplitudeBound = global.amplitudeBound;  // a stage storing fewer bits scales every slab alike
  p.velPeak = velPeakOf(global);
  p.vel = paddedPlanes(global.vel, g, slab, "a slab's velocity term");
  p.initialPrev = paddedPlanes(global.initialPrev, g, slab, "a slab's initial field");
  // A padded index of the whole grid moves down by the planes below the slab's first ghost plane.
  const std::size_t shift = std::size_t(slab.first) * g.planeSize();
  if (global.source && slab.planes > 0) {
    const int k = interiorPlaneOf(g, global.source->index);
    if (k >= slab.first && k < slab.end()) {
      p.source = global.source;
      p.source->index -= shift;
    }
  }
  if (global.damping.enabled()) {
    p.damping = global.damping;
    const auto gz = global.damping.gz.begin() + slab.first;
    p.damping.gz.assign(gz, gz + slab.planes + 2 * R);
  }
  if (global.pml.enabled()) p.pml = global.pml.zWindow(global.pml.zFirst + slab.first, slab.planes);
  for (std::size_t r : slabReceivers(global, slab)) p.receivers.push_back(global.receivers[r] - shift);
  return p;
}

int slabsPerDevice(const Grid& g, std::span<const double> deviceWeights, std::size_t maxPaddedCells) {
  for (int k = 1; std::size_t(k) * deviceWeights.size() * std::size_t(kHalfLength) <= std::size_t(g.n3); ++k) {
    std::vector<double> weights;
    for (double w : deviceWeights) weights.insert(weights.end(), std::size_t(k), w);
    const std::vector<Slab> slabs = cutAlongZ(g.n3, weights);
    const auto fits = [&](const Slab& s) { return Grid{g.n1, g.n2, s.planes}.paddedSize() <= maxPaddedCells; };
    if (std::all_of(slabs.begin(), slabs.end(), fits)) return k;
  }
  return 1;
}

}  // namespace iso
