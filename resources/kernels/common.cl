// Shared by every stage program: constants, the update rule and the small utility kernels.
// Layout (docs/ARCHITECTURE.md, grid): padded sizes nx = n1 + 2R, ny = n2 + 2R, nz = n3 + 2R, x fastest,
// index = (z*ny + y)*nx + x. Grid sizes are kernel arguments so that one build serves every grid;
// the host refuses grids whose padded size does not fit a 32-bit int index.
//
// Build-time defines: R, the stencil's half length (the host's kHalfLength, core/Grid.h); DAMPING (0/1)
// compiles the sponge's factor in; FIELD_HALF and VEL_HALF (0/1) store the fields and vel as IEEE half
// (below); stage files add their own.

#ifndef R
#error "R (the stencil's half length) is a build option: -DR=8"
#endif
#ifndef DAMPING
#define DAMPING 0
#endif

// How the fields (u) and vel are stored. FIELD_HALF = 1: as IEEE half, 16 bits, scaled so that the run's
// amplitudes sit in half's normal range (the host's scale: docs/NUMERICS.md, "Half-precision storage"),
// read and written by vload_half and vstore_half_rte, which are core OpenCL C (no cl_khr_fp16: `half`
// only names the storage, the arithmetic stays float). Every stage but gpu-half stores float.
#ifndef FIELD_HALF
#define FIELD_HALF 0
#endif
#ifndef VEL_HALF
#define VEL_HALF 0
#endif
#if FIELD_HALF
#define FIELD_T half
#define LOAD_FIELD(p, i) vload_half(i, p)
#define STORE_FIELD(v, p, i) vstore_half_rte(v, i, p)
#else
#define FIELD_T float
#define LOAD_FIELD(p, i) ((p)[i])
#define STORE_FIELD(v, p, i) ((p)[i] = (v))
#endif
#if VEL_HALF
#define VEL_T half
#else
#define VEL_T float
#endif
// The storage's own arguments, after a kernel's others (the host sets them in this order): U^(n+1)'s buffer
// with incremental storage (INCREMENTAL, set by the host), vel's scale when vel is stored as half.
#ifndef INCREMENTAL
#define INCREMENTAL 0
#endif
#if INCREMENTAL
#define INCREMENTAL_ARGS , __global FIELD_T* restrict unew
#else
#define INCREMENTAL_ARGS
#endif
#if VEL_HALF
#define VEL_SCALE_ARGS , const float vel_scale
#else
#define VEL_SCALE_ARGS
#endif

// The common arguments of every stencil kernel, in this order. The kernel computes the padded planes
// [z_begin, z_end): [R, n3 + R), the whole interior, or some of its planes (a slab of a grid cut along z
// computes the planes next to its cuts first, core/DecomposedSolver.h); the launch covers those planes.
#define STENCIL_ARGS                                                                          \
  __global const FIELD_T* restrict prev, __global FIELD_T* restrict next,                     \
      __global const VEL_T* restrict vel, __constant float* restrict coef,                    \
      __global const float* restrict gx, __global const float* restrict gy,                   \
      __global const float* restrict gz, const int n1, const int n2, const int n3,            \
      const int z_begin, const int z_end

