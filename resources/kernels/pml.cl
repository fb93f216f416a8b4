// The absorbing boundary (a convolutional perfectly matched layer, core/PmlProfile.h), shared by every
// stage: after the stage's kernel has written u^(n+1) with the plain stencil, ψ of z is advanced in a pass
// of its own, then one pass per axis adds the layer's terms (x's and y's advancing their ψ on the way).
// The arithmetic and its order are those of core/PmlMemory.cpp.
//
// Build-time define: PML_M, the half length of the staggered first derivatives (kPmlHalfLength).
//
// The fields as the stage stores them (common.cl): in half storage u is read and written scaled, so ψ and
// ζ, linear in u, hold the same scaled values; v²dt² stored as half is vel_scale times the stored value.
// With incremental storage (U^n, D^n) the terms go into D^(n+1) (`next`), and U^(n+1) (`unew`) is formed
// again as U^n + D^(n+1).
//
// Per axis a (0 = x, 1 = y, 2 = z) with `width` layer cells at each end of its n cells, the memory
// arrays psi and zeta have the interior's sizes with axis a's replaced by 2·width slots, x fastest.
// rec holds four runs of 2·width floats: b and a of ψ's slots, then b and a of ζ's.
//
// A slab of a grid cut along z (core/DecomposedSolver.h) holds the planes [z_first, z_first + n3) of a
// z axis of z_cells cells: the layer's geometry along z is the whole axis's (z's memory keeps all its
// slots), its planes are numbered from z_first. Dimension 2 of a launch starts at `first`: the first
// plane (x and y), ψ slot (memory of z) or reach index (correction of z) it covers, so that a step can
// correct some planes before the others. The whole grid: z_cells = n3, z_first = first = 0.

#ifndef PML_M
#error "PML_M (the layer's first-derivative half length) is a build option: -DPML_M=2"
#endif

// Slots and cells along the axis (PmlAxis in core/PmlProfile.h).
inline int pml_psi_point(int t, int n, int w) { return t < w ? t : n - 1 - 2 * w + t; }
inline int pml_psi_slot(int m, int n, int w) {
  return m >= 0 && m < w ? m : (m >= n - 1 - w && m < n - 1 ? m - (n - 1 - 2 * w) : -1);
}
inline int pml_zeta_slot(int i, int n, int w) { return i < w ? i : (i >= n - w ? i - (n - 2 * w) : -1); }
inline int pml_reach_cell(int t, int n, int w) {
  const int band = w + PML_M;
  return 2 * band >= n || t < band ? t : n - 2 * band + t;
}
inline int pml_axis_stride(int axis, int n1, int n2) {
  return axis == 0 ? 1 : axis == 1 ? n1 + 2 * R : (n1 + 2 * R) * (n2 + 2 * R);
}
inline int pml_padded(int i, int j, int k, int n1, int n2) {
  return ((k + R) * (n2 + 2 * R) + j + R) * (n1 + 2 * R) + i + R;
}

// Every coordinate is kept in scalars (no private arrays indexed at run time, which a GPU compiler would put
// in slow per-thread memory); the body shared by x and y takes its axis as an argument that each kernel
// (pml_correct_advancing_x, _y) passes as a constant, so every index and stride folds at compile time. With
// the short loops unrolled and no branch around a load, a CPU driver (PoCL) vectorizes the kernels across x
// (what that gained: docs/PERFORMANCE_LOG.md).

// ψ^n = b ψ^(n−1) + a ∂z u^n at z's half points of the layer (x's and y's advance in their corrections,
// pml_correct_advancing_*). Global size: z's memory array's, n1 × n2 × its slots from `first`.
__kernel void pml_memory_z(__global const FIELD_T* restrict prev, __global float* restrict psi,
                           __global const float* restrict rec, __constant float* d1, const int n1, const int n2,
                           const int width, const int z_cells, const int z_first, const int first) {
  const int c0 = get_global_id(0), c1 = get_global_id(1), t = get_global_id(2) + first;
  const int slots = 2 * width;
  if (c0 >= n1 || c1 >= n2 || t >= slots) return;
  const int m = pml_psi_point(t, z_cells, width);
  const int s = pml_axis_stride(2, n1, n2);
  const int at = pml_padded(c0, c1, m - z_first, n1, n2);
  float derivative = 0.0f;  // at the half point m + 1/2
#pragma unroll
  for (int q = 0; q < PML_M; ++q)
    derivative += d1[q] * (LOAD_FIELD(prev, at + (q + 1) * s) - LOAD_FIELD(prev, at - q * s));
  const int cell = (t * n2 + c1) * n1 + c0;
  psi[cell] = rec[t] * psi[cell] + rec[slots + t] * derivative;
}

