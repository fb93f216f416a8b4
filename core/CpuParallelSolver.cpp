#include "core/CpuParallelSolver.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "core/FlushDenormals.h"
#include "core/Format.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

// The kernels pass GCC vector types by value between always-inline helpers only, so the ABI note
// "AVX vector return without AVX enabled changes the ABI" never applies to a real call.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace iso {

struct CpuParallelSolver::StencilArgs {
  const float* prev;
  const float* vel;
  float* next;
  const float *gx, *gy, *gz;  // damping profile, null when the boundary reflects
  const float* c;             // the 9 scaled weights
  std::ptrdiff_t sy, sz;      // strides of y and z in floats
};

namespace {

using Tile = CpuParallelSolver::Tile;
using StencilArgs = CpuParallelSolver::StencilArgs;

#define ISO_INLINE inline __attribute__((always_inline))

// One copy of the kernel per instruction set, each in its own namespace (so no inline function is
// shared between code compiled for different CPUs) and compiled for its target; the AVX ones may
// contract a*b+c into FMA.
// ISO_KERNEL_ZBLOCK: planes per vector column (1: row segments only); ISO_KERNEL_SEGMENT: vectors
// per row segment. Register-poor instruction sets (16 vector registers) sum row segments; AVX-512
// keeps a column of 16 + 4 z-neighbours in its 32 registers (docs/PERFORMANCE_LOG.md).
namespace portable {
#define ISO_KERNEL_WIDTH 4
#define ISO_KERNEL_ZBLOCK 1
#define ISO_KERNEL_SEGMENT 4
#include "core/CpuStencilKernel.inc"
#undef ISO_KERNEL_WIDTH
#undef ISO_KERNEL_ZBLOCK
#undef ISO_KERNEL_SEGMENT
}  // namespace portable

// The kernels let GCC fuse products and sums into FMAs, except in sanitizer builds: the sanitizers'
// checks split an expression differently in each inlined copy of it (a column of planes, a row
// segment, a partial vector), contraction then differs between the paths a cell may take, and a grid
// cut into slabs, whose cells take other paths, would not give the whole grid's bits. (iso_core is
// built with -ffp-contract=off: core/CMakeLists.txt.)
#if defined(__x86_64__) || defined(__i386__)
#define ISO_HAVE_X86_KERNELS 1
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#ifndef ISO_SANITIZED
#pragma GCC optimize("fp-contract=fast")
#endif
namespace avx2 {
#define ISO_KERNEL_WIDTH 8
#define ISO_KERNEL_ZBLOCK 1
#define ISO_KERNEL_SEGMENT 8
#include "core/CpuStencilKernel.inc"
#undef ISO_KERNEL_WIDTH
#undef ISO_KERNEL_ZBLOCK
#undef ISO_KERNEL_SEGMENT
}  // namespace avx2
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f")
#ifndef ISO_SANITIZED
#pragma GCC optimize("fp-contract=fast")
#endif
namespace avx512 {
#define ISO_KERNEL_WIDTH 16
#define ISO_KERNEL_ZBLOCK 4
#define ISO_KERNEL_SEGMENT 4
#include "core/CpuStencilKernel.inc"
#undef ISO_KERNEL_WIDTH
#undef ISO_KERNEL_ZBLOCK
#undef ISO_KERNEL_SEGMENT
}  // namespace avx512
#pragma GCC pop_options
#endif

CpuParallelSolver::TileKernel selectKernel(int simdWidth, bool damped) {
#ifdef ISO_HAVE_X86_KERNELS
  if (simdWidth == 16) return damped ? &avx512::stencilTile<true> : &avx512::stencilTile<false>;
  if (simdWidth == 8) return damped ? &avx2::stencilTile<true> : &avx2::stencilTile<false>;
#endif
  return damped ? &portable::stencilTile<true> : &portable::stencilTile<false>;
}

CpuParallelSolver::FrameKernel selectFrameKernel(int simdWidth) {
#ifdef ISO_HAVE_X86_KERNELS
  if (simdWidth == 16) return &avx512::frameTile;
  if (simdWidth == 8) return &avx2::frameTile;
#endif
  return &portable::frameTile;
}

// Tile t's cells in interior coordinates (the absorbing layer's).
PmlMemory::Box interiorCells(const CpuParallelSolver::Tile& t) {
  constexpr int R = kHalfLength;
  return {t.x0 - R, t.x1 - R, t.y0 - R, t.y1 - R, t.z0 - R, t.z1 - R};
}

// The part of tile t inside `box` (interior coordinates), in padded coordinates; x0 >= x1 when empty.
CpuParallelSolver::Tile clipTile(const CpuParallelSolver::Tile& t, const PmlMemory::Box& box) {
  constexpr int R = kHalfLength;
  CpuParallelSolver::Tile c{std::max(t.x0, box.i0 + R), std::min(t.x1, box.i1 + R), std::max(t.y0, box.j0 + R),
                            std::min(t.y1, box.j1 + R), std::max(t.z0, box.k0 + R),  std::min(t.z1, box.k1 + R)};
  if (c.y0 >= c.y1 || c.z0 >= c.z1) c.x1 = std::min(c.x1, c.x0);
  return c;
}

constexpr int kMaxCpuThreads = 1024;  // far beyond any machine here; catches typos such as 80000

// The smallest block_y or block_z that the defaults shrink to for more threads: below it a tile's
// y-halo rows and z warm-up planes outweigh its own cells.
constexpr int kMinDefaultBlock = 16;

// The value of spec's parameter (its default when absent), checked against the spec's range.
int readParam(const StageParamMap& params, const StageParamSpec& spec) {
  const auto it = params.find(spec.name);
  if (it == params.end()) return spec.defaultValue;
  if (it->second < spec.minValue || it->second > spec.maxValue)
    throw std::invalid_argument("cpu-parallel: parameter " + spec.name + " = " + std::to_string(it->second) +
                                " is out of range (must be >= " + std::to_string(spec.minValue) + " and <= " +
                                std::to_string(spec.maxValue) + ": " + spec.meaning + ")");
  return it->second;
}

}  // namespace

