#!/usr/bin/env bash
# Installs what is missing, builds in Release and runs the whole test suite (GUI tests under Xvfb).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
"$root/scripts/setup.sh" "$build"
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$build/pocl-cache}"
cd "$build"
runner=()
if [ -z "${DISPLAY:-}" ]; then
  # -noreset: by default Xvfb resets when its last client leaves, and a test process connecting during
  # the reset is refused (Qt then aborts: "could not connect to display"); with two tests at a time this
  # happened to 2 of 1,100 short-lived clients here, and to none of 2,400 with -noreset.
  runner=(xvfb-run -a -s "-screen 0 1280x720x24 -noreset")
fi
mkdir -p Testing
log="$build/Testing/test-output.log"
status=0
"${runner[@]}" ctest --output-on-failure -j 2 --timeout 600 2>&1 | tee "$log" || status=$?
if [ "$status" -ne 0 ]; then
  # A CI log may keep only its end: repeat there what each failed test printed.
  echo
  echo "== What the failed tests printed (repeated from above) =="
  awk '/Test +#[0-9]+:/ {show = /\*\*\*/ && !/\*\*\*Skipped/} /^ *Start +[0-9]+:/ {show = 0} show' "$log"
fi
exit "$status"
