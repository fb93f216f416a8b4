#version 330 core
// Colour-maps the wavefield u over the symmetric range [-clip, clip] (a magnitude such as a difference
// |u - u_ref| over [0, clip]); optionally blends the velocity
// model over it, semi-transparently, in a ramp from the slowest to the fastest rock. The
// model yields to the wave: at rest it shows at the overlay's opacity, under a wave at the clip not at
// all, so that the wave keeps the colours of its colour bar where it is strong.
in vec2 uv;
uniform sampler2D field;          // R32F, u
uniform sampler1D colormap;       // RGB lookup table, low to high
uniform float clip;               // > 0
uniform float rangeLow;           // -clip (a wavefield, [-clip, clip]) or 0 (a magnitude, [0, clip])
uniform sampler2D velocity;       // R32F, m/s (same planes as the field)
uniform vec2 velocityRange;       // min, max over the velocity planes, m/s
uniform float overlayOpacity;     // 0 = no overlay
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

void main() {
  float u = texture(field, uv).r;
  bool blownUp = isnan(u) || isinf(u);
  vec3 colour;
  if (blownUp) {
    colour = vec3(1.0, 0.0, 1.0);  // magenta: the solution has blown up here; never hide it
  } else {
    float t = clamp((u - rangeLow) / (clip - rangeLow), 0.0, 1.0);
    // Map [0, 1] onto the centres of the first and last entries, so both ends are exact.
    float entries = float(textureSize(colormap, 0));
    colour = texture(colormap, (t * (entries - 1.0) + 0.5) / entries).rgb;
  }
  if (overlayOpacity > 0.0) {
    float v = texture(velocity, uv).r;
    float s = clamp((v - velocityRange.x) / max(velocityRange.y - velocityRange.x, 1e-3), 0.0, 1.0);
    vec3 tint = rock(s);
    float strength = blownUp ? 1.0 : clamp(abs(u) / clip, 0.0, 1.0);
    colour = mix(colour, tint, overlayOpacity * (1.0 - strength));
  }
  fragColour = vec4(colour, 1.0);
}