int widestSupportedSimdWidth() {
#ifdef ISO_HAVE_X86_KERNELS
  if (__builtin_cpu_supports("avx512f")) return 16;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 8;
#endif
  return 4;
}

std::vector<StageParamSpec> cpuParallelParameterSpecs() {
  return {
      {"threads", ThreadPool::hardwareThreads(), 1, kMaxCpuThreads, "worker threads (default: one per hardware thread)"},
      {"block_x", 0, 0, kMaxAxisCells, "tile width along x in cells; 0 = the whole row"},
      {"block_y", 64, 1, kMaxAxisCells,
       "tile height along y in cells (by default fewer when the threads would have under two tiles each, then "
       "evened out over the axis)"},
      {"block_z", 64, 0, kMaxAxisCells,
       "planes along z one tile streams through; 0 = the whole axis (by default fewer when the threads would have "
       "under two tiles each, then evened out over the axis)"},
      {"simd_width", 0, 0, 16, "floats per SIMD vector: 0 = the widest this CPU runs, or 4, 8 (AVX2), 16 (AVX-512)"},
  };
}

CpuParallelConfig parseCpuParallelConfig(const StageParamMap& params, const Grid& grid) {
  const std::vector<StageParamSpec> specs = cpuParallelParameterSpecs();
  for (const auto& [name, value] : params) {
    if (std::none_of(specs.begin(), specs.end(), [&](const StageParamSpec& s) { return s.name == name; })) {
      throw std::invalid_argument("cpu-parallel: unknown parameter '" + name + "' (known: " +
                                  commaList(specs, [](const StageParamSpec& s) { return s.name; }) + ")");
    }
  }
  std::map<std::string, int> value;
  for (const auto& spec : specs) value[spec.name] = readParam(params, spec);
  CpuParallelConfig cfg;
  cfg.threads = value["threads"];
  // 0 and blocks larger than the grid both mean the whole axis.
  const auto block = [](int b, int n) { return b == 0 ? n : std::min(b, n); };
  cfg.blockX = block(value["block_x"], grid.n1);
  cfg.blockY = block(value["block_y"], grid.n2);
  cfg.blockZ = block(value["block_z"], grid.n3);
  // Default blocks shrink until every thread has two tiles to take (tiles differ in cost at the grid's
  // ends), halving the taller of the two and neither below kMinDefaultBlock; a block given stays.
  const bool defaultY = !params.contains("block_y"), defaultZ = !params.contains("block_z");
  const auto tiles = [&] {
    const auto count = [](int n, int b) { return (n + b - 1) / b; };
    return count(grid.n1, cfg.blockX) * count(grid.n2, cfg.blockY) * count(grid.n3, cfg.blockZ);
  };
  while (tiles() < 2 * cfg.threads) {
    const bool canY = defaultY && cfg.blockY > kMinDefaultBlock, canZ = defaultZ && cfg.blockZ > kMinDefaultBlock;
    if (canZ && (cfg.blockZ >= cfg.blockY || !canY))
      cfg.blockZ = std::max(kMinDefaultBlock, (cfg.blockZ + 1) / 2);
    else if (canY)
      cfg.blockY = std::max(kMinDefaultBlock, (cfg.blockY + 1) / 2);
    else
      break;
  }
  // Then evened out: ceil(n / b) blocks of equal height, so that no tile is a small remainder (96 cells in
  // blocks of 64 and 32 left the smallest tile to one thread alone at the end of each step).
  // Not below kMinDefaultBlock: 33 cells in blocks of 16 stay so rather than become three of 11.
  const auto even = [](int n, int b) {
    const int count = (n + b - 1) / b, evened = (n + count - 1) / count;
    return evened >= kMinDefaultBlock ? evened : b;
  };
  if (defaultY) cfg.blockY = even(grid.n2, cfg.blockY);
  if (defaultZ) cfg.blockZ = even(grid.n3, cfg.blockZ);
  const int widest = widestSupportedSimdWidth();
  cfg.simdWidth = value["simd_width"] == 0 ? widest : value["simd_width"];
  if (cfg.simdWidth != 4 && cfg.simdWidth != 8 && cfg.simdWidth != 16)
    throw std::invalid_argument("cpu-parallel: parameter simd_width = " + std::to_string(cfg.simdWidth) +
                                " is not supported (use 0 for automatic, 4, 8 or 16)");
  if (cfg.simdWidth > widest)
    throw std::invalid_argument("cpu-parallel: parameter simd_width = " + std::to_string(cfg.simdWidth) +
                                " needs an instruction set this CPU lacks (widest here: " +
                                std::to_string(widest) + ")");
  return cfg;
}

