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
// MMA = 1 (gpu-half, NVIDIA compute capability 8.0+, inline PTX) sums the x and y neighbours on the tensor
// cores instead: see "The x and y sums on the tensor cores" below.
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
#ifndef MMA
#define MMA 0
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
// With MMA every row in local memory (the tile's, vel's and next's) is one 16-byte chunk longer than its
// points, so that the 8 rows an ldmatrix or a warp's lanes read at once lie in different banks (a pitch of
// 160 bytes puts rows 0 and 4 in the same ones). The tile's row pitch in vectors:
#define ROW_PAD (MMA ? 8 / XV : 0)
#define TP (LWV + ROW_PAD)
#define LH (ROWS + 2 * R)
#define WG (TX * TY)
#define HALO_X (ROWS * 2 * RV)  // x-halo vectors per plane
#define HALO (HALO_X + 2 * R * TX)
#define HPT ((HALO + WG - 1) / WG)  // halo vectors each work-item loads per plane
// vel and next of the tile's interior, a row of VNP vectors per row of points
#define VNP (TX + ROW_PAD)
#define OWN (ROWS * VNP)
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

#if MMA
// ---- The x and y sums on the tensor cores ----
// A plane's x and y sums are 1D convolutions of the tile, so products of matrices: for a warp's patch of 16
// rows x 8 points, (its rows x the 24 x values around its points) times a band of the weights (24 x 8) gives
// the x sums, and a band of the weights (16 x 32) times (the 32 rows around the patch x its 8 points) the y
// sums, both into the same 16 x 8 accumulators. mma.sync multiplies halves exactly (11 x 11 significant
// bits fit in a float's 24) and adds in float, so the sums are float sums of the stored values, as on the
// CUDA cores. The weights are not halves: each is split into hi + lo halves, times 2^s so that the largest
// is near 2^14 and the smallest stays a normal half; the pair holds a weight to about 2^-22 (a weight
// rounded to one half would leave the three axes' weights 2^-12 from summing to zero, and a constant field
// would have a Laplacian). Per warp and plane: 3 ldmatrix and 8 mma (two of them k8), where the CUDA cores
// run about 2 x 16 FMAs, 18 conversions and 9 local loads a point.
#if PML_FOLD
#error "mma: the absorbing layer in its own passes (fold_layer 0)"
#endif

#if !(ASYNC == 2 && FIELD_HALF && INCREMENTAL && XV == 2 && YB == 2) || TX % 4 || TY % 8
#error "mma: a tile of halves by cp.async with vel and D (async_copy 2, storage 0), 2 x 2 points a work-item, whole patches"
#endif
// PTX fragments (m16n8k16 / m16n8k8, f16 inputs, f32 accumulators): with g = lane / 4 and q = 2 (lane % 4),
// A (16 x 16, row-major) a0: row g, columns q, q+1; a1: row g+8; a2: row g, columns q+8, q+9; a3: row g+8,
// columns q+8, q+9; B (16 x 8) b0: rows q, q+1 of column g; b1: rows q+8, q+9; the accumulators d0, d1: row g,
// columns q, q+1; d2, d3: row g+8. Two halves a register, the lower index in the low bits. ldmatrix gives each
// lane those of up to four 8 x 8 matrices of halves in local memory (.trans: transposed), lane l naming the
// address of row l % 8 of matrix l / 8.
#define LDMATRIX_X4(r, p)                                                                                      \
  __asm__ __volatile__("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"                   \
                       : "=r"((r)[0]), "=r"((r)[1]), "=r"((r)[2]), "=r"((r)[3]) : "l"((ulong)(p)) : "memory")
#define LDMATRIX_X4_TRANS(r, p)                                                                                \
  __asm__ __volatile__("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"             \
                       : "=r"((r)[0]), "=r"((r)[1]), "=r"((r)[2]), "=r"((r)[3]) : "l"((ulong)(p)) : "memory")
