#version 330 core
// A line's band (line.geom): the share of each pixel the line of width 2·halfWidth covers, as alpha.
in vec4 lineColour;
noperspective in float across;
uniform float halfWidth;
out vec4 fragColour;

void main() {
  float coverage = clamp(halfWidth + 0.5 - abs(across), 0.0, 1.0);
  fragColour = vec4(lineColour.rgb, lineColour.a * coverage);
}
