#version 330 core
// Overlay lines (bounding box, axes, slice outlines, source marker) with a colour per vertex; line.geom
// widens each segment into a band of pixels.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 colour;
uniform mat4 viewProjection;
out vec4 vertexColour;

void main() {
  vertexColour = colour;
  gl_Position = viewProjection * vec4(position, 1.0);
}
