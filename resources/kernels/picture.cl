// A picture of the 3D slice view (core/SlicePicture.h), made by the solver's device beside its steps: what
// resources/shaders/slice.frag draws where the view's OpenGL rasterises three quads, done here by casting
// the ray through each pixel's centre at the three planes. The nearest hit in front of the camera is the
// fragment the depth test keeps; its colour is slice.frag's, step for step (bilinear samples with clamped
// edges, the colormap's entries blended linearly, the velocity tint, magenta where u is not finite, the
// crossings mixed by the share of the pixel beyond them). Then the layers (premultiplied: the 3D lines as
// the slices hide them, the painted labels, colour bars and HUD) go over it in order, each result rounded
// to 8 bits as a framebuffer holds it, and the block is written as RGBA bytes, as Qt's RGB32 words
// (0xffRRGGBB: what a raster window shows without converting) or as the video's planes
// (render/VideoPlanes.h: BT.709, studio range, chroma the mean of each 2 × 2 block). One work-item per
// 2 × 2 block of pixels: four rays, whose differences also give the crossings' derivatives. The host side is compute/OpenClPictureRenderer.cpp.

typedef struct {
  float to_grid[16];  // clip space to grid cells, column-major: worldToGrid · inverse(worldToClip)
  float eye[4];       // the camera's eye in grid cells
  float size[4];      // n1, n2, n3
  float point[4];     // the planes' positions along their normals: the slice point's cells + 0.5
  int n[4];           // n1, n2, n3
  int width, height, scene_width, layers;
  float clip, range_low, tint, vel_lo, vel_hi;
  uint background;  // RGBA8, red in the low byte
  int crossings;
  int pixels;  // PIC_RGBA, PIC_PLANES or PIC_RGB32 (core/SlicePicture.h's PicturePixels)
} pic_params;

#define PIC_RGBA 0
#define PIC_PLANES 1
#define PIC_RGB32 2

// Slice p (0 XY, 1 XZ, 2 YZ): its normal axis, its planes' column and row axes (render/SliceGeometry.h).
inline int pic_normal(int p) { return p == 0 ? 2 : p == 1 ? 1 : 0; }
inline int pic_column(int p) { return p == 2 ? 1 : 0; }
inline int pic_row(int p) { return p == 0 ? 1 : 2; }

