// The volume renderer's kernels, built after volume_march.cl (which holds everything they compute):
// the bricks' summaries of u (every frame), the velocity model's context and its bricks (once per
// solver, when first asked for) and the image (one work-item per pixel). The host side is
// compute/OpenClVolumeRenderer.cpp.

__kernel void volume_bricks(const vr_params p, __global const float* u, __global float* bricks) {
  const int b1 = get_global_id(0), b2 = get_global_id(1), b3 = get_global_id(2);
  if (b1 < p.nb1 && b2 < p.nb2 && b3 < p.nb3) bricks[(b3 * p.nb2 + b2) * p.nb1 + b1] = vr_brick_summary(&p, u, b1, b2, b3);
}

__kernel void volume_context(const vr_params p, __global const float* vel, __global uchar* context) {
  const int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
  if (i < p.n1 && j < p.n2 && k < p.n3) context[vr_cell_index(&p, i, j, k)] = (uchar)vr_context_cell(&p, vel, i, j, k);
}

__kernel void volume_brick_context(const vr_params p, __global const uchar* context, __global uchar* brick_context) {
  const int b1 = get_global_id(0), b2 = get_global_id(1), b3 = get_global_id(2);
  if (b1 < p.nb1 && b2 < p.nb2 && b3 < p.nb3)
    brick_context[(b3 * p.nb2 + b2) * p.nb1 + b1] = (uchar)vr_brick_context(&p, context, b1, b2, b3);
}

__kernel void volume_render(const vr_params p, __global const float* u, __global const float* bricks,
                            __global const uchar* context, __global const uchar* brick_context,
                            __global const uint* colormap, __global uint* image) {
  const int px = get_global_id(0), py = get_global_id(1);
  if (px < p.width && py < p.height)
    image[py * p.width + px] = vr_render_pixel(&p, u, bricks, context, brick_context, colormap, px, py);
}