// What the correction kernels pass on of the storage's arguments (common.cl), and the new level's update
// at a cell.
#if INCREMENTAL
#define PML_UNEW unew
#else
#define PML_UNEW 0
#endif
#if VEL_HALF
#define PML_VEL_SCALE vel_scale
#else
#define PML_VEL_SCALE 1.0f
#endif

// Adds `term` to u^(n+1) at the padded index `cell`.
inline void pml_add_to_level(__global const FIELD_T* restrict prev, __global FIELD_T* restrict next,
                             __global FIELD_T* restrict unew, int cell, float term) {
  const float updated = LOAD_FIELD(next, cell) + term;
  STORE_FIELD(updated, next, cell);
#if INCREMENTAL
  STORE_FIELD(LOAD_FIELD(prev, cell) + updated, unew, cell);
#endif
}

// The end of a correction at `cell`, the along-th cell of an axis of n: ∂ψ from ψ^n at the cell's half
// points, ζ^n where the cell has a slot, and u^(n+1) += v²dt²·(∂ψ + ζ) (∂ψ alone outside the layer).
// u[0 .. 2R]: u^n along the axis from the cell's −R to +R; psi[0 .. 2·PML_M − 1]: ψ^n at the half points
// from the cell's −PML_M + 1/2 to +PML_M − 1/2 (0 without a slot). ζ is computed on every cell of the reach
// from a valid slot and kept only in the layer, so that the kernel has no branch around loads (the 2·PML_M
// cells past the layer compute it in vain): a CPU driver vectorizes it across x only without a branch.
inline void pml_finish_cell(const float* u, const float* psi, int along, int n, int width, int line, int slotStride,
                            __constant float* coef, __constant float* d1, __global float* restrict zeta,
                            __global const float* restrict rec, __global const FIELD_T* restrict prev,
                            __global FIELD_T* restrict next,
                            __global const VEL_T* restrict vel, __global FIELD_T* restrict unew, float vel_scale,
                            int cell) {
  float correction = 0.0f;
#pragma unroll
  for (int q = 0; q < PML_M; ++q) correction += d1[q] * (psi[PML_M + q] - psi[PML_M - q - 1]);
  const int slots = 2 * width, slot = pml_zeta_slot(along, n, width), kept = max(slot, 0);
  float second = (coef[0] / 3.0f) * u[R];
#pragma unroll
  for (int r = 1; r <= R; ++r) second += coef[r] * (u[R + r] + u[R - r]);
  const int z = line + kept * slotStride;
  const float updated = rec[2 * slots + kept] * zeta[z] + rec[3 * slots + kept] * (second + correction);
  if (slot >= 0) zeta[z] = updated;
#if VEL_HALF
  const float v = vload_half(cell, vel) * vel_scale;
#else
  const float v = vel[cell];
#endif
  pml_add_to_level(prev, next, unew, cell, v * (slot >= 0 ? correction + updated : correction));
}

// The corrections work in blocks: a work-item corrects PML_CELLS consecutive cells of the axis. One window
// of PML_CELLS + 2R values of u serves all their second derivatives, and the ψ of the PML_CELLS + 2·PML_M − 1
// half points around them is read (z) or advanced (x, y) once, where a cell on its own reads 2R + 1 values
// and four half points that its neighbours read again. The buffers are restrict, so that the loads of a
// block's later cells need not wait for its earlier cells' stores. On an H200 blocks of 3 take the layer
// from 0.405 to 0.356 ms a step at 512³; 2, 4, 6 and 8 gain nothing or lose (docs/GPU_NOTES.md).
// PML_CELLS = 1 is a cell per work-item, consecutive work-items on consecutive cells, which a CPU driver
// vectorizes across.
#ifndef PML_CELLS
#define PML_CELLS 1
#endif
#define PML_WINDOW (PML_CELLS + 2 * R)
#define PML_HALF_POINTS (PML_CELLS + 2 * PML_M - 1)

