// gpu-optimized for GPUs: 2.5D blocking with
//  - a TX x TY work-group where each work-item owns XV consecutive x points (one OpenCL vector:
//    float, float2 or float4) in each of YB consecutive rows. The vector cuts the local-memory
//    traffic of the x-neighbours from 2R+1 loads per point to (XV+2R)/XV wide loads per XV points;
//    register blocking along y cuts the y-neighbours to YB+2R loads per YB rows,
//  - a z register queue of 2R+1 vectors per row,
//  - a double-buffered local tile, so one barrier per plane suffices,
//  - software pipelining: while plane z is computed, every global load that plane z+PREFETCH needs
//    (the z queue's new value, the tile's halo cells, vel and next) is in flight, so a load has
//    PREFETCH iterations to arrive (loading vel and next in the iteration that uses them was 7-15 %
//    slower on the H100, docs/GPU_NOTES.md),
//  - the z loop unrolled Z_UNROLL times, so that most of the queues' shifts become register renaming
//    instead of moves,
//  - the Laplacian summed axis by axis (x, then y, then z), so that only one axis's neighbours are
//    live at a time.
// ASYNC = 1 (NVIDIA compute capability 8.0+, inline PTX): the halo and the z queue's new values of
// plane z+PREFETCH are copied global -> local memory by cp.async, without passing through registers,
// into a ring of PREFETCH+1 planes; ASYNC = 2 copies vel and next that way too. The registers then
// hold little more than the z queue, so more points (and larger tiles, with less halo traffic) fit on
// a multiprocessor.
// Any tile size is legal; partial tiles read and write nothing outside the padded grid. ALIGNED = 1
// (set by the host when nx is a multiple of XV) lets the global accesses be whole aligned vectors:
// every vector of the tile then lies entirely inside or entirely outside the grid.
#ifndef XV
#define XV 1
#endif
#ifndef ALIGNED
#define ALIGNED 0
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
#define PRAGMA(x) _Pragma(#x)
#define UNROLL(n) PRAGMA(unroll n)  // a macro argument inside #pragma is not expanded; in _Pragma it is

#if XV == 1
typedef float vec;
#define VLOADU(p) (*(p))
#define VSTOREU(v, p) (*(p) = (v))
#define VMAKE(a, i) ((a)[i])
#define VLANE(v, l) (v)
#elif XV == 2
typedef float2 vec;
#define VLOADU(p) vload2(0, p)
#define VSTOREU(v, p) vstore2(v, 0, p)
#define VMAKE(a, i) ((float2)((a)[i], (a)[(i) + 1]))
#define VLANE(v, l) ((l) == 0 ? (v).s0 : (v).s1)
#elif XV == 4
typedef float4 vec;
#define VLOADU(p) vload4(0, p)
#define VSTOREU(v, p) vstore4(v, 0, p)
#define VMAKE(a, i) ((float4)((a)[i], (a)[(i) + 1], (a)[(i) + 2], (a)[(i) + 3]))
#define VLANE(v, l) ((l) == 0 ? (v).s0 : (l) == 1 ? (v).s1 : (l) == 2 ? (v).s2 : (v).s3)
#else
#error "XV (x points per work-item) must be 1, 2 or 4"
#endif

#define RV (R / XV)             // vectors in one side of an x halo (R is a multiple of every XV)
#define TXV (TX * XV)           // tile width in points
#define ROWS (TY * YB)
#define LWV (TXV / XV + 2 * RV) // tile row in vectors
#define LH (ROWS + 2 * R)
#define WG (TX * TY)
#define HALO_X (ROWS * 2 * RV)  // x-halo vectors per plane
#define HALO (HALO_X + 2 * R * TX)
#define HPT ((HALO + WG - 1) / WG)  // halo vectors each work-item loads per plane
#define OWN (ROWS * TX)         // vectors of the tile's interior (one per work-item and row)
#if ASYNC
#define NS (PREFETCH + 1)       // tile ring: planes z .. z+PREFETCH
#define OWN_ARRAYS (ASYNC == 2 ? 3 : 1)  // own vectors copied per plane: prev of the z queue (+ vel, next)
#else
#define NS 2                    // double buffer
#endif

