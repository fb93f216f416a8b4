#version 330 core
// The painted overlay's tiles: positions in normalised device coordinates, texture coordinates with
// image row 0 at v = 0 (the top).
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 texcoord;
out vec2 uv;

void main() {
  uv = texcoord;
  gl_Position = vec4(position, 0.0, 1.0);
}
