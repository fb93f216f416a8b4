#include "core/PmlMemory.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/Allocation.h"

namespace iso {

namespace {

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

// Whether [b0, b1) meets [a0, a1).
bool overlaps(int a0, int a1, int b0, int b1) { return a0 < b1 && b0 < a1; }

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
      psiFloats = lines * std::size_t(xChunks_.stateLanes);
      zetaFloats = lines * std::size_t(xChunks_.zetaLanes);
    }
    psi_[a] = allocateArray<FieldArray>(psiFloats, "the absorbing layer's memory variables");
    zeta_[a] = allocateArray<FieldArray>(zetaFloats, "the absorbing layer's memory variables");
  }
  zeroRow_.assign(std::size_t(grid.n1), 0.0f);
  // The rows that y and z do not reach (none along an axis that the layer reaches across).
  const auto unreached = [](const PmlAxis& ax, int& begin, int& end) {
    begin = 0, end = ax.n;
    if (ax.width == 0) return;
    begin = ax.reachesAcross() ? 0 : ax.width + M;
    end = ax.reachesAcross() ? 0 : ax.n - ax.width - M;
  };
  coreRows_.i0 = 0, coreRows_.i1 = grid.n1;
  unreached(profile_.axes[1], coreRows_.j0, coreRows_.j1);
  unreached(profile_.axes[2], coreRows_.k0, coreRows_.k1);
  // z's of the whole axis, on the held planes.
  coreRows_.k0 = std::clamp(coreRows_.k0 - profile_.zFirst, 0, grid.n3);
  coreRows_.k1 = std::clamp(coreRows_.k1 - profile_.zFirst, 0, grid.n3);
}

PmlMemory::LineChunks PmlMemory::planLineChunks(const PmlAxis& ax) {
  LineChunks plan;
  if (ax.width == 0) return plan;
  const int n = ax.n, W = ax.width;
  const auto roundUp = [](int count) { return (count + kLanes - 1) / kLanes * kLanes; };
  // The cells [0, W + M) and [n − W − M, n), the second from a whole chunk (so that every chunk of a
  // row lies on one grid from cell 0); one span where they meet.
  const int high = (n - W - M) / kLanes * kLanes;
  if (ax.reachesAcross() || high < roundUp(W + M))
    plan.spans.push_back({0, n, 0, 0, 0, 0, 0, 0});
  else
    plan.spans = {{0, W + M, 0, 0, 0, 0, 0, 0}, {high, n - high, 0, 0, 0, 0, 0, 0}};
  plan.chunkSpan.assign(std::size_t(roundUp(n) / kLanes), -1);
  for (std::size_t s = 0; s < plan.spans.size(); ++s)
    for (int c = 0; c < plan.spans[s].count; c += kLanes) plan.chunkSpan[std::size_t((plan.spans[s].begin + c) / kLanes)] = int(s);
  for (LineChunks::Span& span : plan.spans) {
    span.zeta0 = plan.zetaLanes;
    plan.zetaLanes += roundUp(span.count);
    // A chunk from cell c reads the half points c − M .. c + kLanes + M − 2.
    span.psi0 = plan.psiLanes;
    span.psiLanes = roundUp(span.count) + kLanes;
    plan.psiLanes += span.psiLanes;
  }
  const auto lanes = [](std::size_t count, std::vector<float>& decay, std::vector<float>& gain, std::vector<int>& slot) {
    decay.assign(count, 0.0f);
    gain.assign(count, 0.0f);
    slot.assign(count, -1);
  };
  lanes(std::size_t(plan.zetaLanes), plan.zetaDecay, plan.zetaGain, plan.zetaSlot);
  lanes(std::size_t(plan.psiLanes), plan.psiDecay, plan.psiGain, plan.psiSlot);
  for (LineChunks::Span& span : plan.spans) {
    for (int l = 0; l < span.count; ++l) {
      const int slot = ax.zetaSlot(span.begin + l);
      if (slot < 0) continue;
      const std::size_t lane = std::size_t(span.zeta0 + l);
      plan.zetaSlot[lane] = slot;
      plan.zetaDecay[lane] = ax.zetaDecay[std::size_t(slot)];
      plan.zetaGain[lane] = ax.zetaGain[std::size_t(slot)];
    }
    int firstSlot = span.psiLanes, lastSlot = -1;
    for (int t = 0; t < span.psiLanes; ++t) {
      const int slot = ax.psiSlot(span.begin - M + t);
      if (slot < 0) continue;
      const std::size_t lane = std::size_t(span.psi0 + t);
      plan.psiSlot[lane] = slot;
      plan.psiDecay[lane] = ax.psiDecay[std::size_t(slot)];
      plan.psiGain[lane] = ax.psiGain[std::size_t(slot)];
      firstSlot = std::min(firstSlot, t);
      lastSlot = t;
    }
    // The lanes around the slots stay 0 (b = a = 0) and need no computing; whole chunks that hold every
    // slot, within the span's lanes.
    span.slotLanes = roundUp(lastSlot - firstSlot + 1);
    span.slotLane = std::min(firstSlot, span.psiLanes - span.slotLanes);
    span.state0 = plan.stateLanes;
    plan.stateLanes += span.slotLanes;
  }
  return plan;
}

