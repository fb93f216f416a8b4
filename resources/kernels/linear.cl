// gpu-linear (3_GPU_linear): one cell per work-item; the linear index is computed once and the
// neighbours are reached by constant strides (1, nx, nx*ny).
__kernel void stencil(STENCIL_ARGS) {
  const int x = get_global_id(0) + R, y = get_global_id(1) + R, z = get_global_id(2) + z_begin;
  if (x >= n1 + R || y >= n2 + R || z >= z_end) return;
  const int nx = n1 + 2 * R, plane = nx * (n2 + 2 * R);
  const int c = (z * (n2 + 2 * R) + y) * nx + x;
  float lap = coef[0] * prev[c];
#pragma unroll
  for (int r = 1; r <= R; ++r)
    lap += coef[r] * ((prev[c + r] + prev[c - r]) + (prev[c + r * nx] + prev[c - r * nx]) +
                      (prev[c + r * plane] + prev[c - r * plane]));
  next[c] = wave_update(prev[c], next[c], vel[c], lap, gx, gy, gz, x, y, z);
}
