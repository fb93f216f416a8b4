#include "compute/OpenClVolumeRenderer.h"

#include <stdexcept>
#include <utility>

#include "compute/KernelSources.h"
#include "core/VolumeMarch.h"

namespace iso {

namespace {
constexpr std::size_t kTile = 8;  // pixels per side of a work-group: neighbouring rays share cache lines
}  // namespace

OpenClVolumeRenderer::OpenClVolumeRenderer(const ClContext& ctx)
    : ctx_(ctx),
      program_(ctx, {kernelSource("volume_march.cl") + "\n" + kernelSource("volume.cl"), "", "volume renderer (volume.cl)"}),
      bricks_(program_.kernel("volume_bricks")),
      context_(program_.kernel("volume_context")),
      brickContext_(program_.kernel("volume_brick_context")),
      render_(program_.kernel("volume_render")),
      activeBricks_(ctx, 8, CL_MEM_READ_WRITE, "volume active bricks"),
      contextCells_(ctx, 1, CL_MEM_READ_WRITE, "volume context placeholder"),
      contextBricks_(ctx, 1, CL_MEM_READ_WRITE, "volume context placeholder"),
      colormap_(ctx, kColourTableEntries, CL_MEM_READ_ONLY, "volume colormap") {}

OpenClVolumeRenderer::~OpenClVolumeRenderer() {
  try {
    finish();
  } catch (const ComputeError&) {  // a failed read writes nothing more
  }
}

NDRange OpenClVolumeRenderer::pixelRange(int width, int height) const {
  if (render_.maxWorkGroupSize(ctx_) < kTile * kTile) return {2, {std::size_t(width), std::size_t(height), 1}, {0, 0, 0}};
  const auto up = [](int n) { return (std::size_t(n) + kTile - 1) / kTile * kTile; };
  return {2, {up(width), up(height), 1}, {kTile, kTile, 1}};
}

void OpenClVolumeRenderer::uploadColormap(const VolumeView& view) {
  if (view.colormap == colormapOnDevice_) return;
  colormap_.write(ctx_, view.colormap.data(), view.colormap.size());
  colormapOnDevice_ = view.colormap;
}

void OpenClVolumeRenderer::buildContext(const march::vr_params& p, cl_mem vel, const Grid& g) {
  contextCells_ = Buffer<std::uint8_t>(ctx_, g.interiorSize(), CL_MEM_READ_WRITE, "volume context");
  const std::array<std::size_t, 3> bricks{std::size_t(p.nb1), std::size_t(p.nb2), std::size_t(p.nb3)};
  contextBricks_ = Buffer<std::uint8_t>(ctx_, bricks[0] * bricks[1] * bricks[2], CL_MEM_READ_WRITE, "volume context bricks");
  context_.args(p, vel, contextCells_);
  kernels_.push_back(context_.launch(ctx_, {3, {std::size_t(g.n1), std::size_t(g.n2), std::size_t(g.n3)}, {0, 0, 0}}));
  brickContext_.args(p, contextCells_, contextBricks_);
  kernels_.push_back(brickContext_.launch(ctx_, {3, bricks, {0, 0, 0}}));
  contextGrid_ = g;
}

void OpenClVolumeRenderer::start(const VolumeView& view, const Grid& g, cl_mem u, cl_mem vel,
                                 std::span<std::uint32_t> rgba, double* seconds) {
  if (const std::string problem = volumeViewProblem(view, g, rgba.size()); !problem.empty())
    throw std::invalid_argument(problem);
  finish();  // one image at a time
  const march::vr_params p = marchParams(view, g, kHalfLength);
  uploadColormap(view);
  if (view.velocityContext && !(contextGrid_ == g)) buildContext(p, vel, g);
  const std::size_t bricks = std::size_t(p.nb1) * p.nb2 * p.nb3;
  if (brickSummaries_.size() != bricks) brickSummaries_ = Buffer<float>(ctx_, bricks, CL_MEM_READ_WRITE, "volume bricks");
  if (image_.size() < view.pixels()) image_ = Buffer<std::uint32_t>(ctx_, view.pixels(), CL_MEM_WRITE_ONLY, "volume image");

  // No brick shows anything until the bricks' kernel says so (a pattern of 8 ints: fills need a power of 2).
  const cl_int none[8] = {p.nb1, p.nb2, p.nb3, -1, -1, -1, 0, 0};
  checkCl(clEnqueueFillBuffer(ctx_.queue(), activeBricks_.get(), none, sizeof none, 0, sizeof none, 0, nullptr, nullptr),
          "clEnqueueFillBuffer", "resetting the volume's active bricks");
  bricks_.args(p, u, brickSummaries_, activeBricks_);
  kernels_.push_back(bricks_.launch(ctx_, {3, {std::size_t(p.nb1), std::size_t(p.nb2), std::size_t(p.nb3)}, {0, 0, 0}}));
  render_.args(p, u, brickSummaries_, activeBricks_, contextCells_, contextBricks_, colormap_, image_);
  kernels_.push_back(render_.launch(ctx_, pixelRange(p.width, p.height)));
  // As the slices: the read waits for the image on the transfer queue, the first queue goes on.
  checkCl(clFlush(ctx_.queue()), "clFlush", "submitting the volume image");
  const cl_event rendered = kernels_.back().get();
  cl_event read = nullptr;
  checkCl(clEnqueueReadBuffer(ctx_.transferQueue(), image_.get(), CL_FALSE, 0, view.pixels() * sizeof(std::uint32_t),
                              rgba.data(), 1, &rendered, &read),
          "clEnqueueReadBuffer", "reading the volume image");
  read_ = Event(read);
  seconds_ = seconds;
  checkCl(clFlush(ctx_.transferQueue()), "clFlush", "submitting the volume image's read");
}

void OpenClVolumeRenderer::finish() {
  const Event read = std::move(read_);
  const std::vector<Event> kernels = std::move(kernels_);
  kernels_.clear();
  double* seconds = std::exchange(seconds_, nullptr);
  if (!read) return;
  read.wait();
  double total = 0.0;
  for (const Event& e : kernels) total += e.seconds();
  if (seconds) *seconds = total;
}

}  // namespace iso
