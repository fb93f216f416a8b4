#include "CpuParallelSolver.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "CpuSolvers.h"

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
#include "CpuStencilKernel.inc"
#undef ISO_KERNEL_WIDTH
#undef ISO_KERNEL_ZBLOCK
#undef ISO_KERNEL_SEGMENT
}  // namespace portable

#if defined(__x86_64__) || defined(__i386__)
#define ISO_HAVE_X86_KERNELS 1
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#pragma GCC optimize("fp-contract=fast")
namespace avx2 {
#define ISO_KERNEL_WIDTH 8
#define ISO_KERNEL_ZBLOCK 1
#define ISO_KERNEL_SEGMENT 8
#include "CpuStencilKernel.inc"
#undef ISO_KERNEL_WIDTH
#undef ISO_KERNEL_ZBLOCK
#undef ISO_KERNEL_SEGMENT
}  // namespace avx2
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f")
#pragma GCC optimize("fp-contract=fast")
namespace avx512 {
#define ISO_KERNEL_WIDTH 16
#define ISO_KERNEL_ZBLOCK 4
#define ISO_KERNEL_SEGMENT 4
#include "CpuStencilKernel.inc"
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

int readParam(const std::map<std::string, int>& params, const std::string& name, int fallback, int minimum) {
  const auto it = params.find(name);
  if (it == params.end()) return fallback;
  if (it->second < minimum)
    throw std::invalid_argument("cpu-parallel: parameter " + name + " = " + std::to_string(it->second) +
                                " is out of range (must be >= " + std::to_string(minimum) + ")");
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

CpuParallelConfig parseCpuParallelConfig(const std::map<std::string, int>& params, const Grid& grid) {
  const std::vector<std::string> known = cpuStageParamNames("cpu-parallel");
  for (const auto& [name, value] : params) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw std::invalid_argument("cpu-parallel: unknown parameter '" + name + "' (known: " + list + ")");
    }
  }
  CpuParallelConfig cfg;
  cfg.threads = readParam(params, "threads", ThreadPool::hardwareThreads(), 1);
  constexpr int kMaxThreads = 1024;
  if (cfg.threads > kMaxThreads)
    throw std::invalid_argument("cpu-parallel: parameter threads = " + std::to_string(cfg.threads) +
                                " is out of range (at most " + std::to_string(kMaxThreads) + ")");
  cfg.blockX = std::min(readParam(params, "block_x", grid.n1, 1), grid.n1);
  cfg.blockY = std::min(readParam(params, "block_y", 16, 1), grid.n2);
  const int blockZ = readParam(params, "block_z", 0, 0);
  cfg.blockZ = blockZ == 0 ? grid.n3 : std::min(blockZ, grid.n3);
  const int widest = widestSupportedSimdWidth();
  cfg.simdWidth = readParam(params, "simd_width", widest, 0);
  if (cfg.simdWidth == 0) cfg.simdWidth = widest;
  if (cfg.simdWidth != 4 && cfg.simdWidth != 8 && cfg.simdWidth != 16)
    throw std::invalid_argument("cpu-parallel: parameter simd_width = " + std::to_string(cfg.simdWidth) +
                                " is not supported (use 0 for automatic, 4, 8 or 16)");
  if (cfg.simdWidth > widest)
    throw std::invalid_argument("cpu-parallel: parameter simd_width = " + std::to_string(cfg.simdWidth) +
                                " needs an instruction set this CPU lacks (widest here: " +
                                std::to_string(widest) + ")");
  return cfg;
}

CpuParallelSolver::CpuParallelSolver(Problem problem)
    : CpuSolverBase(std::move(problem)),
      config_(parseCpuParallelConfig(problem_.stageParams, problem_.grid)),
      pool_(config_.threads) {
  const Grid& g = problem_.grid;
  const int lo = kHalfLength;
  // z chunks outermost and x fastest, so that consecutive tiles share the y-halo rows in cache.
  for (int z0 = 0; z0 < g.n3; z0 += config_.blockZ)
    for (int y0 = 0; y0 < g.n2; y0 += config_.blockY)
      for (int x0 = 0; x0 < g.n1; x0 += config_.blockX)
        tiles_.push_back({lo + x0, lo + std::min(x0 + config_.blockX, g.n1), lo + y0,
                          lo + std::min(y0 + config_.blockY, g.n2), lo + z0, lo + std::min(z0 + config_.blockZ, g.n3)});
  kernel_ = selectKernel(config_.simdWidth, problem_.damping.enabled());
}

std::string CpuParallelSolver::deviceName() const {
  const char* isa = config_.simdWidth == 16 ? "AVX-512" : config_.simdWidth == 8 ? "AVX2+FMA" : "4-wide portable SIMD";
  return "host CPU (" + std::to_string(config_.threads) + (config_.threads == 1 ? " thread, " : " threads, ") + isa +
         ")";
}

void CpuParallelSolver::computeStencil() {
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
    for (std::size_t t = nextTile_.fetch_add(1, std::memory_order_relaxed); t < tiles_.size();
         t = nextTile_.fetch_add(1, std::memory_order_relaxed))
      kernel_(args, tiles_[t]);
  });
}

}  // namespace iso
