#pragma once
// cpu-parallel: the fastest native code here. A persistent thread pool takes tiles of the interior
// (blocked in x and y, streaming along z so the planes a tile reads stay in L2) from a shared counter;
// each tile runs a SIMD kernel, chosen at run time: AVX-512 (vector columns of 4 planes), AVX2+FMA or a
// portable 4-wide fallback (SSE2 on x86-64; both over segments of a row, several vectors summed
// together, neighbour distance outermost), so the binary runs on any x86-64. Kernels:
// CpuStencilKernel.inc; measurements: docs/PERFORMANCE.md, and the kernels tried: docs/PERFORMANCE_LOG.md.
//
// Stage parameters (threads, block_x/y/z, simd_width), all optional: cpuParallelParameterSpecs() gives
// their defaults, ranges and meanings.
#include <atomic>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/CpuSolverBase.h"
#include "core/StageRegistry.h"
#include "core/ThreadPool.h"

namespace iso {

// The parameters resolved against a grid (blocks in cells, never 0): parseCpuParallelConfig fills every
// field from the specs' defaults and the given values.
struct CpuParallelConfig {
  int threads = 0;
  int blockX = 0, blockY = 0, blockZ = 0;
  int simdWidth = 0;
};

// The parameters cpu-parallel accepts, with this machine's defaults (what the stage's entry in
// CpuSolvers.cpp hands out).
std::vector<StageParamSpec> cpuParallelParameterSpecs();

// Reads and validates the stage parameters; throws std::invalid_argument naming the bad parameter,
// its value and the accepted range (unknown names are errors too, listing the known ones).
CpuParallelConfig parseCpuParallelConfig(const StageParamMap& params, const Grid& grid);

// The widest SIMD width of the kernels that this CPU can run: 16, 8 or 4.
int widestSupportedSimdWidth();

class CpuParallelSolver final : public CpuSolverBase {
 public:
  CpuParallelSolver(Problem problem, const StageParamMap& params);
  std::string stage() const override { return "cpu-parallel"; }
  std::string deviceName() const override;
  StageParamMap parameters() const override;  // the resolved configuration, blocks in cells
  const CpuParallelConfig& config() const { return config_; }

  // A box of padded cells [x0, x1) × [y0, y1) × [z0, z1), all inside the interior.
  struct Tile {
    int x0, x1, y0, y1, z0, z1;
  };
  struct StencilArgs;  // the arrays and constants of one step (CpuParallelSolver.cpp)
  using TileKernel = void (*)(const StencilArgs& args, const Tile& tile);
  // A tile's rows that the absorbing layer's y or z terms reach, with all the layer's terms there
  // (CpuStencilKernel.inc).
  using FrameKernel = void (*)(const StencilArgs& args, const Tile& tile, PmlMemory& layer);

 protected:
  void computeStencil(int z0, int z1) override;
  void runRanges(int count, const std::function<void(int, int)>& body) override;
  // correctX() advances ψ of x row by row when tiles hold whole rows; the tiles advance y's and z's when
  // they step the whole grid at once and each reads only its own (tilesAdvanceAcrossPsi).
  PsiPass psiPass(PlaneRange first) override {
    return {config_.blockX < problem_.grid.n1, !tilesAdvanceAcrossPsi(first.begin + kHalfLength, first.end + kHalfLength)};
  }

 private:
  // Whether the tiles of padded planes [z0, z1) advance ψ of y and z themselves, each its own slots just
  // before its rows read them (PmlMemory::readsOwnAcrossPsi), rather than a pass over the layer before
  // them: when [z0, z1) is the whole grid (its only range this step) and every tile reads only its own.
  bool tilesAdvanceAcrossPsi(int z0, int z1);
  // One tile; with the layer, a few planes at a time, ψ of y and z advanced first when `advanceAcross`.
  void computeTile(const StencilArgs& args, const Tile& tile, bool advanceAcross);
  // The tiles of padded planes [z0, z1): blocks of the configured sizes from z0 (kept per range: a slab
  // steps through the same two or three ranges every step).
  const std::vector<Tile>& tilesOf(int z0, int z1);

  CpuParallelConfig config_;
  std::map<std::pair<int, int>, std::vector<Tile>> tiles_;
  std::optional<bool> acrossPsiInTiles_;  // tilesAdvanceAcrossPsi on the whole grid, once known
  TileKernel kernel_ = nullptr;
  FrameKernel frame_ = nullptr;  // with the absorbing layer
  std::atomic<std::size_t> nextTile_{0};
  ThreadPool pool_;
};

}  // namespace iso