void PmlMemory::advancePsi(const float* prev, const RangeRunner& run, bool xByCorrect, bool across) {
  xPsiByCorrect_ = xByCorrect;
  const PmlAxis &x = profile_.axes[0], &y = profile_.axes[1], &z = profile_.axes[2];
  const bool alongX = x.width > 0 && !xByCorrect, alongY = across && y.width > 0;
  if (!alongX && !alongY && !(across && z.width > 0)) return;
  const int planes = grid_.n3;
  // z's slots that the held planes read (all of them on a whole grid).
  const auto [slot0, slot1] = across ? profile_.zPsiSlots() : std::pair{0, 0};
  // x's lines and y's rows one z plane per unit, z's rows one slot per unit.
  run(planes + slot1 - slot0, [&](int begin, int end) {
    for (int u = begin; u < end; ++u) {
      if (u >= planes) {
        const int slot = slot0 + u - planes;
        psiRows(2, prev, {0, grid_.n1, 0, grid_.n2, slot, slot + 1});
        continue;
      }
      if (alongX) psiAlongX(prev, u, 0, grid_.n2);
      if (alongY) psiRows(1, prev, {0, grid_.n1, 0, y.memorySlots(), u, u + 1});
    }
  });
}

bool PmlMemory::reaches(const Box& box) const {
  const PmlAxis &y = profile_.axes[1], &z = profile_.axes[2];
  for (const LineChunks::Span& span : xChunks_.spans)
    if (overlaps(span.begin, span.begin + span.count, box.i0, box.i1)) return true;
  const auto along = [](const PmlAxis& ax, int a0, int a1) {
    if (ax.width == 0) return false;
    const int band = ax.reachCells() / 2;  // each end's share (the whole axis when it reaches across)
    return ax.reachesAcross() || overlaps(0, band, a0, a1) || overlaps(ax.n - band, ax.n, a0, a1);
  };
  return along(y, box.j0, box.j1) || along(z, profile_.zFirst + box.k0, profile_.zFirst + box.k1);
}

void PmlMemory::correct(const float* prev, const float* vel, float* next, const Weights& coeffs, const Box& box) {
  correctRows(prev, vel, next, coeffs, box, true);
}

void PmlMemory::correctX(const float* prev, const float* vel, float* next, const Weights& coeffs, const Box& box) {
  correctRows(prev, vel, next, coeffs, box, false);
}

