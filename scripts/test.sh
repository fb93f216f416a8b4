#!/usr/bin/env bash
# Installs what is missing, builds in Release and runs the whole test suite (GUI tests under Xvfb).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
"$root/scripts/setup.sh" "$build"
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$build/pocl-cache}"
cd "$build"
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1280x720x24" ctest --output-on-failure -j 2 --timeout 600
fi
exec ctest --output-on-failure -j 2 --timeout 600
