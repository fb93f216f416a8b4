#!/usr/bin/env bash
# iso3dfd studio on a GPU server that has an NVIDIA driver but no Qt, no X server and no Mesa.
#
# Here (the build machine, Debian 12):
#   scripts/gpu_studio.sh pack     -> .gpu-studio/bundle.tar.xz.part-NN (+ bundle.sha256): the two programs,
#                                     the shared libraries a bare server lacks, Qt's plugins, fonts, Xvfb
#                                     with its keymaps, and Mesa's software driver (only Xvfb's GLX extension
#                                     needs it; the studio's own OpenGL is NVIDIA's).
# There (the GPU server, as root):
#   scripts/gpu_studio.sh keep     moves the parts at hand into /tmp/iso3dfd-studio-parts (for sending the bundle
#                                  in several pieces when one transfer is limited in size)
#   scripts/gpu_studio.sh run      joins and unpacks the parts, starts Xvfb, checks that the OpenGL
#                                  renderer is the GPU (fails otherwise), then measures the studio there:
#                                  scripts/gpu_studio_measure.sh (logs, pictures and a summary in $OUT)
#   scripts/gpu_studio.sh shell CMD...   runs CMD in the same environment (display, libraries, devices)
#
# The list of libraries a bare server already has (so they are not sent) is scripts/gpu_server_libs.txt;
# `run` stops with the name of any that is missing there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:-}"; shift || true
work="$root/.gpu-studio"
part_size=45M

# Copies FILE... and every shared library they need (but glibc's, libstdc++'s and those the server
# has) into $stage/lib.
collect_libs() {
  local skip='^(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libstdc\+\+|libgcc_s|libresolv|libutil)\.so'
  local f l name
  for f in "$@"; do
    ldd "$f" | awk '/=>/ {print $3}' | while read -r l; do
      name="$(basename "$l")"
      [[ "$name" =~ $skip ]] && continue
      grep -qx "$name" <(grep -v '^#' "$root/scripts/gpu_server_libs.txt") && continue
      [ -e "$stage/lib/$name" ] || cp -L "$l" "$stage/lib/"
    done
  done
}

