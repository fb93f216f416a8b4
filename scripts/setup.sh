#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages that are missing, then configures and builds in Release.
# Usage: scripts/setup.sh [build-dir] [extra cmake args...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
shift || true

packages=(build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-charts-dev qt6-svg-dev libqscintilla2-qt6-dev libdtl-dev
  libgl-dev libgl1-mesa-dri libglm-dev
  pocl-opencl-icd ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers clinfo
  xvfb xauth libgtest-dev libbenchmark-dev nlohmann-json3-dev libsegyio-dev libcli11-dev
  ffmpeg libavcodec-dev libavformat-dev libswscale-dev libavutil-dev libssl-dev
  help2man file desktop-file-utils appstream python3-numpy python3-segyio python3-vtk9
  openmpi-bin libopenmpi-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi

# PoCL needs a writable cache; $HOME may not be writable on every machine.
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$build/pocl-cache}"
mkdir -p "$POCL_CACHE_DIR"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
jobs=$(nproc)
cmake --build "$build" -j "$jobs"
