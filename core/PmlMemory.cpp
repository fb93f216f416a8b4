#include "core/PmlMemory.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "core/Allocation.h"

namespace iso {

namespace {

constexpr int M = kPmlHalfLength;

// The row loops in wide vectors where the CPU has them. No FMA contraction here (-ffp-contract=off for
// the whole library), so every clone computes the same bits as the portable one. Not under the
// sanitizers: the clones' ifunc resolvers run while the program is being loaded, before
// ThreadSanitizer's runtime, which then crashes.
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
    const int held = a == 2 ? profile_.zCells : profile_.axes[a].n;
    if (held != sizes[a])
      throw std::invalid_argument("absorbing layer: axis " + std::to_string(a) + " has " + std::to_string(held) +
                                  " cells, the grid " + std::to_string(sizes[a]));
    std::size_t psiFloats = volume(profile_.memoryDims(a)), zetaFloats = psiFloats;
    if (a == 0) {
      xChunks_ = planLineChunks(profile_.axes[0]);
      const std::size_t lines = std::size_t(grid.n2) * std::size_t(grid.n3);
      psiFloats = lines * std::size_t(2 * xChunks_.psiRunLanes);
      zetaFloats = lines * std::size_t(xChunks_.lanes);
    }
    psi_[a] = allocateArray(psiFloats, "the absorbing layer's memory variables");
    zeta_[a] = allocateArray(zetaFloats, "the absorbing layer's memory variables");
  }
  zeroRow_.assign(std::size_t(grid.n1), 0.0f);
}

PmlMemory::LineChunks PmlMemory::planLineChunks(const PmlAxis& ax) {
  LineChunks plan;
  if (ax.width == 0) return plan;
  const int n = ax.n, W = ax.width;
  const auto roundUp = [](int count) { return (count + kLanes - 1) / kLanes * kLanes; };
  if (ax.reachesAcross())
    plan.spans.push_back({0, n, 0});
  else
    plan.spans = {{0, W + M, 0}, {n - W - M, W + M, 0}};
  for (LineChunks::Span& span : plan.spans) {
    span.lane0 = plan.lanes;
    plan.lanes += roundUp(span.count);
  }
  plan.zetaSlot.assign(std::size_t(plan.lanes), -1);
  plan.zetaDecay.assign(std::size_t(plan.lanes), 0.0f);
  plan.zetaGain.assign(std::size_t(plan.lanes), 0.0f);
  for (const LineChunks::Span& span : plan.spans)
    for (int l = 0; l < span.count; ++l) {
      const int slot = ax.zetaSlot(span.begin + l);
      if (slot < 0) continue;
      const std::size_t lane = std::size_t(span.lane0 + l);
      plan.zetaSlot[lane] = slot;
      plan.zetaDecay[lane] = ax.zetaDecay[std::size_t(slot)];
      plan.zetaGain[lane] = ax.zetaGain[std::size_t(slot)];
    }
  plan.psiRunLanes = roundUp(W);
  plan.psiDecay.assign(std::size_t(2 * plan.psiRunLanes), 0.0f);
  plan.psiGain.assign(std::size_t(2 * plan.psiRunLanes), 0.0f);
  for (int run = 0; run < 2; ++run)
    for (int t = 0; t < W; ++t) {
      plan.psiDecay[std::size_t(run * plan.psiRunLanes + t)] = ax.psiDecay[std::size_t(run * W + t)];
      plan.psiGain[std::size_t(run * plan.psiRunLanes + t)] = ax.psiGain[std::size_t(run * W + t)];
    }
  return plan;
}

void PmlMemory::applyToPlanes(const float* prev, const float* vel, float* next, const Weights& coeffs,
                              const RangeRunner& run, int k0, int k1, bool advanceZMemory) {
  const PmlAxis &x = profile_.axes[0], &y = profile_.axes[1], &z = profile_.axes[2];
  const int planes = k1 - k0;
  const auto [slot0, slot1] = advanceZMemory ? profile_.zPsiSlots() : std::pair{0, 0};
  // Two passes, so that the threads wait for each other twice per step. First everything that reads
  // only u^n: x's lines (ψ and correction along a line need only that line) and y's ψ, one z plane per
  // unit, and z's ψ, one slot per unit.
  run(planes + slot1 - slot0, [&](int begin, int end) {
    for (int u = begin; u < end; ++u) {
      if (u >= planes) {
        const int slot = slot0 + u - planes;
        psiRows(2, prev, slot, slot + 1);
        continue;
      }
      if (x.width > 0) linesAlongX(prev, vel, next, coeffs, k0 + u, k0 + u + 1);
      if (y.width > 0) psiRows(1, prev, k0 + u, k0 + u + 1);
    }
  });
  // Then the corrections of y and z, which read ψ up to kPmlHalfLength slots away, plane by plane: a
  // cell gets the terms of x, y and z in that order however the planes are shared out.
  if (y.width == 0 && z.width == 0) return;
  run(planes, [&](int begin, int end) {
    for (int k = k0 + begin; k < k0 + end; ++k) {
      if (y.width > 0) correctRows(1, prev, vel, next, coeffs, k, k + 1);
      if (const int r = z.width > 0 ? z.reachIndex(profile_.zFirst + k) : -1; r >= 0)
        correctRows(2, prev, vel, next, coeffs, r, r + 1);
    }
  });
}

