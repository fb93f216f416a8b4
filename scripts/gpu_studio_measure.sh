#!/usr/bin/env bash
# The studio's figures on a GPU server, with OpenGL and OpenCL on the GPU (run by `scripts/gpu_studio.sh
# run`, which sets up the display and the libraries; see there). Every figure is measured ROUNDS times
# (default 3), the runs of different kinds alternating, and scripts/gpu_studio_summary.py prints the
# medians. Logs go to $OUT/logs.tar.gz, pictures to $OUT/pictures.tar.gz, the summary to $OUT/summary.txt.
#   GPU_DEVICE   the OpenCL device (default nvidia)      ROUNDS        repetitions (default 3)
#   SECONDS_EACH seconds of each --benchmark half (5)     SKIP          space-separated parts to leave out:
#                                                                      main compare record shots teach
#                                                                      frame volume
#   MAIN_SIZES (256 512), COMPARE_SIZE (256), RECORD_SIZE (512): cube edges, smaller for a trial on a CPU
#   MAIN_PARTS   what the window's cost at the largest size is made of (default "30fps hostpath"; also
#                "small": a 640x360 view, "xz": one plane drawn in 2D; set and empty: none)
#   COMPARE_STEPS (2400): long enough for auto's steps per frame to settle, most of the run at them
#   RECORD_RUNS  resolution:preset pairs (default "1920x1080:veryfast 1920x1080:ultrafast 3840x2160:veryfast
#                3840x2160:ultrafast")
#   RECORD_FRAMES frames a recording takes (600: 2400 steps, about 3 s at 512³ on an H100 or H200, so that
#                the recording's start and its file's end, about 0.1 s together, do not make its rate)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/out}"; mkdir -p "$out"
logs="$(mktemp -d)"; pics="$(mktemp -d)"
dev="${GPU_DEVICE:-nvidia}"; rounds="${ROUNDS:-3}"; secs="${SECONDS_EACH:-5}"; skip=" ${SKIP:-} "
main_sizes="${MAIN_SIZES:-256 512}"; compare_size="${COMPARE_SIZE:-256}"; record_size="${RECORD_SIZE:-512}"
main_parts="${MAIN_PARTS-30fps hostpath}"; compare_steps="${COMPARE_STEPS:-2400}"
record_runs="${RECORD_RUNS:-1920x1080:veryfast 1920x1080:ultrafast 3840x2160:veryfast 3840x2160:ultrafast}"
record_frames="${RECORD_FRAMES:-600}"
gpu_stages="gpu-basic@$dev,gpu-slm@$dev,gpu-optimized@$dev,gpu-temporal@$dev"
big="$record_size,$record_size,$record_size"
largest="${main_sizes##* }"

