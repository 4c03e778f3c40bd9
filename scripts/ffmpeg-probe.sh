#!/usr/bin/env bash
# The package's FFmpeg dependencies (debian/rules, override_dh_shlibdeps): the program opens
# FFmpeg's libraries with dlopen when the first video needs them (docs/video.md, "FFmpeg loaded on
# demand"), so its binary does not name them and dpkg-shlibdeps alone would leave them out of
# Depends. This writes a small shared object that links the five libraries and refers to every
# FFmpeg function the program calls (the list in Sources/C/CFFmpegLoader/ffmpeg_loader.c), for
# dpkg-shlibdeps to read as it reads the binary: the same packages, the same versions.
#
#   scripts/ffmpeg-probe.sh OUT [GNU_TYPE SYSROOT]
#
# GNU_TYPE and SYSROOT: a cross build's target (aarch64-linux-gnu) and the root whose libraries
# it links (scripts/arm64/deb.sh: the trixie arm64 root); linked with the Swift toolchain's clang
# and lld. Without them, for this machine.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: scripts/ffmpeg-probe.sh OUT [GNU_TYPE SYSROOT]}
loader=$top/Sources/C/CFFmpegLoader/ffmpeg_loader.c
names=$( { grep -oE '^ *F\([A-Z]+, [^,]+, [A-Za-z_0-9]+,' "$loader" | sed -E 's/.*, ([A-Za-z_0-9]+),$/\1/'
           grep -oE '^ *V\([A-Z]+, [A-Za-z_0-9]+,' "$loader" | sed -E 's/.*, ([A-Za-z_0-9]+),$/\1/'; } | sort -u)
count=$(echo "$names" | wc -l)
[ "$count" -ge 40 ] || { echo "ffmpeg-probe: only $count FFmpeg functions found in $loader" >&2; exit 1; }
src=$(mktemp --suffix=.c)
trap 'rm -f "$src"' EXIT
{
    echo "/* Written by scripts/ffmpeg-probe.sh: the FFmpeg functions kiosk-carousel calls. */"
    for n in $names; do echo "extern char $n[];"; done
    echo "void *kiosk_carousel_ffmpeg_functions[] = {"
    for n in $names; do echo "    $n,"; done
    echo "};"
} > "$src"
cross=()
if [ $# -ge 3 ]; then cross=(--target="$2" --sysroot="$3" -fuse-ld=lld); fi
mkdir -p "$(dirname "$out")"
clang "${cross[@]}" -shared -fPIC -nostdlib -o "$out" "$src" \
    -Wl,--no-as-needed -lavformat -lavcodec -lswscale -lswresample -lavutil
echo "ffmpeg-probe: $out refers to $count FFmpeg functions"