// z's correction: ζ^n = b ζ^(n−1) + a (∂²u^n + ∂ψ^n) in the layer, and u^(n+1) += v²dt² (∂ψ^n + ζ^n)
// wherever ∂ψ reaches, on z's reach indices [first, end) (PmlAxis::reachCells). A block's indices lie in one
// end of the axis (or in the whole axis where the ends meet), so its cells are consecutive: the low end's
// blocks from `first`, then the high end's from the split; a part's last block may be partial, its window
// clamped to the part's last cell + R (a slab holds R planes past its cells, no more). Dimension 2 of the
// launch counts the blocks (AbsorbingLayer::zBlocks on the host).
inline int pml_z_split(int first, int end, int z_cells, int width) {
  const int band = width + PML_M;
  return max(first, min(end, 2 * band >= z_cells ? end : band));  // where the high end's indices begin
}
__kernel void pml_correct_z(__global const FIELD_T* restrict prev, __global FIELD_T* restrict next,
                            __global const VEL_T* restrict vel, __constant float* coef,
                            __global const float* restrict psi, __global float* restrict zeta,
                            __global const float* restrict rec, __constant float* d1, const int n1, const int n2,
                            const int width, const int z_cells, const int z_first, const int first,
                            const int end INCREMENTAL_ARGS VEL_SCALE_ARGS) {
  const int c0 = get_global_id(0), c1 = get_global_id(1), b = get_global_id(2);
  if (c0 >= n1 || c1 >= n2) return;
  const int split = pml_z_split(first, end, z_cells, width), lowBlocks = (split - first + PML_CELLS - 1) / PML_CELLS;
  const int t0 = b < lowBlocks ? first + b * PML_CELLS : split + (b - lowBlocks) * PML_CELLS;
  const int limit = b < lowBlocks ? split : end;  // the block's part of the reach indices ends there
  if (t0 >= limit) return;
  const int start = pml_reach_cell(t0, z_cells, width), last = pml_reach_cell(limit - 1, z_cells, width);
  const int line = c1 * n1 + c0, slotStride = n1 * n2;  // the memory's slot 0 of this cell, slot to slot
  const int cell = pml_padded(c0, c1, start - z_first, n1, n2);  // the block's first cell
  const int s = pml_axis_stride(2, n1, n2);
  float u[PML_WINDOW];  // u^n along z from start − R to start + PML_CELLS − 1 + R (held planes: clamped)
#pragma unroll
  for (int p = 0; p < PML_WINDOW; ++p) u[p] = LOAD_FIELD(prev, cell + (min(start - R + p, last + R) - start) * s);
  float halves[PML_HALF_POINTS];  // ψ^n at the half points start − PML_M + t + 1/2 (0 without a slot)
#pragma unroll
  for (int t = 0; t < PML_HALF_POINTS; ++t) {
    const int slot = pml_psi_slot(start - PML_M + t, z_cells, width);
    // Loads from a valid slot whatever the branch (selected after): no conditional load to stop a CPU
    // driver's vectorizer.
    const float value = psi[line + max(slot, 0) * slotStride];
    halves[t] = slot < 0 ? 0.0f : value;
  }
#pragma unroll
  for (int i = 0; i < PML_CELLS; ++i) {
    if (t0 + i < limit)
      pml_finish_cell(u + i, halves + i, start + i, z_cells, width, line, slotStride, coef, d1, zeta, rec, prev, next,
                      vel, PML_UNEW, PML_VEL_SCALE, cell + i * s);
  }
}

// pml_correct_z's arithmetic along x or y, with ψ^n of the block's half points computed on the way, from
// ψ^(n−1) (psi_old) and the u^n along the axis that the second derivatives read (pml_memory_z's arithmetic):
// x and y need no ψ pass, whose reads of u and ψ cost as much as the correction's own (docs/GPU_NOTES.md).
// Each cell stores the ψ^n of its own half point (cell + 1/2), so every slot of the launched planes is
// written once; neighbours read ψ^(n−1), so the two arrays swap after the step. Not for z, whose slabs of a
// cut grid read ψ of half points that the neighbouring slab's cells own.
// Blocks tile each end of the reach: the low end's from cell 0 up, the high end's ending at cell n − 1, a
// partial block overhanging inward, onto cells it computes but does not change; where the ends meet, the
// whole axis from cell 0, the last block's overhang past n − 1 reading clamped places (as does a high
// end's block that overhangs past cell 0 on a short axis).
inline int pml_blocks(int n, int width) {
  const int band = width + PML_M;
  return 2 * band >= n ? (n + PML_CELLS - 1) / PML_CELLS : 2 * ((band + PML_CELLS - 1) / PML_CELLS);
}
// Block b's first cell, and the cells [*from, *to) it corrects: its end's (a high end's block can start
// below the low end's last cell, on an axis barely longer than the two ends).
inline int pml_block_start(int b, int n, int width, int* from, int* to) {
  const int band = width + PML_M, perEnd = (band + PML_CELLS - 1) / PML_CELLS;
  const bool across = 2 * band >= n, high = !across && b >= perEnd;
  *from = high ? n - band : 0;
  *to = across || high ? n : band;
  return high ? n - (2 * perEnd - b) * PML_CELLS : b * PML_CELLS;
}

