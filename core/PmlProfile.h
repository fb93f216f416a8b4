#pragma once
// The geometry and coefficients of the absorbing boundary: a convolutional perfectly matched layer
// (CPML) for the second-order wave equation, W cells deep inside the interior at each face (the halo
// behind it stays 0). docs/NUMERICS.md, "Boundaries", derives it; in short, inside the layer each
// axis's second derivative becomes
//
//   ∂̃x∂̃x u = ∂xx u + ∂x ψx + ζx,   ψx^n = b ψx^(n−1) + a ∂x u^n,   ζx^n = b ζx^(n−1) + a (∂xx u^n + ∂x ψx^n)
//
// with b = exp(−(d + α)·dt), a = d·(b − 1)/(d + α), d the damping profile and α the frequency shift. So
// a step is the plain stencil everywhere, plus v²dt²·(∂x ψx + ζx) (and the same for y and z) added to
// u^(n+1) in the layer: the correction is one pass over the layer that every stage shares. ψ lives at
// half points (staggered first derivatives, kPmlHalfLength weights a side), ζ at the cells.
#include <algorithm>
#include <array>
#include <cstddef>
#include <utility>
#include <vector>

#include "core/Grid.h"

namespace iso {

// Half length of the staggered first derivatives of the layer (4th order: as absorbing as 8th order in
// the study of docs/NUMERICS.md, and cheaper); kernels get it as PML_M.
inline constexpr int kPmlHalfLength = 2;

// The cells a boundary layer of `width` keeps on an axis of n cells: at most a quarter of it (both layers,
// perfectly matched and sponge).
inline int layerCellsOnAxis(int width, int n) { return std::min(width, n / 4); }

// One axis of the layer. Along a line of n interior cells the memory variables live on 2·width slots:
// ψ at the half points m + 1/2 for m in [0, W) and [n−1−W, n−1), ζ at the cells [0, W) and [n−W, n).
// The correction reaches kPmlHalfLength cells further in than the layer (∂x ψ reads ψ there): the
// `reachCells()` cells [0, W+M) and [n−W−M, n) of each line, or the whole line where they meet.
struct PmlAxis {
  int n = 0;      // interior cells along the axis
  int width = 0;  // layer cells at each end; 0: no layer on this axis
  std::vector<float> psiDecay, psiGain;    // b and a at the ψ slots, 2·width each
  std::vector<float> zetaDecay, zetaGain;  // b and a at the ζ slots

  int memorySlots() const { return 2 * width; }
  int reachCells() const { return reachesAcross() ? n : 2 * (width + kPmlHalfLength); }
  bool reachesAcross() const { return 2 * (width + kPmlHalfLength) >= n; }
  // Half point m (meaning m + 1/2) of ψ slot t, and the slot of half point m (−1: ψ is 0 there).
  int psiPoint(int t) const { return t < width ? t : n - 1 - 2 * width + t; }
  int psiSlot(int m) const { return m >= 0 && m < width ? m : m >= n - 1 - width && m < n - 1 ? m - (n - 1 - 2 * width) : -1; }
  // Cell of ζ slot t, and the slot of cell i (−1: outside the layer).
  int zetaCell(int t) const { return t < width ? t : n - 2 * width + t; }
  int zetaSlot(int i) const { return i < width ? i : i >= n - width ? i - (n - 2 * width) : -1; }
  // Cell of reach index t.
  int reachCell(int t) const { return reachesAcross() || t < width + kPmlHalfLength ? t : n - reachCells() + t; }
  // Reach index of cell i (−1: the correction does not reach it).
  int reachIndex(int i) const {
    if (reachesAcross() || i < width + kPmlHalfLength) return i;
    return i >= n - width - kPmlHalfLength ? i - (n - reachCells()) : -1;
  }
};

// The layer of a grid, or of a slab of it (core/SlabDecomposition.h): a slab holds the planes
// [zFirst, zFirst + zCells) of z, while `axes` keep the whole grid's geometry, so that a slab computes
// exactly what the whole grid's solver computes on those planes. Its memory variables of x and y cover
// its planes; those of z keep all 2·W slots of the axis (planes of n1·n2 each), of which the slab
// advances the ones its planes read (zPsiSlots) and the ζ of its own cells.
struct PmlProfile {
  int width = 0;                     // cells asked for; each axis keeps at most a quarter of itself
  std::array<PmlAxis, 3> axes;       // x, y, z (the whole grid's)
  std::array<float, kPmlHalfLength> firstDerivative{};  // staggered weights, divided by dx
  int zFirst = 0, zCells = 0;        // the planes of z this profile's solver holds
  bool enabled() const { return width > 0; }
  // The profile of a slab holding planes [first, first + cells) of this (whole grid's) profile.
  PmlProfile zWindow(int first, int cells) const;
  // The ψ slots of z [begin, end) that the held planes need: those whose half point lies within
  // kPmlHalfLength of a held cell's (all of them for the whole grid). They read u up to 2·kPmlHalfLength−1
  // planes beyond the held ones, within the R ghost planes of a slab.
  std::pair<int, int> zPsiSlots() const;
  // The reach indices of z [begin, end) whose cells are the held planes [k0, k1) (numbered from zFirst).
  std::pair<int, int> zReach(int k0, int k1) const;
  // The interior sizes of axis a's memory arrays: the held grid's, with axis a's replaced by its slots.
  std::array<int, 3> memoryDims(int a) const;
  // ψ then ζ of x, then of y, then of z: the floats of every memory variable (a checkpoint's share).
  std::size_t memoryFloats() const;
  std::size_t axisMemoryFloats(int a) const;  // ψ and ζ of one axis
};

// The floats of every memory variable of a layer `width` cells wide on grid g (PmlProfile::memoryFloats
// without building the profile: for memory checks).
std::size_t pmlMemoryFloats(const Grid& g, int width);

// The layer for a grid: `width` cells (at most a quarter of each axis), d(q) = d0·q², q = depth in the
// layer over W (1 at the outermost cell), d0 = 3·vMax·ln(1/reflection) / (2·W·dx); α(q) = π·f0·(1 − q)
// (f0 = 0: no shift). Throws std::invalid_argument for width < 1 or non-positive dx, dt, vMax.
PmlProfile buildPmlProfile(const Grid& g, int width, double dx, double dt, double vMax, double reflection,
                           double f0);

// The staggered first-derivative weights of half length M: Σ_k w_k (f(x+(k−½)h) − f(x−(k−½)h)) / h.
std::array<double, kPmlHalfLength> staggeredFirstDerivativeWeights();

}  // namespace iso
