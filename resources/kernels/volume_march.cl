// The volume renderer's one definition: ray set-up, empty-space skipping, sampling, the transfer function
// and front-to-back compositing of one pixel, plus the per-brick summaries that let a ray skip what is
// transparent. Written in the subset that is both OpenCL C 1.2 and C++: the OpenCL program puts
// volume.cl's kernels after it (compute/OpenClVolumeRenderer.cpp), and the host renderer of the CPU
// stages includes it (core/VolumeMarch.h), which defines VR_GLOBAL and the OpenCL built-ins it uses
// (clamp, fmin, fmax, floor, ceil, exp, log, sqrt, fabs, isnan, isinf, INFINITY). No vector types, no
// overloading, no references: plain floats and a struct of 4-byte members, which both compilers lay out
// alike.
//
// Coordinates. Grid coordinates are in cells: interior point i (at i·dx metres) is the cell [i, i+1),
// its value sits at i + 0.5, as the slice view draws it (render/SliceGeometry.h). The field is the
// solver's padded array (halo `halo` cells, x fastest; core/Grid.h), whose halo is 0 for u. A ray is
// set up from clip space: clip_to_grid (column-major 4x4) takes a point of the view's clip space to grid
// coordinates; the caller builds it from the same camera matrices that OpenGL draws the box, the axes
// and the markers with (core/VolumeView.h).
//
// Transfer function (signed): a sample u takes a colour of its sign's half of the colormap
// (vr_signed_position: red for u > 0 and blue for u < 0 with "seismic"), and an extinction that rises
// with |u|/clip above a dead zone: sigma = density·√w, w = (|u|/clip − dead_zone)/(1 − dead_zone) in
// [0, 1] (the square root lifts the weak waves, reflections, so that they show beside the direct one).
// A step of ds cells has opacity 1 − exp(−sigma·ds), so the picture does not depend on the samples per
// cell; the wave
// gives `emission` times as much light of its colour, lit from the eye (vr_shade: the gradient of u as
// the normal of its shell), so that translucent shells stay bright on the dark background and show
// their shape; light beyond full saturates. Non-finite samples are opaque magenta, as on the slices: a
// blown-up run is never hidden. The optional context (the velocity model's contrasts, VR_CONTEXT_MAX =
// the strongest) adds a faint warm-grey extinction that gives no more light than its colour.
//
// Empty-space skipping: the interior is cut into bricks of VR_BRICK³ cells. A brick's summary is the
// largest |u| over the cells that any sample inside it interpolates from (the brick and one cell around
// it), infinite when one is not finite. A ray marches only through the box around the bricks whose
// summary is above the dead zone (`active`, every frame), and crossing a brick within the dead zone (and
// without context there) it jumps to the brick's far side: those samples would add exactly nothing.
// Samples lie on one lattice per ray (t = t_entry + (k + jitter)·ds, t_entry where the ray enters the
// marched box), skipped or not, so skipping changes no sample that is taken.

#ifndef VR_GLOBAL
#define VR_GLOBAL __global
#endif
#ifndef VR_INDEX
#define VR_INDEX int  // the host refuses grids whose padded size needs more (compute/OpenClSolver.h)
#endif
#define VR_BRICK 8
#define VR_CONTEXT_MAX 255.0f
#define VR_AMBIENT 0.4f  // the share of a sample's light that does not depend on its surface's facing

typedef struct vr_params {
  float clip_to_grid[16];  // column-major: grid = M · (x_ndc, y_ndc, z_ndc, 1), then / w
  float box_lo[3], box_hi[3];  // the marched box in grid coordinates
  int n1, n2, n3;          // interior cells
  int halo;                // the field's padding on every side (R for the solvers' arrays)
  int nb1, nb2, nb3;       // bricks along x, y, z
  int width, height;       // image pixels
  float step;              // cells between samples along a ray
  float samples_per_cell;  // 1 / step
  float inv_clip;          // 1 / the colour range
  float dead_zone;         // |u|/clip at which the wave starts to show
  float density;           // extinction per cell of a wave at the clip
  float emission;          // light a sample gives per unit of the opacity it takes
  float context_density;   // extinction per cell of the strongest velocity contrast; 0: no context
  float stop_alpha;        // opacity at which a ray stops (early termination); > 1: never
  int jitter;              // 1: the first sample's offset varies per pixel (no wood-grain bands)
  int plane_axis;          // -1: no slice plane; 0, 1, 2: the plane x, y or z through cell plane_cell
  int plane_cell;
} vr_params;

