#pragma once
// The volume renderer of the CPU stages: resources/kernels/volume_march.cl compiled for the host
// (core/VolumeMarch.h), run over rows of pixels by the stage's own workers, on the field where it lies
// (no copy). The OpenCL stages run the same source as kernels on their device
// (compute/OpenClVolumeRenderer.h). Why not the OpenCL kernel on an OpenCL CPU device for CPU stages as
// well: core/ has no OpenCL, the CPU stages run where no OpenCL driver is installed, and a CPU device
// would need the field in a buffer of its own (a copy of N³ values a frame) or one over the solver's
// arrays, which swap every step; compiling the one source twice gives the same pictures without either.
#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/Grid.h"
#include "core/VolumeView.h"

namespace iso {

namespace march {
struct vr_params;  // core/VolumeMarch.h
}  // namespace march

class HostVolumeRenderer {
 public:
  // Calls body(begin, end) over ranges covering [0, count) and returns when all are done.
  using RunRanges = std::function<void(int count, const std::function<void(int, int)>& body)>;

  // Renders the padded field u (halo kHalfLength, the solvers' layout) into rgba, with the padded
  // vel = v²·dt² as context when the view asks for it; returns the seconds it took. Throws
  // std::invalid_argument when the view cannot be rendered (volumeViewProblem).
  double render(const VolumeView& view, const Grid& grid, const float* u, const float* vel, std::span<std::uint32_t> rgba,
                const RunRanges& run);

 private:
  void buildContext(const Grid& grid, const float* vel, const RunRanges& run);
  std::array<int, 6> activeBricks(const march::vr_params& p) const;  // the box of the bricks that show wave

  std::vector<float> bricks_;               // the field's brick summaries, every frame
  std::vector<std::uint8_t> context_;       // the velocity model's contrasts, per interior cell, built once
  std::vector<std::uint8_t> brickContext_;  // their largest per brick
  Grid contextGrid_;                        // the grid context_ was built for
};

}  // namespace iso
