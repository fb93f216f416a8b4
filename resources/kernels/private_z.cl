// gpu-private-z (4_GPU_private_memory_I): a 2D NDRange over x/y (dimension 2 counts z-chunks);
// each work-item walks z_chunk planes and keeps its 2R+1 z-neighbours in registers, so each plane
// loads one new z value instead of 2R.
__kernel void stencil(STENCIL_ARGS, const int z_chunk) {
  const int x = get_global_id(0) + R, y = get_global_id(1) + R;
  if (x >= n1 + R || y >= n2 + R) return;
  const int z0 = z_begin + (int)get_global_id(2) * z_chunk;
  const int z1 = min(z0 + z_chunk, z_end);
  const int nx = n1 + 2 * R, plane = nx * (n2 + 2 * R);
  float q[2 * R + 1];  // q[R + d] = prev at z + d
  int c = z0 * plane + y * nx + x;
#pragma unroll
  for (int d = 0; d < 2 * R; ++d) q[d] = prev[c + (d - R) * plane];
  for (int z = z0; z < z1; ++z, c += plane) {
    q[2 * R] = prev[c + R * plane];
    float lap = coef[0] * q[R];
#pragma unroll
    for (int r = 1; r <= R; ++r)
      lap += coef[r] * ((prev[c + r] + prev[c - r]) + (prev[c + r * nx] + prev[c - r * nx]) +
                        (q[R + r] + q[R - r]));
    next[c] = wave_update(q[R], next[c], vel[c], lap, gx, gy, gz, x, y, z);
#pragma unroll
    for (int d = 0; d < 2 * R; ++d) q[d] = q[d + 1];
  }
}