void PmlMemory::correctRows(const float* prev, const float* vel, float* next, const Weights& coeffs, const Box& box,
                            bool across) {
  const bool alongX = profile_.axes[0].width > 0;
  // x's ψ^n of a group of rows, padded (zero outside the slots' chunks, never written); a group at a time,
  // so that a row's shifted loads of ψ^n find the stores of the rows before it already done.
  constexpr int kGroupRows = 8;
  std::vector<float> padded(alongX ? std::size_t(kGroupRows) * std::size_t(xChunks_.psiLanes) : 0, 0.0f);
  for (int k = box.k0; k < box.k1; ++k)
    for (int g = box.j0; g < box.j1; g += kGroupRows) {
      const int gEnd = std::min(g + kGroupRows, box.j1);
      if (alongX && xPsiByCorrect_) psiAlongX(prev, k, g, gEnd);
      if (alongX) paddedPsiX(k, g, gEnd, padded.data());
      for (int j = g; j < gEnd; ++j) {
        const float* psi = padded.data() + std::size_t(j - g) * std::size_t(xChunks_.psiLanes);
        if (alongX) correctAlongX(prev, vel, next, coeffs, psi, j, k, box.i0, box.i1);
        if (across) correctAcross(prev, vel, next, coeffs, j, k, box.i0, box.i1);
      }
    }
}

void PmlMemory::apply(const float* prev, const float* vel, float* next, const Weights& coeffs, const RangeRunner& run) {
  advancePsi(prev, run, /*xByCorrect=*/true, /*across=*/true);
  run(grid_.n3, [&](int begin, int end) { correct(prev, vel, next, coeffs, {0, grid_.n1, 0, grid_.n2, begin, end}); });
}

// The loops below run over contiguous x (rows, or chunks of a line along x) one term at a time, so that
// each is a plain stream the compiler vectorizes; every value still sums its terms in the order of
// resources/kernels/pml.cl (q, then d, ascending).

// Each chunk of kLanes half points is one vector; its lanes without a slot compute with b = a = 0 (their
// memory stays 0) from cells beyond the line, which lie inside the padded arrays (every row is followed
// by halo cells, and the rows of the y halo follow the last one).
ISO_PML_CLONES void PmlMemory::psiAlongX(const float* prev, int k, int j0, int j1) {
  constexpr int L = kLanes;
  const LineChunks& plan = xChunks_;
  const auto& w = profile_.firstDerivative;
  for (int j = j0; j < j1; ++j) {
    const float* p = prev + grid_.interiorIndex(0, j, k);
    float* line = psi_[0].data() + xLine(j, k) * std::size_t(plan.stateLanes);
    for (const LineChunks::Span& span : plan.spans)
      for (int c = span.slotLane; c < span.slotLane + span.slotLanes; c += L) {
        const float* pc = p + span.begin - M + c;  // lane l: half point begin − M + c + l
        const float* decay = plan.psiDecay.data() + span.psi0 + c;
        const float* gain = plan.psiGain.data() + span.psi0 + c;
        float* state = line + span.state0 + (c - span.slotLane);
#pragma GCC ivdep
        for (int l = 0; l < L; ++l) {
          float derivative = 0.0f;
          for (int q = 0; q < M; ++q) derivative += w[q] * (pc[l + q + 1] - pc[l - q]);
          state[l] = decay[l] * state[l] + gain[l] * derivative;
        }
      }
  }
}

void PmlMemory::paddedPsiX(int k, int j0, int j1, float* padded) const {
  const LineChunks& plan = xChunks_;
  for (int j = j0; j < j1; ++j) {
    const float* line = psi_[0].data() + xLine(j, k) * std::size_t(plan.stateLanes);
    float* row = padded + std::size_t(j - j0) * std::size_t(plan.psiLanes);
    for (const LineChunks::Span& span : plan.spans)
      std::copy_n(line + span.state0, span.slotLanes, row + span.psi0 + span.slotLane);
  }
}