// next = 2 prev - next + vel lap, or with damping g: next = g (2 prev - g next + vel lap),
// g = (gx[x] gy[y]) gz[z] in padded coordinates (the order cpu-serial uses). WAVE_STEP works on
// vectors too; without DAMPING its g is ignored.
#if DAMPING
#define WAVE_STEP(p, n, v, lap, g) ((g) * (2.0f * (p) - (g) * (n) + (v) * (lap)))
#else
#define WAVE_STEP(p, n, v, lap, g) (2.0f * (p) - (n) + (v) * (lap))
#endif
// The same step for a field kept as (U^n, D^n = U^n − U^(n−1)) (gpu-half's incremental storage): the
// increment D^(n+1) = u^(n+1) − U^n, which for the plain update is D^n + vel lap, computed without the
// cancellation of forming u^(n+1) first.
#if DAMPING
#define DELTA_STEP(p, d, v, lap, g) ((g) * (2.0f * (p) - (g) * ((p) - (d)) + (v) * (lap)) - (p))
#else
#define DELTA_STEP(p, d, v, lap, g) ((d) + (v) * (lap))
#endif
inline float wave_update(float p, float n, float v, float lap, __global const float* gx,
                         __global const float* gy, __global const float* gz, int x, int y, int z) {
#if DAMPING
  const float g = (gx[x] * gy[y]) * gz[z];
#else
  const float g = 1.0f;
#endif
  return WAVE_STEP(p, n, v, lap, g);
}

#define PRAGMA(x) _Pragma(#x)
#define UNROLL(n) PRAGMA(unroll n)  // a macro argument inside #pragma is not expanded; in _Pragma it is
#define STR_(x) #x
#define STR(x) STR_(x)

// cp.async (PTX, NVIDIA compute capability 8.0+): global -> local copies that do not pass through
// registers, waited for by commit group. Macros, so that a program sees the inline assembly only where
// a stage built for NVIDIA expands them. CP_ASYNC starts copying `bytes` (4, 8 or 16) from src to the
// local dst; only the first srcBytes (0 or bytes) are read, the rest is zero-filled. cache: "ca", or
// "cg" (16-byte copies only) to skip L1.
#define CP_ASYNC(cache, bytes, dst, src, srcBytes)                                                   \
  __asm__ __volatile__("cp.async." cache ".shared.global [%0], [%1], " STR(bytes) ", %2;" ::"l"((ulong)(dst)), \
                       "l"(src), "r"(srcBytes)                                                       \
                       : "memory")
#define COPY_COMMIT() __asm__ __volatile__("cp.async.commit_group;" ::: "memory")
#define COPY_WAIT(pending) __asm__ __volatile__("cp.async.wait_group " STR(pending) ";" ::: "memory")

// Adds the source term of this step (in the field's stored units) at one padded index (one work-item).
__kernel void inject_source(__global FIELD_T* next, const int index, const float value) {
  STORE_FIELD(LOAD_FIELD(next, index) + value, next, index);
}

// traces[row*count + r] = field[index[r]] · scale (1, or the inverse of a half field's storage scale):
// the receivers' samples of one step, as floats.
__kernel void record_receivers(__global const FIELD_T* field, __global const int* index,
                               __global float* traces, const int count, const int row, const float scale) {
  const int r = get_global_id(0);
  if (r < count) traces[row * count + r] = LOAD_FIELD(field, index[r]) * scale;
}

// The three orthogonal interior planes through interior cell (i, j, k), packed one after the
// other: xy (n1*n2, at z = k), xz (n1*n3, at y = j), yz (n2*n3, at x = i); as floats, times `scale`.
__kernel void extract_slices(__global const FIELD_T* field, __global float* out, const int n1,
                             const int n2, const int n3, const int i, const int j, const int k,
                             const float scale) {
  const int g = get_global_id(0);
  const int nx = n1 + 2 * R, ny = n2 + 2 * R;
  if (g < n1 * n2) {
    const int a = g % n1, b = g / n1;
    out[g] = LOAD_FIELD(field, ((k + R) * ny + b + R) * nx + a + R) * scale;
  }
  if (g < n1 * n3) {
    const int a = g % n1, c = g / n1;
    out[n1 * n2 + g] = LOAD_FIELD(field, ((c + R) * ny + j + R) * nx + a + R) * scale;
  }
  if (g < n2 * n3) {
    const int b = g % n2, c = g / n2;
    out[n1 * n2 + n1 * n3 + g] = LOAD_FIELD(field, ((c + R) * ny + b + R) * nx + i + R) * scale;
  }
}