// The index of interior cell (i, j, k) in the padded field (i, j, k may reach into the halo).
inline VR_INDEX vr_field_index(const vr_params* p, int i, int j, int k) {
  const VR_INDEX nx = p->n1 + 2 * p->halo, ny = p->n2 + 2 * p->halo;
  return (((VR_INDEX)k + p->halo) * ny + j + p->halo) * nx + i + p->halo;
}

// The index of interior cell (i, j, k) in an interior array (C order (n3, n2, n1)).
inline VR_INDEX vr_cell_index(const vr_params* p, int i, int j, int k) {
  return ((VR_INDEX)k * p->n2 + j) * p->n1 + i;
}

// Trilinear interpolation of the field at grid coordinates (x, y, z), inside the interior's box, and
// the interpolant's gradient there (from the same eight values: no more loads) into gradient[0..2].
inline float vr_sample(const vr_params* p, const VR_GLOBAL float* u, float x, float y, float z, float* gradient) {
  const float fx = x - 0.5f, fy = y - 0.5f, fz = z - 0.5f;
  const float ix = floor(fx), iy = floor(fy), iz = floor(fz);
  const float ax = fx - ix, ay = fy - iy, az = fz - iz;
  const VR_INDEX nx = p->n1 + 2 * p->halo, nxy = nx * (p->n2 + 2 * p->halo);
  const VR_INDEX c = vr_field_index(p, (int)ix, (int)iy, (int)iz);
  const float d00 = u[c + 1] - u[c], d10 = u[c + nx + 1] - u[c + nx];
  const float d01 = u[c + nxy + 1] - u[c + nxy], d11 = u[c + nxy + nx + 1] - u[c + nxy + nx];
  const float c00 = u[c] + ax * d00, c10 = u[c + nx] + ax * d10;
  const float c01 = u[c + nxy] + ax * d01, c11 = u[c + nxy + nx] + ax * d11;
  const float c0 = c00 + ay * (c10 - c00), c1 = c01 + ay * (c11 - c01);
  const float dx0 = d00 + ay * (d10 - d00), dx1 = d01 + ay * (d11 - d01);
  gradient[0] = dx0 + az * (dx1 - dx0);
  gradient[1] = (c10 - c00) + az * ((c11 - c01) - (c10 - c00));
  gradient[2] = c1 - c0;
  return c0 + az * (c1 - c0);
}

// The light a surface of normal `gradient` reflects towards the eye, lit from the eye (a headlight)
// along the ray's direction d: an ambient share and a diffuse one, both sides alike. It gives the shells
// their shape; where the gradient vanishes, full light.
inline float vr_shade(const float* gradient, const float* d) {
  const float length = sqrt(gradient[0] * gradient[0] + gradient[1] * gradient[1] + gradient[2] * gradient[2]);
  if (!(length > 0.0f)) return 1.0f;
  const float facing = fabs(gradient[0] * d[0] + gradient[1] * d[1] + gradient[2] * d[2]) / length;
  return VR_AMBIENT + (1.0f - VR_AMBIENT) * facing;
}

// The context (one byte per interior cell, 0 to VR_CONTEXT_MAX) at grid coordinates, trilinear, edges
// repeated.
inline float vr_sample_context(const vr_params* p, const VR_GLOBAL uchar* context, float x, float y, float z) {
  const float fx = clamp(x - 0.5f, 0.0f, (float)(p->n1 - 1)), fy = clamp(y - 0.5f, 0.0f, (float)(p->n2 - 1)),
              fz = clamp(z - 0.5f, 0.0f, (float)(p->n3 - 1));
  const int i = (int)fx, j = (int)fy, k = (int)fz;
  const float ax = fx - (float)i, ay = fy - (float)j, az = fz - (float)k;
  const VR_INDEX di = i + 1 < p->n1 ? 1 : 0, dj = j + 1 < p->n2 ? p->n1 : 0,
                 dk = k + 1 < p->n3 ? (VR_INDEX)p->n1 * p->n2 : 0;
  const VR_INDEX c = vr_cell_index(p, i, j, k);
  const float c00 = (float)context[c] + ax * ((float)context[c + di] - (float)context[c]);
  const float c10 = (float)context[c + dj] + ax * ((float)context[c + dj + di] - (float)context[c + dj]);
  const float c01 = (float)context[c + dk] + ax * ((float)context[c + dk + di] - (float)context[c + dk]);
  const float c11 = (float)context[c + dk + dj] + ax * ((float)context[c + dk + dj + di] - (float)context[c + dk + dj]);
  const float c0 = c00 + ay * (c10 - c00), c1 = c01 + ay * (c11 - c01);
  return (c0 + az * (c1 - c0)) * (1.0f / VR_CONTEXT_MAX);
}