// The vector p[i .. i+XV-1]; lanes at and past `lanes` (0..XV) are outside the grid and read as 0.
inline vec gload(__global const float* restrict p, int i, int lanes) {
#if ALIGNED
  return lanes > 0 ? *(__global const vec*)(p + i) : (vec)(0.0f);
#else
  if (lanes >= XV) return VLOADU(p + i);
  float e[XV];
#pragma unroll
  for (int l = 0; l < XV; ++l) e[l] = l < lanes ? p[i + l] : 0.0f;
  return VMAKE(e, 0);
#endif
}

// Stores lanes 0 .. lanes-1 of v at p[i ..].
inline void gstore(__global float* restrict p, int i, int lanes, vec v) {
#if ALIGNED
  if (lanes > 0) *(__global vec*)(p + i) = v;
#else
  if (lanes >= XV) {
    VSTOREU(v, p + i);
  } else {
#pragma unroll
    for (int l = 0; l < XV; ++l)
      if (l < lanes) p[i + l] = VLANE(v, l);
  }
#endif
}

#if ASYNC
#define STR_(x) #x
#define STR(x) STR_(x)
#define CP_BYTES (4 * XV)
#if XV == 4
#define CP_CACHE "cg"  // 16-byte copies may skip L1 (data read once per work-group)
#else
#define CP_CACHE "ca"
#endif
// Starts copying the vector p[i ..] to *dst without passing through registers (PTX cp.async);
// lanes at and past `lanes` are zero-filled and never read (their source address is p itself).
inline void copy_async(__local vec* dst, __global const float* p, int i, int lanes) {
#if ALIGNED
  __asm__ __volatile__("cp.async." CP_CACHE ".shared.global [%0], [%1], " STR(CP_BYTES) ", %2;" ::"l"((ulong)dst),
               "l"(lanes > 0 ? p + i : p), "r"(lanes > 0 ? CP_BYTES : 0)
               : "memory");
#else
#pragma unroll
  for (int l = 0; l < XV; ++l)
    __asm__ __volatile__("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"l"((ulong)dst + 4 * l),
                 "l"(l < lanes ? p + i + l : p), "r"(l < lanes ? 4 : 0)
                 : "memory");
#endif
}
#define COPY_COMMIT() __asm__ __volatile__("cp.async.commit_group;" ::: "memory")
#define COPY_WAIT(pending) __asm__ __volatile__("cp.async.wait_group " STR(pending) ";" ::: "memory")
#endif

