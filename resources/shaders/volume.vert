#version 330 core
// The volume image over the whole viewport (the 3D scene's), from four vertices made up here: no vertex
// buffer. Image row 0 (the top, as the ray marcher writes it) at the top of the viewport, or at the
// bottom when the frame is drawn upside down (rowsDown, for a read back in image order).
uniform bool rowsDown;
out vec2 uv;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));  // (0,0) (1,0) (0,1) (1,1)
  uv = vec2(corner.x, rowsDown ? corner.y : 1.0 - corner.y);
  gl_Position = vec4(2.0 * corner - 1.0, 0.0, 1.0);
}
