// gpu-optimized for CPU OpenCL devices (PoCL): each work-item updates VEC consecutive x cells with
// OpenCL vector loads and walks z_chunk planes, so the compiler emits SIMD code directly instead of
// vectorising across work-items. Rows whose length is not a multiple of VEC end in a scalar tail.
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define floatV CAT(float, VEC)
#define vloadV CAT(vload, VEC)
#define vstoreV CAT(vstore, VEC)

__kernel void stencil(STENCIL_ARGS, const int z_chunk) {
  const int xs = (int)get_global_id(0) * VEC + R, y = get_global_id(1) + R;
  if (xs >= n1 + R || y >= n2 + R) return;
  const int nx = n1 + 2 * R, plane = nx * (n2 + 2 * R);
  const int z0 = z_begin + (int)get_global_id(2) * z_chunk;
  const int z1 = min(z0 + z_chunk, z_end);
  const bool fullVector = xs + VEC <= n1 + R;
  for (int z = z0; z < z1; ++z) {
    const int c = (z * (n2 + 2 * R) + y) * nx + xs;
    if (fullVector) {
      floatV lap = coef[0] * vloadV(0, prev + c);
#pragma unroll
      for (int r = 1; r <= R; ++r)
        lap += coef[r] * ((vloadV(0, prev + c + r) + vloadV(0, prev + c - r)) +
                          (vloadV(0, prev + c + r * nx) + vloadV(0, prev + c - r * nx)) +
                          (vloadV(0, prev + c + r * plane) + vloadV(0, prev + c - r * plane)));
      const floatV p = vloadV(0, prev + c), n = vloadV(0, next + c), v = vloadV(0, vel + c);
#if DAMPING
      const floatV g = (vloadV(0, gx + xs) * gy[y]) * gz[z];
      vstoreV(g * (2.0f * p - g * n + v * lap), 0, next + c);
#else
      vstoreV(2.0f * p - n + v * lap, 0, next + c);
#endif
    } else {
      for (int x = xs; x < n1 + R; ++x) {
        const int e = c + (x - xs);
        float lap = coef[0] * prev[e];
        for (int r = 1; r <= R; ++r)
          lap += coef[r] * ((prev[e + r] + prev[e - r]) + (prev[e + r * nx] + prev[e - r * nx]) +
                            (prev[e + r * plane] + prev[e - r * plane]));
        next[e] = wave_update(prev[e], next[e], vel[e], lap, gx, gy, gz, x, y, z);
      }
    }
  }
}
