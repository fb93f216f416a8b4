#!/usr/bin/env python3
"""Medians of the studio's figures in the logs that scripts/gpu_studio_measure.sh writes (one folder).

Prints one block per measurement with the goal it is held against. Only the standard library: it runs
on the GPU server too."""
import re
import statistics
import sys
from pathlib import Path


def runs(folder, name):
    """The blocks of NAME.log, one per run (split at the '==== command' lines)."""
    path = Path(folder) / f"{name}.log"
    if not path.exists():
        return []
    blocks, current = [], None
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("==== ") and not line.startswith("==== exit"):
            current = []
            blocks.append(current)
        elif current is not None:
            current.append(line)
    return ["\n".join(b) for b in blocks]


def numbers(blocks, pattern):
    found = []
    for b in blocks:
        m = re.search(pattern, b)
        if m:
            found.append(float(m.group(1)))
    return found


def median(values):
    return statistics.median(values) if values else float("nan")


def spread(values):
    return f"median {median(values):.1f} of {len(values)} ({', '.join(f'{v:.1f}' for v in values)})"


def window_cost(folder, name):
    """One line pair for main-NAME.log: the solver alone, with the window, frames/s, ratio."""
    b = runs(folder, f"main-{name}")
    alone = numbers(b, r"solver alone\s*:\s*([\d.]+) Mpts/s")
    window = numbers(b, r"with the window:\s*([\d.]+) Mpts/s")
    fps = numbers(b, r"Mpts/s, ([\d.]+) frames/s delivered")
    ratio = numbers(b, r"ratio\s*:\s*([\d.]+) %")
    path = re.search(r"slices\s*:\s*(.*)", b[-1]).group(1) if b and "slices" in b[-1] else "-"
    print(f"  {name}: alone {spread(alone)} Mpts/s; with the window {spread(window)} Mpts/s")
    print(f"        frames/s drawn {spread(fps)}; ratio {spread(ratio)} %")
    print(f"        slices: {path}")
    return median(window)


def main_window(folder):
    print("Main window, gpu-optimized, default scenario, 4 steps per frame (goal: 60 frames/s, >= 97 % at 512^3)")
    names = sorted((p.stem[len("main-"):] for p in Path(folder).glob("main-*.log")),
                   key=lambda n: (int(re.match(r"(\d*)", n).group(1) or 0), n))
    live = {name: window_cost(folder, name) for name in names}
    sizes = [n for n in names if n.isdigit()]
    return live[sizes[-1]] if sizes else float("nan")


def bench_rates(folder):
    rates = {}
    for b in runs(folder, "bench"):
        for line in b.splitlines():
            m = re.match(r"(gpu-[\w-]+)\s+.*?\s(\d+x\d+x\d+)\s+([\d.]+)\s", line)
            if m:
                rates.setdefault(m.group(1), []).append(float(m.group(3)))
    return {k: median(v) for k, v in rates.items()}


def compare(folder):
    print("Compare view, four GPU stages (goals: >= 60 common frames/s, each stage >= 90 % of iso3dfd bench)")
    b = runs(folder, "compare")
    common = numbers(b, r"([\d.]+) common frames/s")
    drawn = numbers(b, r"([\d.]+) frames/s drawn")
    print(f"  common frames/s {spread(common)}; drawn {spread(drawn)}")
    bench = bench_rates(folder)
    stages = {}
    for block in b:
        for m in re.finditer(r"viewport \d: ([\w-]+)@\S+ on .*?: step \d+, ([\d.]+) Mpts/s", block):
            stages.setdefault(m.group(1), []).append(float(m.group(2)))
    for stage, values in stages.items():
        ref = bench.get(stage, float("nan"))
        print(f"  {stage:14s} {spread(values)} Mpts/s; bench {ref:.1f}: {100 * median(values) / ref:.1f} %")


def recording(folder, live):
    print(f"Recording every 4 steps, the largest grid (goal at 1080p: >= 90 % of the live window's {live:.1f} Mpts/s)")
    names = sorted((p.stem[len("record-"):] for p in Path(folder).glob("record-*.log")),
                   key=lambda n: (int(n.split("x")[0]), n))
    for name in names:
        b = runs(folder, f"record-{name}")
        sim = numbers(b, r"simulation: ([\d.]+) Mpts/s")
        drawing = numbers(b, r"drawing: ([\d.]+) ms per frame")
        encoder = numbers(b, r"writer: ([\d.]+) frames/s")
        held = numbers(b, r"held for the writer ([\d.]+) s")
        run = numbers(b, r"run: ([\d.]+) Mpts/s")
        print(f"  {name}: {spread(sim)} Mpts/s = {100 * median(sim) / live:.1f} % of the live window")
        if run:
            print(f"        the run from the first frame to the last: {spread(run)} Mpts/s = "
                  f"{100 * median(run) / live:.1f} %")
        print(f"        drawing {spread(drawing)} ms per frame; encoder {spread(encoder)} frames/s; "
              f"held for the writer {spread(held)} s")


def frame_costs(folder):
    """The medians of iso_bench_render's rows."""
    b = runs(folder, "frame-costs")
    if not b:
        return
    print("Frame costs (iso_bench_render, medians): drawing and reading back a picture, encoding 120 frames")
    for line in b[-1].splitlines():
        if "_median" in line or line.startswith("OpenGL"):
            print("  " + re.sub(r"\s+", " ", line.strip()))


def volume(folder):
    for name in ("view-cost-volume",):
        b = runs(folder, name)
        if b:
            print("Volume view, iso3dfd view-cost --mode volume (goal: >= 60 frames/s at 1080p, >= 90 % of the solver alone)")
            print("  " + "\n  ".join(b[-1].splitlines()[-6:]))
    b = runs(folder, "main-volume")
    if b:
        print("Volume view in the studio, 1920x1080 view at full image scale (--benchmark, last run)")
        print("  " + "\n  ".join(line for line in b[-1].splitlines() if not line.startswith("====")))


def screenshot(folder):
    b = runs(folder, "shot-4k")
    shot = numbers(b, r"screenshot: .*? in ([\d.]+) ms")
    wall = numbers(b, r"wall ([\d.]+) s")
    print(f"4K screenshot: {spread(shot)} ms to draw and write; whole command {spread(wall)} s")


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "."
    gl = Path(folder) / "gl.txt"
    if gl.exists():
        print(gl.read_text().strip())
    live = main_window(folder)
    compare(folder)
    recording(folder, live)
    frame_costs(folder)
    screenshot(folder)
    volume(folder)
    for name in ("picture-3d", "picture-xz", "explorer", "panel", "lesson", "compare-difference"):
        codes = numbers(runs(folder, name), r"==== exit (\d+)")
        print(f"{name}: " + (f"exit {int(codes[-1])}" if codes else "not run"))
    lesson(folder)


def lesson(folder):
    """The lesson's staircase as it printed it: each stage's Mpts/s and speed-up over its predecessor."""
    b = runs(folder, "lesson")
    if b:
        steps = re.findall(r"^([a-z-]+: [\d.]+ Mpts/s.*)$", b[-1], re.M)
        print("Lesson staircase (--lesson --size 256 --steps 100):\n  " + "\n  ".join(steps))


if __name__ == "__main__":
    main()
