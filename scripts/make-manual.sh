#!/usr/bin/env bash
# Writes kiosk-carousel.1 (mdoc) into DIR from the command line definitions, with
# swift-argument-parser's own `generate-manual` tool (it reads `BIN --experimental-dump-help`).
# The tool is built once from the swift-argument-parser checkout the package already resolved,
# in its own build folder (.build-manual).
#
#   scripts/make-manual.sh BIN DIR      (SOURCE_DATE_EPOCH sets the manual's date)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$1; dir=$2
SWIFT=${SWIFT:-swift}
# The checkout of the build that made BIN (SCRATCH, default .build).
parser=${SCRATCH:-$top/.build}/checkouts/swift-argument-parser
if [ ! -d "$parser" ]; then
    (cd "$top" && "$SWIFT" package resolve --scratch-path "${SCRATCH:-$top/.build}" >/dev/null)
fi
mkdir -p "$top/.build-manual"
[ -d "$parser" ] || { echo "make-manual: $parser missing after 'swift package resolve'" >&2; exit 1; }
"$SWIFT" build --package-path "$parser" --scratch-path "$top/.build-manual" --product generate-manual \
    >"$top/.build-manual/build.log" 2>&1 || { cat "$top/.build-manual/build.log" >&2; exit 1; }
tool=$("$SWIFT" build --package-path "$parser" --scratch-path "$top/.build-manual" --show-bin-path)/generate-manual
mkdir -p "$dir"
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" +%Y-%m-%d)
"$tool" "$bin" --date "$date" --section 1 --authors "The KioskCarousel developers" --output-directory "$dir"
[ -s "$dir/kiosk-carousel.1" ] || { echo "make-manual: no $dir/kiosk-carousel.1" >&2; exit 1; }
# generate-manual copies a discussion's blank lines as they are; in mdoc a blank line is not a
# paragraph break (groff: "Empty input line", lintian's groff-message): .Pp is.
sed -i 's/^$/.Pp/' "$dir/kiosk-carousel.1"
