#version 330 core
// Each segment as a band on screen, the line's width plus a pixel each side, whose fragments know their
// distance from the segment's centre line (line.frag turns it into coverage): lines come out smooth
// and of the same width on every driver, with or without multisampling, where GL_LINES would be one
// jagged pixel wide without it.
layout(lines) in;
layout(triangle_strip, max_vertices = 4) out;
in vec4 vertexColour[];
uniform vec2 viewportPixels;  // the viewport's width and height in pixels
uniform float halfWidth;      // half the line's width in pixels
uniform float depthBias;      // towards the eye, in normalized depth: lines on a slice's edge stay over it
out vec4 lineColour;
noperspective out float across;  // signed distance from the centre line in pixels

const float kNearW = 1e-5;

// End `from` of the segment moved along it to the near side of the eye (w > 0), if it lies behind.
vec4 inFront(vec4 from, vec4 to) {
  if (from.w >= kNearW) return from;
  return mix(from, to, (kNearW - from.w) / (to.w - from.w));
}

// The corner of the band at clip position p, offset by `pixels` on screen.
void corner(vec4 p, vec4 colour, vec2 pixels, float distance) {
  gl_Position = p + vec4(pixels * 2.0 / viewportPixels * p.w, -depthBias * p.w, 0.0);
  lineColour = colour;
  across = distance;
  EmitVertex();
}

void main() {
  vec4 a = gl_in[0].gl_Position, b = gl_in[1].gl_Position;
  if (a.w < kNearW && b.w < kNearW) return;
  vec4 a2 = inFront(a, b), b2 = inFront(b, a);
  vec2 onScreen = (b2.xy / b2.w - a2.xy / a2.w) * 0.5 * viewportPixels;
  float pixelsLong = length(onScreen);
  vec2 along = pixelsLong > 1e-4 ? onScreen / pixelsLong : vec2(1.0, 0.0);
  vec2 normal = vec2(-along.y, along.x);
  float reach = halfWidth + 1.0;
  // Half a pixel past each end, so that the lines of a box's corner close on each other.
  vec2 back = -0.5 * along, forth = 0.5 * along;
  corner(a2, vertexColour[0], back - reach * normal, -reach);
  corner(a2, vertexColour[0], back + reach * normal, reach);
  corner(b2, vertexColour[1], forth - reach * normal, -reach);
  corner(b2, vertexColour[1], forth + reach * normal, reach);
  EndPrimitive();
}
