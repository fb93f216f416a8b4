// gpu-temporal: temporal blocking, two time steps per pass over memory. A work-group owns a TX x TY
// tile of the x/y plane and streams it through z (a chunk of z_chunk planes), like gpu-optimized, but
// from u^(n-1) and u^n it computes u^(n+1) AND u^(n+2), the intermediate level never leaving the chip:
//  - level 0, u^n (prev): each plane's tile with a 2R-wide halo, (TX+4R) x (TY+4R) values, is loaded
//    once into local memory (t0), PREFETCH planes ahead of the arithmetic, every work-item a share:
//    through registers (a queue of PREFETCH planes, t0 double-buffered) or, with ASYNC (NVIDIA 8.0+),
//    by cp.async straight into a ring of PREFETCH+1 planes of t0;
//  - level 1, u^(n+1): on the tile with an R-wide halo, (TX+2R) x (TY+2R) points, in blocks of
//    XB x YB points, one block per work-item of the first NB1. Each point keeps gpu-optimized's trailing
//    register queues (R+1 values and R+1 Laplacians being summed): plane q is finished when plane q+R
//    of u^n arrives. The finished plane goes to t1, with the source term of step n added (src_index,
//    src_value), and the tile's points to out1;
//  - level 2, u^(n+2): on the tile, in blocks of XB x YB points, one per work-item of the last NB2, the
//    same queues fed from t1: plane q is finished when plane q+R of u^(n+1) arrives.
// The two groups run the same code on different planes, pipelined: in iteration k level 1 takes in
// plane k of u^n (t0) while level 2 takes in plane k-R-1 of u^(n+1), which level 1 wrote to t1 in the
// previous iteration. t0 is a ring and t1 double-buffered, so one barrier per plane suffices.
// What finishing a plane reads from global memory besides the queues (vel, and u^(n-1) at level 1 or
// u^n at level 2, at the work-item's own points) is loaded PREFETCH-1 iterations ahead, before the
// barrier (PREFETCH = 1: in the same iteration, so only the barrier's wait hides it). The z loop is
// unrolled Z_UNROLL times, so that the queues' shifts become register renaming.
// With 32 x 16 tiles of 2 x 2 blocks: 384 work-items on level 1 (its 48 x 32 points, 3x the tile's)
// and 128 on level 2, 72 registers of queues each, 36 KiB of local memory (48 KiB with ASYNC and
// PREFETCH 2: three planes of t0).
//
// DRAM traffic per pass and point: read u^(n-1), u^n, vel, write u^(n+1), u^(n+2): 20 B for two steps,
// 10 B per point-step (a single-step kernel moves at least 16). What is read again (the halos of
// u^n, u^(n-1) and vel, level 2's u^n and vel) was loaded by this or a neighbouring work-group shortly
// before and is meant to come from L2. The price: level 1 on 3x the tile's points (32 x 16), 4R more
// planes of u^n loaded per z chunk (the two levels' z halos), 2(R+1) registers per point and level.
//
// Why separate output buffers: a work-group reads u^(n-1) and u^n on its halo, which neighbouring
// work-groups update in the same launch, so nothing may be written in place; the host rotates four
// field buffers (u^(n-1), u^n -> u^(n+1), u^(n+2)).
//
// steps = 1 computes u^(n+1) alone (out2 untouched): the host's remainder step of an odd count; both
// levels compute a step with the same code, so the bits do not depend on how a count is cut.
// Any tile size that the blocks divide is legal; partial tiles read and write nothing outside the
// padded grid. Level-1 values outside the interior are 0, the reflecting halo every stage keeps.
#if !defined(TX) || !defined(TY) || !defined(XB) || !defined(YB)
#error "TX, TY (tile) and XB, YB (block of a work-item) are build options"
#endif
#if TX % XB || TY % YB || (2 * R) % XB || (2 * R) % YB
#error "XB must divide TX and 2R, YB must divide TY and 2R"
#endif

