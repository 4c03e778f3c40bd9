#!/usr/bin/env bash
# Instructions per frame of the compositor bench scenes on aarch64, portable loops (`baseline`)
# against the NEON ones (`neon`), counted under qemu-user by a TCG plugin (docs/arm64.md).
#
#   scripts/arm64/insn-count.sh [FILTER...]      # default: bilinear mipmap
#
# Uses the optimised binary for the sid arm64 root (`scripts/arm64/cross-build.sh release-sid`,
# .build-arm64-opt: the release configuration, brought up to date first; INSN_BIN=FILE counts
# another aarch64 binary instead, INSN_OUT=DIR keeps its logs elsewhere), run by the host's
# dynamically linked qemu-aarch64 (Debian's qemu-user: the static qemu-user-static cannot load
# plugins) with that root as its library prefix, and scripts/arm64/insn-count.c, built here with
# the host's C compiler. Each scene, filter and instruction set runs
# `bench composite SCENE --threads 1 --warmup 0` with 1 and with 1 + FRAMES frames: the
# difference divided by FRAMES is one frame's instructions (loading the scene and making its
# textures cancel out). Prints a table: scene, filter, baseline insns/frame, neon insns/frame,
# ratio.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
. "$HERE/lib.sh"
FILTERS=("${@:-bilinear}")
[ $# -gt 0 ] || FILTERS=(bilinear mipmap)
FRAMES=${INSN_FRAMES:-4}
SID_ARM64=$ARM64_CACHE/sid-arm64
BIN=${INSN_BIN:-$SRC/.build-arm64-opt/aarch64-unknown-linux-gnu/release/kiosk-carousel}
OUT=${INSN_OUT:-$SRC/.build-arm64-opt/insn-count}
# Brought up to date first (seconds when nothing changed), unless INSN_BIN names another binary.
[ -n "${INSN_BIN:-}" ] || { need_root; mkdir -p "$SRC/.build-arm64-opt"; "$HERE/cross-build.sh" release-sid > "$SRC/.build-arm64-opt/cross-build.log" 2>&1 || die "cross-build.sh release-sid failed: .build-arm64-opt/cross-build.log"; }
[ -x "$BIN" ] || die "$BIN missing"
host_packages qemu-user gcc
mkdir -p "$OUT"
gcc -O2 -shared -fPIC -fvisibility=hidden -o "$OUT/insn-count.so" "$HERE/insn-count.c"

# The scenes: ../shared/bench/scenes and docs/compositor/extra_scenes.py.
SHARED=${BENCH_SCENES:-$SRC/../shared/bench/scenes}
[ -d "$SHARED" ] || SHARED=/work/shared/bench/scenes
rm -rf "$OUT/scenes"; mkdir -p "$OUT/scenes"
cp "$SHARED"/*.json "$OUT/scenes/"
python3 "$SRC/docs/compositor/extra_scenes.py" "$OUT/scenes" >/dev/null
SCENES=(coverflow scaling fullscreen rotary coverflow-b cylinder affine)

# count SCENE FILTER SET FRAMES: the instructions of one run.
count() {
    local log="$OUT/$1.$2.$3.$4.log"
    qemu-aarch64 -L "$SID_ARM64" -plugin "$OUT/insn-count.so" -d plugin -D "$log" \
        "$BIN" bench composite "$OUT/scenes/$1.json" --filter "$2" --instruction-set "$3" \
        --threads 1 --warmup 0 --frames "$4" > "$OUT/$1.$2.$3.$4.out" 2>&1 || die "$1 $2 $3: $(tail -2 "$OUT/$1.$2.$3.$4.out")"
    sed -n 's/^insn-count: //p' "$log"
}
printf '%-12s %-9s %16s %16s %7s  %s\n' scene filter baseline/frame neon/frame ratio checksum
for f in "${FILTERS[@]}"; do
    for s in "${SCENES[@]}"; do
        declare -A per=()
        for set in baseline neon; do
            one=$(count "$s" "$f" "$set" 1)
            many=$(count "$s" "$f" "$set" $((FRAMES + 1)))
            per[$set]=$(( (many - one) / FRAMES ))
        done
        sums=$(cut -f9 "$OUT/$s.$f".*.out 2>/dev/null | grep -E '^[0-9a-f]{16}$' | sort -u | tr '\n' ' ')
        printf '%-12s %-9s %16d %16d %7.3f  %s\n' "$s" "$f" "${per[baseline]}" "${per[neon]}" \
            "$(awk -v a="${per[neon]}" -v b="${per[baseline]}" 'BEGIN { print a / b }')" "$sums"
        unset per
    done
done
