// gpu-basic (2_GPU_basic): a 3D NDRange, one cell per work-item, every neighbour addressed through
// the 3D index function.
inline int idx3(int x, int y, int z, int nx, int ny) { return (z * ny + y) * nx + x; }

__kernel void stencil(STENCIL_ARGS) {
  const int x = get_global_id(0) + R, y = get_global_id(1) + R, z = get_global_id(2) + z_begin;
  if (x >= n1 + R || y >= n2 + R || z >= z_end) return;
  const int nx = n1 + 2 * R, ny = n2 + 2 * R;
  float lap = coef[0] * prev[idx3(x, y, z, nx, ny)];
#pragma unroll
  for (int r = 1; r <= R; ++r)
    lap += coef[r] * ((prev[idx3(x + r, y, z, nx, ny)] + prev[idx3(x - r, y, z, nx, ny)]) +
                      (prev[idx3(x, y + r, z, nx, ny)] + prev[idx3(x, y - r, z, nx, ny)]) +
                      (prev[idx3(x, y, z + r, nx, ny)] + prev[idx3(x, y, z - r, nx, ny)]));
  const int c = idx3(x, y, z, nx, ny);
  next[c] = wave_update(prev[c], next[c], vel[c], lap, gx, gy, gz, x, y, z);
}