#define LDMATRIX_X2(r, p)                                                                                      \
  __asm__ __volatile__("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"                            \
                       : "=r"((r)[0]), "=r"((r)[1]) : "l"((ulong)(p)) : "memory")
#define MMA_K16(d, a0, a1, a2, a3, b0, b1)                                                                     \
  __asm__ __volatile__("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, " \
                       "{%8, %9}, {%10, %11, %12, %13};"                                                      \
                       : "=f"((d)[0]), "=f"((d)[1]), "=f"((d)[2]), "=f"((d)[3])                               \
                       : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "f"((d)[0]), "f"((d)[1]),      \
                         "f"((d)[2]), "f"((d)[3]))
#define MMA_K8(d, a0, a1, b0)                                                                                  \
  __asm__ __volatile__("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "   \
                       "{%7, %8, %9, %10};"                                                                   \
                       : "=f"((d)[0]), "=f"((d)[1]), "=f"((d)[2]), "=f"((d)[3])                               \
                       : "r"(a0), "r"(a1), "r"(b0), "f"((d)[0]), "f"((d)[1]), "f"((d)[2]), "f"((d)[3]))

// Two halves of a register as floats (the low one first).
inline float2 unpack_half2(uint h) {
  float2 f;
  __asm__("{\n\t.reg .f16 lo, hi;\n\tmov.b32 {lo, hi}, %2;\n\tcvt.f32.f16 %0, lo;\n\tcvt.f32.f16 %1, hi;\n\t}"
          : "=f"(f.x), "=f"(f.y) : "r"(h));
  return f;
}
// A pair of registers from local memory where it stands among the mma (ordered with them, so that only the
// fragments of the next mma are live, not all nine).
#define LDS_U2(r, p)                                                                                           \
  __asm__ __volatile__("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"((r).x), "=r"((r).y) : "l"((ulong)(p)) : "memory")

// The weights of the neighbour distances d0 and d1 (0 beyond R, and at 0: the centre is added in float),
// times `scale`, as two registers of halves: x the hi halves, y the lo ones.
inline uint2 weight_pair(__constant float* restrict coef, int d0, int d1, float scale) {
  const float2 w = (float2)(abs(d0) >= 1 && abs(d0) <= R ? coef[abs(d0)] : 0.0f,
                            abs(d1) >= 1 && abs(d1) <= R ? coef[abs(d1)] : 0.0f) * scale;
  ushort hi[2], lo[2];
  vstore_half2_rte(w, 0, (half*)hi);
  vstore_half2_rte(w - vload_half2(0, (const half*)hi), 0, (half*)lo);
  return (uint2)(hi[0] | (uint)hi[1] << 16, lo[0] | (uint)lo[1] << 16);
}
#endif

// The arguments after STENCIL_ARGS and the z chunk, as the storage (common.cl) and the layer ask (the
// host sets them in this order).
#if PML_FOLD
#define FOLD_ARGS , PML_FOLD_ARGS
#else
#define FOLD_ARGS
#endif

// The queue of u: with MMA as the tile stores it, two halves a register (the values are halves already, so
// nothing is lost), converted where it is read: 9 registers a row instead of 18, which the tensor cores'
// fragments need.
#if MMA
typedef uint uq_t;
#define UQ(b, d) unpack_half2(u[b][d])
#define UQ_TILE(t, i) (((__local const uint*)(t))[i])
#define UQ_LOAD(p, i, lanes) ((lanes) > 0 ? *(__global const uint*)((p) + (i)) : 0u)
#else
typedef vec uq_t;
#define UQ(b, d) (u[b][d])
#define UQ_TILE(t, i) TILE_AT(t, i)
#define UQ_LOAD(p, i, lanes) LOAD_U(p, i, lanes)
#endif