#ifndef PREFETCH
#define PREFETCH 1
#endif
#ifndef Z_UNROLL
#define Z_UNROLL 1
#endif
#ifndef ASYNC
#define ASYNC 0
#endif
#if PREFETCH < 1
#error "PREFETCH (planes of u^n loaded ahead) must be at least 1"
#endif

#define L0W (TX + 4 * R)  // level 0: tile + 2R halo
#define L0H (TY + 4 * R)
#define L1W (TX + 2 * R)  // level 1: tile + R halo
#define L1H (TY + 2 * R)
#define B1X (L1W / XB)    // level-1 blocks per row
#define NB1 (B1X * (L1H / YB))
#define B2X (TX / XB)
#define NB2 (B2X * (TY / YB))
#define WG (NB1 + NB2)
#define N0 ((L0W * L0H + WG - 1) / WG)  // level-0 values each work-item loads per plane
#if ASYNC
#define NS0 (PREFETCH + 1)  // t0 ring: planes k .. k+PREFETCH
#else
#define NS0 2               // t0 double buffer; planes k+1 .. k+PREFETCH wait in registers
#endif

// A plane enters the queues of a block whose point (0, 0) is at t in a local plane `width` wide: its
// values are queued and add their z terms to the R planes before it (l[..][0 .. R-1]); with `own`, its
// own Laplacian starts l[..][R] (centre, x, y, then the z terms of the R planes before it).
inline void enter_plane(const __local float* t, const int width, float u[YB][XB][R + 1], float l[YB][XB][R + 1],
                        const bool own, __constant float* coef) {
#pragma unroll
  for (int b = 0; b < YB; ++b) {
#pragma unroll
    for (int a = 0; a < XB; ++a) {
#pragma unroll
      for (int d = 0; d < R; ++d) {
        u[b][a][d] = u[b][a][d + 1];
        l[b][a][d] = l[b][a][d + 1];
      }
      u[b][a][R] = t[b * width + a];
#pragma unroll
      for (int d = 0; d < R; ++d) l[b][a][d] += coef[R - d] * u[b][a][R];
      l[b][a][R] = 0.0f;
    }
  }
  if (!own) return;
#pragma unroll
  for (int b = 0; b < YB; ++b) {
    // x: the row's window of XB+2R points, shared by the block's XB points.
    float w[XB + 2 * R];
#pragma unroll
    for (int i = 0; i < XB + 2 * R; ++i) w[i] = t[b * width + i - R];
#pragma unroll
    for (int a = 0; a < XB; ++a) {
      l[b][a][R] = coef[0] * u[b][a][R];
#pragma unroll
      for (int r = 1; r <= R; ++r) l[b][a][R] += coef[r] * (w[R + a + r] + w[R + a - r]);
    }
  }
  // y: the column of YB+2R points, shared by the block's YB rows.
#pragma unroll
  for (int r = 1; r <= R; ++r) {
#pragma unroll
    for (int b = 0; b < YB; ++b) {
#pragma unroll
      for (int a = 0; a < XB; ++a) l[b][a][R] += coef[r] * (t[(b + r) * width + a] + t[(b - r) * width + a]);
    }
  }
#pragma unroll
  for (int b = 0; b < YB; ++b) {
#pragma unroll
    for (int a = 0; a < XB; ++a) {
#pragma unroll
      for (int r = 1; r <= R; ++r) l[b][a][R] += coef[r] * u[b][a][R - r];
    }
  }
}

// Whether a work-item of level 1 (else level 2) finishes plane q in a pass of `steps` over planes
// z0 .. z1-1: level 1 the chunk with its R halo, level 2 the chunk, only in two-step passes.
inline bool finishes_plane(const bool level1, const int q, const int z0, const int z1, const int steps) {
  return level1 ? q >= z0 - R && q < z1 + R : steps == 2 && q >= z0 && q < z1;
}

