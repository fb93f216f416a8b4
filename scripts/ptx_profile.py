#!/usr/bin/env python3
"""Runs an OpenCL stage's kernel from the PTX that NVIDIA's OpenCL compiler produced, through CuPy, so
that Nsight Compute (which reads CUDA only) can profile it, and prints its throughput.

On an NVIDIA GPU machine with CuPy (the `device` tool's machines have it):
  iso3dfd tune 512 512 512 --stage gpu-optimized --ptxas --ptx-dir DIR   # saves each candidate's PTX
  python3 scripts/ptx_profile.py [--ceilings] [--n 512] FILE.ptx TX TY XV YB [Z_CHUNK] [FILE.ptx ...]
  python3 scripts/ptx_profile.py --kernel temporal FILE.ptx TX TY XB YB [Z_CHUNK] ...
  python3 scripts/ptx_profile.py --storage 0 FILE.ptx TX TY XV YB [Z_CHUNK]    # gpu-half's PTX
  python3 scripts/ptx_profile.py --kernel layer-x|layer-y|layer-z FILE.ptx          # the layer's corrections
  ncu --kernel-name stencil --launch-skip 5 --launch-count 1 --metrics ... python3 scripts/ptx_profile.py ...
--kernel optimized (gpu-optimized's GPU form, the default): TX TY is the work-group, XV YB the x points
and rows per work-item; one launch is one step. --kernel temporal (gpu-temporal): TX TY is the tile in
points, XB YB the block of a work-item; the work-group is (WG, 1, 1) with WG = (TX+2R)/XB (TY+2R)/YB +
TX/XB TY/YB, and one launch advances two steps (u^(n+1) and u^(n+2) into two further arrays).
--storage S: the PTX is gpu-half's with its storage parameter S (0, 1: incremental, a fourth array U^(n+1);
0, 2: vel in half too, with its scale as the last argument); its arrays are halves (16-bit).
Z_CHUNK: planes per work-group (default 64; 0: the whole column). Gpts/s counts interior point-steps.
--kernel layer-x, layer-y, layer-z: the absorbing layer's correction of that axis (resources/kernels/pml.cl:
pml_correct_advancing_x, _y, pml_correct_z) from a float stage's PTX (the ptxas report builds pml.cl in, with
the device's PML_CELLS), in the host's launch shape (compute/OpenClSolver.cpp, AbsorbingLayer::range): a
--width-cell layer, --cells cells per work-item; it prints the time per launch and the cells it corrects.
--ceilings also times a 3-read-1-write stream and a copy over arrays of the same size.
"""
import argparse
import re

import cupy as cp
import numpy as np

R = 8
# The stencil's 9 weights, of the order of the real ones (their values do not change the timing).
COEF = np.array([-8.5, 1.7, -0.3, 0.07, -0.017, 0.003, -5e-4, 5e-5, -2e-6], dtype=np.float32) / 100


