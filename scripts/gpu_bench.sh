#!/usr/bin/env bash
# The GPU machine's checks and timings, all through the `iso3dfd` command-line tool (no Qt needed there).
# Here (the build machine):   scripts/gpu_bench.sh pack     -> .gpu/ (iso3dfd + the libraries it may lack)
# There (e.g. the H100):      scripts/gpu_bench.sh run [iso3dfd bench options, e.g. --sizes 256,512,768 --tune]
#                             scripts/gpu_bench.sh half                  (gpu-half and the absorbing layer's cost)
#                             scripts/gpu_bench.sh iso3dfd COMMAND [options]   (any command, same environment)
#                             scripts/gpu_bench.sh mpirun N COMMAND [options]  (iso3dfd on N MPI ranks)
# iso3dfd is built with MPI (Open MPI from Debian, libmpi.so.40) and loads the GPU machine's own Open MPI
# 4.1.x there (the same soname and ABI; `mpi-check` runs two ranks and prints which library answered).
# `run` lists the devices with their measured copy bandwidth, checks every OpenCL stage and every tuning
# candidate against cpu-serial inside NaN guard regions (rows of 67 floats, unaligned, and of 64), tunes
# at 512³, and times every OpenCL stage (`iso3dfd bench`). Logs, bench.json/.csv and the tuning database go
# to $OUT (default ./out). The device is $GPU_DEVICE (default nvidia). The NVIDIA ICD is registered first
# when the driver is present but unregistered.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:-run}"; shift || true

if [ "$mode" = pack ]; then
  build="${BUILD_DIR:-$root/build-gpu}"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DISO_BUILD_GUI=OFF -DISO_BUILD_TESTS=OFF -DISO_BUILD_BENCH=OFF -DISO_WITH_MPI=ON >/dev/null
  cmake --build "$build" --target iso3dfd
  # MPI is linked, not packed: the GPU machine's Open MPI 4.1.x provides libmpi.so.40 and the mpirun
  # that matches it (a packed libmpi would need its own mpirun, daemons and plugins).
  if ! ldd "$build/app/cli/iso3dfd" | grep -q 'libmpi.so.40'; then
    echo "pack: iso3dfd is not linked with Open MPI (libmpi.so.40): install libopenmpi-dev (scripts/setup.sh)" >&2
    exit 1
  fi
  rm -rf "$root/.gpu" && mkdir -p "$root/.gpu/lib"
  cp "$build/app/cli/iso3dfd" "$root/.gpu/"
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
# ISO3DFD names another binary: a trial of the scripts on the build machine, where its libraries are, or
# another build packed beside it in .gpu/ (a probe timed against the shipped one), which takes .gpu/lib too.
iso="${ISO3DFD:-$root/.gpu/iso3dfd}"
if [ -d "$root/.gpu/lib" ]; then
  libs="$root/.gpu/lib-only"; mkdir -p "$libs"; cp "$root/.gpu/lib/libsegyio.so.1" "$libs/"
  ldconfig -p | grep -q 'libOpenCL.so.1 ' || cp "$root/.gpu/lib/libOpenCL.so.1" "$libs/"
  export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export ISO3DFD_CACHE_DIR="${ISO3DFD_CACHE_DIR:-/tmp/iso3dfd-cache}"
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-/tmp/pocl-cache}"
device="${GPU_DEVICE:-nvidia}"

# Open MPI as root inside a VM of one host: ranks share memory (no network) and are bound to no core
# (each rank's driver threads need more than one). A large message is copied once, by the kernel's
# cross-memory attach, where the VM allows it; mpi-check finds out and says when
# OMPI_MCA_btl_vader_single_copy_mechanism=none (two copies through shared memory) is needed instead.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_hwloc_base_binding_policy=none
mpirun_iso() {  # mpirun_iso N ARGS...: iso3dfd ARGS on N ranks of this host
  local n="$1"; shift
  mpirun --oversubscribe -np "$n" -x LD_LIBRARY_PATH -x ISO3DFD_CACHE_DIR -x POCL_CACHE_DIR "$iso" "$@"
}

if [ "$mode" = iso3dfd ]; then
  exec "$iso" "$@"
fi
if [ "$mode" = half ]; then
  exec "$root/scripts/gpu_half.sh" "$iso" "$device" "$out"
fi
if [ "$mode" = mpirun ]; then
  mpirun_iso "$@"
  exit $?
fi
if [ "$mode" = mpi-check ]; then
  # Which libmpi the packed binary loads here, and two ranks through it (the report names the library).
  ldd "$iso" | grep -E 'libmpi|not found' || { echo "mpi-check: iso3dfd does not load libmpi.so.40 here" >&2; exit 1; }
  command -v mpirun >/dev/null || { echo "mpi-check: no mpirun on this machine (Open MPI 4.1.x expected)" >&2; exit 1; }
  mpirun --version | head -1
  # Large enough that the halo goes by the single-copy path (more than vader's eager limit).
  if mpirun_iso 2 run 256 256 32 2 --stage cpu-serial | grep -E 'Decomposition|slab'; then
    echo "MPI single copy: ${OMPI_MCA_btl_vader_single_copy_mechanism:-default}"
    exit 0
  fi
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
  mpirun_iso 2 run 256 256 32 2 --stage cpu-serial | grep -E 'Decomposition|slab' || exit 1
  echo "MPI single copy: none (set OMPI_MCA_btl_vader_single_copy_mechanism=none for mpirun here)"
  exit 0
fi
if [ "$mode" != run ]; then
  echo "usage: scripts/gpu_bench.sh pack | run [iso3dfd bench options] | half | iso3dfd COMMAND [options] | mpirun N COMMAND [options] | mpi-check" >&2
  exit 2
fi

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$out/nvidia-smi.txt" 2>&1 || true
status=0
step() {  # step LOG ARGS...: runs iso3dfd ARGS, shows and keeps its output, remembers a failure
  local log="$1"; shift
  echo "==== iso3dfd $*" | tee "$out/$log"
  "$iso" "$@" 2>&1 | tee -a "$out/$log" || status=1
}
set +e
step devices.log devices --bandwidth
for n1 in 67 64; do
  step "verify-$n1.log" verify "$n1" 45 29 40 --stage all --candidates --device "$device" --boundary absorbing \
       --receiver 3,22,14 --receiver 60,40,25
done
step tune.log tune 512 512 512 --device "$device"
step bench.log bench 512 512 512 20 --scenario oneapi --stages gpu-basic,gpu-linear,gpu-private-z,gpu-private-x,gpu-slm,gpu-optimized,gpu-half,gpu-temporal \
     --device "$device" --json "$out/bench.json" --csv "$out/bench.csv" "$@"
cp "$ISO3DFD_CACHE_DIR"/tuning.json "$ISO3DFD_CACHE_DIR"/bandwidth.json "$out/" 2>/dev/null
exit $status
