#!/usr/bin/env bash
# Runs the OpenCL stage checks, the tuner and the timing table on a GPU machine.
# Here (the build machine):   scripts/gpu_bench.sh pack     -> .gpu/ (binary + the libraries it needs)
# There (e.g. the H100):      scripts/gpu_bench.sh run [iso3dfd-gpu-bench options]
# Logs go to $OUT (or ./out). The NVIDIA ICD is registered first when the driver is present but unregistered.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:-run}"; shift || true

if [ "$mode" = pack ]; then
  build="${BUILD_DIR:-$root/build-gpu}"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DISO_BUILD_GUI=OFF -DISO_BUILD_TESTS=OFF -DISO_BUILD_BENCH=OFF >/dev/null
  cmake --build "$build" --target iso3dfd-gpu-bench iso3dfd
  rm -rf "$root/.gpu" && mkdir -p "$root/.gpu/lib"
  cp "$build/compute/iso3dfd-gpu-bench" "$build/app/cli/iso3dfd" "$root/.gpu/" 2>/dev/null || \
    cp "$build/compute/iso3dfd-gpu-bench" "$root/.gpu/"
  # segyio is not on a bare GPU machine; the OpenCL ICD loader is a fallback used only when missing there.
  for lib in libsegyio.so.1 libOpenCL.so.1; do cp -L "$(ldconfig -p | awk -v l=$lib '$1==l {print $NF; exit}')" "$root/.gpu/lib/"; done
  ls -la "$root/.gpu" "$root/.gpu/lib"
  exit 0
fi

out="${OUT:-$root/out}"; mkdir -p "$out"
if [ -e /usr/lib/libnvidia-opencl.so.1 ] || ls /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 >/dev/null 2>&1; then
  if ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
    mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
  fi
fi
libs="$root/.gpu/lib-only"; mkdir -p "$libs"; cp "$root/.gpu/lib/libsegyio.so.1" "$libs/"
ldconfig -p | grep -q 'libOpenCL.so.1 ' || cp "$root/.gpu/lib/libOpenCL.so.1" "$libs/"
export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export ISO3DFD_CACHE_DIR="${ISO3DFD_CACHE_DIR:-/tmp/iso3dfd-cache}"
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-/tmp/pocl-cache}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$out/nvidia-smi.txt" 2>&1 || true
set +e
"$root/.gpu/iso3dfd-gpu-bench" --device "${GPU_DEVICE:-nvidia}" --out "$out" "$@"
rc=$?
cp "$ISO3DFD_CACHE_DIR"/tuning.json "$ISO3DFD_CACHE_DIR"/bandwidth.json "$out/" 2>/dev/null
exit $rc
