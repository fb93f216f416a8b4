#!/usr/bin/env bash
# Installs what is missing, builds in Release and starts iso3dfd studio on the default scenario.
# Without a display it runs the command-line tool on the default scenario instead.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
"$root/scripts/setup.sh" "$build"
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$build/pocl-cache}"
if [ -x "$build/app/studio/iso3dfd-studio" ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$build/app/studio/iso3dfd-studio" "$@"
fi
echo "(no display or no GUI build: running the command-line tool on the default scenario)"
exec "$build/app/cli/iso3dfd" run 128 128 128 200 --scenario default "$@"