// Channel `shift` (0, 8, 16) of an RGBA8 colour as 0..1.
inline float vr_channel(uint rgba, int shift) { return (float)((rgba >> shift) & 0xFFu) * (1.0f / 255.0f); }

// The colormap (256 packed RGBA8 entries) at 0.5 + 0.5·u/clip (`position`), interpolated between
// entries as OpenGL's linear filter does, into rgb[0..2].
inline void vr_colour(const VR_GLOBAL uint* colormap, float position, float* rgb) {
  const float x = clamp(position, 0.0f, 1.0f) * 255.0f;
  const int i = (int)fmin(floor(x), 254.0f);
  const float a = x - (float)i;
  const uint lo = colormap[i], hi = colormap[i + 1];
  for (int c = 0; c < 3; ++c) {
    const float l = vr_channel(lo, 8 * c);
    rgb[c] = l + a * (vr_channel(hi, 8 * c) - l);
  }
}

// Where a sample of the wave takes its colour in the colormap: one place in its sign's half, whatever
// its strength, which its opacity and light show: with "seismic" a light red or blue, which stays
// bright on the dark background. Weak waves keep their sign's hue, faint, instead of the near-white of
// u ≈ 0; strong ones are not the dark ends.
inline float vr_signed_position(float u) { return u < 0.0f ? 0.32f : 0.68f; }

// The transfer function's extinction per cell of a finite sample (see the top of the file).
inline float vr_extinction(const vr_params* p, float u) {
  const float above = fabs(u) * p->inv_clip - p->dead_zone;
  if (!(above > 0.0f)) return 0.0f;
  const float w = fmin(above / (1.0f - p->dead_zone), 1.0f);
  return p->density * sqrt(w);
}

// Largest |u| over brick (b1, b2, b3) and one cell around it (what its samples interpolate from);
// infinite when one of them is not finite. Branch-free over each row, so that compilers vectorise it:
// v·0 is 0 unless v is NaN or infinite, and then it makes `poison` NaN for good.
inline float vr_brick_summary(const vr_params* p, const VR_GLOBAL float* u, int b1, int b2, int b3) {
  const int i0 = b1 * VR_BRICK - 1, j0 = b2 * VR_BRICK - 1, k0 = b3 * VR_BRICK - 1;
  const int i1 = i0 + VR_BRICK + 1 < p->n1 ? i0 + VR_BRICK + 1 : p->n1;
  const int j1 = j0 + VR_BRICK + 1 < p->n2 ? j0 + VR_BRICK + 1 : p->n2;
  const int k1 = k0 + VR_BRICK + 1 < p->n3 ? k0 + VR_BRICK + 1 : p->n3;
  float largest = 0.0f, poison = 0.0f;
  for (int k = k0; k <= k1; ++k)
    for (int j = j0; j <= j1; ++j) {
      const VR_GLOBAL float* row = u + vr_field_index(p, 0, j, k);
      for (int i = i0; i <= i1; ++i) {
        const float v = fabs(row[i]);
        largest = v > largest ? v : largest;
        poison += v * 0.0f;
      }
    }
  return poison == 0.0f ? largest : INFINITY;
}

// Whether a brick whose summary is `summary` shows any of the wave (else its samples add nothing).
inline int vr_wave_shows(const vr_params* p, float summary) { return !(summary * p->inv_clip <= p->dead_zone); }

// The largest context byte over brick (b1, b2, b3) and one cell around it.
inline uint vr_brick_context(const vr_params* p, const VR_GLOBAL uchar* context, int b1, int b2, int b3) {
  const int i0 = b1 * VR_BRICK > 0 ? b1 * VR_BRICK - 1 : 0, j0 = b2 * VR_BRICK > 0 ? b2 * VR_BRICK - 1 : 0,
            k0 = b3 * VR_BRICK > 0 ? b3 * VR_BRICK - 1 : 0;
  const int i1 = (b1 + 1) * VR_BRICK < p->n1 ? (b1 + 1) * VR_BRICK : p->n1 - 1;
  const int j1 = (b2 + 1) * VR_BRICK < p->n2 ? (b2 + 1) * VR_BRICK : p->n2 - 1;
  const int k1 = (b3 + 1) * VR_BRICK < p->n3 ? (b3 + 1) * VR_BRICK : p->n3 - 1;
  uint largest = 0;
  for (int k = k0; k <= k1; ++k)
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        const uint c = context[vr_cell_index(p, i, j, k)];
        largest = c > largest ? c : largest;
      }
  return largest;
}