inline float pic_axis(float3 v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

// Where plane p's values start in the three planes laid one after the other (core/SliceSet.h).
inline int pic_plane_offset(const pic_params* P, int p) {
  return p == 0 ? 0 : p == 1 ? P->n[0] * P->n[1] : P->n[0] * P->n[1] + P->n[0] * P->n[2];
}

// A texture's GL_LINEAR sample at texture coordinates (s, t) with clamped edges: rows along t.
inline float pic_bilinear(__global const float* plane, int w, int h, float s, float t) {
  const float x = s * (float)w - 0.5f, y = t * (float)h - 0.5f;
  const float x0 = floor(x), y0 = floor(y);
  const float fx = x - x0, fy = y - y0;
  const int i0 = clamp((int)x0, 0, w - 1), i1 = clamp((int)x0 + 1, 0, w - 1);
  const int j0 = clamp((int)y0, 0, h - 1), j1 = clamp((int)y0 + 1, 0, h - 1);
  const float a = plane[j0 * w + i0], b = plane[j0 * w + i1], c = plane[j1 * w + i0], d = plane[j1 * w + i1];
  return (1.0f - fy) * ((1.0f - fx) * a + fx * b) + fy * ((1.0f - fx) * c + fx * d);
}

inline float3 pic_unpack(uint rgba) {
  return (float3)((float)(rgba & 0xffu), (float)((rgba >> 8) & 0xffu), (float)((rgba >> 16) & 0xffu)) / 255.0f;
}

// slice.frag's rock(): the velocity ramp from slowest to fastest.
inline float3 pic_rock(float s) {
  const float3 c0 = (float3)(0.15f, 0.15f, 0.45f), c1 = (float3)(0.15f, 0.50f, 0.55f), c2 = (float3)(0.55f, 0.70f, 0.25f),
               c3 = (float3)(0.90f, 0.65f, 0.20f), c4 = (float3)(0.98f, 0.92f, 0.75f);
  const float x = clamp(s, 0.0f, 1.0f) * 4.0f;
  const int k = min((int)x, 3);
  const float f = x - (float)k;
  const float3 lo = k == 0 ? c0 : k == 1 ? c1 : k == 2 ? c2 : c3;
  const float3 hi = k == 0 ? c1 : k == 1 ? c2 : k == 2 ? c3 : c4;
  return mix(lo, hi, f);
}

// slice.frag's shade(): the colour of u with velocity v under it.
inline float3 pic_shade(const pic_params* P, __global const uint* colormap, float u, float v) {
  const bool blown_up = isnan(u) || isinf(u);
  float3 colour;
  if (blown_up) {
    colour = (float3)(1.0f, 0.0f, 1.0f);
  } else {
    // The 256 entries as a linearly filtered 1D texture sampled at their centres' span.
    const float x = clamp((u - P->range_low) / (P->clip - P->range_low), 0.0f, 1.0f) * 255.0f;
    const int k = min((int)x, 254);
    colour = mix(pic_unpack(colormap[k]), pic_unpack(colormap[k + 1]), x - (float)k);
  }
  if (P->tint > 0.0f) {
    const float s = clamp((v - P->vel_lo) / fmax(P->vel_hi - P->vel_lo, 1e-3f), 0.0f, 1.0f);
    const float strength = blown_up ? 1.0f : clamp(fabs(u) / P->clip, 0.0f, 1.0f);
    colour = mix(colour, pic_rock(s), P->tint * (1.0f - strength));
  }
  return colour;
}

// Slice p's colour at grid position q on it (slice.frag's shadeSlice: coordinates clamped into the plane).
inline float3 pic_shade_slice(const pic_params* P, __global const float* planes, __global const float* velocity,
                              __global const uint* colormap, int p, float3 q) {
  const int c = pic_column(p), r = pic_row(p);
  const int w = P->n[c], h = P->n[r];
  const float s = clamp(pic_axis(q, c) / P->size[c], 0.0f, 1.0f), t = clamp(pic_axis(q, r) / P->size[r], 0.0f, 1.0f);
  const int at = pic_plane_offset(P, p);
  const float u = pic_bilinear(planes + at, w, h, s, t);
  const float v = P->tint > 0.0f ? pic_bilinear(velocity + at, w, h, s, t) : 0.0f;
  return pic_shade(P, colormap, u, v);
}

// The ray through the centre of pixel (x, y) (y from the top) in grid cells: from the near plane (t = 0)
// to the far one (t = 1).
inline void pic_ray(const pic_params* P, float x, float y, float3* origin, float3* dir) {
  const float cx = 2.0f * (x + 0.5f) / (float)P->scene_width - 1.0f, cy = 1.0f - 2.0f * (y + 0.5f) / (float)P->height;
  const float* m = P->to_grid;
  float4 ends[2];
  for (int e = 0; e < 2; ++e) {
    const float cz = e == 0 ? -1.0f : 1.0f;
    ends[e] = (float4)(m[0] * cx + m[4] * cy + m[8] * cz + m[12], m[1] * cx + m[5] * cy + m[9] * cz + m[13],
                       m[2] * cx + m[6] * cy + m[10] * cz + m[14], m[3] * cx + m[7] * cy + m[11] * cz + m[15]);
  }
  *origin = ends[0].xyz / ends[0].w;
  *dir = ends[1].xyz / ends[1].w - *origin;
}

// Where the ray meets plane p's infinite plane: its parameter (NAN when parallel).
inline float pic_meet(const pic_params* P, int p, float3 origin, float3 dir) {
  const int a = pic_normal(p);
  const float d = pic_axis(dir, a);
  return fabs(d) > 1e-20f ? (P->point[a] - pic_axis(origin, a)) / d : NAN;
}

// Where the ray (o, d) meets plane p, in grid cells.
inline float3 pic_on_plane(const pic_params* P, int p, float3 o, float3 d) { return o + pic_meet(P, p, o, d) * d; }

// Pixel k of a 2 × 2 block's colour before the layers, from the block's rays (o, d)[0..3] in row order.
// The change of the fragment's grid position per pixel to the right and down (slice.frag's dFdx, dFdy)
// is taken across the block, as OpenGL takes it across the 2 × 2 quads it shades together.
inline float3 pic_scene(const pic_params* P, __global const float* planes, __global const float* velocity,
                        __global const uint* colormap, int x, const float3* o, const float3* d, int k) {
  const float3 background = pic_unpack(P->background);
  if (x >= P->scene_width) return background;
  int hit = -1;
  float nearest = 2.0f;
  for (int p = 0; p < 3; ++p) {
    const float t = pic_meet(P, p, o[k], d[k]);
    if (!(t >= 0.0f && t <= 1.0f && t < nearest)) continue;
    const float3 q = o[k] + t * d[k];
    const int c = pic_column(p), r = pic_row(p);
    const float qc = pic_axis(q, c), qr = pic_axis(q, r);
    if (qc < 0.0f || qc > P->size[c] || qr < 0.0f || qr > P->size[r]) continue;
    hit = p;
    nearest = t;
  }
  if (hit < 0) return background;
  const float3 q = o[k] + nearest * d[k];
  float3 colour = pic_shade_slice(P, planes, velocity, colormap, hit, q);
  if (!P->crossings) return colour;
  const int row = k & 2, column = k & 1;
  const float3 across_x = pic_on_plane(P, hit, o[row + 1], d[row + 1]) - pic_on_plane(P, hit, o[row], d[row]);
  const float3 across_y = pic_on_plane(P, hit, o[2 + column], d[2 + column]) - pic_on_plane(P, hit, o[column], d[column]);
  const float3 eye = (float3)(P->eye[0], P->eye[1], P->eye[2]);
  for (int other = 0; other < 3; ++other) {
    if (other == hit) continue;
    const int a = pic_normal(other);
    const float per_pixel = length((float2)(pic_axis(across_x, a), pic_axis(across_y, a)));
    const float pixels = fabs(pic_axis(q, a) - P->point[a]) / fmax(per_pixel, 1e-6f);
    if (!(pixels < 0.5f)) continue;
    const float t = (P->point[a] - pic_axis(eye, a)) / (pic_axis(q, a) - pic_axis(eye, a));
    if (!(t > 1.0f)) continue;
    colour = mix(pic_shade_slice(P, planes, velocity, colormap, other, eye + t * (q - eye)), colour, 0.5f + pixels);
  }
  return colour;
}

inline float3 pic_round8(float3 c) { return round(clamp(c, 0.0f, 1.0f) * 255.0f) / 255.0f; }

// The layers over pixel (x, y): each a rectangle (x, y, width, height, first word) of premultiplied
// 0xAARRGGBB words, rows `width` words long, blended as OpenGL's GL_ONE, GL_ONE_MINUS_SRC_ALPHA does.
inline float3 pic_layers(const pic_params* P, __global const int* table, __global const uint* words, int x, int y, float3 c) {
  for (int l = 0; l < P->layers; ++l) {
    __global const int* r = table + 5 * l;
    const int lx = x - r[0], ly = y - r[1];
    if (lx < 0 || ly < 0 || lx >= r[2] || ly >= r[3]) continue;
    const uint w = words[r[4] + ly * r[2] + lx];
    if (w == 0u) continue;
    const float alpha = (float)(w >> 24) / 255.0f;
    const float3 premultiplied = (float3)((float)((w >> 16) & 0xffu), (float)((w >> 8) & 0xffu), (float)(w & 0xffu)) / 255.0f;
    c = pic_round8(premultiplied + (1.0f - alpha) * c);
  }
  return c;
}

inline uchar pic_byte(float v) { return (uchar)clamp(round(v), 0.0f, 255.0f); }

__kernel void picture_blocks(const pic_params P, __global const float* planes, __global const float* velocity,
                             __global const uint* colormap, __global const int* layer_table,
                             __global const uint* layer_words, __global uchar* out) {
  const int bx = get_global_id(0), by = get_global_id(1);
  if (2 * bx >= P.width || 2 * by >= P.height) return;
  float3 o[4], d[4];
  for (int k = 0; k < 4; ++k) pic_ray(&P, (float)(2 * bx + (k & 1)), (float)(2 * by + (k >> 1)), &o[k], &d[k]);
  float3 sum = (float3)(0.0f);
  for (int k = 0; k < 4; ++k) {
    const int x = 2 * bx + (k & 1), y = 2 * by + (k >> 1);
    if (x >= P.width || y >= P.height) continue;
    float3 c = pic_round8(pic_scene(&P, planes, velocity, colormap, x, o, d, k));
    c = pic_layers(&P, layer_table, layer_words, x, y, c);
    sum += c;
    if (P.pixels == PIC_PLANES) {
      out[y * P.width + x] = pic_byte(16.0f + 219.0f * dot((float3)(0.2126f, 0.7152f, 0.0722f), c));
    } else {
      const uchar r = pic_byte(255.0f * c.x), g = pic_byte(255.0f * c.y), b = pic_byte(255.0f * c.z);
      __global uchar* px = out + 4 * (y * P.width + x);
      px[0] = P.pixels == PIC_RGB32 ? b : r, px[1] = g, px[2] = P.pixels == PIC_RGB32 ? r : b, px[3] = 255;
    }
  }
  if (P.pixels != PIC_PLANES) return;
  const float3 mean = 0.25f * sum;
  __global uchar* chroma = out + P.width * P.height + by * P.width;
  chroma[bx] = pic_byte(128.0f + 224.0f * dot((float3)(-0.114572f, -0.385428f, 0.5f), mean));
  chroma[P.width / 2 + bx] = pic_byte(128.0f + 224.0f * dot((float3)(0.5f, -0.454153f, -0.045847f), mean));
}