CpuParallelSolver::CpuParallelSolver(Problem problem, const StageParamMap& params)
    : CpuSolverBase(std::move(problem)),
      config_(parseCpuParallelConfig(params, problem_.grid)),
      pool_(config_.threads) {
  kernel_ = selectKernel(config_.simdWidth, problem_.damping.enabled());
  if (layer()) frame_ = selectFrameKernel(config_.simdWidth);
}

const std::vector<CpuParallelSolver::Tile>& CpuParallelSolver::tilesOf(int z0, int z1) {
  std::vector<Tile>& tiles = tiles_[{z0, z1}];
  if (!tiles.empty() || z0 >= z1) return tiles;
  const Grid& g = problem_.grid;
  const int lo = kHalfLength;
  // z chunks outermost and x fastest, so that consecutive tiles share the y-halo rows in cache.
  for (int z = z0; z < z1; z += config_.blockZ)
    for (int y0 = 0; y0 < g.n2; y0 += config_.blockY)
      for (int x0 = 0; x0 < g.n1; x0 += config_.blockX)
        tiles.push_back({lo + x0, lo + std::min(x0 + config_.blockX, g.n1), lo + y0,
                         lo + std::min(y0 + config_.blockY, g.n2), z, std::min(z + config_.blockZ, z1)});
  return tiles;
}

StageParamMap CpuParallelSolver::parameters() const {
  return {{"threads", config_.threads}, {"block_x", config_.blockX}, {"block_y", config_.blockY},
          {"block_z", config_.blockZ}, {"simd_width", config_.simdWidth}};
}

