// gpu-slm (5_GPU_optimized): a TILE_X x TILE_Y work-group keeps the current plane's x/y neighbours
// in a local-memory tile (its cells plus R-wide halos on the four sides) while each work-item streams
// along z with its z-neighbours in registers. Two barriers per plane. Any tile size is legal: cells
// of a partial tile that lie outside the padded grid are neither read nor written.
#define LW (TILE_X + 2 * R)
#define LH (TILE_Y + 2 * R)
#define WG (TILE_X * TILE_Y)
#define HALO_X (TILE_Y * 2 * R)  // left and right halo columns
#define HALO_Y (2 * R * TILE_X)  // top and bottom halo rows

__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1))) void stencil(STENCIL_ARGS,
                                                                              const int z_chunk) {
  __local float tile[LH * LW];
  const int lx = get_local_id(0), ly = get_local_id(1), lid = ly * TILE_X + lx;
  const int nx = n1 + 2 * R, ny = n2 + 2 * R, plane = nx * ny;
  const int x0 = (int)get_group_id(0) * TILE_X + R, y0 = (int)get_group_id(1) * TILE_Y + R;
  const int x = x0 + lx, y = y0 + ly;
  const bool inside = x < nx && y < ny;            // may be read
  const bool active = x < n1 + R && y < n2 + R;    // is updated
  const int z0 = z_begin + (int)get_group_id(2) * z_chunk;
  const int z1 = min(z0 + z_chunk, z_end);

  float q[2 * R + 1];  // q[R + d] = prev at z + d
  int c = z0 * plane + y * nx + x;
#pragma unroll
  for (int d = 0; d < 2 * R; ++d) q[d] = inside ? prev[c + (d - R) * plane] : 0.0f;

  for (int z = z0; z < z1; ++z, c += plane) {
    q[2 * R] = inside ? prev[c + R * plane] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);  // everyone is done reading the previous plane's tile
    tile[(ly + R) * LW + lx + R] = q[R];
    for (int h = lid; h < HALO_X; h += WG) {
      const int row = h / (2 * R), k = h % (2 * R);
      const int col = k < R ? k : TILE_X + k;  // local column: [0, R) left, [TILE_X+R, LW) right
      const int px = x0 - R + col, py = y0 + row;
      tile[(row + R) * LW + col] = (px < nx && py < ny) ? prev[z * plane + py * nx + px] : 0.0f;
    }
    for (int h = lid; h < HALO_Y; h += WG) {
      const int k = h / TILE_X, col = h % TILE_X;
      const int lrow = k < R ? k : TILE_Y + k;  // local row: [0, R) top, [TILE_Y+R, LH) bottom
      const int px = x0 + col, py = y0 - R + lrow;
      tile[lrow * LW + col + R] = (px < nx && py < ny) ? prev[z * plane + py * nx + px] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (active) {
      const __local float* t = tile + (ly + R) * LW + lx + R;
      float lap = coef[0] * q[R];
#pragma unroll
      for (int r = 1; r <= R; ++r)
        lap += coef[r] * ((t[r] + t[-r]) + (t[r * LW] + t[-r * LW]) + (q[R + r] + q[R - r]));
      next[c] = wave_update(q[R], next[c], vel[c], lap, gx, gy, gz, x, y, z);
    }
#pragma unroll
    for (int d = 0; d < 2 * R; ++d) q[d] = q[d + 1];
  }
}