def median_seconds(launch, reps=20):
    for _ in range(3):
        launch()
    cp.cuda.Device().synchronize()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(5):
        start.record()
        for _ in range(reps):
            launch()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) / reps / 1e3)
    return sorted(times)[len(times) // 2]


def load_kernel(path, name='stencil', max_registers=0):
    ptx = open(path, 'rb').read().rstrip(b'\0').decode()
    if max_registers:  # a register cap on this entry alone (the host's max_registers caps every entry)
        at = ptx.index('.entry ' + name + '(')
        body = ptx.index('{', ptx.index(')', at))
        ptx = ptx[:body] + f'.maxnreg {max_registers}\n' + ptx[body:]
    # OpenCL's __constant arguments live in a constant bank there; here they are plain global memory.
    ptx = ptx.replace('.ptr .const', '.ptr .global').replace('ld.const.', 'ld.global.')
    # %envreg0-5 hold OpenCL's group and global offsets, which are 0 for our launches; CUDA leaves them unset.
    ptx = re.sub(r'%envreg\d+', '0', ptx)
    fixed = f"/tmp/{name}-{max_registers}-" + path.split('/')[-1]
    with open(fixed, 'w') as f:
        f.write(ptx)
    return cp.RawModule(path=fixed).get_function(name)


def profile_layer(a):
    """Times one axis's correction kernel of the absorbing layer on an n^3 grid (float fields)."""
    n, w, cells, m = a.n, a.width, a.cells, 2  # m: PML_M (kPmlHalfLength)
    nx = n + 2 * R
    axis = 'xyz'.index(a.kernel[-1])
    rng = np.random.default_rng(1)
    prev = cp.asarray(rng.random(nx ** 3, dtype=np.float32) - 0.5)
    nxt = cp.asarray(rng.random(nx ** 3, dtype=np.float32) - 0.5)
    vel = cp.full(nx ** 3, 0.04, dtype=cp.float32)
    coef = cp.asarray(COEF)
    slots = 2 * w
    memory = n * n * slots  # the axis's memory array: the interior with the axis replaced by 2w slots
    psi_old = cp.asarray(rng.random(memory, dtype=np.float32) * 1e-3)
    psi_new = cp.zeros(memory, dtype=cp.float32)
    zeta = cp.asarray(rng.random(memory, dtype=np.float32) * 1e-3)
    rec = cp.asarray(np.concatenate([np.full(slots, 0.9), np.full(slots, 0.1)] * 2).astype(np.float32))
    d1 = cp.asarray(np.array([1.125, -1.0 / 24], dtype=np.float32))
    band = w + m
    blocks = 2 * (-(-band // cells))  # blocks of `cells` cells per line, each end's (pml_blocks)
    i32 = np.int32
    if axis < 2:
        kernel = load_kernel(a.specs[0], 'pml_correct_advancing_' + 'xy'[axis], a.max_registers)
        args = (prev, nxt, vel, coef, psi_old, psi_new, zeta, rec, d1, i32(n), i32(n), i32(n), i32(w), i32(0))
        cells_of = [n, n, n]
        cells_of[axis] = blocks
        local = (min(blocks, 8), 128 // min(blocks, 8), 1) if axis == 0 else (32, 4, 1)  # NarrowX, Rows
    else:
        kernel = load_kernel(a.specs[0], 'pml_correct_z', a.max_registers)
        args = (prev, nxt, vel, coef, psi_old, zeta, rec, d1, i32(n), i32(n), i32(w), i32(n), i32(0), i32(0),
                i32(2 * band))
        cells_of = [n, n, blocks]
        local = (32, 1, 4)  # RowsAlongZ
    grid = tuple(-(-c // l) for c, l in zip(cells_of, local))
    t = median_seconds(lambda: kernel(grid, local, args))
    corrected = 2 * band * n * n
    cap = f', at most {a.max_registers} registers' if a.max_registers else ''
    print(f'{a.kernel} ({a.specs[0]}), n={n}, width {w}, {cells} cells a work-item{cap}: {t * 1e3:.3f} ms per launch, '
          f'{corrected / t / 1e9:.1f} G corrected cells/s')


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--n', type=int, default=512, help='interior size of the cubic grid')
    parser.add_argument('--ceilings', action='store_true', help='also time streaming kernels')
    parser.add_argument('--kernel', choices=('optimized', 'temporal', 'layer-x', 'layer-y', 'layer-z'),
                        default='optimized',
                        help="the stage whose kernel the PTX files hold (its arguments and launch geometry), or "
                             "one axis's correction of the absorbing layer")
    parser.add_argument('--width', type=int, default=10, help='layer-*: the layer\'s cells at each end')
    parser.add_argument('--cells', type=int, default=3, help='layer-*: cells per work-item (the PTX\'s PML_CELLS)')
    parser.add_argument('--max-registers', type=int, default=0,
                        help='layer-*: a register cap (PTX .maxnreg) on the kernel; 0: the compiler\'s choice')
    parser.add_argument('--storage', type=int, choices=range(4), default=None,
                        help="the PTX is gpu-half's, built with this storage parameter")
    parser.add_argument('specs', nargs='*', help='FILE.ptx TX TY XV YB [Z_CHUNK] ...')
    a = parser.parse_args()
    if a.kernel.startswith('layer-'):
        profile_layer(a)
        return

    n = a.n
    nx = n + 2 * R
    size = nx ** 3
    rng = np.random.default_rng(1)
    half = a.storage is not None
    field = np.float16 if half else np.float32
    # random: zeros can flatter a kernel
    prev = cp.asarray((rng.random(size, dtype=np.float32) - 0.5).astype(field))
    nxt = cp.asarray((rng.random(size, dtype=np.float32) - 0.5).astype(field))
    unew = cp.zeros(size, dtype=field)
    half_vel = half and a.storage % 2 == 0
    vel = cp.full(size, 0.04, dtype=np.float16 if half_vel else np.float32)
    # gpu-half's arguments after z_chunk (common.cl: INCREMENTAL_ARGS, VEL_SCALE_ARGS)
    storage_args = ((unew,) if half and a.storage < 2 else ()) + ((np.float32(1.0),) if half_vel else ())
    coef = cp.asarray(COEF)
    ones = cp.ones(nx, dtype=cp.float32)
    if a.kernel == 'temporal':  # u^(n+1) and u^(n+2) go to two more arrays (four field buffers)
        out1 = cp.zeros(size, dtype=cp.float32)
        out2 = cp.zeros(size, dtype=cp.float32)

    if a.ceilings and not half:
        stream = cp.ElementwiseKernel('float32 p, float32 v', 'float32 q', 'q = 2.0f * p - q + v * p', 'stream3r1w')
        t = median_seconds(lambda: stream(prev, vel, nxt))
        print(f'stream 3R+1W over the padded grid: {size * 16 / t / 1e9:.0f} GB/s = {n ** 3 / t / 1e9:.1f} interior Gpts/s')
        t = median_seconds(lambda: cp.copyto(nxt, prev))
        print(f'copy 1R+1W: {size * 8 / t / 1e9:.0f} GB/s')

    specs = a.specs
    while specs:
        path, tx, ty, xb, yb = specs[0], *map(int, specs[1:5])
        specs = specs[5:]
        zc = 64
        if specs and specs[0].isdigit():
            zc, specs = int(specs[0]), specs[1:]
        chunk = zc if zc else n
        kernel = load_kernel(path)
        sizes = (np.int32(n), np.int32(n), np.int32(n))
        planes = (np.int32(R), np.int32(n + R))  # z_begin, z_end: the interior planes, in padded numbering
        if a.kernel == 'temporal':
            wg = (tx + 2 * R) // xb * ((ty + 2 * R) // yb) + tx // xb * (ty // yb)
            grid, block, steps = (-(-n // tx), -(-n // ty), -(-n // chunk)), (wg, 1, 1), 2
            # older, prev, out1, out2, vel, coef, gx, gy, gz, n1, n2, n3, source index (-1: none), source
            # value, steps, z_begin, z_end, z_chunk (resources/kernels/temporal.cl)
            args = (nxt, prev, out1, out2, vel, coef, ones, ones, ones, *sizes, np.int32(-1), np.float32(0),
                    np.int32(steps), *planes, np.int32(chunk))
        else:
            grid, block, steps = (-(-n // (tx * xb)), -(-n // (ty * yb)), -(-n // chunk)), (tx, ty, 1), 1
            # STENCIL_ARGS (common.cl), z_chunk, then the storage's own
            args = (prev, nxt, vel, coef, ones, ones, ones, *sizes, *planes, np.int32(chunk), *storage_args)
        t = median_seconds(lambda: kernel(grid, block, args))
        print(f'{path} z_chunk={zc}: {steps * n ** 3 / t / 1e9:.1f} Gpts/s '
              f'({t * 1e3:.3f} ms per launch of {steps} step{"s" if steps > 1 else ""})')


if __name__ == '__main__':
    main()