// The velocity model's contrast at interior cell (i, j, k), 0 to VR_CONTEXT_MAX: |∇ ln v| per cell by
// central differences of the padded vel = v²·dt² (whose halo repeats the edge), so it does not depend on
// dt or units. Below 0.02 (smooth gradients) nothing; 0.15 (a 35 % jump across two cells: salt, a strong
// layer boundary) or more is the strongest.
inline uint vr_context_cell(const vr_params* p, const VR_GLOBAL float* vel, int i, int j, int k) {
  const VR_INDEX c = vr_field_index(p, i, j, k);
  const VR_INDEX nx = p->n1 + 2 * p->halo, nxy = nx * (p->n2 + 2 * p->halo);
  const float dx = log(vel[c + 1]) - log(vel[c - 1]);
  const float dy = log(vel[c + nx]) - log(vel[c - nx]);
  const float dz = log(vel[c + nxy]) - log(vel[c - nxy]);
  const float gradient = 0.25f * sqrt(dx * dx + dy * dy + dz * dz);  // ln v = ln vel / 2 + const
  const float strength = clamp((gradient - 0.02f) / (0.15f - 0.02f), 0.0f, 1.0f);
  return (uint)(strength * VR_CONTEXT_MAX + 0.5f);
}

// A point of clip space (z = -1 near, +1 far) at pixel centre (px, py) to grid coordinates.
inline void vr_unproject(const vr_params* p, float x, float y, float z, float* out) {
  const float* m = p->clip_to_grid;
  const float w = m[3] * x + m[7] * y + m[11] * z + m[15];
  for (int r = 0; r < 3; ++r) out[r] = (m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r]) / w;
}

// A per-pixel number in [0, 1): the first sample's offset, so that neighbouring rays do not sample the
// same depths (which would show as bands). Integer hashing: the same on every device.
inline float vr_jitter(int px, int py) {
  uint h = (uint)px * 73856093u ^ (uint)py * 19349663u;
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  return (float)(h & 0xFFFFFFu) * (1.0f / 16777216.0f);
}

inline uint vr_pack(float r, float g, float b, float a) {
  return (uint)(clamp(r, 0.0f, 1.0f) * 255.0f + 0.5f) | (uint)(clamp(g, 0.0f, 1.0f) * 255.0f + 0.5f) << 8 |
         (uint)(clamp(b, 0.0f, 1.0f) * 255.0f + 0.5f) << 16 | (uint)(clamp(a, 0.0f, 1.0f) * 255.0f + 0.5f) << 24;
}