inline void pml_correct_advancing_on(__global const FIELD_T* restrict prev, __global FIELD_T* restrict next,
                                     __global const VEL_T* restrict vel, __constant float* coef,
                                     __global const float* restrict psi_old, __global float* restrict psi_new,
                                     __global float* restrict zeta, __global const float* restrict rec,
                                     __constant float* d1, const int n1, const int n2, const int n3, const int axis,
                                     const int width, const int first, __global FIELD_T* restrict unew,
                                     const float vel_scale) {
  const int c0 = get_global_id(0), c1 = get_global_id(1), c2 = get_global_id(2) + first;
  const int n = axis == 0 ? n1 : n2, slots = 2 * width;
  const int blocks = pml_blocks(n, width);
  if (c0 >= (axis == 0 ? blocks : n1) || c1 >= (axis == 1 ? blocks : n2) || c2 >= n3) return;
  int from, to;  // the cells this block corrects
  const int start = pml_block_start(axis == 0 ? c0 : c1, n, width, &from, &to);
  const int d0 = axis == 0 ? slots : n1, d1n = axis == 1 ? slots : n2;
  const int line = axis == 0 ? (c2 * d1n + c1) * d0 : c2 * d1n * d0 + c0;
  const int slotStride = axis == 0 ? 1 : d0;
  const int base = pml_padded(axis == 0 ? 0 : c0, axis == 1 ? 0 : c1, c2, n1, n2);  // the line's cell 0
  const int s = pml_axis_stride(axis, n1, n2);
  float u[PML_WINDOW];  // u^n along the axis from start − R to start + PML_CELLS − 1 + R (clamped to the line)
#pragma unroll
  for (int p = 0; p < PML_WINDOW; ++p) u[p] = LOAD_FIELD(prev, base + clamp(start - R + p, -R, n - 1 + R) * s);
  float psi[PML_HALF_POINTS];  // ψ^n at the half points start − PML_M + t + 1/2 (0 without a slot)
#pragma unroll
  for (int t = 0; t < PML_HALF_POINTS; ++t) {
    const int m = start - PML_M + t, slot = pml_psi_slot(m, n, width), kept = max(slot, 0);
    float derivative = 0.0f;
#pragma unroll
    for (int q = 0; q < PML_M; ++q) derivative += d1[q] * (u[R + t - PML_M + q + 1] - u[R + t - PML_M - q]);
    const float advanced = rec[kept] * psi_old[line + kept * slotStride] + rec[slots + kept] * derivative;
    psi[t] = slot < 0 ? 0.0f : advanced;
    // The cell m stores its own half point's.
    if (t >= PML_M && t < PML_M + PML_CELLS && slot >= 0 && m >= from && m < to)
      psi_new[line + slot * slotStride] = advanced;
  }
#pragma unroll
  for (int i = 0; i < PML_CELLS; ++i) {
    const int along = start + i;
    if (along >= from && along < to)
      pml_finish_cell(u + i, psi + i, along, n, width, line, slotStride, coef, d1, zeta, rec, prev, next, vel, unew,
                      vel_scale, base + along * s);
  }
}

#define PML_ADVANCING_KERNEL(name, axis)                                                                      \
  __kernel void pml_correct_advancing_##name(                                                                 \
      __global const FIELD_T* restrict prev, __global FIELD_T* restrict next, __global const VEL_T* restrict vel, \
      __constant float* coef, __global const float* restrict psi_old, __global float* restrict psi_new,         \
      __global float* restrict zeta, __global const float* restrict rec, __constant float* d1, const int n1,     \
      const int n2, const int n3, const int width,                                                              \
      const int first INCREMENTAL_ARGS VEL_SCALE_ARGS) {                                                        \
    pml_correct_advancing_on(prev, next, vel, coef, psi_old, psi_new, zeta, rec, d1, n1, n2, n3, axis, width,   \
                             first, PML_UNEW, PML_VEL_SCALE);                                                 \
  }
PML_ADVANCING_KERNEL(x, 0)
PML_ADVANCING_KERNEL(y, 1)