ISO_PML_CLONES void PmlMemory::psiRows(int a, const float* prev, const Box& memory) {
  const PmlAxis& ax = profile_.axes[a];
  const auto dims = profile_.memoryDims(a);
  const std::ptrdiff_t s = axisStride(grid_, a);
  const auto& w = profile_.firstDerivative;
  const int x0 = memory.i0, count = memory.i1 - memory.i0;
  for (int c2 = memory.k0; c2 < memory.k1; ++c2)
    for (int c1 = memory.j0; c1 < memory.j1; ++c1) {
      const int t = a == 1 ? c1 : c2;  // the slot; the other index is z (axis y) or y (axis z)
      const int m = ax.psiPoint(t);      // of the whole axis: z's plane is m − zFirst here
      const float* p = prev + (a == 1 ? grid_.interiorIndex(x0, m, c2) : grid_.interiorIndex(x0, c1, m - profile_.zFirst));
      const std::size_t at = (std::size_t(c2) * dims[1] + c1) * std::size_t(grid_.n1) + std::size_t(x0);
      float* psi = psi_[a].data() + at;
      const float decay = ax.psiDecay[t], gain = ax.psiGain[t];
#pragma GCC ivdep
      for (int x = 0; x < count; ++x) {
        float derivative = 0.0f;  // at the half point m + 1/2
        for (int q = 0; q < M; ++q) derivative += w[q] * (p[x + (q + 1) * s] - p[x - q * s]);
        psi[x] = decay * psi[x] + gain * derivative;
      }
    }
}

bool PmlMemory::readsOwnAcrossPsi(const Box& box) const {
  if (profile_.zFirst != 0 || profile_.zCells != profile_.axes[2].n) return false;
  for (int a : {1, 2}) {
    const PmlAxis& ax = profile_.axes[a];
    const int b0 = a == 1 ? box.j0 : box.k0, b1 = a == 1 ? box.j1 : box.k1;
    if (ax.width == 0) continue;
    // A row at cell i reads the half points i + q + 1/2 and i − q − 1/2 (of cells i + q and i − q − 1).
    for (int i = b0; i < b1; ++i) {
      if (ax.reachIndex(i) < 0) continue;
      for (int q = 0; q < M; ++q)
        for (int m : {i + q, i - q - 1})
          if (ax.psiSlot(m) >= 0 && (m < b0 || m >= b1)) return false;
    }
  }
  return true;
}

void PmlMemory::advanceAcrossPsi(const float* prev, const Box& box, const Box& part) {
  psiOfCells(1, prev, part);
  // A row of plane k reads z's half points up to k + M − 1/2, which are the cells' of planes up to k + M − 1.
  Box ahead = part;
  ahead.k0 = part.k0 == box.k0 ? part.k0 : std::min(part.k0 + M - 1, box.k1);
  ahead.k1 = std::min(part.k1 + M - 1, box.k1);
  psiOfCells(2, prev, ahead);
}

void PmlMemory::psiOfCells(int a, const float* prev, const Box& cells) {
  const PmlAxis& ax = profile_.axes[a];
  const int first = a == 1 ? cells.j0 : profile_.zFirst + cells.k0;
  const int last = a == 1 ? cells.j1 : profile_.zFirst + cells.k1;
  // The slots whose half points m + 1/2 have m in [first, last): a run, as psiPoint grows with the slot.
  int t0 = ax.memorySlots(), t1 = 0;
  for (int t = 0; t < ax.memorySlots(); ++t)
    if (const int m = ax.psiPoint(t); m >= first && m < last) t0 = std::min(t0, t), t1 = t + 1;
  if (t0 >= t1) return;
  psiRows(a, prev, a == 1 ? Box{cells.i0, cells.i1, t0, t1, cells.k0, cells.k1} : Box{cells.i0, cells.i1, cells.j0, cells.j1, t0, t1});
}