# run NAME PROGRAM ARGS...: appends the command, its output and its wall time to NAME.log.
run() {
  local name="$1"; shift
  echo "==== $*" >> "$logs/$name.log"
  local start; start=$(date +%s.%N)
  timeout 300 "$@" >> "$logs/$name.log" 2>&1
  local rc=$?
  echo "==== exit $rc, wall $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}') s" >> "$logs/$name.log"
  echo "$name: exit $rc"
}
wanted() { [[ "$skip" != *" $1 "* ]]; }
# (the help is read whole first: grep -q would end the pipe early, which pipefail reports as a failure)
has_volume() { local help; help="$(iso3dfd-studio --help 2>&1)"; grep -q -- '--mode.*volume' <<< "$help"; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$logs/nvidia-smi.log" 2>&1
cp "$out/gl.txt" "$logs/" 2>/dev/null
run devices iso3dfd devices --bandwidth

if wanted frame; then  # what one recorded frame costs, part by part (drawing, reading back, encoding)
  run frame-costs iso_bench_render --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
fi
if wanted compare; then  # the stages' own figures, for the compare view's to be set against
  run bench iso3dfd bench $compare_size $compare_size $compare_size 40 --stages "${gpu_stages//@$dev/}" --device "$dev" --repeat 3
fi
for r in $(seq "$rounds"); do
  if wanted main; then
    for n in $main_sizes; do
      run "main-$n" iso3dfd-studio --size "$n,$n,$n" --stage gpu-optimized --device "$dev" \
          --steps-per-frame 4 --benchmark "$secs"
    done
    # What the window's cost is made of, at the largest size: half the frames, the host-copy path, a
    # quarter of the pixels, one plane.
    for part in $main_parts; do
      case "$part" in
        30fps) extra=(--view-fps 30) ;;
        hostpath) extra=(--slice-path host) ;;
        small) extra=(--view-size 640x360) ;;
        xz) extra=(--mode xz) ;;
        *) echo "unknown MAIN_PARTS entry: $part" >&2; continue ;;
      esac
      run "main-$largest-$part" iso3dfd-studio --size "$largest,$largest,$largest" --stage gpu-optimized \
          --device "$dev" --steps-per-frame 4 --benchmark "$secs" "${extra[@]}"
    done
  fi
  if wanted compare; then
    run compare iso3dfd-studio --compare "$gpu_stages" --size "$compare_size,$compare_size,$compare_size" --steps "$compare_steps" \
        --screenshot "$pics/compare.png"
  fi
  if wanted record; then
    for pair in $record_runs; do
      res="${pair%%:*}"; preset="${pair#*:}"
      run "record-$res-$preset" iso3dfd-studio --size "$big" --stage gpu-optimized --device "$dev" \
          --record "/tmp/record-$res.mp4" --frames "$record_frames" --every 4 --resolution "$res" --video-preset "$preset"
    done
  fi
  if wanted shots; then
    run shot-4k iso3dfd-studio --size "$big" --stage gpu-optimized --device "$dev" --steps 200 \
        --screenshot "$pics/shot-4k.png" --resolution 3840x2160
  fi
  if wanted volume && has_volume; then
    run view-cost-volume iso3dfd view-cost "$record_size" "$record_size" "$record_size" --stage gpu-optimized \
        --device "$dev" --mode volume --resolution 1920x1080
    # The goal's size: a 1920x1080 view, its image at full scale (the window with its docks is larger than
    # the default screen: SCREEN=2560x1440x24 scripts/gpu_studio.sh run).
    run main-volume iso3dfd-studio --size "$big" --stage gpu-optimized --device "$dev" --mode volume \
        --view-size 1920x1080 --image-scale 1 --steps-per-frame 4 --benchmark "$secs"
  fi
done
if wanted shots; then  # the pictures compared with llvmpipe's: cpu-serial gives the same numbers anywhere
  for mode in 3d xz; do
    run "picture-$mode" iso3dfd-studio --stage cpu-serial --size 96,96,96 --steps 200 --mode "$mode" --resolution 1280x720 \
        --screenshot "$pics/picture-$mode.png"
  done
  if wanted volume && has_volume; then
    for step in 300 500 700; do
      run "picture-volume-$step" iso3dfd-studio --stage gpu-optimized --device "$dev" --size 256,256,256 --steps "$step" \
          --mode volume --resolution 1920x1080 --screenshot "$pics/volume-$step.png"
    done
  fi
fi
if wanted teach; then
  run explorer iso3dfd-studio --stages-window explanation --stage gpu-optimized --screenshot "$pics/explorer.png"
  run panel iso3dfd-studio --bench-panel --size 128 --steps 20 --stages "cpu-parallel,${gpu_stages//@$dev/}" \
      --screenshot "$pics/panel.png" --json "$logs/panel.json"
  # The lesson end to end on the GPU (its speed-ups and staircase) and the compare view's difference mode.
  run lesson iso3dfd-studio --lesson --size 256 --steps 100 --device "$dev" --screenshots "$pics/lesson" \
      --handout "$pics/lesson-handout.pdf"
  run compare-difference iso3dfd-studio --compare "cpu-parallel,gpu-slm@$dev,gpu-optimized@$dev,gpu-temporal@$dev" \
      --difference --size 128,128,128 --steps 300 --screenshot "$pics/compare-difference.png"
fi

python3 "$root/scripts/gpu_studio_summary.py" "$logs" | tee "$out/summary.txt"
tar -C "$logs" -czf "$out/logs.tar.gz" .
tar -C "$pics" -czf "$out/pictures.tar.gz" .
