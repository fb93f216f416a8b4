#version 330 core
// Textured slice: a quad in world (3D view) or pixel (2D view) coordinates.
layout(location = 0) in vec3 position;
layout(location = 1) in vec2 texcoord;
uniform mat4 viewProjection;
out vec2 uv;

void main() {
  uv = texcoord;
  gl_Position = viewProjection * vec4(position, 1.0);
}
