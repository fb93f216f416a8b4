#version 330 core
in vec4 lineColour;
out vec4 fragColour;

void main() { fragColour = lineColour; }
