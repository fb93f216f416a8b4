#version 330 core
// A drawn picture (texture row 0 = the picture's top row) as a video's yuv420p planes in one
// single-channel target of width × (height + height/2) texels, read back row for row:
//   rows 0 .. height−1            luma, one texel per pixel;
//   rows height .. height·3/2−1   row r holds chroma row r: Cb in the left half, Cr in the right, each
//                                 the mean of the picture's 2 × 2 pixels at rows 2r, 2r+1.
// ITU-R BT.709 coefficients, studio range (luma 16–235, chroma 16–240), what players assume of HD
// video and what the encoder writes into the stream. The picture is sampled with linear filtering at
// the centre of each pixel (chroma: of the block's four), which at the picture's own size is the pixel
// itself, and which reduces a picture drawn larger (ImageFramebuffer draws small ones at twice their
// size) as a box filter does.
uniform sampler2D picture;
uniform vec2 frameSize;  // the video frame's width and height in pixels, both even
out vec4 value;

const vec3 kLuma = vec3(0.2126, 0.7152, 0.0722);
const vec3 kCb = vec3(-0.114572, -0.385428, 0.5);
const vec3 kCr = vec3(0.5, -0.454153, -0.045847);

void main() {
  ivec2 texel = ivec2(gl_FragCoord.xy);
  ivec2 size = ivec2(frameSize);
  if (texel.y < size.y) {
    vec3 rgb = texture(picture, (vec2(texel) + 0.5) / frameSize).rgb;
    value = vec4((16.0 + 219.0 * dot(kLuma, rgb)) / 255.0);
    return;
  }
  int halfWidth = size.x / 2;
  bool cr = texel.x >= halfWidth;
  vec2 block = vec2(2 * (texel.x - (cr ? halfWidth : 0)), 2 * (texel.y - size.y));
  vec3 rgb = 0.25 * (texture(picture, (block + vec2(0.5, 0.5)) / frameSize).rgb +
                     texture(picture, (block + vec2(1.5, 0.5)) / frameSize).rgb +
                     texture(picture, (block + vec2(0.5, 1.5)) / frameSize).rgb +
                     texture(picture, (block + vec2(1.5, 1.5)) / frameSize).rgb);
  value = vec4((128.0 + 224.0 * dot(cr ? kCr : kCb, rgb)) / 255.0);
}