__kernel __attribute__((reqd_work_group_size(TX, TY, 1))) void stencil(STENCIL_ARGS, const int z_chunk
                                                                      INCREMENTAL_ARGS VEL_SCALE_ARGS FOLD_ARGS) {
  __local TILE_ELEM tile[NS * LH * TP * TILE_SCALE] __attribute__((aligned(16)));
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
#if MMA
  // A warp's patch of 8 x 16 points (the tile holds TXV / 8 of them across): lane l has the x pair 2(l % 4),
  // 2(l % 4) + 1 of the patch's rows l / 4 and l / 4 + 8, where the tensor cores' accumulators leave them.
  const int lane = lid % 32, pcol = (lid / 32) % (TXV / 8) * 8, prow = (lid / 32) / (TXV / 8) * 16;
  const int ix = pcol / XV + lane % 4;  // the work-item's vector column in the tile's interior
#define ROW_OF(b) (prow + lane / 4 + 8 * (b))
#define OWN_INDEX(b) (ROW_OF(b) * VNP + ix)  // its vel and next in the ring's slot
#else
  const int ix = tx;
#define ROW_OF(b) (ty * YB + (b))
#define OWN_INDEX(b) (ROW_OF(b) * VNP + tx)
#endif
  const int nx = n1 + 2 * R, ny = n2 + 2 * R, plane = nx * ny;
  const int x0 = (int)get_group_id(0) * TXV + R, y0 = (int)get_group_id(1) * ROWS + R;
  const int x = x0 + ix * XV;
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
    hloc[s] = h < HALO ? lrow * TP + lcol : -1;
  }

  // This work-item's rows: offset in the plane, place of its vector in the tile, lanes inside the
  // grid (read) and inside the interior (written).
  int off[YB], loc[YB], lanesIn[YB], lanesAct[YB];
#pragma unroll
  for (int b = 0; b < YB; ++b) {
    const int y = y0 + ROW_OF(b);
    off[b] = y * nx + x;
    loc[b] = (ROW_OF(b) + R) * TP + RV + ix;
    lanesIn[b] = y < ny ? clamp(nx - x, 0, XV) : 0;
    lanesAct[b] = y < n2 + R ? clamp(n1 + R - x, 0, XV) : 0;
  }
#if MMA
  // The copies of the tile's interior, of vel and next, and the stores of the results go in the work-group's
  // row order (consecutive work-items, consecutive vectors of a row: whole 32-byte sectors), not in the tensor
  // cores' (a warp's 8 rows of 16 bytes each, which doubled the sectors the L2 served).
  int coff[YB], cloc[YB], cin[YB], cact[YB];
#pragma unroll
  for (int b = 0; b < YB; ++b) {
    const int y = y0 + ty * YB + b, xc = x0 + tx * XV;
    coff[b] = y * nx + xc;
    cloc[b] = (ty * YB + b + R) * TP + RV + tx;
    cin[b] = y < ny ? clamp(nx - xc, 0, XV) : 0;
    cact[b] = y < n2 + R ? clamp(n1 + R - xc, 0, XV) : 0;
  }
#define COPY_INDEX(b) ((ty * YB + (b)) * VNP + tx)
  // The results of plane zo, which the tensor cores' lanes left in ring slot s in place of its vel and next.
#define STORE_FINISHED(zo, s)                                                                                \
  _Pragma("unroll") for (int b = 0; b < YB; ++b) if (cact[b] > 0) {                                         \
      const int o = COPY_INDEX(b);                                                                          \
      *(__global uint*)(unew + (zo) * plane + coff[b]) = ((__local const uint*)vn)[(s) * OWN + o];           \
      *(__global uint*)(next + (zo) * plane + coff[b]) = ((__local const uint*)vn)[(NS + (s)) * OWN + o];    \
    }
#else
#define coff off
#define cloc loc
#define cin lanesIn
#define cact lanesAct
#define COPY_INDEX(b) OWN_INDEX(b)
#endif
#if DAMPING
  const vec gxv = gload(gx, x, clamp(nx - x, 0, XV));
