#version 330 core
// Colour-maps the wavefield u over the symmetric range [-clip, clip]; optionally blends the velocity
// model over it, semi-transparently, in an earth-tone ramp from the slowest to the fastest rock. The
// model yields to the wave: at rest it shows at the overlay's opacity, under a wave at the clip not at
// all, so that the wave keeps the colours of its colour bar where it is strong.
in vec2 uv;
uniform sampler2D field;          // R32F, u
uniform sampler1D colormap;       // RGB lookup table, low to high
uniform float clip;               // > 0
uniform sampler2D velocity;       // R32F, m/s (same planes as the field)
uniform vec2 velocityRange;       // min, max over the velocity planes, m/s
uniform float overlayOpacity;     // 0 = no overlay
out vec4 fragColour;

void main() {
  float u = texture(field, uv).r;
  bool blownUp = isnan(u) || isinf(u);
  vec3 colour;
  if (blownUp) {
    colour = vec3(1.0, 0.0, 1.0);  // magenta: the solution has blown up here; never hide it
  } else {
    float t = clamp(0.5 + 0.5 * u / clip, 0.0, 1.0);
    // Map [0, 1] onto the centres of the first and last entries, so both ends are exact.
    float entries = float(textureSize(colormap, 0));
    colour = texture(colormap, (t * (entries - 1.0) + 0.5) / entries).rgb;
  }
  if (overlayOpacity > 0.0) {
    float v = texture(velocity, uv).r;
    float s = clamp((v - velocityRange.x) / max(velocityRange.y - velocityRange.x, 1e-3), 0.0, 1.0);
    vec3 rock = mix(vec3(0.22, 0.17, 0.13), vec3(0.95, 0.86, 0.66), s);
    float strength = blownUp ? 1.0 : clamp(abs(u) / clip, 0.0, 1.0);
    colour = mix(colour, rock, overlayOpacity * (1.0 - strength));
  }
  fragColour = vec4(colour, 1.0);
}
