#!/usr/bin/env bash
# Regenerates config/media/ (the example carousel's pictures) from scripts/make-media.c.
# Needs the -dev packages of debian/control's Build-Depends (cairo, libjpeg-turbo, libwebp) and a C compiler.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/config/media}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/make-media" "$root/scripts/make-media.c" \
    $(pkg-config --cflags --libs cairo libturbojpeg libwebp) -lm
"$tmp/make-media" "$out"
echo "make-media: $(ls "$out" | wc -l) files, $(du -sh "$out" | cut -f1) in $out"
