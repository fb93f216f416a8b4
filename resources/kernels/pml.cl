// The absorbing boundary (a convolutional perfectly matched layer, core/PmlProfile.h), shared by every
// stage: after the stage's kernel has written u^(n+1) with the plain stencil, two passes per axis add
// the layer's terms. The arithmetic and its order are those of core/PmlMemory.cpp.
//
// Build-time define: PML_M, the half length of the staggered first derivatives (kPmlHalfLength).
//
// Per axis a (0 = x, 1 = y, 2 = z) with `width` layer cells at each end of its n cells, the memory
// arrays psi and zeta have the interior's sizes with axis a's replaced by 2·width slots, x fastest.
// rec holds four runs of 2·width floats: b and a of ψ's slots, then b and a of ζ's.

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

// ψ^n = b ψ^(n−1) + a ∂u^n at the half points of the layer. Global size: the memory array's sizes.
__kernel void pml_memory(__global const float* prev, __global float* psi, __global const float* rec,
                         __constant float* d1, const int n1, const int n2, const int n3, const int axis,
                         const int width) {
  const int c0 = get_global_id(0), c1 = get_global_id(1), c2 = get_global_id(2);
  int c[3] = {c0, c1, c2};
  const int sizes[3] = {n1, n2, n3};
  const int slots = 2 * width;
  int dims[3] = {n1, n2, n3};
  dims[axis] = slots;
  if (c0 >= dims[0] || c1 >= dims[1] || c2 >= dims[2]) return;
  const int t = c[axis];
  c[axis] = pml_psi_point(t, sizes[axis], width);
  const int s = pml_axis_stride(axis, n1, n2);
  __global const float* p = prev + pml_padded(c[0], c[1], c[2], n1, n2);
  float derivative = 0.0f;  // at the half point c[axis] + 1/2
  for (int k = 0; k < PML_M; ++k) derivative += d1[k] * (p[(k + 1) * s] - p[-k * s]);
  const int m = (c2 * dims[1] + c1) * dims[0] + c0;
  psi[m] = rec[t] * psi[m] + rec[slots + t] * derivative;
}

// ζ^n = b ζ^(n−1) + a (∂²u^n + ∂ψ^n) in the layer, and u^(n+1) += v²dt² (∂ψ^n + ζ^n) wherever ∂ψ reaches.
// Global size: the interior's, with the axis's replaced by its reach (PmlAxis::reachCells).
__kernel void pml_correct(__global const float* prev, __global float* next, __global const float* vel,
                          __constant float* coef, __global const float* psi, __global float* zeta,
                          __global const float* rec, __constant float* d1, const int n1, const int n2,
                          const int n3, const int axis, const int width) {
  const int c0 = get_global_id(0), c1 = get_global_id(1), c2 = get_global_id(2);
  const int sizes[3] = {n1, n2, n3};
  const int n = sizes[axis], slots = 2 * width, band = width + PML_M;
  int reach[3] = {n1, n2, n3};
  reach[axis] = 2 * band >= n ? n : 2 * band;
  if (c0 >= reach[0] || c1 >= reach[1] || c2 >= reach[2]) return;
  int c[3] = {c0, c1, c2};
  const int i = pml_reach_cell(c[axis], n, width);
  int dims[3] = {n1, n2, n3};
  dims[axis] = slots;
  c[axis] = 0;
  const int line = (c[2] * dims[1] + c[1]) * dims[0] + c[0];  // slot 0 of this line
  const int slotStride = axis == 0 ? 1 : axis == 1 ? dims[0] : dims[0] * dims[1];
  float correction = 0.0f;  // ∂ψ at the cell, from the half points around it
  for (int k = 0; k < PML_M; ++k) {
    const int hi = pml_psi_slot(i + k, n, width), lo = pml_psi_slot(i - k - 1, n, width);
    correction += d1[k] * ((hi < 0 ? 0.0f : psi[line + hi * slotStride]) - (lo < 0 ? 0.0f : psi[line + lo * slotStride]));
  }
  c[axis] = i;
  const int cell = pml_padded(c[0], c[1], c[2], n1, n2);
  const int slot = pml_zeta_slot(i, n, width);
  if (slot >= 0) {
    const int s = pml_axis_stride(axis, n1, n2);
    __global const float* p = prev + cell;
    float second = (coef[0] / 3.0f) * p[0];
    for (int r = 1; r <= R; ++r) second += coef[r] * (p[r * s] + p[-r * s]);
    const int z = line + slot * slotStride;
    const float updated = rec[2 * slots + slot] * zeta[z] + rec[3 * slots + slot] * (second + correction);
    zeta[z] = updated;
    correction += updated;
  }
  next[cell] += vel[cell] * correction;
}
