#version 330 core
// Premultiplied RGBA (QImage::Format_RGBA8888_Premultiplied), blended with (ONE, ONE_MINUS_SRC_ALPHA).
in vec2 uv;
uniform sampler2D overlay;
out vec4 fragColour;

void main() { fragColour = texture(overlay, uv); }
