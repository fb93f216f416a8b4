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


def main_window(folder):
    print("Main window, gpu-optimized, default scenario, 4 steps per frame (goal: 60 frames/s, >= 97 % at 512^3)")
    sizes = sorted(int(p.stem.split("-")[1]) for p in Path(folder).glob("main-*.log"))
    for n in sizes:
        b = runs(folder, f"main-{n}")
        alone = numbers(b, r"solver alone\s*:\s*([\d.]+) Mpts/s")
        window = numbers(b, r"with the window:\s*([\d.]+) Mpts/s")
        fps = numbers(b, r"Mpts/s, ([\d.]+) frames/s delivered")
        ratio = numbers(b, r"ratio\s*:\s*([\d.]+) %")
        path = re.search(r"slices\s*:\s*(.*)", b[-1]).group(1) if b and "slices" in b[-1] else "-"
        print(f"  {n}^3: alone {spread(alone)} Mpts/s; with the window {spread(window)} Mpts/s")
        print(f"        frames/s drawn {spread(fps)}; ratio {spread(ratio)} %")
        print(f"        slices: {path}")
    return median(numbers(runs(folder, f"main-{sizes[-1]}"), r"with the window:\s*([\d.]+) Mpts/s")) if sizes else float("nan")


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
    for res in sorted((p.stem.split("-")[1] for p in Path(folder).glob("record-*.log")), key=lambda r: int(r.split("x")[0])):
        b = runs(folder, f"record-{res}")
        sim = numbers(b, r"simulation: ([\d.]+) Mpts/s")
        print(f"  {res}: {spread(sim)} Mpts/s = {100 * median(sim) / live:.1f} % of the live window")
        drawing = numbers(b, r"drawing: ([\d.]+) ms per frame")
        encoder = numbers(b, r"writer: ([\d.]+) frames/s")
        held = numbers(b, r"held for the writer ([\d.]+) s")
        print(f"        drawing {spread(drawing)} ms per frame; encoder {spread(encoder)} frames/s; "
              f"held for the writer {spread(held)} s")


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
    screenshot(folder)
    for name in ("picture-3d", "picture-xz", "explorer", "panel"):
        codes = numbers(runs(folder, name), r"==== exit (\d+)")
        print(f"{name}: " + (f"exit {int(codes[-1])}" if codes else "not run"))


if __name__ == "__main__":
    main()