__kernel __attribute__((reqd_work_group_size(TX, TY, 1))) void stencil(STENCIL_ARGS,
                                                                      const int z_chunk) {
  __local vec tile[NS * LH * LWV];
#if ASYNC
  // This work-item's own vectors of planes z .. z+PREFETCH: slot (a, s) of array a (0: prev of the z
  // queue's new plane, 1: vel, 2: next) holds OWN vectors, one per work-item and row.
  __local vec own[OWN_ARRAYS * NS * OWN];
#endif
  const int tx = get_local_id(0), ty = get_local_id(1), lid = ty * TX + tx;
  const int nx = n1 + 2 * R, ny = n2 + 2 * R, plane = nx * ny;
  const int x0 = (int)get_group_id(0) * TXV + R, y0 = (int)get_group_id(1) * ROWS + R;
  const int x = x0 + tx * XV;
  const int z0 = R + (int)get_group_id(2) * z_chunk;
  const int z1 = min(z0 + z_chunk, n3 + R);

  // This work-item's halo vectors: offset in the plane, lanes inside the grid (0: none, reads as 0)
  // and place in the tile (-1: no vector, the slot is past the halo).
  int hoff[HPT], hlanes[HPT], hloc[HPT];
#pragma unroll
  for (int s = 0; s < HPT; ++s) {
    const int h = lid + s * WG;
    int px, py, lrow, lcol;
    if (h < HALO_X) {
      const int row = h / (2 * RV), k = h % (2 * RV);
      lcol = k < RV ? k : TX + k;
      lrow = row + R;
      px = x0 - R + lcol * XV;
      py = y0 + row;
    } else {
      const int k = (h - HALO_X) / TX, col = (h - HALO_X) % TX;
      lrow = k < R ? k : ROWS + k;
      lcol = col + RV;
      px = x0 + col * XV;
      py = y0 - R + lrow;
    }
    hoff[s] = py * nx + px;
    hlanes[s] = h < HALO && py < ny ? clamp(nx - px, 0, XV) : 0;
    hloc[s] = h < HALO ? lrow * LWV + lcol : -1;
  }

  // Lanes of this work-item's rows inside the grid (read) and inside the interior (written).
  int off[YB], lanesIn[YB], lanesAct[YB];
#pragma unroll
  for (int b = 0; b < YB; ++b) {
    const int y = y0 + ty * YB + b;
    off[b] = y * nx + x;
    lanesIn[b] = y < ny ? clamp(nx - x, 0, XV) : 0;
    lanesAct[b] = y < n2 + R ? clamp(n1 + R - x, 0, XV) : 0;
  }
#if DAMPING
  const vec gxv = gload(gx, x, clamp(nx - x, 0, XV));
#endif

  vec q[YB][2 * R + 1];  // the z queue: planes z-R .. z+R of this work-item's vectors
#pragma unroll
  for (int b = 0; b < YB; ++b) {
#pragma unroll
    for (int d = 0; d < 2 * R; ++d) q[b][d] = gload(prev, (z0 + d - R) * plane + off[b], lanesIn[b]);
  }
#if ASYNC
  // Plane zt's copies into ring slot `slot`: its halo into the tile, this work-item's vectors of the z
  // queue's new plane (zt+R) (and of vel and next) into `own`. Each work-item reads back only its own.
#define ISSUE_COPIES(zt, slot)                                                                          \
  {                                                                                                     \
    __local vec* ts = tile + (slot) * (LH * LWV);                                                       \
    _Pragma("unroll") for (int s = 0; s < HPT; ++s) if (hloc[s] >= 0)                                   \
        copy_async(ts + hloc[s], prev, (zt) * plane + hoff[s], hlanes[s]);                              \
    _Pragma("unroll") for (int b = 0; b < YB; ++b) {                                                    \
      const int o = (ty * YB + b) * TX + tx;                                                            \
      copy_async(own + (slot) * OWN + o, prev, ((zt) + R) * plane + off[b], lanesIn[b]);                \
      if (ASYNC == 2) {                                                                                 \
        copy_async(own + (NS + (slot)) * OWN + o, vel, (zt) * plane + off[b], lanesAct[b]);             \
        copy_async(own + (2 * NS + (slot)) * OWN + o, next, (zt) * plane + off[b], lanesAct[b]);        \
      }                                                                                                 \
    }                                                                                                   \
  }
  // Planes z0 .. z0+PREFETCH-1 before the loop, one commit group per plane (empty past the chunk).
#pragma unroll
  for (int p = 0; p < PREFETCH; ++p) {
    if (z0 + p < z1) ISSUE_COPIES(z0 + p, p);
    COPY_COMMIT();
  }
  int slot = 0;  // ring slot of plane z
#else
  int buf = 0;
#endif
  // Loads that go through registers run PREFETCH planes ahead of the arithmetic: slot p of each queue
  // below holds plane z+p's value (fq: the z queue's new entry, plane z+p+R; hq: halo vectors; vq, nq:
  // vel and next). Plane z0+p's loads are issued before the loop, as iteration z issues plane
  // z+PREFETCH's (each cell of next is read and written by this work-item only, so reading it early
  // is safe).
#define REG_FQ_HQ (ASYNC == 0)
#define REG_VQ_NQ (ASYNC < 2)
#define LOAD_REGISTER_QUEUES(zt, p, ours)                                                              \
  {                                                                                                    \
    const int zq = (ours) ? (zt) * plane : 0; /* (a plane index past the grid could overflow) */       \
    _Pragma("unroll") for (int b = 0; b < YB; ++b) {                                                   \
      if (REG_FQ_HQ) fq[b][p] = gload(prev, zq + R * plane + off[b], (ours) ? lanesIn[b] : 0);       \
      if (REG_VQ_NQ) {                                                                                 \
        vq[b][p] = gload(vel, zq + off[b], (ours) ? lanesAct[b] : 0);                                  \
        nq[b][p] = gload(next, zq + off[b], (ours) ? lanesAct[b] : 0);                                 \
      }                                                                                                \
    }                                                                                                  \
    if (REG_FQ_HQ) _Pragma("unroll") for (int s = 0; s < HPT; ++s)                                     \
        hq[s][p] = gload(prev, zq + hoff[s], (ours) ? hlanes[s] : 0);                                 \
  }
  vec fq[YB][PREFETCH], hq[HPT][PREFETCH], vq[YB][PREFETCH], nq[YB][PREFETCH];
#pragma unroll
  for (int p = 0; p < PREFETCH; ++p) LOAD_REGISTER_QUEUES(z0 + p, p, z0 + p < z1);

  UNROLL(Z_UNROLL)
  for (int z = z0; z < z1; ++z) {
    const int zp = z * plane;
    vec vcur[YB], ncur[YB];
#if ASYNC
    __local vec* t = tile + slot * (LH * LWV);
    COPY_WAIT(PREFETCH - 1);  // this work-item's copies of plane z have landed
#pragma unroll
    for (int b = 0; b < YB; ++b) {
      const int o = (ty * YB + b) * TX + tx;
      q[b][2 * R] = own[slot * OWN + o];
#if ASYNC == 2
      vcur[b] = own[(NS + slot) * OWN + o];
      ncur[b] = own[(2 * NS + slot) * OWN + o];
#endif
    }
#else
    __local vec* t = tile + buf * (LH * LWV);
#pragma unroll
    for (int b = 0; b < YB; ++b) q[b][2 * R] = fq[b][0];
#pragma unroll
    for (int s = 0; s < HPT; ++s)
      if (hloc[s] >= 0) t[hloc[s]] = hq[s][0];
#endif
#pragma unroll
    for (int b = 0; b < YB; ++b) {
      t[(ty * YB + b + R) * LWV + RV + tx] = q[b][R];
#if REG_VQ_NQ
      vcur[b] = vq[b][0];
      ncur[b] = nq[b][0];
#endif
    }
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
    LOAD_REGISTER_QUEUES(z + PREFETCH, PREFETCH - 1, z + PREFETCH < z1);

    barrier(CLK_LOCAL_MEM_FENCE);  // every work-item's halo and centre of plane z are in the tile
#if ASYNC
    // Plane z+PREFETCH goes to the slot of plane z-1, which every work-item has finished reading.
    if (z + PREFETCH < z1) ISSUE_COPIES(z + PREFETCH, slot == 0 ? NS - 1 : slot - 1);
    COPY_COMMIT();
#endif

    vec lap[YB];
#pragma unroll
    for (int b = 0; b < YB; ++b) {
      // x: the row's window of 2RV+1 vectors, i.e. points x-R .. x+XV-1+R, as scalars.
      const __local vec* row = t + (ty * YB + b + R) * LWV + tx;
      float w[XV + 2 * R];
#pragma unroll
      for (int k = 0; k <= 2 * RV; ++k) {
        const vec v = row[k];
#pragma unroll
        for (int l = 0; l < XV; ++l) w[k * XV + l] = VLANE(v, l);
      }
      lap[b] = coef[0] * q[b][R];
#pragma unroll
      for (int r = 1; r <= R; ++r) lap[b] += coef[r] * (VMAKE(w, R + r) + VMAKE(w, R - r));
    }
    // y: the column of YB+2R vectors above and below this work-item's rows.
    const __local vec* col = t + ty * YB * LWV + RV + tx;
#pragma unroll
    for (int r = 1; r <= R; ++r) {
#pragma unroll
      for (int b = 0; b < YB; ++b) lap[b] += coef[r] * (col[(b + R + r) * LWV] + col[(b + R - r) * LWV]);
    }
#pragma unroll
    for (int b = 0; b < YB; ++b) {
#pragma unroll
      for (int r = 1; r <= R; ++r) lap[b] += coef[r] * (q[b][R + r] + q[b][R - r]);
#if DAMPING
      const vec g = gxv * gy[min(y0 + ty * YB + b, ny - 1)] * gz[z];  // (rows past the grid: not stored)
#else
      const float g = 1.0f;
#endif
      const vec u = WAVE_STEP(q[b][R], ncur[b], vcur[b], lap[b], g);
      gstore(next, zp + off[b], lanesAct[b], u);
    }
#pragma unroll
    for (int b = 0; b < YB; ++b) {
#pragma unroll
      for (int d = 0; d < 2 * R; ++d) q[b][d] = q[b][d + 1];
    }
#if ASYNC
    slot = slot + 1 == NS ? 0 : slot + 1;
#else
    buf ^= 1;
#endif
  }
}