// The arguments of a multi-step stage's kernel (the host's order, compute/OpenClSolver.cpp). It writes the
// padded planes [z_begin, z_end) (STENCIL_ARGS in common.cl), reading u^n up to 2R planes beyond them.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void stencil(
    __global const float* restrict older, __global const float* restrict prev, __global float* restrict out1,
    __global float* restrict out2, __global const float* restrict vel, __constant float* restrict coef,
    __global const float* restrict gx, __global const float* restrict gy, __global const float* restrict gz,
    const int n1, const int n2, const int n3, const int src_index, const float src_value, const int steps,
    const int z_begin, const int z_end, const int z_chunk) {
  __local float t0[NS0 * L0W * L0H];  // u^n: plane k in slot k mod NS0 (the ring advances with k)
  __local float t1[2 * L1W * L1H];    // u^(n+1): plane q in half q & 1
  const int lid = get_local_id(0);
  const int nx = n1 + 2 * R, ny = n2 + 2 * R, nz = n3 + 2 * R, plane = nx * ny;
  const int x0 = (int)get_group_id(0) * TX + R, y0 = (int)get_group_id(1) * TY + R;
  const int z0 = z_begin + (int)get_group_id(2) * z_chunk;  // this chunk writes planes z0 .. z1-1
  const int z1 = min(z0 + z_chunk, z_end);

  // Level-0 values of this work-item: element lid + s*WG of a t0 plane (row-major, L0W wide) is at
  // plane offset off0[s], or -1 where it lies outside the padded plane (reads as 0) or past t0's plane.
  int off0[N0];
#pragma unroll
  for (int s = 0; s < N0; ++s) {
    const int e = lid + s * WG, px = x0 - 2 * R + e % L0W, py = y0 - 2 * R + e / L0W;
    off0[s] = e < L0W * L0H && px >= 0 && px < nx && py >= 0 && py < ny ? py * nx + px : -1;
  }

  // This work-item's block: its origin (bx, by) in its level's region (level 1: the tile with its R
  // halo; level 2: the tile), in padded coordinates (px0, py0), and in the local plane it reads.
  const bool level1 = lid < NB1;
  const int blk = level1 ? lid : lid - NB1, perRow = level1 ? B1X : B2X;
  const int bx = blk % perRow * XB, by = blk / perRow * YB;
  const int px0 = level1 ? x0 - R + bx : x0 + bx, py0 = level1 ? y0 - R + by : y0 + by;
  const int width = level1 ? L0W : L1W, origin = (by + R) * width + bx + R;
  // Per point: interior or not (else its value is 0 and it reads nothing), plane offset, written to
  // out1 (level 1: the tile's points).
  int off[YB][XB];
  bool in[YB][XB], toOut1[YB][XB];
#if DAMPING
  float gxy[YB][XB];
#endif
#pragma unroll
  for (int b = 0; b < YB; ++b) {
#pragma unroll
    for (int a = 0; a < XB; ++a) {
      const int px = px0 + a, py = py0 + b;
      in[b][a] = px >= R && px < n1 + R && py >= R && py < n2 + R;
      off[b][a] = in[b][a] ? py * nx + px : 0;
      toOut1[b][a] = level1 && in[b][a] && px >= x0 && px < x0 + TX && py >= y0 && py < y0 + TY;
#if DAMPING
      gxy[b][a] = in[b][a] ? gx[px] * gy[py] : 0.0f;
#endif
    }
  }

  // The queues: level 1's start with planes z0-2R .. z0-R-1 of u^n, level 2's with zeros (they only
  // feed planes before z0).
  float u[YB][XB][R + 1], l[YB][XB][R + 1];
#pragma unroll
  for (int b = 0; b < YB; ++b) {
#pragma unroll
    for (int a = 0; a < XB; ++a) {
#pragma unroll
      for (int d = 0; d <= R; ++d) {
        const int kz = z0 - 2 * R - 1 + d;
        u[b][a][d] = level1 && in[b][a] && d > 0 && kz >= 0 ? prev[kz * plane + off[b][a]] : 0.0f;
        l[b][a][d] = 0.0f;
      }
    }
  }

  // Iteration k loads plane k of u^n (k = kBegin .. kEnd-1: z0-R .. z1+2R for two steps, z1+R-1 for
  // one). Level 1 takes in plane p = k and finishes q = k-R (planes z0-R .. z1+R-1 are needed); level
  // 2 takes in p = k-R-1 and finishes q = k-2R-1 (planes z0 .. z1-1).
  const int kBegin = z0 - R, kEnd = steps == 2 ? z1 + 2 * R + 1 : z1 + R;

  // Slot j of nq and vq holds what iteration k+j finishes with: u^(n-1) (level 1) or u^n (level 2),
  // and vel, at plane q of the work-item's points (0 where it finishes nothing or q is not interior).
  const __global float* restrict older_q = level1 ? older : prev;
  float nq[PREFETCH][YB][XB], vq[PREFETCH][YB][XB];
#define LOAD_FINISH_INPUTS(kt, j)                                                                          \
  {                                                                                                        \
    const int qt = (level1 ? (kt) : (kt) - R - 1) - R;                                                     \
    const bool reads = (kt) < kEnd && finishes_plane(level1, qt, z0, z1, steps) && qt >= R && qt < n3 + R; \
    _Pragma("unroll") for (int b = 0; b < YB; ++b) {                                                       \
      _Pragma("unroll") for (int a = 0; a < XB; ++a) {                                                     \
        nq[j][b][a] = reads && in[b][a] ? older_q[qt * plane + off[b][a]] : 0.0f;                          \
        vq[j][b][a] = reads && in[b][a] ? vel[qt * plane + off[b][a]] : 0.0f;                              \
      }                                                                                                    \
    }                                                                                                      \
  }
#pragma unroll
  for (int j = 0; j + 1 < PREFETCH; ++j) LOAD_FINISH_INPUTS(kBegin + j, j);

  // Level 0: planes kBegin .. kBegin+PREFETCH-1 before the loop, then plane k+PREFETCH in iteration
  // k. Planes past the grid read as 0; planes past kEnd-1 are not loaded (the last iterations use none).
#if ASYNC
  // One commit group per plane (empty ones past kEnd-1), so that waiting for all but the newest
  // PREFETCH-1 groups waits for plane k.
#define COPY_PLANE(kt, slot)                                                                                \
  {                                                                                                         \
    __local float* dst = t0 + (slot) * (L0W * L0H);                                                         \
    const bool inGrid = (kt) < nz;                                                                          \
    _Pragma("unroll") for (int s = 0; s < N0; ++s) {                                                        \
      const bool reads = inGrid && off0[s] >= 0;                                                            \
      if (lid + s * WG < L0W * L0H)                                                                         \
        CP_ASYNC("ca", 4, dst + lid + s * WG, reads ? prev + (kt) * plane + off0[s] : prev, reads ? 4 : 0); \
    }                                                                                                       \
  }
#pragma unroll
  for (int j = 0; j < PREFETCH; ++j) {
    if (kBegin + j < kEnd) COPY_PLANE(kBegin + j, j);
    COPY_COMMIT();
  }
  int slot = 0;  // the ring slot of plane k
#else
  float pf[PREFETCH][N0];  // slot j: this work-item's values of plane k+j
#define LOAD_PLANE(kt, j)                                   \
  _Pragma("unroll") for (int s = 0; s < N0; ++s) pf[j][s] = \
      (kt) < kEnd && (kt) < nz && off0[s] >= 0 ? prev[(kt) * plane + off0[s]] : 0.0f;
#pragma unroll
  for (int j = 0; j < PREFETCH; ++j) LOAD_PLANE(kBegin + j, j);
#endif

  // The z loop in steps of Z_UNROLL planes, the inner loop unrolled completely (clang refuses a partial
  // unroll of a loop with a barrier and a run-time trip count). The last step's iterations
  // past kEnd-1 only pass the barrier, so that every work-item meets every barrier unconditionally.
  for (int k0 = kBegin; k0 < kEnd; k0 += Z_UNROLL) {
#pragma unroll
    for (int c = 0; c < Z_UNROLL; ++c) {
      const int k = k0 + c;
      const bool live = k < kEnd;
      const int p = level1 ? k : k - R - 1, q = p - R;
      const bool finishes = live && finishes_plane(level1, q, z0, z1, steps);
      const bool interiorQ = q >= R && q < n3 + R;

#if ASYNC
      __local float* t0k = t0 + slot * (L0W * L0H);
      COPY_WAIT(PREFETCH - 1);  // this work-item's copies of plane k have landed
#else
      __local float* t0k = t0 + (k & 1) * (L0W * L0H);
#pragma unroll
      for (int s = 0; s < N0; ++s)
        if (lid + s * WG < L0W * L0H) t0k[lid + s * WG] = pf[0][s];
#pragma unroll
      for (int j = 0; j + 1 < PREFETCH; ++j) {
#pragma unroll
        for (int s = 0; s < N0; ++s) pf[j][s] = pf[j + 1][s];
      }
#endif
      LOAD_FINISH_INPUTS(k + PREFETCH - 1, PREFETCH - 1);  // in flight over the barrier at least
      // Plane k is in t0 and plane k-R-1 in t1; every work-item has finished reading what this iteration
      // overwrites (t0's plane k-1, whose slot plane k+PREFETCH takes with ASYNC, and t1's plane k-R-2,
      // both read in the previous iteration).
      barrier(CLK_LOCAL_MEM_FENCE);
#if ASYNC
      if (k + PREFETCH < kEnd) COPY_PLANE(k + PREFETCH, slot == 0 ? NS0 - 1 : slot - 1);
      COPY_COMMIT();
      slot = slot + 1 == NS0 ? 0 : slot + 1;
#else
      LOAD_PLANE(k + PREFETCH, PREFETCH - 1);
#endif

      // Level 2 starts R+1 iterations after level 1 and only in two-step passes.
      if (live && (level1 || (steps == 2 && p >= z0 - R))) {
        const __local float* t = level1 ? t0k : t1 + (p & 1) * (L1W * L1H);
        const bool own = level1 ? p >= R && p < n3 + R && p < z1 + R : p >= z0 && p < z1;
        enter_plane(t + origin, width, u, l, own, coef);
      }

      // Plane q is complete: level 1 writes u^(n+1) to t1 (with the source term of step n) and its
      // tile's points to out1; level 2 writes u^(n+2) to out2.
      if (finishes) {
        __local float* t1q = t1 + (q & 1) * (L1W * L1H);
#pragma unroll
        for (int b = 0; b < YB; ++b) {
#pragma unroll
          for (int a = 0; a < XB; ++a) {
            float w = 0.0f;
            if (interiorQ && in[b][a]) {
#if DAMPING
              const float g = gxy[b][a] * gz[q];
#else
              const float g = 1.0f;
#endif
              w = WAVE_STEP(u[b][a][0], nq[0][b][a], vq[0][b][a], l[b][a][0], g);
              if (level1 && q * plane + off[b][a] == src_index) w += src_value;
            }
            if (level1) {
              t1q[(by + b) * L1W + bx + a] = w;
              if (toOut1[b][a] && q >= z0 && q < z1) out1[q * plane + off[b][a]] = w;
            } else if (in[b][a]) {
              out2[q * plane + off[b][a]] = w;
            }
          }
        }
      }
#pragma unroll
      for (int j = 0; j + 1 < PREFETCH; ++j) {
#pragma unroll
        for (int b = 0; b < YB; ++b) {
#pragma unroll
          for (int a = 0; a < XB; ++a) {
            nq[j][b][a] = nq[j + 1][b][a];
            vq[j][b][a] = vq[j + 1][b][a];
          }
        }
      }
    }
  }
}
