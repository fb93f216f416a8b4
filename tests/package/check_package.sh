#!/usr/bin/env bash
# The .deb as a lab machine gets it: cpack builds it from this build folder's install rules (nothing is
# recompiled), apt resolves its dependencies, and, unpacked into a scratch root, both programs run from
# the installed paths (the studio draws 10 steps under the test's X server), the desktop entry and the
# AppStream metainfo pass their validators, and the icons and man pages are where desktops and man look.
# Usage: check_package.sh BUILD_DIR VERSION APP_ID
set -euo pipefail
build=$1 version=$2 id=$3
scratch=$(mktemp -d "${TMPDIR:-/tmp}/iso3dfd-package.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }

(cd "$build" && cpack -G DEB -B "$scratch/out" >"$scratch/cpack.log" 2>&1) || { cat "$scratch/cpack.log"; fail "cpack"; }
deb=("$scratch"/out/iso3dfd-studio_"$version"_*.deb)
[ -f "${deb[0]}" ] || fail "no iso3dfd-studio_${version}_*.deb in $scratch/out"
deb=${deb[0]}

# Dependencies: the libraries the binaries link (dpkg-shlibdeps) and the Qt platform plugins, which apt
# resolves from this machine's archives as on a fresh system: a simulation against an empty list of
# installed packages, so every dependency down to libc must be found (nothing is installed).
depends=$(dpkg-deb --field "$deb" Depends)
for needed in libqt6widgets6 libqt6opengl6 libqscintilla2-qt6 libsegyio1 libavcodec ocl-icd-libopencl1 qt6-qpa-plugins; do
  [[ $depends == *"$needed"* ]] || fail "Depends lacks $needed: $depends"
done
: >"$scratch/no-packages"
apt-get install --simulate --no-install-recommends -o Dir::State::Status="$scratch/no-packages" "$deb" >"$scratch/apt.log" 2>&1 ||
  { cat "$scratch/apt.log"; fail "apt cannot install $deb on a system without packages"; }
grep -q "^Inst iso3dfd-studio " "$scratch/apt.log" || { cat "$scratch/apt.log"; fail "apt's plan does not install iso3dfd-studio"; }

root=$scratch/root
dpkg-deb --extract "$deb" "$root"
share=$root/usr/share
for file in usr/bin/iso3dfd usr/bin/iso3dfd-studio usr/share/man/man1/iso3dfd.1.gz usr/share/man/man1/iso3dfd-studio.1.gz \
  "usr/share/applications/$id.desktop" "usr/share/metainfo/$id.metainfo.xml" "usr/share/icons/hicolor/scalable/apps/$id.svg" \
  usr/share/doc/iso3dfd-studio/README.md usr/share/doc/iso3dfd-studio/docs/FILES.md; do
  [ -s "$root/$file" ] || fail "the package does not hold /$file"
done
for size in 16 24 32 48 64 128 256; do
  [[ $(file "$share/icons/hicolor/${size}x$size/apps/$id.png") == *"PNG image data, $size x $size"* ]] ||
    fail "no ${size}x$size PNG icon"
done
desktop-file-validate "$share/applications/$id.desktop"
appstreamcli validate --no-net "$share/metainfo/$id.metainfo.xml"
grep -q "^Icon=$id$" "$share/applications/$id.desktop" || fail "the desktop entry names another icon"
# (Whole texts are compared, not piped into grep -q: its early exit would fail the pipe under pipefail.)
for page in "iso3dfd dump-every" "iso3dfd-studio screenshot"; do  # a page and an option its --help lists
  set -- $page
  text=$(zcat "$share/man/man1/$1.1.gz")
  [[ $text == *".TH ${1^^} \"1\""* ]] || fail "$1.1 has no .TH header of section 1"
  [[ ${text//\\-/-} == *"--$2"* ]] || fail "$1.1 lacks --$2 of its --help"
done

# The programs from the installed paths.
[ "$("$root/usr/bin/iso3dfd" --version)" = "iso3dfd $version" ] || fail "iso3dfd --version"
[ "$("$root/usr/bin/iso3dfd-studio" --version)" = "iso3dfd-studio $version" ] || fail "iso3dfd-studio --version"
"$root/usr/bin/iso3dfd" run 24 20 16 10 --stage cpu-parallel >"$scratch/run.log" || { cat "$scratch/run.log"; fail "iso3dfd run"; }
"$root/usr/bin/iso3dfd-studio" --steps 10 --screenshot "$scratch/shot.png" >"$scratch/studio.log" 2>&1 ||
  { cat "$scratch/studio.log"; fail "iso3dfd-studio --steps 10 --screenshot"; }
[[ $(file "$scratch/shot.png") == *"PNG image data"* ]] || fail "the studio's screenshot is not a PNG"
echo "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB; on a fresh system apt installs it with" \
  "$(grep -c '^Inst' "$scratch/apt.log") packages; both programs run from its /usr/bin"
