#version 330 core
// The volume image: RGBA with premultiplied alpha (the ray marcher's output), blended with
// glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA) over the background.
in vec2 uv;
uniform sampler2D image;
out vec4 fragColour;

void main() { fragColour = texture(image, uv); }
