#version 330 core
// Textured slice: a quad in world (3D view) or pixel (2D view) coordinates.
layout(location = 0) in vec3 position;
layout(location = 1) in vec2 texcoord;
uniform mat4 viewProjection;
uniform mat4 worldToGrid;  // 3D: world to the grid's cell coordinates (slice.frag's crossings)
out vec2 uv;
out vec3 gridPosition;

void main() {
  uv = texcoord;
  gridPosition = (worldToGrid * vec4(position, 1.0)).xyz;
  gl_Position = viewProjection * vec4(position, 1.0);
}