#endif
#if PML_FOLD
  // Whether the tile meets the reach of x's or y's layer (then its cells are checked one by one).
  const int bandX = pml_wx + PML_M, bandY = pml_wy + PML_M;
  const bool foldX = pml_wx > 0 && (2 * bandX >= n1 || x0 - R < bandX || x0 - R + TXV > n1 - bandX);
  const bool foldY = pml_wy > 0 && (2 * bandY >= n2 || y0 - R < bandY || y0 - R + ROWS > n2 - bandY);
#endif

#if MMA
  // The weights' fragments (above), the same for every warp, in local memory rather than 18 registers a
  // work-item: slot j of lane l at wfrag[j * 32 + l], each a pair (hi halves, lo halves): x's B operands b0, b1
  // of the band's rows x_p − 8 .. x_p + 7 (slots 0, 1) and b0 of x_p + 8 .. x_p + 15 (an m16n8k8, slot 2); y's
  // A operands a0 (= a3), a1, a2 of the rows y_p − 8 .. y_p + 7 (slots 3-5) and y_p + 8 .. y_p + 23 (6-8).
  // The first warp writes them before the loop, whose first barrier orders them before any read.
  __local uint2 wfrag[9 * 32];
  float widest = 0.0f;
#pragma unroll
  for (int r = 1; r <= R; ++r) widest = fmax(widest, fabs(coef[r]));
  int wexp;
  frexp(widest, &wexp);  // widest = m 2^wexp, 1/2 <= m < 1: times 2^(14 - wexp) it lies in [2^13, 2^14)
  const float wscale = ldexp(1.0f, 14 - wexp), wunscale = ldexp(1.0f, wexp - 14);
  if (lid < 32) {
    const int g = lane / 4, q = 2 * (lane % 4);
    const int d[9] = {q - 8 - g, q - g, q + 8 - g, q - 8 - g, q - 16 - g, q - g, q + 8 - g, q - g, q + 16 - g};
#pragma unroll
    for (int j = 0; j < 9; ++j) wfrag[j * 32 + lane] = weight_pair(coef, d[j], d[j] + 1, wscale);
  }
#endif

  // Two queues per row, shifted at the top of each iteration (index R: the newest plane k): u holds
  // this work-item's values of planes k-R .. k, and lap the Laplacians of planes k-R .. k being
  // summed: plane k's x/y sums and its z terms of planes k-R .. k start lap[R]; plane k adds its
  // c_r u terms to planes k-R .. k-1. lap[0] (plane k-R) is then complete. Before the first plane of
  // the loop, u[1 .. R] hold planes z0-R .. z0-1.
  uq_t u[YB][R + 1];
  vec lap[YB][R + 1];
#pragma unroll
  for (int b = 0; b < YB; ++b) {
#pragma unroll
    for (int i = 1; i <= R; ++i) u[b][i] = UQ_LOAD(prev, (z0 - R - 1 + i) * plane + off[b], lanesIn[b]);
#pragma unroll
    for (int i = 0; i <= R; ++i) lap[b][i] = (vec)(0.0f);
  }

  // Plane kt's loads: its tile (centre; halo only while kt < z1, where its x/y sums are needed), and
  // vel and next of plane kt-R, which plane kt finishes when that is one of this chunk's.
#if ASYNC
#if ASYNC == 2
#define COPY_VEL_NEXT(kt, slot)                                                                         \
  if ((kt) - R >= z0) _Pragma("unroll") for (int b = 0; b < YB; ++b) {                                  \
      const int o = COPY_INDEX(b);                                                                      \
      copy_async(vn + ((slot) * OWN + o) * TILE_SCALE, vel, ((kt) - R) * plane + coff[b], cact[b]);      \
      copy_async(vn + ((NS + (slot)) * OWN + o) * TILE_SCALE, next, ((kt) - R) * plane + coff[b], cact[b]); \
    }
