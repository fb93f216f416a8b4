#include "core/CpuSerialSolver.h"

#include <cstddef>
#include <stdexcept>
#include <utility>

namespace iso {

CpuSerialSolver::CpuSerialSolver(Problem problem, const StageParamMap& params) : CpuSolverBase(std::move(problem)) {
  if (!params.empty())
    throw std::invalid_argument("stage cpu-serial takes no parameters (got '" + params.begin()->first + "')");
}

std::string CpuSerialSolver::deviceName() const { return "host CPU (1 thread, scalar)"; }

// The float operation order below is the reference's; keep it: other stages are compared against it.
// (The project builds with -std=c++20, so GCC does not contract a*b+c into FMA here.)
void CpuSerialSolver::computeStencil(int z0, int z1) {
  const Grid& g = problem_.grid;
  const int nx = g.nx(), ny = g.ny();
  const std::ptrdiff_t sy = nx, sz = std::ptrdiff_t(g.planeSize());
  const Weights& c = problem_.coeffs;
  const DampingProfile& damping = problem_.damping;
  const bool damped = damping.enabled();
  for (int z = z0; z < z1; ++z) {
    for (int y = kHalfLength; y < ny - kHalfLength; ++y) {
      const std::size_t row = g.index(0, y, z);
      const float* prev = prev_.data() + row;
      const float* vel = vel_.data() + row;
      float* next = next_.data() + row;
      for (int x = kHalfLength; x < nx - kHalfLength; ++x) {
        float value = prev[x] * c[0];
        for (int r = 1; r <= kHalfLength; ++r)
          value += c[r] * ((prev[x + r] + prev[x - r]) + (prev[x + r * sy] + prev[x - r * sy]) +
                           (prev[x + r * sz] + prev[x - r * sz]));
        if (damped) {
          const float gxyz = (damping.gx[x] * damping.gy[y]) * damping.gz[z];
          next[x] = gxyz * (2.0f * prev[x] - gxyz * next[x] + vel[x] * value);
        } else {
          next[x] = 2.0f * prev[x] - next[x] + value * vel[x];
        }
      }
    }
  }
  correctLayer({0, g.n1, 0, g.n2, z0 - kHalfLength, z1 - kHalfLength});
}

}  // namespace iso
