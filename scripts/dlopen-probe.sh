#!/usr/bin/env bash
# The package's dependencies on the libraries the program opens with dlopen when it first needs
# them (debian/rules, override_dh_shlibdeps; docs/start-up.md, "Libraries opened on demand"):
# FFmpeg's five, librsvg and espeak-ng; cairo, pango and their helpers, the picture decoders,
# libinput, libevdev and libasound (opened by `run` as it starts, "The drawing libraries behind
# the start"). The package's binary does not name them, so dpkg-shlibdeps alone
# would leave them out of Depends. This writes a small shared object that links them and refers
# to every function of theirs the program calls (the lists in each loader under Sources/C/*Loader/),
# for dpkg-shlibdeps to read as it reads the binary: the same packages, the same versions.
#
#   scripts/dlopen-probe.sh OUT [GNU_TYPE SYSROOT]
#
# GNU_TYPE and SYSROOT: a cross build's target (aarch64-linux-gnu) and the root whose libraries
# it links (scripts/arm64/deb.sh: the trixie arm64 root); linked with the Swift toolchain's clang
# and lld. Without them, for this machine.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: scripts/dlopen-probe.sh OUT [GNU_TYPE SYSROOT]}

# Each loader, the least number of functions its list must give (a list this script no longer
# reads would otherwise drop the library from Depends without a word), and its link flags.
loaders=(
    "CFFmpegLoader/ffmpeg_loader.c 40 -lavformat -lavcodec -lswscale -lswresample -lavutil"
    "CRsvgLoader/rsvg_loader.c 5 -lrsvg-2"
    "CESpeakNGLoader/espeak_ng_loader.c 7 -lespeak-ng"
    "CCardLibsLoader/card_libs_loader.c 75 -lglib-2.0 -lgobject-2.0 -lgio-2.0 -lcairo -lpango-1.0 -lpangocairo-1.0"
    "CCardLibsLoader/fontconfig_loader.c 13 -lfontconfig"
    "CCardLibsLoader/image_decoders_loader.c 16 -lturbojpeg -lpng16 -lwebp"
    "CInputLibsLoader/input_libs_loader.c 55 -levdev -linput"
    "CALSALoader/alsa_loader.c 10 -lasound"
)
# The functions of one loader's list: `F(LIBRARY, type, name, …` and `V(LIBRARY, name, …`.
functions_of() {
    { grep -oE '^ *F\([A-Z]+, [^,]+, [A-Za-z_0-9]+,' "$1" | sed -E 's/.*, ([A-Za-z_0-9]+),$/\1/'
      grep -oE '^ *V\([A-Z]+, [A-Za-z_0-9]+,' "$1" | sed -E 's/.*, ([A-Za-z_0-9]+),$/\1/'; } | sort -u
}

names=() links=() summary=()
for entry in "${loaders[@]}"; do
    read -r file least flags <<<"$entry"
    mapfile -t found < <(functions_of "$top/Sources/C/$file")
    [ "${#found[@]}" -ge "$least" ] || {
        echo "dlopen-probe: only ${#found[@]} functions found in Sources/C/$file (at least $least expected)" >&2; exit 1; }
    names+=("${found[@]}")
    read -r -a more <<<"$flags"
    links+=("${more[@]}")
    summary+=("${#found[@]} of $flags")
done

src=$(mktemp --suffix=.c)
trap 'rm -f "$src"' EXIT
{
    echo "/* Written by scripts/dlopen-probe.sh: the functions kiosk-carousel calls in the libraries it opens on demand. */"
    for n in "${names[@]}"; do echo "extern char $n[];"; done
    echo "void *kiosk_carousel_dlopen_functions[] = {"
    for n in "${names[@]}"; do echo "    $n,"; done
    echo "};"
} > "$src"
cross=()
if [ $# -ge 3 ]; then cross=(--target="$2" --sysroot="$3" -fuse-ld=lld); fi
mkdir -p "$(dirname "$out")"
clang "${cross[@]}" -shared -fPIC -nostdlib -o "$out" "$src" -Wl,--no-as-needed -Wl,--no-undefined "${links[@]}"
echo "dlopen-probe: $out refers to ${#names[@]} functions ($(IFS=';'; echo "${summary[*]}" | sed 's/;/, /g'))"