std::string CpuParallelSolver::deviceName() const {
  const char* isa = config_.simdWidth == 16 ? "AVX-512" : config_.simdWidth == 8 ? "AVX2+FMA" : "4-wide portable SIMD";
  return "host CPU (" + std::to_string(config_.threads) + (config_.threads == 1 ? " thread, " : " threads, ") + isa +
         ")";
}

bool CpuParallelSolver::tilesAdvanceAcrossPsi(int z0, int z1) {
  const PmlMemory* pml = layer();
  if (!pml || z0 != kHalfLength || z1 != problem_.grid.n3 + kHalfLength) return false;
  if (!acrossPsiInTiles_) {
    const std::vector<Tile>& tiles = tilesOf(z0, z1);
    acrossPsiInTiles_ = std::all_of(tiles.begin(), tiles.end(),
                                    [&](const Tile& t) { return pml->readsOwnAcrossPsi(interiorCells(t)); });
  }
  return *acrossPsiInTiles_;
}

void CpuParallelSolver::computeStencil(int z0, int z1) {
  const bool advanceAcross = tilesAdvanceAcrossPsi(z0, z1);
  const std::vector<Tile>& tiles = tilesOf(z0, z1);
  const bool damped = problem_.damping.enabled();
  const StencilArgs args{prev_.data(),
                         vel_.data(),
                         next_.data(),
                         damped ? problem_.damping.gx.data() : nullptr,
                         damped ? problem_.damping.gy.data() : nullptr,
                         damped ? problem_.damping.gz.data() : nullptr,
                         problem_.coeffs.data(),
                         std::ptrdiff_t(problem_.grid.nx()),
                         std::ptrdiff_t(problem_.grid.planeSize())};
  nextTile_.store(0, std::memory_order_relaxed);
  pool_.run([&](int) {
    const FlushDenormals flush;  // a worker's own floating-point mode (the caller's is set in advance())
    for (std::size_t t = nextTile_.fetch_add(1, std::memory_order_relaxed); t < tiles.size();
         t = nextTile_.fetch_add(1, std::memory_order_relaxed))
      computeTile(args, tiles[t], advanceAcross);
  });
}

void CpuParallelSolver::computeTile(const StencilArgs& args, const Tile& tile, bool advanceAcross) {
  PmlMemory* pml = layer();
  const PmlMemory::Box tileCells = interiorCells(tile);
  if (!pml || !pml->reaches(tileCells)) {
    kernel_(args, tile);
    return;
  }
  // With the absorbing layer, a few planes at a time, so that the passes over the layer find the rows in
  // cache: ψ of y and z that the part's rows read first (when the tile advances its own), then the rows
  // that neither y nor z reaches (the core) through the stencil kernel, the rows that y or z reaches through
  // the frame kernel (stencil, y's and z's terms in one), then x's terms in every row.
  // (x's terms in the kernels' vectors cost more, measured both ways: docs/PERFORMANCE_LOG.md.)
  constexpr int kPlanesAtOnce = 4;
  for (int z = tile.z0; z < tile.z1; z += kPlanesAtOnce) {
    Tile part = tile;
    part.z0 = z;
    part.z1 = std::min(z + kPlanesAtOnce, tile.z1);
    const PmlMemory::Box cells = interiorCells(part);
    if (advanceAcross) pml->advanceAcrossPsi(prev_.data(), tileCells, cells);
    if (const Tile core = clipTile(part, pml->coreRows()); core.x0 < core.x1) kernel_(args, core);
    frame_(args, part, *pml);
    pml->correctX(prev_.data(), vel_.data(), next_.data(), problem_.coeffs, cells);
  }
}

void CpuParallelSolver::runRanges(int count, const std::function<void(int, int)>& body) {
  // One unit (a plane of the layer) at a time from a shared counter: the units differ in cost.
  std::atomic<int> next{0};
  pool_.run([&](int) {
    const FlushDenormals flush;
    for (int u = next.fetch_add(1, std::memory_order_relaxed); u < count; u = next.fetch_add(1, std::memory_order_relaxed))
      body(u, u + 1);
  });
}

}  // namespace iso
