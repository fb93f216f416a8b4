#include "core/VolumeRenderer.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "core/VolumeMarch.h"

namespace iso {

namespace {
constexpr int kTile = 16;  // pixels per side of a tile of rays rendered together
}  // namespace

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
  const std::array<int, 6> active = activeBricks(p);
  const std::uint8_t* context = view.velocityContext ? context_.data() : nullptr;
  const std::uint8_t* brickContext = view.velocityContext ? brickContext_.data() : nullptr;
  // Tiles of kTile² pixels, whose rays cross nearby cells: the samples of one hit the cache lines the
  // others loaded.
  const int tilesX = (p.width + kTile - 1) / kTile, tilesY = (p.height + kTile - 1) / kTile;
  run(tilesX * tilesY, [&](int begin, int end) {
    for (int tile = begin; tile < end; ++tile) {
      const int x0 = tile % tilesX * kTile, y0 = tile / tilesX * kTile;
      for (int py = y0; py < std::min(y0 + kTile, p.height); ++py)
        for (int px = x0; px < std::min(x0 + kTile, p.width); ++px)
          rgba[std::size_t(py) * std::size_t(p.width) + std::size_t(px)] = march::vr_render_pixel(
              &p, u, bricks_.data(), active.data(), context, brickContext, view.colormap.data(), px, py);
    }
  });
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::array<int, 6> HostVolumeRenderer::activeBricks(const march::vr_params& p) const {
  std::array<int, 6> box{p.nb1, p.nb2, p.nb3, -1, -1, -1};
  for (int b3 = 0, n = 0; b3 < p.nb3; ++b3)
    for (int b2 = 0; b2 < p.nb2; ++b2)
      for (int b1 = 0; b1 < p.nb1; ++b1, ++n) {
        if (!march::vr_wave_shows(&p, bricks_[std::size_t(n)])) continue;
        const int b[3] = {b1, b2, b3};
        for (int a = 0; a < 3; ++a) box[a] = std::min(box[a], b[a]), box[3 + a] = std::max(box[3 + a], b[a]);
      }
  return box;
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