pack() {
  local build="${BUILD_DIR:-$root/build}"
  local qt=/usr/lib/x86_64-linux-gnu/qt6/plugins dri=/usr/lib/x86_64-linux-gnu/dri
  for tool in Xvfb xkbcomp glxinfo; do
    command -v "$tool" >/dev/null || { echo "pack needs $tool (apt-get install xvfb x11-xkb-utils mesa-utils)" >&2; exit 2; }
  done
  cmake --build "$build" --target iso3dfd-studio iso3dfd iso_bench_render
  stage="$work/stage/iso3dfd-studio"
  rm -rf "$work" && mkdir -p "$stage"/{bin,lib/dri,plugins,fonts,xkb}
  cp "$build/app/studio/iso3dfd-studio" "$build/app/cli/iso3dfd" "$build/bench/iso_bench_render" "$(command -v Xvfb)" \
     "$(command -v xkbcomp)" "$(command -v glxinfo)" "$stage/bin/"
  cp -L "$dri/swrast_dri.so" "$stage/lib/dri/"
  for p in platforms/libqxcb.so xcbglintegrations/libqxcb-glx-integration.so imageformats/libqsvg.so \
           imageformats/libqjpeg.so iconengines/libqsvgicon.so; do
    mkdir -p "$stage/plugins/$(dirname "$p")" && cp -L "$qt/$p" "$stage/plugins/$p"
  done
  # Client-side GLX of libglvnd and the xcb pieces NVIDIA's GLX library opens at run time.
  local gl=/usr/lib/x86_64-linux-gnu
  for l in libGL.so.1 libGLX.so.0 libGLdispatch.so.0 libOpenGL.so.0 libEGL.so.1 libGLX_mesa.so.0 \
           libxcb-glx.so.0 libxcb-dri2.so.0 libxcb-dri3.so.0 libxcb-present.so.0 libxcb-sync.so.1 \
           libxcb-xfixes.so.0 libxcb-randr.so.0 libxshmfence.so.1 libX11-xcb.so.1; do
    cp -L "$gl/$l" "$stage/lib/"
  done
  collect_libs "$stage"/bin/* "$stage"/lib/dri/*.so "$stage"/plugins/*/*.so "$stage"/lib/*.so*
  cp /usr/share/fonts/truetype/dejavu/DejaVuSans*.ttf "$stage/fonts/"
  cp -r /usr/share/X11/xkb/. "$stage/xkb/"
  tar -C "$work/stage" -cf - iso3dfd-studio | xz -T0 -9 > "$work/bundle.tar.xz"
  (cd "$work" && sha256sum bundle.tar.xz > bundle.sha256 && split -b "$part_size" -d bundle.tar.xz bundle.tar.xz.part-)
  rm -rf "$work/stage" "$work/bundle.tar.xz"
  du -sh "$work"/bundle.tar.xz.part-*
  echo "send every .gpu-studio/bundle.tar.xz.part-NN and .gpu-studio/bundle.sha256; then run: scripts/gpu_studio.sh run"
}

# Outside the checkout: a later call that carries parts into .gpu-studio replaces that folder there.
kept="${KEPT_DIR:-/tmp/iso3dfd-studio-parts}"
keep() {
  mkdir -p "$kept"
  local moved=0 p
  for p in "$work"/bundle.tar.xz.part-* "$work"/bundle.sha256; do
    if [ -e "$p" ]; then mv "$p" "$kept/" && moved=1; fi
  done
  [ "$moved" = 1 ] || { echo "keep: no parts in $work" >&2; exit 2; }
  ls -la "$kept"
}

# Joins the parts (carried now or kept earlier), checks them against bundle.sha256, unpacks once.
unpack() {
  bundle="${BUNDLE_DIR:-/tmp/iso3dfd-studio}"
  local sums
  sums="$( (ls "$work"/bundle.sha256 "$kept"/bundle.sha256 2>/dev/null || true) | head -1)"
  [ -n "$sums" ] || { echo "run: no .gpu-studio/bundle.sha256 (send it with the parts)" >&2; exit 2; }
  if [ -x "$bundle/bin/iso3dfd-studio" ] && cmp -s "$sums" "$bundle/bundle.sha256"; then return; fi
  local joined; joined="$(mktemp -d)"
  # In the order of the parts' numbers, wherever each lies.
  for p in $( (ls "$work"/bundle.tar.xz.part-* "$kept"/bundle.tar.xz.part-* 2>/dev/null || true) \
              | awk -F/ '{print $NF, $0}' | sort | cut -d' ' -f2); do
    cat "$p" >> "$joined/bundle.tar.xz"
  done
  (cd "$joined" && sha256sum -c --quiet "$sums") || {
    echo "run: the parts do not make the packed bundle (one missing?):" >&2
    ls -la "$work" "$kept" >&2 || true
    exit 2
  }
  rm -rf "$bundle" && mkdir -p "$(dirname "$bundle")"
  tar -C "$(dirname "$bundle")" -xJf "$joined/bundle.tar.xz"
  [ "$(basename "$bundle")" = iso3dfd-studio ] || mv "$(dirname "$bundle")/iso3dfd-studio" "$bundle"
  cp "$sums" "$bundle/bundle.sha256"
  rm -rf "$joined"
}

# The environment the studio runs in there: the bundle's libraries before the system's, NVIDIA's GLX
# for the studio, Qt's plugins and fonts from the bundle, NVIDIA's OpenCL registered.
environment() {
  export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:/usr/local/nvidia/lib64:/usr/lib"
  local missing
  missing="$(ldd "$bundle/bin/iso3dfd-studio" "$bundle/plugins/platforms/libqxcb.so" | grep 'not found' | sort -u || true)"
  if [ -n "$missing" ]; then
    echo "run: libraries missing on this machine (remove them from scripts/gpu_server_libs.txt and pack again):" >&2
    echo "$missing" >&2
    exit 2
  fi
  export QT_PLUGIN_PATH="$bundle/plugins" QT_QPA_PLATFORM=xcb QT_XCB_GL_INTEGRATION=xcb_glx
  export __GLX_VENDOR_LIBRARY_NAME="${GLX_VENDOR:-nvidia}"
  mkdir -p /tmp/iso3dfd-fontcache
  cat > "$bundle/fonts.conf" <<EOF
<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>$bundle/fonts</dir><cachedir>/tmp/iso3dfd-fontcache</cachedir></fontconfig>
EOF
  export FONTCONFIG_FILE="$bundle/fonts.conf"
  export ISO3DFD_CACHE_DIR="${ISO3DFD_CACHE_DIR:-/tmp/iso3dfd-cache}" POCL_CACHE_DIR="${POCL_CACHE_DIR:-/tmp/pocl-cache}"
  if [ -e /usr/lib/libnvidia-opencl.so.1 ] && ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
    mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
  fi
  export PATH="$bundle/bin:$PATH"
}

# Xvfb on a free display. Its GLX extension loads Mesa's software driver from the path it was built
# with, and it runs xkbcomp from /usr/bin: both are put there when the machine has none.
start_x() {
  [ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || {
    mkdir -p /usr/lib/x86_64-linux-gnu/dri && cp "$bundle/lib/dri/swrast_dri.so" /usr/lib/x86_64-linux-gnu/dri/
  }
  [ -x /usr/bin/xkbcomp ] || cp "$bundle/bin/xkbcomp" /usr/bin/
  local d=${DISPLAY_NUMBER:-7}
  while [ -e "/tmp/.X$d-lock" ]; do d=$((d + 1)); done
  Xvfb ":$d" -screen 0 "${SCREEN:-1920x1080x24}" -nolisten tcp -noreset +extension GLX \
       -xkbdir "$bundle/xkb" > "${OUT:-/tmp}/xvfb.log" 2>&1 &
  export DISPLAY=":$d"
  for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$d" ] && return; sleep 0.1; done
  echo "run: Xvfb did not start (${OUT:-/tmp}/xvfb.log)" >&2; exit 1
}

# Prints GL_VENDOR, GL_RENDERER and GL_VERSION; fails when the renderer is not NVIDIA's GPU.
check_gl() {
  local info
  info="$(glxinfo -B 2>&1)" || { echo "$info" >&2; echo "run: no OpenGL context" >&2; exit 1; }
  echo "$info" | grep -E 'OpenGL (vendor|renderer|core profile version) string'
  if ! echo "$info" | grep -q 'OpenGL renderer string: NVIDIA'; then
    echo "run: the OpenGL renderer is not an NVIDIA GPU" >&2; exit 1
  fi
  echo "buffer storage: $(glxinfo 2>/dev/null | grep -o 'GL_ARB_buffer_storage' | head -1 || true)"
}

case "$mode" in
  pack) pack ;;
  keep) keep ;;
  run|shell)
    unpack; environment; start_x
    check_gl | tee "${OUT:-/tmp}/gl.txt"
    if [ "$mode" = shell ]; then "$@"; else "$root/scripts/gpu_studio_measure.sh" "$@"; fi ;;
  *) echo "usage: scripts/gpu_studio.sh pack | keep | run [measure options] | shell COMMAND..." >&2; exit 2 ;;
esac
