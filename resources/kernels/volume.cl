// The volume renderer's kernels, built after volume_march.cl (which holds everything they compute):
// the bricks' summaries of u (every frame), the velocity model's context and its bricks (once per
// solver, when first asked for) and the image (one work-item per pixel). The host side is
// compute/OpenClVolumeRenderer.cpp.

// Each brick's summary, and the box of those that show some wave into `active` (lowest b1, b2, b3, then
// highest), which starts as {n, n, n, -1, -1, -1}. A work-item reads the box before it updates it, so
// that few of them contend for its atomics.
__kernel void volume_bricks(const vr_params p, __global const float* u, __global float* bricks,
                            volatile __global int* active) {
  const int b[3] = {get_global_id(0), get_global_id(1), get_global_id(2)};
  if (b[0] >= p.nb1 || b[1] >= p.nb2 || b[2] >= p.nb3) return;
  const float summary = vr_brick_summary(&p, u, b[0], b[1], b[2]);
  bricks[(b[2] * p.nb2 + b[1]) * p.nb1 + b[0]] = summary;
  if (!vr_wave_shows(&p, summary)) return;
  for (int a = 0; a < 3; ++a) {
    if (b[a] < active[a]) atomic_min(&active[a], b[a]);
    if (b[a] > active[3 + a]) atomic_max(&active[3 + a], b[a]);
  }
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
                            __global const int* active, __global const uchar* context,
                            __global const uchar* brick_context, __global const uint* colormap, __global uint* image) {
  const int px = get_global_id(0), py = get_global_id(1);
  if (px < p.width && py < p.height)
    image[py * p.width + px] = vr_render_pixel(&p, u, bricks, active, context, brick_context, colormap, px, py);
}
