// gpu-optimized for GPUs: 2.5D blocking with
//  - a TX x TY work-group where each work-item owns YB consecutive rows (register blocking along y:
//    its y-neighbours come from one column of YB + 2R tile values kept in registers),
//  - a z register queue of 2R+1 values per row,
//  - a double-buffered local tile, so one barrier per plane suffices,
//  - software pipelining: while plane z is computed, every global load that plane z+PREFETCH needs
//    (the z queue's new value, the tile's halo cells, vel and next) is in flight, so a load has
//    PREFETCH iterations to arrive. Loading vel and next in the iteration that uses them, hidden
//    only by the barrier's wait, was 7-15 % slower on the H100 (docs/GPU_NOTES.md),
//  - the z loop unrolled Z_UNROLL times, so that most of the queues' shifts become register renaming
//    instead of moves (the queue of 2R+1 shifts every plane: 16 moves per point without unrolling;
//    4 copies were 5-10 % faster on the H100).
// Any tile size is legal; partial tiles read and write nothing outside the padded grid.
#ifndef PREFETCH
#define PREFETCH 1
#endif
#ifndef Z_UNROLL
#define Z_UNROLL 1
#endif
#define PRAGMA(x) _Pragma(#x)
#define UNROLL(n) PRAGMA(unroll n)  // a macro argument inside #pragma is not expanded; in _Pragma it is
#define ROWS (TY * YB)
#define LW (TX + 2 * R)
#define LH (ROWS + 2 * R)
#define WG (TX * TY)
#define HALO_X (ROWS * 2 * R)
#define HALO (HALO_X + 2 * R * TX)
#define HPT ((HALO + WG - 1) / WG)  // halo cells each work-item loads per plane