// A chunk's lanes past its span compute with b = a = 0 and add 0 to their cells: cells of the same row
// (inside the box: checked), or its right halo and the next row's left halo, which nothing writes. A
// chunk with cells outside the box (a tile narrower than the row) updates only its cells inside it.
ISO_PML_CLONES void PmlMemory::correctAlongX(const float* prev, const float* vel, float* next, const Weights& coeffs,
                                             const float* psi, int j, int k, int i0, int i1) {
  constexpr int L = kLanes;
  static_assert(L - 1 <= 2 * kHalfLength, "a chunk's spare lanes reach at most into the next row's halo");
  const int n = profile_.axes[0].n;
  const auto& w = profile_.firstDerivative;
  const float centre = coeffs[0] / 3.0f;  // coeffs[0] carries the centre weight of all three axes
  const LineChunks& plan = xChunks_;
  const std::size_t row = grid_.interiorIndex(0, j, k);
  float* zeta = zeta_[0].data() + xLine(j, k) * std::size_t(plan.zetaLanes);
  for (const LineChunks::Span& span : plan.spans)
    for (int c = 0; c < span.count; c += L) {
      const int first = span.begin + c, count = span.count - c;
      if (!overlaps(first, first + std::min(count, L), i0, i1)) continue;
      const float* decay = plan.zetaDecay.data() + span.zeta0 + c;
      const float* gain = plan.zetaGain.data() + span.zeta0 + c;
      float* state = zeta + span.zeta0 + c;
      const float* h = psi + span.psi0 + c + M;  // h[l]: ψ at the half point of cell first + l
      const float* pc = prev + row + first;
      const float* vc = vel + row + first;
      float* o = next + row + first;
      // The value of lane l: ζ's new state, and what the cell gets.
      const auto lane = [&](int l, float& updated) {
        float correction = 0.0f;  // ∂ψ at the cell, from the half points i + q + 1/2 and i − q − 1/2
        for (int q = 0; q < M; ++q) correction += w[q] * (h[l + q] - h[l - q - 1]);
        float second = centre * pc[l];
        for (int d = 1; d <= kHalfLength; ++d) second += coeffs[d] * (pc[l + d] + pc[l - d]);
        updated = decay[l] * state[l] + gain[l] * (second + correction);  // 0 without a slot
        return correction;
      };
      if (first >= i0 && std::min(first + L, n) <= i1) {
#pragma GCC ivdep
        for (int l = 0; l < L; ++l) {
          float updated;
          const float correction = lane(l, updated);
          state[l] = updated;
          o[l] += l < count ? vc[l] * (correction + updated) : 0.0f;
        }
        continue;
      }
      for (int l = std::max(i0 - first, 0); l < std::min({L, count, i1 - first}); ++l) {
        float updated;
        const float correction = lane(l, updated);
        state[l] = updated;
        o[l] += vc[l] * (correction + updated);
      }
    }
}

bool PmlMemory::acrossRow(int a, int j, int k, int i0, AcrossRow& out) {
  const PmlAxis& ax = profile_.axes[a];
  // The cell along the axis (z's of the whole grid); z for y, y for z.
  const int i = a == 1 ? j : profile_.zFirst + k, other = a == 1 ? k : j;
  if (ax.width == 0 || ax.reachIndex(i) < 0) return false;
  const int rows = a == 1 ? ax.memorySlots() : grid_.n2;  // memoryDims(a)[1]
  // The row of slot `slot` on this cell's line in a memory array (a row of zeros outside the layer).
  const auto rowOf = [&](FieldArray& memory, int slot) {
    if (slot < 0) return zeroRow_.data() + i0;
    const std::size_t outer = a == 1 ? std::size_t(other) : std::size_t(slot);
    const std::size_t inner = a == 1 ? std::size_t(slot) : std::size_t(other);
    return memory.data() + (outer * std::size_t(rows) + inner) * std::size_t(grid_.n1) + std::size_t(i0);
  };
  out.stride = axisStride(grid_, a);
  for (int q = 0; q < M; ++q) {
    out.above[q] = rowOf(psi_[a], ax.psiSlot(i + q));
    out.below[q] = rowOf(psi_[a], ax.psiSlot(i - q - 1));
  }
  const int slot = ax.zetaSlot(i);
  out.zeta = slot < 0 ? nullptr : rowOf(zeta_[a], slot);
  out.decay = slot < 0 ? 0.0f : ax.zetaDecay[std::size_t(slot)];
  out.gain = slot < 0 ? 0.0f : ax.zetaGain[std::size_t(slot)];
  return true;
}

void PmlMemory::correctAcross(const float* prev, const float* vel, float* next, const Weights& coeffs, int j, int k,
                              int i0, int i1) {
  const std::size_t cell = grid_.interiorIndex(i0, j, k);
  AcrossRow rows;
  for (int a : {1, 2})
    if (acrossRow(a, j, k, i0, rows)) correctRow(rows, prev + cell, vel + cell, next + cell, coeffs, i1 - i0);
}

