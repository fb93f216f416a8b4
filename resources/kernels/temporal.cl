// gpu-temporal: temporal blocking, two time steps per pass over memory. A TX x TY work-group owns a
// TX x TY tile of the x/y plane (one point per work-item) and streams it through z (a chunk of
// z_chunk planes), like gpu-optimized, but from u^(n-1) and u^n it computes u^(n+1) AND u^(n+2):
//  - level 0, u^n (prev): each plane's tile with a 2R-wide halo, (TX+4R) x (TY+4R) values, is loaded
//    once into local memory (t0; through registers, one plane ahead);
//  - level 1, u^(n+1): computed on the tile with an R-wide halo, (TX+2R) x (TY+2R) columns spread
//    round-robin over the work-items (N1 columns each), with gpu-optimized's trailing register queues
//    (R+1 values of u^n and R+1 Laplacians being summed per column): plane j is finished when plane
//    j+R of u^n arrives. The finished plane goes to a second local-memory plane (t1), and the
//    source term of step n is added to it there (src_index, src_value), before level 2 reads it;
//  - level 2, u^(n+2): each work-item's own tile point, the same queues fed from t1: plane m is
//    finished when plane m+R of u^(n+1) arrives, i.e. 2R planes behind the loads.
// Every work-item writes u^(n+1) (out1) and u^(n+2) (out2) of its tile point; the halo columns of
// level 1 are computed redundantly by the neighbouring work-groups and never written.
//
// DRAM traffic per pass and point: read u^(n-1), u^n, vel, write u^(n+1), u^(n+2): 20 B for two steps,
// 10 B per point-step (a single-step kernel moves at least 16). The reads of vel and u^n a second time
// (level 2's centre values, vel of level 1's halo) and of the halos were loaded by this or a
// neighbouring work-group shortly before and are meant to come from L2. The price: level 1 on
// (TX+2R)(TY+2R) instead of TX*TY points (2.25x the points for 32 x 32, 3x for 32 x 16), 4R more
// planes loaded per z chunk (the two levels' z halos), and 2(R+1) registers per column of each level.
//
// Why separate output buffers: a work-group reads u^(n-1) and u^n on its halo, which neighbouring
// work-groups update in the same launch, so nothing may be written in place; the host rotates four
// field buffers (u^(n-1), u^n -> u^(n+1), u^(n+2)).
//
// steps = 1 computes u^(n+1) alone (out2 untouched): the host's remainder step of an odd count.
// Any tile size is legal; partial tiles read and write nothing outside the padded grid. Level-1 values
// outside the interior are 0, the reflecting halo every stage keeps.
#ifndef TX
#error "TX (tile width) is a build option"
#endif
#ifndef TY
#error "TY (tile height) is a build option"
#endif

#define WG (TX * TY)
#define L0W (TX + 4 * R)  // level 0: tile + 2R halo
#define L0H (TY + 4 * R)
#define L1W (TX + 2 * R)  // level 1: tile + R halo
#define L1H (TY + 2 * R)
#define N0 ((L0W * L0H + WG - 1) / WG)  // level-0 values each work-item loads per plane
#define N1 ((L1W * L1H + WG - 1) / WG)  // level-1 columns of each work-item

// The newest plane's part of the Laplacian at c (in a local plane `width` wide): the centre and x/y
// terms and the z terms of the R planes before it (u[R] is c's value, u[R-r] the value r planes back).
// Both levels use it, so a step computes the same bits whichever level it is.
inline float plane_laplacian(const __local float* c, const int width, const float* u, __constant float* coef) {
  float lap = coef[0] * u[R];
#pragma unroll
  for (int r = 1; r <= R; ++r) lap += coef[r] * ((c[r] + c[-r]) + (c[r * width] + c[-r * width]));
#pragma unroll
  for (int r = 1; r <= R; ++r) lap += coef[r] * u[R - r];
  return lap;
}

