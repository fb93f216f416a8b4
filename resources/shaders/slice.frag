#version 330 core
// Colour-maps the wavefield u over the symmetric range [-clip, clip] (a magnitude such as a difference
// |u - u_ref| over [0, clip]); optionally blends the velocity
// model over it, semi-transparently, in a ramp from the slowest to the fastest rock. The
// model yields to the wave: at rest it shows at the overlay's opacity, under a wave at the clip not at
// all, so that the wave keeps the colours of its colour bar where it is strong.
//
// In 3D the three slices cross; where the depth test decides pixel by pixel which one shows, their
// crossing would come out as a staircase without multisampling. So a pixel of the slice in front that
// the crossing line passes through mixes in the colour of the other slice, taken where the eye's ray
// through the pixel meets it, by the share of the pixel that lies beyond the line: smooth crossings on
// every driver, with or without samples.
in vec2 uv;
in vec3 gridPosition;             // 3D: the fragment in the grid's cell coordinates
uniform sampler2D field;          // R32F, u
uniform sampler1D colormap;       // RGB lookup table, low to high
uniform float clip;               // > 0
uniform float rangeLow;           // -clip (a wavefield, [-clip, clip]) or 0 (a magnitude, [0, clip])
uniform sampler2D velocity;       // R32F, m/s (same planes as the field)
uniform vec2 velocityRange;       // min, max over the velocity planes, m/s
uniform float overlayOpacity;     // 0 = no overlay
// The crossings (3D only): which slice this is (0 XY, 1 XZ, 2 YZ), every slice's field and velocity,
// the slices' positions and the grid's size in cell coordinates, the eye in them.
uniform bool crossings;
uniform int plane;
uniform sampler2D fieldXY, fieldXZ, fieldYZ, velocityXY, velocityXZ, velocityYZ;
uniform vec3 slicePoint;
uniform vec3 gridSize;
uniform vec3 eye;
out vec4 fragColour;

// The velocity ramp, slowest to fastest rock: lightness climbs all the way while the hue turns from
// indigo through teal, olive and ochre to sand, so that neighbouring layers differ in both even when the
// overlay is half transparent (rockTable() in SliceRenderer.cpp draws its colour bar from the same stops).
vec3 rock(float s) {
  const vec3 c[5] = vec3[5](vec3(0.15, 0.15, 0.45), vec3(0.15, 0.50, 0.55), vec3(0.55, 0.70, 0.25), vec3(0.90, 0.65, 0.20),
                            vec3(0.98, 0.92, 0.75));
  float x = clamp(s, 0.0, 1.0) * 4.0;
  int k = min(int(x), 3);
  return mix(c[k], c[k + 1], x - float(k));
}

// The colour of wavefield value u with velocity v under it.
vec3 shade(float u, float v) {
  bool blownUp = isnan(u) || isinf(u);
  vec3 colour;
  if (blownUp) {
    colour = vec3(1.0, 0.0, 1.0);  // magenta: the solution has blown up here; never hide it
  } else {
    float t = clamp((u - rangeLow) / (clip - rangeLow), 0.0, 1.0);
    // Map [0, 1] onto the centres of the first and last entries, so both ends are exact.
    float entries = float(textureSize(colormap, 0));
    colour = textureLod(colormap, (t * (entries - 1.0) + 0.5) / entries, 0.0).rgb;
  }
  if (overlayOpacity > 0.0) {
    float s = clamp((v - velocityRange.x) / max(velocityRange.y - velocityRange.x, 1e-3), 0.0, 1.0);
    vec3 tint = rock(s);
    float strength = blownUp ? 1.0 : clamp(abs(u) / clip, 0.0, 1.0);
    colour = mix(colour, tint, overlayOpacity * (1.0 - strength));
  }
  return colour;
}

// Slice p's axes in the grid: its normal, its texture's column and row.
int normalAxis(int p) { return p == 0 ? 2 : p == 1 ? 1 : 0; }
int columnAxis(int p) { return p == 2 ? 1 : 0; }
int rowAxis(int p) { return p == 0 ? 1 : 2; }

// Slice p's colour at grid position q (on it).
vec3 shadeSlice(int p, vec3 q) {
  vec2 at = clamp(vec2(q[columnAxis(p)] / gridSize[columnAxis(p)], q[rowAxis(p)] / gridSize[rowAxis(p)]), 0.0, 1.0);
  float u = p == 0 ? textureLod(fieldXY, at, 0.0).r : p == 1 ? textureLod(fieldXZ, at, 0.0).r : textureLod(fieldYZ, at, 0.0).r;
  float v = p == 0 ? textureLod(velocityXY, at, 0.0).r : p == 1 ? textureLod(velocityXZ, at, 0.0).r
                                                        : textureLod(velocityYZ, at, 0.0).r;
  return shade(u, v);
}

void main() {
  vec3 colour = shade(texture(field, uv).r, texture(velocity, uv).r);
  // Outside the branch: a derivative needs every fragment of its 2 × 2 block.
  vec3 acrossX = dFdx(gridPosition), acrossY = dFdy(gridPosition);
  if (crossings) {
    for (int other = 0; other < 3; ++other) {
      if (other == plane) continue;
      int a = normalAxis(other);
      float perPixel = length(vec2(acrossX[a], acrossY[a]));
      float pixels = abs(gridPosition[a] - slicePoint[a]) / max(perPixel, 1e-6);  // from the crossing
      if (pixels >= 0.5) continue;
      // Where the eye's ray through this pixel meets the other slice: beyond this fragment (t > 1) when
      // this slice is the one in front here.
      float t = (slicePoint[a] - eye[a]) / (gridPosition[a] - eye[a]);
      if (!(t > 1.0)) continue;
      colour = mix(shadeSlice(other, eye + t * (gridPosition - eye)), colour, 0.5 + pixels);
    }
  }
  fragColour = vec4(colour, 1.0);
}
