// gpu-private-x (4_GPU_private_memory_K): the same register streaming, but along x, the contiguous
// axis. Neighbouring work-items now sit nx floats apart, so their loads no longer coalesce: the
// instructive slow variant. Dimension 0 counts y, 1 counts z, 2 counts x-chunks.
__kernel void stencil(STENCIL_ARGS, const int x_chunk) {
  const int y = get_global_id(0) + R, z = get_global_id(1) + z_begin;
  if (y >= n2 + R || z >= z_end) return;
  const int x0 = R + (int)get_global_id(2) * x_chunk;
  const int x1 = min(x0 + x_chunk, n1 + R);
  const int nx = n1 + 2 * R, plane = nx * (n2 + 2 * R);
  float q[2 * R + 1];  // q[R + d] = prev at x + d
  int c = z * plane + y * nx + x0;
#pragma unroll
  for (int d = 0; d < 2 * R; ++d) q[d] = prev[c + d - R];
  for (int x = x0; x < x1; ++x, ++c) {
    q[2 * R] = prev[c + R];
    float lap = coef[0] * q[R];
#pragma unroll
    for (int r = 1; r <= R; ++r)
      lap += coef[r] * ((q[R + r] + q[R - r]) + (prev[c + r * nx] + prev[c - r * nx]) +
                        (prev[c + r * plane] + prev[c - r * plane]));
    next[c] = wave_update(q[R], next[c], vel[c], lap, gx, gy, gz, x, y, z);
#pragma unroll
    for (int d = 0; d < 2 * R; ++d) q[d] = q[d + 1];
  }
}