// The loops below run over contiguous x (rows, or segments of a line along x) one term at a time, so that
// each is a plain stream the compiler vectorizes; every value still sums its terms in the order of
// resources/kernels/pml.cl (q, then d, ascending).

// Each chunk of kLanes cells is one vector: its lanes past a run's end compute with b = a = 0 (their
// memory stays 0) and read cells beyond the run, which lie inside the padded arrays (every row is followed
// by halo cells, and the rows of the y halo follow the last one). The correction adds 0 to the cells of
// those lanes: cells of the same line, its right halo or, past that, the left halo of the next row of
// u^(n+1), which no other thread writes or reads during this pass.
ISO_PML_CLONES void PmlMemory::linesAlongX(const float* prev, const float* vel, float* next, const Weights& coeffs,
                                           int k0, int k1) {
  constexpr int L = kLanes;
  static_assert(L - 1 <= 2 * kHalfLength, "a chunk's spare lanes reach at most into the next row's halo");
  const PmlAxis& ax = profile_.axes[0];
  const int n = ax.n, n2 = grid_.n2;
  const auto& w = profile_.firstDerivative;
  const float centre = coeffs[0] / 3.0f;  // coeffs[0] carries the centre weight of all three axes
  const LineChunks& plan = xChunks_;
  const int runLanes = plan.psiRunLanes;
  // ψ of a line by half point: h[m] for m in [−1 − M, n − 1 + runLanes + M], 0 outside the layer. Two of
  // them: ψ of line j is computed while line j − 1 is corrected, so that the correction's loads, offset
  // from the stores that wrote h, do not wait for those stores (a store-forwarding stall per vector).
  const std::size_t halfFloats = std::size_t(n + 1 + 2 * M + runLanes + L);
  std::vector<float> halves(2 * halfFloats, 0.0f);
  const auto shadowOf = [&](int j) { return halves.data() + std::size_t(j & 1) * halfFloats + 1 + M; };
  for (int k = k0; k < k1; ++k)
    for (int j = 0; j <= n2; ++j) {
      if (j < n2) {  // ψ of line j
        const std::size_t line = std::size_t(k) * std::size_t(n2) + std::size_t(j);
        const float* p = prev + grid_.interiorIndex(0, j, k);
        float* psi = psi_[0].data() + line * std::size_t(2 * runLanes);
        float* h = shadowOf(j);
        for (int run = 0; run < 2; ++run) {
          const int m0 = ax.psiPoint(run * ax.width);  // half points [m0, m0 + W) in this run's lanes
          for (int c = 0; c < runLanes; c += L) {
            const float* pc = p + m0 + c;
            const int lane0 = run * runLanes + c;
            const float* decay = plan.psiDecay.data() + lane0;
            const float* gain = plan.psiGain.data() + lane0;
            float* state = psi + lane0;
            float* shadow = h + m0 + c;
#pragma GCC ivdep
            for (int l = 0; l < L; ++l) {
              float derivative = 0.0f;  // at the half point m0 + c + l + 1/2
              for (int q = 0; q < M; ++q) derivative += w[q] * (pc[l + q + 1] - pc[l - q]);
              const float value = decay[l] * state[l] + gain[l] * derivative;
              state[l] = value;
              shadow[l] = value;
            }
          }
        }
      }
      if (j == 0) continue;
      // The correction of line j − 1 over the cells it reaches, ζ in the layer.
      const int jc = j - 1;
      const std::size_t line = std::size_t(k) * std::size_t(n2) + std::size_t(jc);
      const std::size_t row = grid_.interiorIndex(0, jc, k);
      const float* p = prev + row;
      const float* v = vel + row;
      float* out = next + row;
      float* zeta = zeta_[0].data() + line * std::size_t(plan.lanes);
      const float* h = shadowOf(jc);
      for (const LineChunks::Span& span : plan.spans)
        for (int c = 0; c < span.count; c += L) {
          const int i0 = span.begin + c, count = span.count - c, lane0 = span.lane0 + c;
          const float* decay = plan.zetaDecay.data() + lane0;
          const float* gain = plan.zetaGain.data() + lane0;
          float* state = zeta + lane0;
          const float* pc = p + i0;
          const float* hc = h + i0;
          const float* vc = v + i0;
          float* o = out + i0;
#pragma GCC ivdep
          for (int l = 0; l < L; ++l) {
            float correction = 0.0f;  // ∂ψ at the cell, from the half points i + q + 1/2 and i − q − 1/2
            for (int q = 0; q < M; ++q) correction += w[q] * (hc[l + q] - hc[l - q - 1]);
            float second = centre * pc[l];
            for (int d = 1; d <= kHalfLength; ++d) second += coeffs[d] * (pc[l + d] + pc[l - d]);
            const float updated = decay[l] * state[l] + gain[l] * (second + correction);  // 0 without a slot
            state[l] = updated;
            o[l] += l < count ? vc[l] * (correction + updated) : 0.0f;
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
      const int m = ax.psiPoint(t);      // of the whole axis: z's plane is m − zFirst here
      const float* p = prev + (a == 1 ? grid_.interiorIndex(0, m, c2) : grid_.interiorIndex(0, c1, m - profile_.zFirst));
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
      const std::size_t cell =
          a == 1 ? grid_.interiorIndex(0, i, other) : grid_.interiorIndex(0, other, i - profile_.zFirst);
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

// x's padded memory against the layout of PmlProfile::memoryDims: calls place(isPsi, lane, slot) for every
// ψ value, then every ζ value, `lane` its index in psi_[0] or zeta_[0], `slot` its index in that variable's
// memoryDims array (2·W slots per line).
template <class Place>
void PmlMemory::forEachXSlot(Place place) const {
  const int W = profile_.axes[0].width, slots = 2 * W;
  const std::size_t lines = std::size_t(grid_.n2) * std::size_t(grid_.n3);
  const LineChunks& plan = xChunks_;
  for (std::size_t line = 0; line < lines; ++line)
    for (int run = 0; run < 2; ++run)
      for (int t = 0; t < W; ++t)
        place(true, line * std::size_t(2 * plan.psiRunLanes) + std::size_t(run * plan.psiRunLanes + t),
              line * std::size_t(slots) + std::size_t(run * W + t));
  for (std::size_t line = 0; line < lines; ++line)
    for (int lane = 0; lane < plan.lanes; ++lane)
      if (const int slot = plan.zetaSlot[std::size_t(lane)]; slot >= 0)
        place(false, line * std::size_t(plan.lanes) + std::size_t(lane), line * std::size_t(slots) + std::size_t(slot));
}

std::vector<float> PmlMemory::save() const {
  std::vector<float> out;
  out.reserve(profile_.memoryFloats());
  for (int a = 0; a < 3; ++a) {
    if (a == 0 && profile_.axes[0].width > 0) {
      // ψ of x, then ζ of x, each in the memoryDims layout.
      const std::size_t base = out.size(), half = profile_.axisMemoryFloats(0) / 2;
      out.resize(base + 2 * half);
      forEachXSlot([&](bool psi, std::size_t lane, std::size_t slot) {
        out[base + (psi ? 0 : half) + slot] = psi ? psi_[0][lane] : zeta_[0][lane];
      });
      continue;
    }
    out.insert(out.end(), psi_[a].begin(), psi_[a].end());
    out.insert(out.end(), zeta_[a].begin(), zeta_[a].end());
  }
  return out;
}

void PmlMemory::restore(std::span<const float> memory) {
  if (memory.size() != profile_.memoryFloats())
    throw std::invalid_argument("the saved absorbing-layer memory has " + std::to_string(memory.size()) +
                                " values; this grid's layer needs " + std::to_string(profile_.memoryFloats()));
  std::size_t from = 0;
  for (int a = 0; a < 3; ++a) {
    if (a == 0 && profile_.axes[0].width > 0) {
      const std::size_t half = profile_.axisMemoryFloats(0) / 2;
      forEachXSlot([&](bool psi, std::size_t lane, std::size_t slot) {
        (psi ? psi_[0] : zeta_[0])[lane] = memory[from + (psi ? 0 : half) + slot];
      });
      from += 2 * half;
      continue;
    }
    for (std::vector<float>* v : {&psi_[a], &zeta_[a]}) {
      std::copy_n(memory.begin() + std::ptrdiff_t(from), v->size(), v->begin());
      from += v->size();
    }
  }
}

}  // namespace iso