// The arguments of a multi-step stage's kernel (the host's order, compute/OpenClSolver.cpp).
__kernel __attribute__((reqd_work_group_size(TX, TY, 1))) void stencil(
    __global const float* restrict older, __global const float* restrict prev, __global float* restrict out1,
    __global float* restrict out2, __global const float* restrict vel, __constant float* restrict coef,
    __global const float* restrict gx, __global const float* restrict gy, __global const float* restrict gz,
    const int n1, const int n2, const int n3, const int src_index, const float src_value, const int steps,
    const int z_chunk) {
  __local float t0[L0W * L0H];  // u^n, plane k
  __local float t1[L1W * L1H];  // u^(n+1), plane k-R
  const int tx = get_local_id(0), ty = get_local_id(1), lid = ty * TX + tx;
  const int nx = n1 + 2 * R, ny = n2 + 2 * R, nz = n3 + 2 * R, plane = nx * ny;
  const int x0 = (int)get_group_id(0) * TX + R, y0 = (int)get_group_id(1) * TY + R;
  const int z0 = R + (int)get_group_id(2) * z_chunk;  // this chunk writes planes z0 .. z1-1
  const int z1 = min(z0 + z_chunk, n3 + R);

  // Level-0 values of this work-item: element e of t0 (row-major, L0W wide) is plane offset off0,
  // inside the padded plane or not (then 0).
  int off0[N0];
  bool in0[N0];
#pragma unroll
  for (int s = 0; s < N0; ++s) {
    const int e = lid + s * WG, px = x0 - 2 * R + e % L0W, py = y0 - 2 * R + e / L0W;
    in0[s] = e < L0W * L0H && px >= 0 && px < nx && py >= 0 && py < ny;
    off0[s] = in0[s] ? py * nx + px : 0;
  }

  // Level-1 columns: c = lid + i*WG of the (TX+2R) x (TY+2R) region, its place in t0, its plane
  // offset, and whether it is an interior point (else its value is 0 and it reads nothing).
  int loc0[N1], off1[N1];
  bool in1[N1];
#if DAMPING
  float gxy1[N1];
#endif
#pragma unroll
  for (int i = 0; i < N1; ++i) {
    const int c = min(lid + i * WG, L1W * L1H - 1);  // past the region: a valid place, never used
    const int cx = c % L1W, cy = c / L1W, px = x0 - R + cx, py = y0 - R + cy;
    loc0[i] = (cy + R) * L0W + cx + R;
    in1[i] = lid + i * WG < L1W * L1H && px >= R && px < n1 + R && py >= R && py < n2 + R;
    off1[i] = in1[i] ? py * nx + px : 0;
#if DAMPING
    gxy1[i] = in1[i] ? gx[px] * gy[py] : 0.0f;
#endif
  }

  // Level 2: this work-item's tile point.
  const int x = x0 + tx, y = y0 + ty;
  const bool in2 = x < n1 + R && y < n2 + R;
  const int loc1 = (ty + R) * L1W + tx + R, off2 = in2 ? y * nx + x : 0;
#if DAMPING
  const float gxy2 = in2 ? gx[x] * gy[y] : 0.0f;
#endif

  // Queues (index R: the newest plane), as in gpu-optimized: u holds the column's values of the R+1
  // latest planes, lap the Laplacians of those planes being summed; lap[0] is complete after the
  // newest plane's z terms are added. Level 1's u starts with planes z0-2R .. z0-R-1 of u^n, level
  // 2's with zeros (it only feeds planes before z0).
  float u1[N1][R + 1], l1[N1][R + 1], u2[R + 1], l2[R + 1];
#pragma unroll
  for (int i = 0; i < N1; ++i) {
#pragma unroll
    for (int d = 1; d <= R; ++d) {
      const int kz = z0 - 2 * R - 1 + d;
      u1[i][d] = in1[i] && kz >= 0 ? prev[kz * plane + off1[i]] : 0.0f;
    }
#pragma unroll
    for (int d = 0; d <= R; ++d) l1[i][d] = 0.0f;
  }
#pragma unroll
  for (int d = 0; d <= R; ++d) u2[d] = l2[d] = 0.0f;

  // Plane k of u^n is loaded for k = z0-R .. z1+2R-1 (z1+R-1 for one step); it finishes level-1
  // plane j = k-R and level-2 plane m = k-2R.
  const int kEnd = steps == 2 ? z1 + 2 * R : z1 + R;
  float pf[N0];
#pragma unroll
  for (int s = 0; s < N0; ++s) {
    const int kz = z0 - R;
    pf[s] = in0[s] && kz >= 0 ? prev[kz * plane + off0[s]] : 0.0f;
  }
  for (int k = z0 - R; k < kEnd; ++k) {
    const int j = k - R, m = k - 2 * R;
    const bool interior1 = j >= R && j < n3 + R;
    // What the planes finished in this iteration read besides the queues (in flight over the barrier).
    float older1[N1], vel1[N1];
#pragma unroll
    for (int i = 0; i < N1; ++i) {
      const bool reads = in1[i] && interior1 && j >= z0 - R;
      older1[i] = reads ? older[j * plane + off1[i]] : 0.0f;
      vel1[i] = reads ? vel[j * plane + off1[i]] : 0.0f;
    }
    const bool finishes2 = steps == 2 && in2 && m >= z0;
    const float prev2 = finishes2 ? prev[m * plane + off2] : 0.0f;
    const float vel2 = finishes2 ? vel[m * plane + off2] : 0.0f;

#pragma unroll
    for (int s = 0; s < N0; ++s)
      if (lid + s * WG < L0W * L0H) t0[lid + s * WG] = pf[s];
    barrier(CLK_LOCAL_MEM_FENCE);  // plane k of u^n is in t0
#pragma unroll
    for (int s = 0; s < N0; ++s) {
      const int kz = k + 1;
      pf[s] = in0[s] && kz < nz ? prev[kz * plane + off0[s]] : 0.0f;
    }

    // Level 1: plane k enters the queues; its own Laplacian while it is a plane level 2 needs.
    const bool own1 = k >= R && k < n3 + R && k < z1 + R;
#pragma unroll
    for (int i = 0; i < N1; ++i) {
#pragma unroll
      for (int d = 0; d < R; ++d) {
        u1[i][d] = u1[i][d + 1];
        l1[i][d] = l1[i][d + 1];
      }
      u1[i][R] = t0[loc0[i]];
#pragma unroll
      for (int d = 0; d < R; ++d) l1[i][d] += coef[R - d] * u1[i][R];
      l1[i][R] = own1 && in1[i] ? plane_laplacian(t0 + loc0[i], L0W, u1[i], coef) : 0.0f;
    }
    // Level 1, plane j is complete (from k = z0 on): u^(n+1) into t1, with the source term of step n.
    const bool finishes1 = k >= z0;  // the same for the whole work-group
    if (finishes1) {
#pragma unroll
      for (int i = 0; i < N1; ++i) {
        float w = 0.0f;
        if (in1[i] && interior1) {
#if DAMPING
          const float g = gxy1[i] * gz[j];
#else
          const float g = 1.0f;
#endif
          w = WAVE_STEP(u1[i][0], older1[i], vel1[i], l1[i][0], g);
          if (j * plane + off1[i] == src_index) w += src_value;
        }
        if (lid + i * WG < L1W * L1H) t1[lid + i * WG] = w;
      }
    }
    // Plane j of u^(n+1) is in t1, and every work-item has finished reading t0 (the next store).
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!finishes1) continue;

    // Level 2: plane j of u^(n+1) enters the queues; it is written out while it is this chunk's.
    const bool own2 = j >= z0 && j < z1;
#pragma unroll
    for (int d = 0; d < R; ++d) {
      u2[d] = u2[d + 1];
      l2[d] = l2[d + 1];
    }
    u2[R] = t1[loc1];
    if (own2 && in2) out1[j * plane + off2] = u2[R];
    if (steps == 2) {
#pragma unroll
      for (int d = 0; d < R; ++d) l2[d] += coef[R - d] * u2[R];
      l2[R] = own2 ? plane_laplacian(t1 + loc1, L1W, u2, coef) : 0.0f;
      // Level 2, plane m is complete: u^(n+2).
      if (finishes2) {
#if DAMPING
        const float g = gxy2 * gz[m];
#else
        const float g = 1.0f;
#endif
        out2[m * plane + off2] = WAVE_STEP(u2[0], prev2, vel2, l2[0], g);
      }
    }
    // The next iteration stores t1 only after its first barrier, which every work-item reaches
    // only once it has finished reading t1 here.
  }
}
