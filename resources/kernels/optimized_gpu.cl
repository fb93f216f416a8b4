// gpu-optimized for GPUs: 2.5D blocking. Each work-group owns a tile of TXV x ROWS points of the x/y
// plane and streams it through z (a chunk of z_chunk planes), with
//  - every plane loaded once: plane k's tile (centre and R-wide halo) goes to local memory, and every
//    use of the plane reads it there: the x/y neighbours of its points, and its own values for the z
//    register queue. The output trails the loads by R planes: when plane k arrives, its x/y part of
//    the Laplacian is summed and queued, and plane k-R, whose z neighbours k-2R .. k are now all in
//    the register queue, is finished. A plane's halo is thus read in the iteration in which the
//    neighbouring work-groups read the same cells as their centre, while they are in L2. (Loading a
//    work-item's own values R planes ahead of its halo instead re-reads 2-3.5 B/pt from DRAM on an
//    H100, where DRAM traffic is the limit: docs/GPU_NOTES.md, runs 9-11.)
//  - XV consecutive x points per work-item as one OpenCL vector (float, float2, float4) in each of YB
//    consecutive rows: the x-neighbours cost (XV+2R)/XV wide local loads per XV points, the
//    y-neighbours YB+2R loads per YB rows,
//  - per row, a register queue of the R+1 latest planes' values and one of the R+1 Laplacians being
//    summed (each arriving plane adds its z terms to the R planes before it),
//  - software pipelining: while plane k is computed, the loads of plane k+PREFETCH (and vel and next
//    of the plane it finishes) are in flight,
//  - one barrier per plane (double-buffered tile, or a ring of PREFETCH+1 planes with async copies),
//  - the z loop unrolled Z_UNROLL times, so that the queues' shifts become register renaming.
// ASYNC = 1 (NVIDIA compute capability 8.0+, inline PTX): plane k+PREFETCH is copied global -> local
// memory by cp.async, without passing through registers; ASYNC = 2 copies vel and next that way too (as
// the fields are stored: with half fields, vel must be half too), which frees their register queues.
// Any tile size is legal; partial tiles read and write nothing outside the padded grid. ALIGNED = 1
// (set by the host when nx is a multiple of XV) lets the global accesses be whole aligned vectors:
// every vector of the tile then lies entirely inside or entirely outside the grid.
//
// The same kernel is gpu-half: FIELD_HALF = 1 (common.cl) stores the fields as IEEE half, read and written
// by vload_half / vstore_half_rte and computed in float; through registers the tile holds floats, with
// cp.async (which copies bytes) it holds the halves, half the local memory, converted where they are read.
// VEL_HALF = 1 stores vel so too, times vel_scale (a power of two, so that v²dt² of any model fits).
// INCREMENTAL = 1 keeps (U^n, D^n = U^n − U^(n−1)) instead of (u^n, u^(n−1)): `next` holds D, updated
// in place to D^(n+1) = D^n + v²dt²·L, and U^(n+1) = U^n + D^(n+1) goes to `unew`. A half D is much
// smaller than U and keeps its own 11 bits, so rounding no longer enters as an error of velocity
// (docs/NUMERICS.md, "Half-precision storage"). PML_FOLD = 1 adds the absorbing layer's terms in this pass
// (pml.cl) instead of the layer's own passes.
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
#ifndef UNROLL_BARRIER_LOOPS
#define UNROLL_BARRIER_LOOPS 0
#endif
#ifndef ASYNC
#define ASYNC 0
#endif

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
// The same vectors stored as halves (vload/vstore: any half boundary; the "a" forms: the vector's own).
#if XV == 1
#define VLOAD_HALF(i, p) vload_half(i, p)
#define VLOADA_HALF(i, p) vload_half(i, p)
#define VSTORE_HALF(v, i, p) vstore_half_rte(v, i, p)
#define VSTOREA_HALF(v, i, p) vstore_half_rte(v, i, p)
#elif XV == 2
#define VLOAD_HALF(i, p) vload_half2(i, p)
#define VLOADA_HALF(i, p) vloada_half2(i, p)
#define VSTORE_HALF(v, i, p) vstore_half2_rte(v, i, p)
#define VSTOREA_HALF(v, i, p) vstorea_half2_rte(v, i, p)
#else
#define VLOAD_HALF(i, p) vload_half4(i, p)
#define VLOADA_HALF(i, p) vloada_half4(i, p)
#define VSTORE_HALF(v, i, p) vstore_half4_rte(v, i, p)
#define VSTOREA_HALF(v, i, p) vstorea_half4_rte(v, i, p)
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
#define NS (PREFETCH + 1)       // tile ring: planes k .. k+PREFETCH
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
inline vec gload_half(__global const half* restrict p, int i, int lanes) {
#if ALIGNED
  return lanes > 0 ? VLOADA_HALF(0, p + i) : (vec)(0.0f);
#else
  if (lanes >= XV) return VLOAD_HALF(0, p + i);
  float e[XV];
#pragma unroll
  for (int l = 0; l < XV; ++l) e[l] = l < lanes ? vload_half(i + l, p) : 0.0f;
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
inline void gstore_half(__global half* restrict p, int i, int lanes, vec v) {
#if ALIGNED
  if (lanes > 0) VSTOREA_HALF(v, 0, p + i);
#else
  if (lanes >= XV) {
    VSTORE_HALF(v, 0, p + i);
  } else {
#pragma unroll
    for (int l = 0; l < XV; ++l)
      if (l < lanes) vstore_half_rte(VLANE(v, l), i + l, p);
  }
#endif
}

// The fields and vel as stored (common.cl): the float or half forms above.
#if FIELD_HALF
#define LOAD_U(p, i, lanes) gload_half(p, i, lanes)
#define STORE_U(p, i, lanes, v) gstore_half(p, i, lanes, v)
#else
#define LOAD_U(p, i, lanes) gload(p, i, lanes)
#define STORE_U(p, i, lanes, v) gstore(p, i, lanes, v)
#endif
#if VEL_HALF
#define SCALE_VEL(v) ((v) * vel_scale)  // v²dt² from its stored value
#define LOAD_VEL(p, i, lanes) SCALE_VEL(gload_half(p, i, lanes))
#else
#define SCALE_VEL(v) (v)
#define LOAD_VEL(p, i, lanes) gload(p, i, lanes)
#endif

// The tile in local memory: vectors of floats, or with cp.async of halves (TILE_SCALE halves a vector;
// declared as ushort, since without cl_khr_fp16 only pointers may have type half), indexed in vectors
// either way.
#if ASYNC && FIELD_HALF
#define TILE_ELEM ushort
#define TILE_SCALE XV
#define TILE_AT(t, i) VLOADA_HALF(i, (__local const half*)(t))
#else
#define TILE_ELEM vec
#define TILE_SCALE 1
#define TILE_AT(t, i) ((t)[i])
#endif

#if ASYNC
#if FIELD_HALF  // a literal: it goes into the PTX text
#if !ALIGNED || XV == 1
#error "cp.async of half vectors needs 2 or 4 x points and rows that start on a vector boundary"
#endif
#define CP_BYTES (2 * XV)
#else
#define CP_BYTES (4 * XV)
#endif
#if CP_BYTES == 16
#define CP_CACHE "cg"  // 16-byte copies may skip L1 (data read once per work-group)
#else
#define CP_CACHE "ca"
#endif
// Starts copying the vector p[i ..] to dst (CP_ASYNC, common.cl); lanes at and past `lanes` are
// zero-filled and never read (their source address is p itself).
inline void copy_async(__local TILE_ELEM* dst, __global const FIELD_T* p, int i, int lanes) {
#if ALIGNED
  CP_ASYNC(CP_CACHE, CP_BYTES, dst, lanes > 0 ? p + i : p, lanes > 0 ? CP_BYTES : 0);
#else
#pragma unroll
  for (int l = 0; l < XV; ++l) CP_ASYNC("ca", 4, (__local float*)dst + l, l < lanes ? p + i + l : p, l < lanes ? 4 : 0);
#endif
}
#endif

// The arguments after STENCIL_ARGS and the z chunk, as the storage (common.cl) and the layer ask (the
// host sets them in this order).
#if PML_FOLD
#define FOLD_ARGS , PML_FOLD_ARGS
#else
#define FOLD_ARGS
#endif

__kernel __attribute__((reqd_work_group_size(TX, TY, 1))) void stencil(STENCIL_ARGS, const int z_chunk
                                                                      INCREMENTAL_ARGS VEL_SCALE_ARGS FOLD_ARGS) {
  __local TILE_ELEM tile[NS * LH * LWV * TILE_SCALE] __attribute__((aligned(16)));
#if ASYNC == 2 && FIELD_HALF && !VEL_HALF
#error "async_copy 2 copies vel as the fields are stored: with half fields, vel in half too"
#endif
#if ASYNC == 2
  // vel and next of the plane that each ring slot's plane finishes: slot (a, s) of array a (0: vel,
  // 1: next) holds OWN vectors, one per work-item and row, as the tile holds them (floats, or halves read
  // by TILE_AT); each work-item reads back only its own.
  __local TILE_ELEM vn[2 * NS * OWN * TILE_SCALE] __attribute__((aligned(16)));
#endif
  const int tx = get_local_id(0), ty = get_local_id(1), lid = ty * TX + tx;
  const int nx = n1 + 2 * R, ny = n2 + 2 * R, plane = nx * ny;
  const int x0 = (int)get_group_id(0) * TXV + R, y0 = (int)get_group_id(1) * ROWS + R;
  const int x = x0 + tx * XV;
  const int z0 = z_begin + (int)get_group_id(2) * z_chunk;  // this chunk finishes planes z0 .. z1-1
  const int z1 = min(z0 + z_chunk, z_end);
  const int k1 = z1 + R;  // and loads planes z0 .. k1-1 (z0-R .. z0-1 go straight to the u queue)

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

  // This work-item's rows: offset in the plane, place of its vector in the tile, lanes inside the
  // grid (read) and inside the interior (written).
  int off[YB], loc[YB], lanesIn[YB], lanesAct[YB];
#pragma unroll
  for (int b = 0; b < YB; ++b) {
    const int y = y0 + ty * YB + b;
    off[b] = y * nx + x;
    loc[b] = (ty * YB + b + R) * LWV + RV + tx;
    lanesIn[b] = y < ny ? clamp(nx - x, 0, XV) : 0;
    lanesAct[b] = y < n2 + R ? clamp(n1 + R - x, 0, XV) : 0;
  }
#if DAMPING
  const vec gxv = gload(gx, x, clamp(nx - x, 0, XV));
#endif
#if PML_FOLD
  // Whether the tile meets the reach of x's or y's layer (then its cells are checked one by one).
  const int bandX = pml_wx + PML_M, bandY = pml_wy + PML_M;
  const bool foldX = pml_wx > 0 && (2 * bandX >= n1 || x0 - R < bandX || x0 - R + TXV > n1 - bandX);
  const bool foldY = pml_wy > 0 && (2 * bandY >= n2 || y0 - R < bandY || y0 - R + ROWS > n2 - bandY);
#endif

  // Two queues per row, shifted at the top of each iteration (index R: the newest plane k): u holds
  // this work-item's values of planes k-R .. k, and lap the Laplacians of planes k-R .. k being
  // summed: plane k's x/y sums and its z terms of planes k-R .. k start lap[R]; plane k adds its
  // c_r u terms to planes k-R .. k-1. lap[0] (plane k-R) is then complete. Before the first plane of
  // the loop, u[1 .. R] hold planes z0-R .. z0-1.
  vec u[YB][R + 1], lap[YB][R + 1];
#pragma unroll
  for (int b = 0; b < YB; ++b) {
#pragma unroll
    for (int i = 1; i <= R; ++i) u[b][i] = LOAD_U(prev, (z0 - R - 1 + i) * plane + off[b], lanesIn[b]);
#pragma unroll
    for (int i = 0; i <= R; ++i) lap[b][i] = (vec)(0.0f);
  }

  // Plane kt's loads: its tile (centre; halo only while kt < z1, where its x/y sums are needed), and
  // vel and next of plane kt-R, which plane kt finishes when that is one of this chunk's.
#if ASYNC
#if ASYNC == 2
#define COPY_VEL_NEXT(kt, slot)                                                                         \
  if ((kt) - R >= z0) _Pragma("unroll") for (int b = 0; b < YB; ++b) {                                  \
      const int o = (ty * YB + b) * TX + tx;                                                            \
      copy_async(vn + ((slot) * OWN + o) * TILE_SCALE, vel, ((kt) - R) * plane + off[b], lanesAct[b]);   \
      copy_async(vn + ((NS + (slot)) * OWN + o) * TILE_SCALE, next, ((kt) - R) * plane + off[b],        \
                 lanesAct[b]);                                                                          \
    }
#else
#define COPY_VEL_NEXT(kt, slot)
#endif
#define ISSUE_COPIES(kt, slot)                                                                          \
  {                                                                                                     \
    __local TILE_ELEM* ts = tile + (slot) * (LH * LWV * TILE_SCALE);                                    \
    _Pragma("unroll") for (int b = 0; b < YB; ++b)                                                      \
        copy_async(ts + loc[b] * TILE_SCALE, prev, (kt) * plane + off[b], lanesIn[b]);                  \
    if ((kt) < z1) _Pragma("unroll") for (int s = 0; s < HPT; ++s) if (hloc[s] >= 0)                    \
        copy_async(ts + hloc[s] * TILE_SCALE, prev, (kt) * plane + hoff[s], hlanes[s]);                 \
    COPY_VEL_NEXT(kt, slot)                                                                             \
  }
  // Planes z0 .. z0+PREFETCH-1 before the loop, one commit group per plane (empty past the chunk).
#pragma unroll
  for (int p = 0; p < PREFETCH; ++p) {
    if (z0 + p < k1) ISSUE_COPIES(z0 + p, p);
    COPY_COMMIT();
  }
  int slot = 0;  // ring slot of plane k
#else
  int buf = 0;
#endif
  // Loads through registers: slot p of each queue holds plane k+p's (cq: centre, hq: halo; vq, nq:
  // vel and next of plane k+p-R). Iteration k issues plane k+PREFETCH's.
#define REG_TILE (ASYNC == 0)
#define REG_VN (ASYNC < 2)
#define LOAD_REGISTER_QUEUES(kt, p)                                                                    \
  {                                                                                                    \
    const bool ours = (kt) < k1, finishes = ours && (kt) - R >= z0;                                    \
    const int zt = ours ? (kt) * plane : 0, zo = finishes ? ((kt) - R) * plane : 0;                    \
    _Pragma("unroll") for (int b = 0; b < YB; ++b) {                                                   \
      if (REG_TILE) cq[b][p] = LOAD_U(prev, zt + off[b], ours ? lanesIn[b] : 0);                       \
      if (REG_VN) {                                                                                    \
        vq[b][p] = LOAD_VEL(vel, zo + off[b], finishes ? lanesAct[b] : 0);                             \
        nq[b][p] = LOAD_U(next, zo + off[b], finishes ? lanesAct[b] : 0);                              \
      }                                                                                                \
    }                                                                                                  \
    if (REG_TILE) _Pragma("unroll") for (int s = 0; s < HPT; ++s)                                      \
        hq[s][p] = LOAD_U(prev, zt + hoff[s], ours && (kt) < z1 ? hlanes[s] : 0);                     \
  }
  vec cq[YB][PREFETCH], hq[HPT][PREFETCH], vq[YB][PREFETCH], nq[YB][PREFETCH];
#pragma unroll
  for (int p = 0; p < PREFETCH; ++p) LOAD_REGISTER_QUEUES(z0 + p, p);

  // Z_UNROLL copies of the body where the device's compiler can make them (UNROLL_BARRIER_LOOPS, from
  // the host: NVIDIA's, cl_nv_pragma_unroll); PoCL's cannot partially unroll a loop that holds a barrier
  // and has a run-time trip count, and would only warn, so there the loop stays as written.
#if UNROLL_BARRIER_LOOPS
  UNROLL(Z_UNROLL)
#endif
  for (int k = z0; k < k1; ++k) {
    vec vcur[YB], ncur[YB];
#if ASYNC
    __local TILE_ELEM* t = tile + slot * (LH * LWV * TILE_SCALE);
    COPY_WAIT(PREFETCH - 1);  // this work-item's copies of plane k have landed
#if ASYNC == 2
#pragma unroll
    for (int b = 0; b < YB; ++b) {
      const int o = (ty * YB + b) * TX + tx;
      vcur[b] = SCALE_VEL(TILE_AT(vn, slot * OWN + o));
      ncur[b] = TILE_AT(vn, (NS + slot) * OWN + o);
    }
#endif
#else
    __local vec* t = tile + buf * (LH * LWV);
#pragma unroll
    for (int b = 0; b < YB; ++b) t[loc[b]] = cq[b][0];
#pragma unroll
    for (int s = 0; s < HPT; ++s)
      if (hloc[s] >= 0) t[hloc[s]] = hq[s][0];
#endif
#if REG_VN
#pragma unroll
    for (int b = 0; b < YB; ++b) {
      vcur[b] = vq[b][0];
      ncur[b] = nq[b][0];
    }
#endif
#pragma unroll
    for (int p = 0; p + 1 < PREFETCH; ++p) {
#pragma unroll
      for (int b = 0; b < YB; ++b) {
        cq[b][p] = cq[b][p + 1];
        vq[b][p] = vq[b][p + 1];
        nq[b][p] = nq[b][p + 1];
      }
#pragma unroll
      for (int s = 0; s < HPT; ++s) hq[s][p] = hq[s][p + 1];
    }
    LOAD_REGISTER_QUEUES(k + PREFETCH, PREFETCH - 1);

    barrier(CLK_LOCAL_MEM_FENCE);  // every work-item's part of plane k is in the tile
#if ASYNC
    // Plane k+PREFETCH goes to the slot of plane k-1, which every work-item has finished reading.
    if (k + PREFETCH < k1) ISSUE_COPIES(k + PREFETCH, slot == 0 ? NS - 1 : slot - 1);
    COPY_COMMIT();
#endif

    // Plane k: its values enter u and add their z terms to the Laplacians of planes k-R .. k-1.
#pragma unroll
    for (int b = 0; b < YB; ++b) {
#pragma unroll
      for (int d = 0; d < R; ++d) {
        u[b][d] = u[b][d + 1];
        lap[b][d] = lap[b][d + 1];
      }
      u[b][R] = TILE_AT(t, loc[b]);
#pragma unroll
      for (int d = 0; d < R; ++d) lap[b][d] += coef[R - d] * u[b][R];
    }
    // Plane k's own Laplacian, while it is one of this chunk's: x/y sums, then its z terms so far.
    // ROW_WINDOW(w, b): row b's window of 2RV+1 vectors of the tile t, i.e. points x-R .. x+XV-1+R, as
    // the scalars w[0 .. XV+2R-1].
#define ROW_WINDOW(w, b)                                                                                \
  _Pragma("unroll") for (int wv = 0; wv <= 2 * RV; ++wv) {                                              \
    const vec we = TILE_AT(t, loc[b] - RV + wv);                                                        \
    _Pragma("unroll") for (int wl = 0; wl < XV; ++wl)(w)[wv * XV + wl] = VLANE(we, wl);                 \
  }
    if (k < z1) {
#pragma unroll
      for (int b = 0; b < YB; ++b) {
        float w[XV + 2 * R];  // x: the row's window
        ROW_WINDOW(w, b);
        lap[b][R] = coef[0] * u[b][R];
#pragma unroll
        for (int r = 1; r <= R; ++r) lap[b][R] += coef[r] * (VMAKE(w, R + r) + VMAKE(w, R - r));
      }
      // y: the column of YB+2R vectors above and below this work-item's rows.
      const int col = loc[0] - R * LWV;  // the tile's column of this work-item's vectors, from row −R
#pragma unroll
      for (int r = 1; r <= R; ++r) {
#pragma unroll
        for (int b = 0; b < YB; ++b)
          lap[b][R] += coef[r] * (TILE_AT(t, col + (b + R + r) * LWV) + TILE_AT(t, col + (b + R - r) * LWV));
      }
#pragma unroll
      for (int b = 0; b < YB; ++b) {
#pragma unroll
        for (int r = 1; r <= R; ++r) lap[b][R] += coef[r] * u[b][R - r];
      }
#if PML_FOLD
      // The absorbing layer's x and y terms of plane k's cells (pml.cl), where the tile meets their reach:
      // u along x from the tile's rows, along y from its column.
      if (foldX || foldY) {
        const int kz = k - R;
#pragma unroll
        for (int b = 0; b < YB; ++b) {
          const int j = y0 + ty * YB + b - R;
          float xw[XV + 2 * R];
          ROW_WINDOW(xw, b);
          float extra[XV];
#pragma unroll
          for (int l = 0; l < XV; ++l) {
            const int i = x - R + l;
            extra[l] = 0.0f;
            if (i >= n1 || j >= n2) continue;
            if (foldX && pml_reaches(i, n1, pml_wx))
              extra[l] += pml_fold_term(xw + l, i, n1, pml_wx, pml_psi_old_x, pml_psi_new_x, pml_zeta_x, pml_rec_x,
                                        pml_d1, coef, (kz * n2 + j) * 2 * pml_wx, 1, 0);
            if (foldY && pml_reaches(j, n2, pml_wy)) {
              float yw[2 * R + 1];
#pragma unroll
              for (int d = 0; d <= 2 * R; ++d) yw[d] = VLANE(TILE_AT(t, col + (b + d) * LWV), l);
              extra[l] += pml_fold_term(yw, j, n2, pml_wy, pml_psi_old_y, pml_psi_new_y, pml_zeta_y, pml_rec_y,
                                        pml_d1, coef, kz * 2 * pml_wy * n1 + i, n1, 0);
            }
          }
          lap[b][R] += VMAKE(extra, 0);
        }
      }
#endif
    }

    // Plane k-R: its Laplacian is complete.
    if (k - R >= z0) {
      const int zo = k - R;
#if PML_FOLD
      // The layer's z term, where it reaches the plane: u along z from zo − R (the planes before the
      // queue's, from memory) to zo + R (the queue). Planes are numbered in the whole axis (a slab's
      // from pml_z_first); the first and last planes store ψ just outside them (PML_FOLD_BELOW).
      const int zc = pml_z_first + zo - R;
      const int edges = (zo - R == 0 ? PML_FOLD_BELOW : 0) | (zo - R == n3 - 1 ? PML_FOLD_ABOVE : 0);
      if (pml_reaches(zc, pml_z_cells, pml_wz)) {
#pragma unroll
        for (int b = 0; b < YB; ++b) {
          const int j = y0 + ty * YB + b - R;
          float extra[XV];
#pragma unroll
          for (int l = 0; l < XV; ++l) {
            const int i = x - R + l;
            extra[l] = 0.0f;
            if (i >= n1 || j >= n2) continue;
            float zw[2 * R + 1];
#pragma unroll
            for (int d = 0; d < R; ++d) zw[d] = LOAD_FIELD(prev, (zo - R + d) * plane + off[b] + l);
#pragma unroll
            for (int d = 0; d <= R; ++d) zw[R + d] = VLANE(u[b][d], l);
            extra[l] = pml_fold_term(zw, zc, pml_z_cells, pml_wz, pml_psi_old_z, pml_psi_new_z, pml_zeta_z,
                                     pml_rec_z, pml_d1, coef, j * n1 + i, n1 * n2, edges);
          }
          lap[b][0] += VMAKE(extra, 0);
        }
      }
#endif
#pragma unroll
      for (int b = 0; b < YB; ++b) {
#if DAMPING
        const vec g = gxv * gy[min(y0 + ty * YB + b, ny - 1)] * gz[zo];  // (rows past the grid: not stored)
#else
        const float g = 1.0f;
#endif
#if INCREMENTAL
        const vec d = DELTA_STEP(u[b][0], ncur[b], vcur[b], lap[b][0], g);
        STORE_U(next, zo * plane + off[b], lanesAct[b], d);
        STORE_U(unew, zo * plane + off[b], lanesAct[b], u[b][0] + d);
#else
        STORE_U(next, zo * plane + off[b], lanesAct[b], WAVE_STEP(u[b][0], ncur[b], vcur[b], lap[b][0], g));
#endif
      }
    }
#if ASYNC
    slot = slot + 1 == NS ? 0 : slot + 1;
#else
    buf ^= 1;
#endif
  }
}