__kernel __attribute__((reqd_work_group_size(TX, TY, 1))) void stencil(STENCIL_ARGS,
                                                                      const int z_chunk) {
  __local float tile[2 * LH * LW];
  const int tx = get_local_id(0), ty = get_local_id(1), lid = ty * TX + tx;
  const int nx = n1 + 2 * R, ny = n2 + 2 * R, plane = nx * ny;
  const int x0 = (int)get_group_id(0) * TX + R, y0 = (int)get_group_id(1) * ROWS + R;
  const int x = x0 + tx;
  const int z0 = R + (int)get_group_id(2) * z_chunk;
  const int z1 = min(z0 + z_chunk, n3 + R);

  // This work-item's halo cells: offset in the plane (-1: outside the grid, reads as 0) and place in
  // the tile (-1: no cell, the slot is past the halo).
  int hoff[HPT], hloc[HPT];
#pragma unroll
  for (int s = 0; s < HPT; ++s) {
    const int h = lid + s * WG;
    int px, py, lrow, lcol;
    if (h < HALO_X) {
      const int row = h / (2 * R), k = h % (2 * R);
      lcol = k < R ? k : TX + k;
      lrow = row + R;
      px = x0 - R + lcol;
      py = y0 + row;
    } else {
      const int k = (h - HALO_X) / TX, col = (h - HALO_X) % TX;
      lrow = k < R ? k : ROWS + k;
      lcol = col + R;
      px = x0 + col;
      py = y0 - R + lrow;
    }
    hoff[s] = h < HALO && px < nx && py < ny ? py * nx + px : -1;
    hloc[s] = h < HALO ? lrow * LW + lcol : -1;
  }

  int off[YB];
  bool inside[YB], active[YB];
#pragma unroll
  for (int b = 0; b < YB; ++b) {
    const int y = y0 + ty * YB + b;
    off[b] = y * nx + x;
    inside[b] = x < nx && y < ny;
    active[b] = x < n1 + R && y < n2 + R;
  }

  // Loads run PREFETCH planes ahead of the arithmetic: slot p of each queue below holds plane z+p's
  // value (fq: the z queue's new entry, plane z+p+R; hq: halo cells; vq, nq: vel and next).
  // Plane z0+p's loads are issued before the loop, as iteration z issues plane z+PREFETCH's.
  float q[YB][2 * R + 1], fq[YB][PREFETCH], hq[HPT][PREFETCH], vq[YB][PREFETCH], nq[YB][PREFETCH];
#pragma unroll
  for (int b = 0; b < YB; ++b) {
#pragma unroll
    for (int d = 0; d < 2 * R; ++d) q[b][d] = inside[b] ? prev[(z0 + d - R) * plane + off[b]] : 0.0f;
  }
#pragma unroll
  for (int p = 0; p < PREFETCH; ++p) {
    const bool ours = z0 + p < z1;  // plane z0+p belongs to this chunk
    const int zp = (ours ? z0 + p : z0) * plane;  // (a plane index past the grid could overflow)
#pragma unroll
    for (int b = 0; b < YB; ++b) {
      fq[b][p] = ours && inside[b] ? prev[zp + R * plane + off[b]] : 0.0f;
      vq[b][p] = ours && active[b] ? vel[zp + off[b]] : 0.0f;
      nq[b][p] = ours && active[b] ? next[zp + off[b]] : 0.0f;
    }
#pragma unroll
    for (int s = 0; s < HPT; ++s) hq[s][p] = ours && hoff[s] >= 0 ? prev[zp + hoff[s]] : 0.0f;
  }

  int buf = 0;
  UNROLL(Z_UNROLL)
  for (int z = z0; z < z1; ++z) {
    const int zp = z * plane;
    __local float* t = tile + buf * (LH * LW);
    float vcur[YB], ncur[YB];
#pragma unroll
    for (int b = 0; b < YB; ++b) {
      q[b][2 * R] = fq[b][0];
      t[(ty * YB + b + R) * LW + tx + R] = q[b][R];
      vcur[b] = vq[b][0];
      ncur[b] = nq[b][0];
    }
#pragma unroll
    for (int s = 0; s < HPT; ++s)
      if (hloc[s] >= 0) t[hloc[s]] = hq[s][0];

#pragma unroll
    for (int p = 0; p + 1 < PREFETCH; ++p) {
#pragma unroll
      for (int b = 0; b < YB; ++b) {
        fq[b][p] = fq[b][p + 1];
        vq[b][p] = vq[b][p + 1];
        nq[b][p] = nq[b][p + 1];
      }
#pragma unroll
      for (int s = 0; s < HPT; ++s) hq[s][p] = hq[s][p + 1];
    }
    // Plane z+PREFETCH's loads, in flight while plane z is computed (each cell of next is read and
    // written by this work-item only, so reading plane z+PREFETCH of next early is safe).
    const bool ours = z + PREFETCH < z1;
    const int zf = ours ? zp + PREFETCH * plane : zp;
#pragma unroll
    for (int b = 0; b < YB; ++b) {
      fq[b][PREFETCH - 1] = ours && inside[b] ? prev[zf + R * plane + off[b]] : 0.0f;
      vq[b][PREFETCH - 1] = ours && active[b] ? vel[zf + off[b]] : 0.0f;
      nq[b][PREFETCH - 1] = ours && active[b] ? next[zf + off[b]] : 0.0f;
    }
#pragma unroll
    for (int s = 0; s < HPT; ++s) hq[s][PREFETCH - 1] = ours && hoff[s] >= 0 ? prev[zf + hoff[s]] : 0.0f;

    barrier(CLK_LOCAL_MEM_FENCE);

    float col[YB + 2 * R];  // this column's tile values, rows ty*YB - R .. ty*YB + YB + R - 1
#pragma unroll
    for (int i = 0; i < YB + 2 * R; ++i) col[i] = t[(ty * YB + i) * LW + tx + R];
#pragma unroll
    for (int b = 0; b < YB; ++b) {
      const __local float* row = t + (ty * YB + b + R) * LW + tx + R;
      float lap = coef[0] * q[b][R];
#pragma unroll
      for (int r = 1; r <= R; ++r)
        lap += coef[r] * ((row[r] + row[-r]) + (col[b + R + r] + col[b + R - r]) +
                          (q[b][R + r] + q[b][R - r]));
      if (active[b])
        next[zp + off[b]] = wave_update(q[b][R], ncur[b], vcur[b], lap, gx, gy, gz, x,
                                        y0 + ty * YB + b, z);
    }
#pragma unroll
    for (int b = 0; b < YB; ++b) {
#pragma unroll
      for (int d = 0; d < 2 * R; ++d) q[b][d] = q[b][d + 1];
    }
    buf ^= 1;
  }
}