#else
#define COPY_VEL_NEXT(kt, slot)
#endif
#define ISSUE_COPIES(kt, slot)                                                                          \
  {                                                                                                     \
    __local TILE_ELEM* ts = tile + (slot) * (LH * TP * TILE_SCALE);                                    \
    _Pragma("unroll") for (int b = 0; b < YB; ++b)                                                      \
        copy_async(ts + cloc[b] * TILE_SCALE, prev, (kt) * plane + coff[b], cin[b]);                    \
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
    __local TILE_ELEM* t = tile + slot * (LH * TP * TILE_SCALE);
    COPY_WAIT(PREFETCH - 1);  // this work-item's copies of plane k have landed
#if ASYNC == 2
    // vel and next of the plane this one finishes (with MMA only where it is finished, to free 8 registers
    // meanwhile: the ring's slot holds them until the next plane's barrier).
#define READ_VEL_NEXT()                                               \
  _Pragma("unroll") for (int b = 0; b < YB; ++b) {                    \
    const int o = OWN_INDEX(b);                                       \
    vcur[b] = SCALE_VEL(TILE_AT(vn, slot * OWN + o));                 \
    ncur[b] = TILE_AT(vn, (NS + slot) * OWN + o);                     \
  }
#if !MMA
    READ_VEL_NEXT()
#endif
#endif
#else
    __local vec* t = tile + buf * (LH * TP);
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
#if MMA
    // Plane k-1-R's results, from the slot that the copies below refill (each work-item reads the entries it
    // then copies into, so its loads are done before its copies land).
    if (k - 1 - R >= z0) STORE_FINISHED(k - 1 - R, slot == 0 ? NS - 1 : slot - 1)
#endif
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
      u[b][R] = UQ_TILE(t, loc[b]);
      const vec un = UQ(b, R);
#pragma unroll
      for (int d = 0; d < R; ++d) lap[b][d] += coef[R - d] * un;
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
#if MMA
      {
        // x and y on the tensor cores (above): the warp's patch, x's and y's sums in two accumulators (an mma
        // waits for the one before it on the same accumulator), the lo halves of the weights first.
        const int rh = TP * XV;                                                // halves a tile row
        const int arow = (R + prow + lane % 8 + lane / 8 % 2 * 8) * rh + pcol;  // this lane's row of A
        float sx[4] = {0.0f, 0.0f, 0.0f, 0.0f}, sy[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        uint2 w0, w1, w2;
        uint a[4], bt[4];
        LDS_U2(w0, wfrag + lane);
        LDS_U2(w1, wfrag + 32 + lane);
        LDMATRIX_X4(a, t + arow + lane / 16 * 8);  // the rows' x_p − 8 .. x_p + 7
        MMA_K16(sx, a[0], a[1], a[2], a[3], w0.y, w1.y);
        MMA_K16(sx, a[0], a[1], a[2], a[3], w0.x, w1.x);
        LDS_U2(w2, wfrag + 64 + lane);
        LDMATRIX_X2(a, t + arow + 16);  // x_p + 8 .. x_p + 15
        MMA_K8(sx, a[0], a[1], w2.y);
        MMA_K8(sx, a[0], a[1], w2.x);
        LDMATRIX_X4_TRANS(bt, t + (prow + lane) * rh + R + pcol);  // rows y_p − 8 .. y_p + 23 of the points
#pragma unroll
        for (int blk = 0; blk < 2; ++blk) {
          LDS_U2(w0, wfrag + (3 + 3 * blk) * 32 + lane);
          LDS_U2(w1, wfrag + (4 + 3 * blk) * 32 + lane);
          LDS_U2(w2, wfrag + (5 + 3 * blk) * 32 + lane);
          MMA_K16(sy, w0.y, w1.y, w2.y, w0.y, bt[2 * blk], bt[2 * blk + 1]);
          MMA_K16(sy, w0.x, w1.x, w2.x, w0.x, bt[2 * blk], bt[2 * blk + 1]);
        }
        lap[0][R] = ((vec)(sx[0], sx[1]) + (vec)(sy[0], sy[1])) * wunscale + coef[0] * UQ(0, R);
        lap[1][R] = ((vec)(sx[2], sx[3]) + (vec)(sy[2], sy[3])) * wunscale + coef[0] * UQ(1, R);
      }
#else
#pragma unroll
      for (int b = 0; b < YB; ++b) {
        float w[XV + 2 * R];  // x: the row's window
        ROW_WINDOW(w, b);
        lap[b][R] = coef[0] * UQ(b, R);
#pragma unroll
        for (int r = 1; r <= R; ++r) lap[b][R] += coef[r] * (VMAKE(w, R + r) + VMAKE(w, R - r));
      }
      // y: the column of YB+2R vectors above and below this work-item's rows.
      const int col = loc[0] - R * TP;  // the tile's column of this work-item's vectors, from row −R
#pragma unroll
      for (int r = 1; r <= R; ++r) {
#pragma unroll
        for (int b = 0; b < YB; ++b)
          lap[b][R] += coef[r] * (TILE_AT(t, col + (b + R + r) * TP) + TILE_AT(t, col + (b + R - r) * TP));
      }
#endif
#pragma unroll
      for (int b = 0; b < YB; ++b) {
#pragma unroll
        for (int r = 1; r <= R; ++r) lap[b][R] += coef[r] * UQ(b, R - r);
      }
#if PML_FOLD
      // The absorbing layer's x and y terms of plane k's cells (pml.cl), where the tile meets their reach:
      // u along x from the tile's rows, along y from its column.
      if (foldX || foldY) {
        const int kz = k - R;
#pragma unroll
        for (int b = 0; b < YB; ++b) {
          const int j = y0 + ROW_OF(b) - R;
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
              for (int d = 0; d <= 2 * R; ++d) yw[d] = VLANE(TILE_AT(t, col + (b + d) * TP), l);
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
          const int j = y0 + ROW_OF(b) - R;
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
            for (int d = 0; d <= R; ++d) zw[R + d] = VLANE(UQ(b, d), l);
            extra[l] = pml_fold_term(zw, zc, pml_z_cells, pml_wz, pml_psi_old_z, pml_psi_new_z, pml_zeta_z,
                                     pml_rec_z, pml_d1, coef, j * n1 + i, n1 * n2, edges);
          }
          lap[b][0] += VMAKE(extra, 0);
        }
      }
#endif
#if MMA
      READ_VEL_NEXT()
#endif
#pragma unroll
      for (int b = 0; b < YB; ++b) {
#if DAMPING
        const vec g = gxv * gy[min(y0 + ROW_OF(b), ny - 1)] * gz[zo];  // (rows past the grid: not stored)
#else
        const float g = 1.0f;
#endif
#if MMA
        // In slot `slot`, in place of the vel and next just read; stored after the next barrier (above).
        const vec d = DELTA_STEP(UQ(b, 0), ncur[b], vcur[b], lap[b][0], g);
        const int o = OWN_INDEX(b);
        vstorea_half2_rte(UQ(b, 0) + d, 0, (__local half*)(vn + (slot * OWN + o) * TILE_SCALE));
        vstorea_half2_rte(d, 0, (__local half*)(vn + ((NS + slot) * OWN + o) * TILE_SCALE));
#elif INCREMENTAL
        const vec d = DELTA_STEP(UQ(b, 0), ncur[b], vcur[b], lap[b][0], g);
        STORE_U(next, zo * plane + off[b], lanesAct[b], d);
        STORE_U(unew, zo * plane + off[b], lanesAct[b], UQ(b, 0) + d);
#else
        STORE_U(next, zo * plane + off[b], lanesAct[b], WAVE_STEP(UQ(b, 0), ncur[b], vcur[b], lap[b][0], g));
#endif
      }
    }
#if ASYNC
    slot = slot + 1 == NS ? 0 : slot + 1;
#else
    buf ^= 1;
#endif
  }
#if MMA
  barrier(CLK_LOCAL_MEM_FENCE);  // the last plane's results, every lane's
  STORE_FINISHED(k1 - 1 - R, slot == 0 ? NS - 1 : slot - 1)
#endif
}
