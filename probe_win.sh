#!/usr/bin/env bash
# The window's frames made on the device (--view-frames auto) against OpenGL's (opengl), alternating.
S="iso3dfd-studio --size 512,512,512 --stage gpu-optimized --device nvidia"
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for vf in auto opengl; do
  iso3dfd-studio --size 96,96,96 --stage gpu-optimized --device nvidia --steps 200 --view-frames $vf \
    --screenshot "$OUT/win-$vf.png" --whole-window 2>&1 | grep -vE "XDG|^view:"
done
el
for r in 1 2 3; do
  for vf in opengl auto; do
    echo "==== main $vf round $r"
    $S --steps-per-frame 4 --benchmark 5 --view-frames $vf 2>&1 | grep -E "solver alone|with the window|ratio"
  done
done
el
for r in 1 2 3; do
  for vf in opengl auto; do
    echo "==== rec 1080p/4, view-frames $vf round $r"
    $S --record /tmp/r.mp4 --frames 300 --every 4 --resolution 1920x1080 --view-frames $vf 2>&1 | grep -E "simulation:|drawing:|pictures made"
  done
done
el
echo "==== rec 1080p/4 auto --view-fps 1"
$S --record /tmp/r.mp4 --frames 300 --every 4 --resolution 1920x1080 --view-fps 1 2>&1 | grep -E "simulation:|drawing:"
echo "==== main 256 auto / opengl"
for vf in auto opengl; do
  iso3dfd-studio --size 256,256,256 --stage gpu-optimized --device nvidia --steps-per-frame 4 --benchmark 4 --view-frames $vf 2>&1 | grep -E "solver alone|with the window|ratio"
done
el
