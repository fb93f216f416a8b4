#!/usr/bin/env python3
"""Reads the wavefield series `iso3dfd run --dump-every K DIR` writes as ParaView does: the .pvd
collection's data sets and times, each .vti through VTK's XML image reader (Debian's python3-vtk9),
and checks times, spacing, origin, extent and values against the fields the same runs dump as .npy.

Usage: check_vti_series.py ISO3DFD
"""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLImageDataReader

iso3dfd = sys.argv[1]
scratch = tempfile.mkdtemp(prefix="iso3dfd-series-")
atexit.register(shutil.rmtree, scratch, ignore_errors=True)
n1, n2, n3 = 31, 23, 19  # odd, non-cubic: a transposed axis would show
dx, dt, every = 10.0, 0.0008, 10
failures = []


def run(steps, *options):
    subprocess.run([iso3dfd, "run", str(n1), str(n2), str(n3), str(steps), "--stage", "cpu-serial", "--dx", str(dx),
                    "--dt", str(dt), *options], check=True, stdout=subprocess.DEVNULL)


def expect(what, got, wanted):
    if got != wanted:
        failures.append(f"{what}: {got!r}, expected {wanted!r}")


def read_series(folder):
    """[(time, field (n3, n2, n1), spacing, origin, dims)] in the collection's order, as ParaView sees them."""
    root = ElementTree.parse(os.path.join(folder, "wavefield.pvd")).getroot()
    expect("collection type", root.get("type"), "Collection")
    frames = []
    for data_set in root.find("Collection").findall("DataSet"):
        reader = vtkXMLImageDataReader()
        reader.SetFileName(os.path.join(folder, data_set.get("file")))
        reader.Update()
        image = reader.GetOutput()
        dims = image.GetDimensions()
        values = vtk_to_numpy(image.GetPointData().GetArray("u")).reshape(dims[2], dims[1], dims[0])
        frames.append((float(data_set.get("timestep")), values, image.GetSpacing(), image.GetOrigin(), dims))
    return frames


# Every K steps: u^0, u^10, u^20; each against the field a run of that length dumps.
series, stride_series = os.path.join(scratch, "series"), os.path.join(scratch, "series-stride")
run(20, "--dump-every", str(every), series, "--dump", os.path.join(scratch, "u20.npy"))
run(10, "--dump", os.path.join(scratch, "u10.npy"))
expected = {0: np.zeros((n3, n2, n1), np.float32), 10: np.load(os.path.join(scratch, "u10.npy")),
            20: np.load(os.path.join(scratch, "u20.npy"))}
frames = read_series(series)
expect("frames", len(frames), 3)
for (time, values, spacing, origin, dims), step in zip(frames, (0, 10, 20)):
    if abs(time - step * dt) > 1e-12:
        failures.append(f"frame {step}: time {time}, expected {step * dt}")
    expect(f"frame {step} spacing", spacing, (dx, dx, dx))
    expect(f"frame {step} origin", origin, (0.0, 0.0, 0.0))
    expect(f"frame {step} dimensions", dims, (n1, n2, n3))
    if not np.array_equal(values, expected[step]):
        failures.append(f"frame {step}: values differ from u^{step} (max |diff| {np.max(np.abs(values - expected[step]))})")
if np.max(np.abs(expected[10])) == 0.0:
    failures.append("u^10 is zero everywhere: the check would not see wrong values")

# A decimated series: every 3rd point along each axis, 3 dx apart.
run(20, "--dump-every", "20", stride_series, "--dump-stride", "3")
frames = read_series(stride_series)
expect("decimated frames", len(frames), 2)
time, values, spacing, origin, dims = frames[-1]
expect("decimated spacing", spacing, (3 * dx, 3 * dx, 3 * dx))
expect("decimated dimensions", dims, (11, 8, 7))
if not np.array_equal(values, expected[20][::3, ::3, ::3]):
    failures.append("the decimated frame is not every 3rd point of u^20")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("the series read through VTK has the expected times, spacing, origin, extent and values")