void PmlMemory::rowTerms(int j, int k, RowTerms& out) {
  for (int a : {1, 2}) out.across[a - 1] = acrossRow(a, j, k, 0, out.rows[a - 1]);
}

ISO_PML_CLONES void PmlMemory::correctRow(const AcrossRow& rows, const float* p, const float* v, float* out,
                                          const Weights& coeffs, int count) const {
  const auto& w = profile_.firstDerivative;
  const float centre = coeffs[0] / 3.0f;
  const std::ptrdiff_t s = rows.stride;
  const float* const* above = rows.above;
  const float* const* below = rows.below;
  if (!rows.zeta) {
#pragma GCC ivdep
    for (int x = 0; x < count; ++x) {
      float correction = 0.0f;
      for (int q = 0; q < M; ++q) correction += w[q] * (above[q][x] - below[q][x]);
      out[x] += v[x] * correction;
    }
    return;
  }
  float* zeta = rows.zeta;
  const float decay = rows.decay, gain = rows.gain;
#pragma GCC ivdep
  for (int x = 0; x < count; ++x) {
    float correction = 0.0f;
    for (int q = 0; q < M; ++q) correction += w[q] * (above[q][x] - below[q][x]);
    float second = centre * p[x];
    for (int d = 1; d <= kHalfLength; ++d) second += coeffs[d] * (p[x + d * s] + p[x - d * s]);
    const float z = decay * zeta[x] + gain * (second + correction);
    zeta[x] = z;
    out[x] += v[x] * (correction + z);
  }
}

// x's padded memory against the layout of PmlProfile::memoryDims: calls place(isPsi, lane, slot) for every
// lane holding a ψ value, then every lane holding a ζ value, `lane` its index in psi_[0] or zeta_[0],
// `slot` its index in that variable's memoryDims array (2·W slots per line). Where the two spans' ψ runs
// overlap (short lines), a slot has two lanes, which hold the same value.
template <class Place>
void PmlMemory::forEachXLane(Place place) const {
  const int slots = 2 * profile_.axes[0].width;
  const std::size_t lines = std::size_t(grid_.n2) * std::size_t(grid_.n3);
  const LineChunks& plan = xChunks_;
  for (std::size_t line = 0; line < lines; ++line)
    for (const LineChunks::Span& span : plan.spans)
      for (int t = 0; t < span.slotLanes; ++t)
        if (const int slot = plan.psiSlot[std::size_t(span.psi0 + span.slotLane + t)]; slot >= 0)
          place(true, line * std::size_t(plan.stateLanes) + std::size_t(span.state0 + t),
                line * std::size_t(slots) + std::size_t(slot));
  for (std::size_t line = 0; line < lines; ++line)
    for (int lane = 0; lane < plan.zetaLanes; ++lane)
      if (const int slot = plan.zetaSlot[std::size_t(lane)]; slot >= 0)
        place(false, line * std::size_t(plan.zetaLanes) + std::size_t(lane),
              line * std::size_t(slots) + std::size_t(slot));
}

std::vector<float> PmlMemory::save() const {
  std::vector<float> out;
  out.reserve(profile_.memoryFloats());
  for (int a = 0; a < 3; ++a) {
    if (a == 0 && profile_.axes[0].width > 0) {
      // ψ of x, then ζ of x, each in the memoryDims layout.
      const std::size_t base = out.size(), half = profile_.axisMemoryFloats(0) / 2;
      out.resize(base + 2 * half);
      forEachXLane([&](bool psi, std::size_t lane, std::size_t slot) {
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
      forEachXLane([&](bool psi, std::size_t lane, std::size_t slot) {
        (psi ? psi_[0] : zeta_[0])[lane] = memory[from + (psi ? 0 : half) + slot];
      });
      from += 2 * half;
      continue;
    }
    for (FieldArray* v : {&psi_[a], &zeta_[a]}) {
      std::copy_n(memory.begin() + std::ptrdiff_t(from), v->size(), v->begin());
      from += v->size();
    }
  }
}

}  // namespace iso
