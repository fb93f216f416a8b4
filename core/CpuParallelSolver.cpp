#include "CpuParallelSolver.h"

#include <algorithm>
#include <stdexcept>
#include <thread>
#include <utility>

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

template <int W>
struct VecOf {
  typedef float type __attribute__((vector_size(W * sizeof(float))));
};

template <int W>
ISO_INLINE typename VecOf<W>::type loadVec(const float* p) {
  typename VecOf<W>::type v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

// Lanes [lo, hi) from p, the others zero. The first and last vector of a tile row must neither read
// nor write cells outside the row's [x0, x1): another thread may be updating them.
template <int W>
ISO_INLINE typename VecOf<W>::type loadLanes(const float* p, int lo, int hi) {
  float lanes[W] = {};
  __builtin_memcpy(lanes + lo, p + lo, std::size_t(hi - lo) * sizeof(float));
  return loadVec<W>(lanes);
}

// One vector of W cells of a row; only lanes [lo, hi) are updated (all of them when Full).
// Same association as cpu-serial; the AVX kernels let the compiler fuse a*b+c into FMA.
// Row pointers arrive as restrict locals: through a struct, every store would force the compiler to
// reload them (a vector store may alias anything a pointer in memory points at).
template <int W, bool Damped, bool Full>
ISO_INLINE void updateVector(const float* __restrict p, const float* __restrict vel, float* __restrict out,
                             const float* __restrict gx, std::ptrdiff_t sy, std::ptrdiff_t sz, int lo, int hi,
                             float gy, float gz, const typename VecOf<W>::type (&c)[kHalfLength + 1]) {
  using V = typename VecOf<W>::type;
  // prev is read-only during a step, so whole vectors of it may be read even for partial updates.
  const V centre = loadVec<W>(p);
  V value = centre * c[0];
#pragma GCC unroll 8
  for (int r = 1; r <= kHalfLength; ++r)
    value += c[r] * ((loadVec<W>(p + r) + loadVec<W>(p - r)) + (loadVec<W>(p + r * sy) + loadVec<W>(p - r * sy)) +
                     (loadVec<W>(p + r * sz) + loadVec<W>(p - r * sz)));
  const V v = Full ? loadVec<W>(vel) : loadLanes<W>(vel, lo, hi);
  const V old = Full ? loadVec<W>(out) : loadLanes<W>(out, lo, hi);
  V result;
  if constexpr (Damped) {
    const V g = ((Full ? loadVec<W>(gx) : loadLanes<W>(gx, lo, hi)) * gy) * gz;
    result = g * (2.0f * centre - g * old + v * value);
  } else {
    result = 2.0f * centre - old + value * v;
  }
  if constexpr (Full) {
    __builtin_memcpy(out, &result, sizeof result);
  } else {
    float lanes[W];
    __builtin_memcpy(lanes, &result, sizeof result);
    __builtin_memcpy(out + lo, lanes + lo, std::size_t(hi - lo) * sizeof(float));
  }
}

template <int W, bool Damped>
ISO_INLINE void stencilTile(const StencilArgs& a, const Tile& t) {
  using V = typename VecOf<W>::type;
  V c[kHalfLength + 1];
  for (int r = 0; r <= kHalfLength; ++r) c[r] = V{} + a.c[r];
  const float* __restrict prev = a.prev;
  const float* __restrict vel = a.vel;
  float* __restrict next = a.next;
  const float* __restrict gx = a.gx;
  const std::ptrdiff_t sy = a.sy, sz = a.sz;
  const int x0 = t.x0, x1 = t.x1;
  for (int z = t.z0; z < t.z1; ++z) {
    for (int y = t.y0; y < t.y1; ++y) {
      const std::ptrdiff_t row = z * sz + y * sy;
      const float gy = Damped ? a.gy[y] : 1.0f, gz = Damped ? a.gz[z] : 1.0f;
      // Vectors start on multiples of W floats in memory (the arrays are 64-byte aligned), so that
      // most loads do not straddle two cache lines; the first and last may be partial.
      int x = x0 - int(std::size_t(row + x0) % W);
      auto partial = [&](int xs) {
        updateVector<W, Damped, false>(prev + row + xs, vel + row + xs, next + row + xs,
                                       Damped ? gx + xs : nullptr, sy, sz, std::max(x0 - xs, 0),
                                       std::min(x1 - xs, W), gy, gz, c);
      };
      if (x < x0) {
        partial(x);
        x += W;
      }
      for (; x + W <= x1; x += W)
        updateVector<W, Damped, true>(prev + row + x, vel + row + x, next + row + x, Damped ? gx + x : nullptr, sy,
                                      sz, 0, W, gy, gz, c);
      if (x < x1) partial(x);
    }
  }
}

template <bool Damped>
void tilePortable(const StencilArgs& a, const Tile& t) {
  stencilTile<4, Damped>(a, t);
}

#if defined(__x86_64__) || defined(__i386__)
#define ISO_HAVE_X86_KERNELS 1
template <bool Damped>
__attribute__((target("avx2,fma"), optimize("fp-contract=fast"))) void tileAvx2(const StencilArgs& a,
                                                                                  const Tile& t) {
  stencilTile<8, Damped>(a, t);
}
template <bool Damped>
__attribute__((target("avx512f"), optimize("fp-contract=fast"))) void tileAvx512(const StencilArgs& a,
                                                                                  const Tile& t) {
  stencilTile<16, Damped>(a, t);
}
#endif

CpuParallelSolver::TileKernel selectKernel(int simdWidth, bool damped) {
#ifdef ISO_HAVE_X86_KERNELS
  if (simdWidth == 16) return damped ? &tileAvx512<true> : &tileAvx512<false>;
  if (simdWidth == 8) return damped ? &tileAvx2<true> : &tileAvx2<false>;
#endif
  return damped ? &tilePortable<true> : &tilePortable<false>;
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
  static const char* const known[] = {"threads", "block_x", "block_y", "block_z", "simd_width"};
  for (const auto& [name, value] : params) {
    if (std::find(std::begin(known), std::end(known), name) == std::end(known)) {
      std::string list;
      for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      throw std::invalid_argument("cpu-parallel: unknown parameter '" + name + "' (known: " + list + ")");
    }
  }
  CpuParallelConfig cfg;
  const int hardwareThreads = std::max(1u, std::thread::hardware_concurrency());
  cfg.threads = readParam(params, "threads", hardwareThreads, 1);
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
  return "host CPU (" + std::to_string(config_.threads) + " threads, " + isa + ")";
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