// ---- The layer folded into a stage's own pass (gpu-optimized's GPU form, gpu-half) ----
// A stencil kernel built with PML_FOLD = 1 adds the layer's terms where it computes the cells, with no
// pass of its own: per axis, ψ^n at the 2·PML_M half points around a cell is computed from ψ^(n−1) and
// u^n (the arithmetic of pml_memory_z), the cell's own half point's stored in a second ψ array (the two
// swap after each step: neighbours' cells read ψ^(n−1) while it is being replaced), then ζ^n and ∂ψ + ζ
// as pml_correct_z does, the second derivative from the u the kernel holds. DRAM traffic: ψ and ζ of the
// layer's cells, nothing else (the separate passes read u^n, v and u^(n+1) again).
#ifndef PML_FOLD
#define PML_FOLD 0
#endif
#if PML_FOLD
// The buffers such a kernel takes after its own arguments: per axis ψ^(n−1), ψ^n, ζ and the recursion
// coefficients (rec, as above), then the staggered weights, each axis's width (0: no layer there), and
// z's geometry as above: the whole axis's cells and the number of the kernel's plane 0 in it.
#define PML_FOLD_AXIS_ARGS(a)                                                                              \
  __global const float *restrict pml_psi_old_##a, __global float *restrict pml_psi_new_##a,                \
      __global float *restrict pml_zeta_##a, __global const float *restrict pml_rec_##a
#define PML_FOLD_ARGS                                                                                      \
  PML_FOLD_AXIS_ARGS(x), PML_FOLD_AXIS_ARGS(y), PML_FOLD_AXIS_ARGS(z), __constant float *restrict pml_d1,  \
      const int pml_wx, const int pml_wy, const int pml_wz, const int pml_z_cells, const int pml_z_first

// Which of the half points a cell computes besides its own it also stores (pml_fold_term's `edges`):
// those below it (PML_FOLD_BELOW) and above it (PML_FOLD_ABOVE). A slab's first and last planes store
// the ψ of the half points just outside it, which its neighbours own: the next step reads them as ψ^(n−1)
// and the slab computes them from its ghost planes, so no memory crosses a cut and every ψ a slab reads
// is current (on a whole grid those half points have no slots: nothing more is stored).
#define PML_FOLD_BELOW 1
#define PML_FOLD_ABOVE 2

// Whether the layer's correction reaches cell i of an axis of n cells with a layer w cells wide.
inline bool pml_reaches(int i, int n, int w) {
  const int band = w + PML_M;
  return w > 0 && (2 * band >= n || i < band || i >= n - band);
}

// The term of one axis at one cell that the layer adds to the Laplacian (∂ψ + ζ, or ∂ψ outside the layer),
// advancing ψ of the cell's own half point and ζ. u[0 .. 2R]: u^n along the axis from the cell's −R to
// +R; line and stride: the memory arrays' index of the cell's line at slot 0, and the step between slots;
// edges: the other half points whose ψ it stores (PML_FOLD_BELOW, PML_FOLD_ABOVE).
inline float pml_fold_term(const float* u, int cell, int n, int width, __global const float* psi_old,
                           __global float* psi_new, __global float* zeta, __global const float* rec,
                           __constant float* d1, __constant float* coef, int line, int stride, int edges) {
  const int slots = 2 * width;
  float psi[2 * PML_M];  // at the half points cell − PML_M + t + 1/2
#pragma unroll
  for (int t = 0; t < 2 * PML_M; ++t) {
    const int s = pml_psi_slot(cell - PML_M + t, n, width);
    float derivative = 0.0f;
#pragma unroll
    for (int q = 0; q < PML_M; ++q) derivative += d1[q] * (u[R + t - PML_M + q + 1] - u[R + t - PML_M - q]);
    psi[t] = s < 0 ? 0.0f : rec[s] * psi_old[line + s * stride] + rec[slots + s] * derivative;
    const bool stored = t == PML_M || (t < PML_M && (edges & PML_FOLD_BELOW)) || (t > PML_M && (edges & PML_FOLD_ABOVE));
    if (s >= 0 && stored) psi_new[line + s * stride] = psi[t];
  }
  float correction = 0.0f;
#pragma unroll
  for (int q = 0; q < PML_M; ++q) correction += d1[q] * (psi[PML_M + q] - psi[PML_M - q - 1]);
  const int z = pml_zeta_slot(cell, n, width);
  if (z < 0) return correction;
  float second = (coef[0] / 3.0f) * u[R];
#pragma unroll
  for (int r = 1; r <= R; ++r) second += coef[r] * (u[R + r] + u[R - r]);
  const int at = line + z * stride;
  const float updated = rec[2 * slots + z] * zeta[at] + rec[3 * slots + z] * (second + correction);
  zeta[at] = updated;
  return correction + updated;
}
#endif
