#!/usr/bin/env python3
"""Reads the SEG-Y shot gather `iso3dfd run --traces F.sgy` writes with segyio (Debian's python3-segyio,
what a geophysicist's scripts use) and checks every header field and sample against the .npy traces of
the same run.

Usage: check_segy_traces.py ISO3DFD VERSION
"""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import segyio

iso3dfd, version = sys.argv[1:3]
scratch = tempfile.mkdtemp(prefix="iso3dfd-segy-")
atexit.register(shutil.rmtree, scratch, ignore_errors=True)
n1, n2, n3, steps = 37, 29, 23, 60
dx, dt = 12.5, 0.0007  # 700 us: a whole number of microseconds, so the time axis is exact
source = (18, 14, 4)
receivers = [(3, 14, 2), (33, 14, 2), (18, 2, 9), (18, 14, 20)]
common = [iso3dfd, "run", str(n1), str(n2), str(n3), str(steps), "--stage", "cpu-serial", "--dx", str(dx),
          "--dt", str(dt), "--source-pos", ",".join(map(str, source))]
for r in receivers:
    common += ["--receiver", ",".join(map(str, r))]
segy_path, npy_path = os.path.join(scratch, "shot.sgy"), os.path.join(scratch, "shot.npy")
for path in (segy_path, npy_path):  # cpu-serial: both runs record the same samples, bit for bit
    subprocess.run(common + ["--traces", path], check=True, stdout=subprocess.DEVNULL)
recorded = np.load(npy_path)  # (samples, receivers), sample n at (n+1)·dt
assert recorded.shape == (steps, len(receivers)), recorded.shape

failures = []


def expect(what, got, wanted):
    if got != wanted:
        failures.append(f"{what}: {got!r}, expected {wanted!r}")


with segyio.open(segy_path, ignore_geometry=True) as f:
    samples = steps + 1  # u^0 at t = 0, then the recorded samples
    expect("trace count", f.tracecount, len(receivers))
    expect("samples (ms)", list(np.round(f.samples, 6)), list(np.round(np.arange(samples) * dt * 1e3, 6)))
    expect("dt (us)", segyio.tools.dt(f), dt * 1e6)
    binary = f.bin
    for field, wanted in [(segyio.BinField.Traces, len(receivers)), (segyio.BinField.AuxTraces, 0),
                          (segyio.BinField.Interval, 700), (segyio.BinField.IntervalOriginal, 700),
                          (segyio.BinField.Samples, samples), (segyio.BinField.SamplesOriginal, samples),
                          (segyio.BinField.Format, 5), (segyio.BinField.SortingCode, 1),
                          (segyio.BinField.MeasurementSystem, 1), (segyio.BinField.SEGYRevision, 0x0100),
                          (segyio.BinField.TraceFlag, 1), (segyio.BinField.ExtendedHeaders, 0)]:
        expect(f"binary header {field}", binary[field], wanted)

    text = f.text[0].decode("ascii")
    cards = [text[80 * c:80 * c + 80] for c in range(40)]
    for c, card in enumerate(cards):
        expect(f"card {c + 1} label", card[:4], f"C{c + 1:2d} ")
    expect("card 1", cards[0].rstrip(), f"C 1 iso3dfd studio {version}: shot gather of a 3D acoustic wave simulation")
    expect("card 39", cards[38].rstrip(), "C39 SEG Y REV1")
    expect("card 40", cards[39].rstrip(), "C40 END TEXTUAL HEADER")
    if "?" in text:  # what EBCDIC's common characters cannot hold is written as '?'
        failures.append(f"the textual header has characters SEG-Y could not hold:\n{text}")
    if f"dt {dt:g} s" not in text:
        failures.append(f"the textual header does not give dt {dt:g} s:\n{text}")

    F = segyio.TraceField
    for r, (i, j, k) in enumerate(receivers):
        h = f.header[r]
        for field, wanted in [(F.TRACE_SEQUENCE_LINE, r + 1), (F.TRACE_SEQUENCE_FILE, r + 1), (F.FieldRecord, 1),
                              (F.TraceNumber, r + 1), (F.EnergySourcePoint, 1), (F.CDP, 1), (F.CDP_TRACE, r + 1),
                              (F.TraceIdentificationCode, 1), (F.NSummedTraces, 1), (F.NStackedTraces, 1),
                              (F.DataUse, 1), (F.CoordinateUnits, 1), (F.TRACE_SAMPLE_COUNT, samples),
                              (F.TRACE_SAMPLE_INTERVAL, 700), (F.ElevationScalar, -10), (F.SourceGroupScalar, -10),
                              (F.SourceSurfaceElevation, 0), (F.ReceiverDatumElevation, 0), (F.SourceDatumElevation, 0)]:
            expect(f"trace {r} {field}", h[field], wanted)
        # Scalars: negative divides (SEG-Y rev 1); positions in metres from the first interior cell.
        scale = 1.0 / 10
        expect(f"trace {r} source x", h[F.SourceX] * scale, source[0] * dx)
        expect(f"trace {r} source y", h[F.SourceY] * scale, source[1] * dx)
        expect(f"trace {r} source depth", h[F.SourceDepth] * scale, source[2] * dx)
        expect(f"trace {r} receiver x", h[F.GroupX] * scale, i * dx)
        expect(f"trace {r} receiver y", h[F.GroupY] * scale, j * dx)
        expect(f"trace {r} receiver elevation", h[F.ReceiverGroupElevation] * scale, -k * dx)
        horizontal = np.hypot((i - source[0]) * dx, (j - source[1]) * dx)
        sign = -1 if (i < source[0] or (i == source[0] and j < source[1])) else 1
        expect(f"trace {r} offset", h[F.offset], int(np.floor(horizontal + 0.5)) * sign)
        trace = f.trace[r]
        expect(f"trace {r} dtype", trace.dtype, np.dtype(np.float32))
        expect(f"trace {r} u^0", float(trace[0]), 0.0)  # a Ricker source starts from rest
        if not np.array_equal(trace[1:], recorded[:, r]):
            failures.append(f"trace {r}: samples differ from the .npy traces (max |diff| "
                            f"{np.max(np.abs(trace[1:] - recorded[:, r]))})")
    if np.max(np.abs(recorded)) == 0.0:
        failures.append("the receivers recorded nothing: the check would not see wrong samples")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"{segy_path}: {len(receivers)} traces of {steps + 1} samples, every header field and sample as expected")
