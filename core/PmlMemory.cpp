#include "core/PmlMemory.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "core/Allocation.h"

namespace iso {

namespace {

constexpr int M = kPmlHalfLength;

// The row loops in wide vectors where the CPU has them. No FMA contraction here (ISO C++ mode), so every
// clone computes the same bits as the portable one. Not under the sanitizers: the clones' ifunc resolvers
// run while the program is being loaded, before ThreadSanitizer's runtime, which then crashes.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__) && \
    !defined(__SANITIZE_ADDRESS__)
#define ISO_PML_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define ISO_PML_CLONES
#endif

std::ptrdiff_t axisStride(const Grid& g, int axis) {
  return axis == 0 ? 1 : axis == 1 ? std::ptrdiff_t(g.nx()) : std::ptrdiff_t(g.planeSize());
}

std::size_t volume(const std::array<int, 3>& d) { return std::size_t(d[0]) * std::size_t(d[1]) * std::size_t(d[2]); }

}  // namespace

PmlMemory::PmlMemory(const Grid& grid, PmlProfile profile) : grid_(grid), profile_(std::move(profile)) {
  const int sizes[3] = {grid.n1, grid.n2, grid.n3};
  for (int a = 0; a < 3; ++a) {
    if (profile_.axes[a].n != sizes[a])
      throw std::invalid_argument("absorbing layer: axis " + std::to_string(a) + " has " +
                                  std::to_string(profile_.axes[a].n) + " cells, the grid " + std::to_string(sizes[a]));
    const std::size_t n = volume(profile_.memoryDims(a));
    psi_[a] = allocateArray(n, "the absorbing layer's memory variables");
    zeta_[a] = allocateArray(n, "the absorbing layer's memory variables");
  }
  zeroRow_.assign(std::size_t(grid.n1), 0.0f);
}

void PmlMemory::apply(const float* prev, const float* vel, float* next, const Weights& coeffs, const RangeRunner& run) {
  const PmlAxis &x = profile_.axes[0], &y = profile_.axes[1], &z = profile_.axes[2];
  const int planes = grid_.n3;
  // Two passes, so that the threads wait for each other twice per step. First everything that reads
  // only u^n: x's lines (ψ and correction along a line need only that line) and y's ψ, one z plane per
  // unit, and z's ψ, one slot per unit.
  run(planes + z.memorySlots(), [&](int begin, int end) {
    for (int u = begin; u < end; ++u) {
      if (u >= planes) {
        psiRows(2, prev, u - planes, u - planes + 1);
        continue;
      }
      if (x.width > 0) linesAlongX(prev, vel, next, coeffs, u, u + 1);
      if (y.width > 0) psiRows(1, prev, u, u + 1);
    }
  });
  // Then the corrections of y and z, which read ψ up to kPmlHalfLength slots away, plane by plane: a
  // cell gets the terms of x, y and z in that order however the planes are shared out.
  if (y.width == 0 && z.width == 0) return;
  run(planes, [&](int begin, int end) {
    for (int k = begin; k < end; ++k) {
      if (y.width > 0) correctRows(1, prev, vel, next, coeffs, k, k + 1);
      if (const int r = z.width > 0 ? z.reachIndex(k) : -1; r >= 0) correctRows(2, prev, vel, next, coeffs, r, r + 1);
    }
  });
}

// The loops below run over contiguous x (rows, or segments of a line along x) one term at a time, so that
// each is a plain stream the compiler vectorizes; every value still sums its terms in the order of
// resources/kernels/pml.cl (q, then d, ascending).

ISO_PML_CLONES void PmlMemory::linesAlongX(const float* prev, const float* vel, float* next, const Weights& coeffs,
                                           int k0, int k1) {
  const PmlAxis& ax = profile_.axes[0];
  const int n = ax.n, W = ax.width, slots = ax.memorySlots();
  const auto& w = profile_.firstDerivative;
  const float centre = coeffs[0] / 3.0f;  // coeffs[0] carries the centre weight of all three axes
  // ψ's two runs of half points: slots [t0, t0 + W) are the half points [m0, m0 + W).
  const int psiRuns[2][2] = {{0, 0}, {W, n - 1 - W}};
  // The correction's cells in runs: [begin, end), and whether they are ζ cells (slot = cell − begin + t0).
  struct Run {
    int begin, end, zetaSlot0;  // zetaSlot0 < 0: no ζ there
  };
  std::vector<Run> runs{{0, W, 0}};
  if (ax.reachesAcross()) {
    runs.push_back({W, n - W, -1});
  } else {
    runs.push_back({W, W + M, -1});
    runs.push_back({n - W - M, n - W, -1});
  }
  runs.push_back({n - W, n, W});
  // ψ of the line by half point: h[m] for m in [−1 − M, n − 1 + M], 0 outside the layer.
  std::vector<float> half(static_cast<std::size_t>(n + 1 + 2 * M), 0.0f);
  float* h = half.data() + 1 + M;
  for (int k = k0; k < k1; ++k)
    for (int j = 0; j < grid_.n2; ++j) {
      const std::size_t row = grid_.interiorIndex(0, j, k);
      const float* p = prev + row;
      const std::size_t line = (std::size_t(k) * grid_.n2 + j) * std::size_t(slots);
      float* psi = psi_[0].data() + line;
      float* zeta = zeta_[0].data() + line;
      for (const auto& [t0, m0] : psiRuns) {
#pragma GCC ivdep
        for (int t = 0; t < W; ++t) {
          float derivative = 0.0f;  // at the half point m0 + t + 1/2
          for (int q = 0; q < M; ++q) derivative += w[q] * (p[m0 + t + q + 1] - p[m0 + t - q]);
          const float value = ax.psiDecay[t0 + t] * psi[t0 + t] + ax.psiGain[t0 + t] * derivative;
          psi[t0 + t] = value;
          h[m0 + t] = value;
        }
      }
      float* out = next + row;
      const float* v = vel + row;
      for (const Run& r : runs) {
        if (r.zetaSlot0 < 0) {
#pragma GCC ivdep
          for (int i = r.begin; i < r.end; ++i) {
            float correction = 0.0f;  // ∂ψ at the cell, from the half points i + q + 1/2 and i − q − 1/2
            for (int q = 0; q < M; ++q) correction += w[q] * (h[i + q] - h[i - q - 1]);
            out[i] += v[i] * correction;
          }
          continue;
        }
        const float* decay = ax.zetaDecay.data() + r.zetaSlot0 - r.begin;
        const float* gain = ax.zetaGain.data() + r.zetaSlot0 - r.begin;
        float* z = zeta + r.zetaSlot0 - r.begin;
#pragma GCC ivdep
        for (int i = r.begin; i < r.end; ++i) {
          float correction = 0.0f;
          for (int q = 0; q < M; ++q) correction += w[q] * (h[i + q] - h[i - q - 1]);
          float second = centre * p[i];
          for (int d = 1; d <= kHalfLength; ++d) second += coeffs[d] * (p[i + d] + p[i - d]);
          const float updated = decay[i] * z[i] + gain[i] * (second + correction);
          z[i] = updated;
          out[i] += v[i] * (correction + updated);
        }
      }
    }
}

ISO_PML_CLONES void PmlMemory::psiRows(int a, const float* prev, int c2Begin, int c2End) {
  const PmlAxis& ax = profile_.axes[a];
  const auto dims = profile_.memoryDims(a);
  const std::ptrdiff_t s = axisStride(grid_, a);
  const auto& w = profile_.firstDerivative;
  const int n1 = grid_.n1;
  for (int c2 = c2Begin; c2 < c2End; ++c2)
    for (int c1 = 0; c1 < dims[1]; ++c1) {
      const int t = a == 1 ? c1 : c2;  // the slot; the other index is z (axis y) or y (axis z)
      const int m = ax.psiPoint(t);
      const float* p = prev + (a == 1 ? grid_.interiorIndex(0, m, c2) : grid_.interiorIndex(0, c1, m));
      float* psi = psi_[a].data() + (std::size_t(c2) * dims[1] + c1) * std::size_t(n1);
      const float decay = ax.psiDecay[t], gain = ax.psiGain[t];
#pragma GCC ivdep
      for (int x = 0; x < n1; ++x) {
        float derivative = 0.0f;  // at the half point m + 1/2
        for (int q = 0; q < M; ++q) derivative += w[q] * (p[x + (q + 1) * s] - p[x - q * s]);
        psi[x] = decay * psi[x] + gain * derivative;
      }
    }
}

ISO_PML_CLONES void PmlMemory::correctRows(int a, const float* prev, const float* vel, float* next,
                                           const Weights& coeffs, int c2Begin, int c2End) {
  const PmlAxis& ax = profile_.axes[a];
  const auto dims = profile_.memoryDims(a);
  const std::ptrdiff_t s = axisStride(grid_, a);
  const auto& w = profile_.firstDerivative;
  const float centre = coeffs[0] / 3.0f;
  const int n1 = grid_.n1, reach1 = a == 1 ? ax.reachCells() : grid_.n2;
  for (int c2 = c2Begin; c2 < c2End; ++c2)
    for (int c1 = 0; c1 < reach1; ++c1) {
      const int i = ax.reachCell(a == 1 ? c1 : c2);  // the cell along the axis
      const int other = a == 1 ? c2 : c1;            // z for axis y, y for axis z
      // The row of slot `slot` on this cell's line in a memory array (a row of zeros outside the layer).
      const auto rowOf = [&](std::vector<float>& memory, int slot) {
        if (slot < 0) return zeroRow_.data();
        const std::size_t outer = a == 1 ? std::size_t(other) : std::size_t(slot);
        const std::size_t inner = a == 1 ? std::size_t(slot) : std::size_t(other);
        return memory.data() + (outer * dims[1] + inner) * std::size_t(n1);
      };
      // ∂ψ at the cell reads the half points i + q + 1/2 and i − q − 1/2.
      const float* above[M];
      const float* below[M];
      for (int q = 0; q < M; ++q) above[q] = rowOf(psi_[a], ax.psiSlot(i + q)), below[q] = rowOf(psi_[a], ax.psiSlot(i - q - 1));
      const std::size_t cell = a == 1 ? grid_.interiorIndex(0, i, other) : grid_.interiorIndex(0, other, i);
      const float* p = prev + cell;
      const float* v = vel + cell;
      float* out = next + cell;
      const int slot = ax.zetaSlot(i);
      if (slot < 0) {
#pragma GCC ivdep
        for (int x = 0; x < n1; ++x) {
          float correction = 0.0f;
          for (int q = 0; q < M; ++q) correction += w[q] * (above[q][x] - below[q][x]);
          out[x] += v[x] * correction;
        }
        continue;
      }
      float* zeta = rowOf(zeta_[a], slot);
      const float decay = ax.zetaDecay[slot], gain = ax.zetaGain[slot];
#pragma GCC ivdep
      for (int x = 0; x < n1; ++x) {
        float correction = 0.0f;
        for (int q = 0; q < M; ++q) correction += w[q] * (above[q][x] - below[q][x]);
        float second = centre * p[x];
        for (int d = 1; d <= kHalfLength; ++d) second += coeffs[d] * (p[x + d * s] + p[x - d * s]);
        const float z = decay * zeta[x] + gain * (second + correction);
        zeta[x] = z;
        out[x] += v[x] * (correction + z);
      }
    }
}

std::vector<float> PmlMemory::save() const {
  std::vector<float> out;
  out.reserve(profile_.memoryFloats());
  for (int a = 0; a < 3; ++a) {
    out.insert(out.end(), psi_[a].begin(), psi_[a].end());
    out.insert(out.end(), zeta_[a].begin(), zeta_[a].end());
  }
  return out;
}

void PmlMemory::restore(std::span<const float> memory) {
  if (memory.size() != profile_.memoryFloats())
    throw std::invalid_argument("the saved absorbing-layer memory has " + std::to_string(memory.size()) +
                                " values; this grid's layer needs " + std::to_string(profile_.memoryFloats()));
  auto from = memory.begin();
  for (int a = 0; a < 3; ++a)
    for (std::vector<float>* v : {&psi_[a], &zeta_[a]}) {
      std::copy(from, from + std::ptrdiff_t(v->size()), v->begin());
      from += std::ptrdiff_t(v->size());
    }
}

}  // namespace iso
