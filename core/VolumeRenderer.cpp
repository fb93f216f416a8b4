#include "core/VolumeRenderer.h"

#include <chrono>
#include <stdexcept>

#include "core/VolumeMarch.h"

namespace iso {

double HostVolumeRenderer::render(const VolumeView& view, const Grid& grid, const float* u, const float* vel,
                                  std::span<std::uint32_t> rgba, const RunRanges& run) {
  if (const std::string problem = volumeViewProblem(view, grid, rgba.size()); !problem.empty())
    throw std::invalid_argument(problem);
  const auto start = std::chrono::steady_clock::now();
  const march::vr_params p = marchParams(view, grid, kHalfLength);
  if (view.velocityContext && !(contextGrid_ == grid)) buildContext(grid, vel, run);
  const int bricksPerSlab = p.nb1 * p.nb2;
  bricks_.resize(std::size_t(bricksPerSlab) * std::size_t(p.nb3));
  run(p.nb3, [&](int begin, int end) {
    for (int b3 = begin; b3 < end; ++b3)
      for (int b2 = 0; b2 < p.nb2; ++b2)
        for (int b1 = 0; b1 < p.nb1; ++b1)
          bricks_[std::size_t(b3) * bricksPerSlab + std::size_t(b2) * p.nb1 + b1] = march::vr_brick_summary(&p, u, b1, b2, b3);
  });
  const std::uint8_t* context = view.velocityContext ? context_.data() : nullptr;
  const std::uint8_t* brickContext = view.velocityContext ? brickContext_.data() : nullptr;
  run(p.height, [&](int begin, int end) {
    for (int py = begin; py < end; ++py) {
      std::uint32_t* row = rgba.data() + std::size_t(py) * std::size_t(p.width);
      for (int px = 0; px < p.width; ++px)
        row[px] = march::vr_render_pixel(&p, u, bricks_.data(), context, brickContext, view.colormap.data(), px, py);
    }
  });
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void HostVolumeRenderer::buildContext(const Grid& grid, const float* vel, const RunRanges& run) {
  const march::vr_params p = marchParams(VolumeView{}, grid, kHalfLength);  // sizes and halo are all it uses
  context_.resize(grid.interiorSize());
  run(grid.n3, [&](int begin, int end) {
    for (int k = begin; k < end; ++k)
      for (int j = 0; j < grid.n2; ++j)
        for (int i = 0; i < grid.n1; ++i)
          context_[std::size_t(march::vr_cell_index(&p, i, j, k))] = std::uint8_t(march::vr_context_cell(&p, vel, i, j, k));
  });
  brickContext_.resize(std::size_t(p.nb1) * p.nb2 * p.nb3);
  run(p.nb3, [&](int begin, int end) {
    for (int b3 = begin; b3 < end; ++b3)
      for (int b2 = 0; b2 < p.nb2; ++b2)
        for (int b1 = 0; b1 < p.nb1; ++b1)
          brickContext_[(std::size_t(b3) * p.nb2 + b2) * p.nb1 + b1] =
              std::uint8_t(march::vr_brick_context(&p, context_.data(), b1, b2, b3));
  });
  contextGrid_ = grid;
}

}  // namespace iso
