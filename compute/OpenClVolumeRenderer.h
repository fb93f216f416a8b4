#pragma once
// The volume renderer of the OpenCL stages: the kernels of resources/kernels/volume.cl, built after
// volume_march.cl (the source the CPU stages compile for the host, core/VolumeMarch.h), on the solver's
// device over its current field buffer: the field never leaves the device. Per frame: the bricks'
// summaries of u (empty-space skipping), then one work-item per pixel; the image (RGBA8) is read into
// the caller's memory through the transfer queue, as the slices are, so that the next steps run while
// it crosses. The velocity model's context is built on the device the first time a view asks for it.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "compute/ClHost.h"
#include "core/Grid.h"
#include "core/VolumeView.h"

namespace iso {

namespace march {
struct vr_params;  // core/VolumeMarch.h
}  // namespace march

class OpenClVolumeRenderer {
 public:
  // Builds the program for ctx's device (through the kernel cache). ctx must outlive the renderer.
  explicit OpenClVolumeRenderer(const ClContext& ctx);
  ~OpenClVolumeRenderer();  // waits for a read still on its way into the caller's memory

  // Enqueues the image of u (padded, halo kHalfLength) on the context's queue and its read into rgba on
  // the transfer queue; vel (padded v²·dt²) is read only to build the context. rgba must stay valid
  // until finish(). Throws std::invalid_argument for a view that cannot be rendered, ComputeError when
  // the device refuses.
  void start(const VolumeView& view, const Grid& grid, cl_mem u, cl_mem vel,
             std::span<std::uint32_t> rgba, double* seconds);
  // Waits for the image; *seconds (as given to start) then holds its kernels' time. Nothing on its way:
  // returns at once.
  void finish();

 private:
  void buildContext(const march::vr_params& params, cl_mem vel, const Grid& grid);
  void uploadColormap(const VolumeView& view);
  NDRange pixelRange(int width, int height) const;

  const ClContext& ctx_;
  Program program_;
  Kernel bricks_, context_, brickContext_, render_;
  Buffer<float> brickSummaries_;
  Buffer<int> activeBricks_;  // the box of the bricks that show wave (volume.cl)
  Buffer<std::uint8_t> contextCells_, contextBricks_;  // one byte each until a view asks for context
  Grid contextGrid_;
  Buffer<std::uint32_t> colormap_, image_;
  std::array<std::uint32_t, kColourTableEntries> colormapOnDevice_{};
  std::vector<Event> kernels_;  // of the image on its way, for its time
  Event read_;
  double* seconds_ = nullptr;
};

}  // namespace iso
