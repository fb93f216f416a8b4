#version 330 core
// Premultiplied RGBA (painted as QImage::Format_ARGB32_Premultiplied, sent as BGRA), blended with
// (ONE, ONE_MINUS_SRC_ALPHA).
in vec2 uv;
uniform sampler2D overlay;
out vec4 fragColour;

void main() { fragColour = texture(overlay, uv); }