// Pixel (px, py) of the image (row 0 at the top): RGBA8 with premultiplied alpha, to be drawn over the
// background and under the box, axes and markers. context may be unused (context_density 0).
// active: the box of the bricks that show some wave (lowest b1, b2, b3, then highest; lowest > highest:
// none), which bounds the march unless the context shows everywhere.
inline uint vr_render_pixel(const vr_params* p, const VR_GLOBAL float* u, const VR_GLOBAL float* bricks,
                            const VR_GLOBAL int* active, const VR_GLOBAL uchar* context,
                            const VR_GLOBAL uchar* brick_context, const VR_GLOBAL uint* colormap, int px, int py) {
  const float x = 2.0f * ((float)px + 0.5f) / (float)p->width - 1.0f;
  const float y = 1.0f - 2.0f * ((float)py + 0.5f) / (float)p->height;
  float o[3], f[3], d[3], inv[3];
  vr_unproject(p, x, y, -1.0f, o);
  vr_unproject(p, x, y, 1.0f, f);
  const float length = sqrt((f[0] - o[0]) * (f[0] - o[0]) + (f[1] - o[1]) * (f[1] - o[1]) + (f[2] - o[2]) * (f[2] - o[2]));
  float t0 = 0.0f, t1 = INFINITY;
  for (int a = 0; a < 3; ++a) {
    d[a] = (f[a] - o[a]) / length;
    inv[a] = 1.0f / (fabs(d[a]) > 1e-12f ? d[a] : (d[a] < 0.0f ? -1e-12f : 1e-12f));
    const float ta = (p->box_lo[a] - o[a]) * inv[a], tb = (p->box_hi[a] - o[a]) * inv[a];
    t0 = fmax(t0, fmin(ta, tb));
    t1 = fmin(t1, fmax(ta, tb));
  }
  if (!(t0 < t1)) return 0u;
  // The slice plane, if any, ends the ray where it crosses it.
  int plane = 0;
  if (p->plane_axis >= 0) {
    const int a = p->plane_axis;
    const float tp = ((float)p->plane_cell + 0.5f - o[a]) * inv[a];
    if (tp >= t0 && tp <= t1) {
      t1 = tp;
      plane = 1;
    }
  }
  float r = 0.0f, g = 0.0f, b = 0.0f, alpha = 0.0f;
  const float ds = p->step;
  const float first = t0 + (p->jitter ? vr_jitter(px, py) : 0.5f) * ds;
  const int with_context = p->context_density > 0.0f;
  // Outside the active bricks' box nothing shows: the march starts at its first sample inside it.
  float begin = first, end = t1;
  if (!with_context) {
    for (int a = 0; a < 3; ++a) {
      const float ta = ((float)(active[a] * VR_BRICK) - o[a]) * inv[a];
      const float tb = ((float)((active[3 + a] + 1) * VR_BRICK) - o[a]) * inv[a];
      begin = fmax(begin, fmin(ta, tb));
      end = fmin(end, fmax(ta, tb));
    }
    if (active[0] > active[3]) end = -INFINITY;
    if (begin > first) begin = first + ceil((begin - first) * p->samples_per_cell) * ds;
  }
  float brick_end = begin;  // the samples up to here lie in a brick found to show something
  for (float t = begin; t < end && alpha < p->stop_alpha;) {
    const float sx = o[0] + t * d[0], sy = o[1] + t * d[1], sz = o[2] + t * d[2];
    if (t >= brick_end) {  // a new brick: where the ray leaves it, and whether it can show anything
      const int cell[3] = {(int)fmin(sx * (1.0f / VR_BRICK), (float)(p->nb1 - 1)),
                           (int)fmin(sy * (1.0f / VR_BRICK), (float)(p->nb2 - 1)),
                           (int)fmin(sz * (1.0f / VR_BRICK), (float)(p->nb3 - 1))};
      float exit = end;
      for (int a = 0; a < 3; ++a) {
        const float side = (float)((d[a] > 0.0f ? cell[a] + 1 : cell[a]) * VR_BRICK);
        exit = fmin(exit, (side - o[a]) * inv[a]);
      }
      const int brick = (cell[2] * p->nb2 + cell[1]) * p->nb1 + cell[0];
      if (!vr_wave_shows(p, bricks[brick]) && (!with_context || brick_context[brick] == 0)) {
        const float next = first + ceil((exit - first) * p->samples_per_cell) * ds;  // the first sample past it
        if (next > t) {
          t = next;
          continue;
        }
      }
      brick_end = exit;  // (a transparent brick whose far side rounding put at t: its sample adds nothing)
    }
    float gradient[3];
    const float v = vr_sample(p, u, sx, sy, sz, gradient);
    float sigma = 0.0f, rgb[3] = {1.0f, 0.0f, 1.0f};  // magenta where the field is not finite
    if (isnan(v) || isinf(v)) {
      sigma = INFINITY;
    } else {
      sigma = vr_extinction(p, v);
      if (sigma > 0.0f) {
        vr_colour(colormap, vr_signed_position(v), rgb);
        const float light = p->emission * vr_shade(gradient, d);
        for (int c = 0; c < 3; ++c) rgb[c] *= light;
      }
      if (with_context) {
        const float sc = p->context_density * vr_sample_context(p, context, sx, sy, sz);
        if (sc > 0.0f) {  // a warm grey, mixed with the wave's colour by extinction
          const float total = sigma + sc, grey[3] = {0.80f, 0.74f, 0.64f};
          for (int c = 0; c < 3; ++c) rgb[c] = (sigma * rgb[c] + sc * grey[c]) / total;
          sigma = total;
        }
      }
    }
    if (sigma > 0.0f) {
      const float a = (1.0f - alpha) * (1.0f - exp(-sigma * ds));
      r += a * rgb[0], g += a * rgb[1], b += a * rgb[2];
      alpha += a;
    }
    t += ds;
  }
  if (plane && alpha < p->stop_alpha) {  // the plane is opaque: the slice view's colours
    const float sx = o[0] + t1 * d[0], sy = o[1] + t1 * d[1], sz = o[2] + t1 * d[2];
    float gradient[3];
    const float v = vr_sample(p, u, sx, sy, sz, gradient);
    const float rest = 1.0f - alpha;
    float rgb[3] = {1.0f, 0.0f, 1.0f};
    if (!(isnan(v) || isinf(v))) vr_colour(colormap, 0.5f + 0.5f * v * p->inv_clip, rgb);
    r += rest * rgb[0], g += rest * rgb[1], b += rest * rgb[2];
    alpha = 1.0f;
  }
  return vr_pack(r, g, b, alpha);
}
