#!/usr/bin/env bash
# The compositor's pixels on aarch64 against x86-64's (part of `make arm64-check`; docs/arm64.md).
#
# Renders every compositor bench scene — ../shared/bench/scenes/*.json and the scenes of
# docs/compositor/extra_scenes.py — with both filters and every instruction set each build has
# (x86-64: avx2 and baseline; aarch64: neon and baseline, or only neon with
# ARM64_PIXEL_SETS=neon), one frame each, with
# `kiosk-carousel bench suite --frames 1 --warmup 0 --all-instruction-sets`: the
# arm64 debug build under qemu-user in the arm64 sid root, the x86-64 build natively in the
# amd64 sid root, at the same time. Every checksum of a scene and filter must be the same: one
# differing pixel fails the check. The scenes built into the program (what `bench suite` renders
# without --scenes, on a board) must be the files' scenes. Prints a table and ends with
# "pixels: N same, N different".
#
# Needs the builds of scripts/arm64/check.sh steps 2 and 3 (cross-build.sh debug and
# host-same-libs). Run alone: scripts/arm64/check-pixels.sh (as root, like check.sh).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
. "$HERE/lib.sh"
need_root
TOOLCHAIN=$ARM64_CACHE/sid-amd64
SID_ARM64=$ARM64_CACHE/sid-arm64
OUT=$SRC/.build-arm64/check
ARM_BIN=.build-arm64/aarch64-unknown-linux-gnu/debug/kiosk-carousel
# ARM64_PIXEL_REFERENCE=host: this host's own debug build (make test's), run natively, instead of
# the one built in the amd64 sid root (check.sh's quick: the compositor's pixels do not depend on
# the library versions; measured identical, docs/arm64.md).
X86_BIN=.build-x86-sid/debug/kiosk-carousel
[ "${ARM64_PIXEL_REFERENCE:-sid}" = host ] && X86_BIN=.build/debug/kiosk-carousel
for b in "$ARM_BIN" "$X86_BIN"; do [ -x "$SRC/$b" ] || die "$b missing: run scripts/arm64/check.sh (or cross-build.sh debug and host-same-libs)"; done

# The scene files, where the roots see them (the tree is /src in both).
SHARED=${BENCH_SCENES:-$SRC/../shared/bench/scenes}
[ -d "$SHARED" ] || SHARED=/work/shared/bench/scenes
[ -d "$SHARED" ] || die "no bench scenes: set BENCH_SCENES to ../shared/bench/scenes"
rm -rf "$OUT/scenes"; mkdir -p "$OUT/scenes"
cp "$SHARED"/*.json "$OUT/scenes/"
python3 "$SRC/docs/compositor/extra_scenes.py" "$OUT/scenes" >/dev/null

# Run from check.sh (ARM64_ROOTS_MOUNTED=1) the mounts are its own, kept for its later steps.
[ "${ARM64_ROOTS_MOUNTED:-0}" = 1 ] || unmount_on_exit "$SID_ARM64" "$TOOLCHAIN"
enter_root "$SID_ARM64"; bind_once "$SRC" "$SID_ARM64/src"
enter_root "$TOOLCHAIN"; bind_once "$SRC" "$TOOLCHAIN/src"
SUITE="bench suite --frames 1 --warmup 0 --scenes .build-arm64/check/scenes"
# ARM64_PIXEL_SETS=all: aarch64's portable loops too (the debug build under emulation takes
# ~5–10 s a frame, so `quick` renders only the NEON ones, which the board uses; the XCTests
# compare the two on random scenes). x86-64 renders both of its sets natively.
ARM_SETS="--all-instruction-sets --threads $(nproc)"  # bands on every core: the same pixels (unit-tested)
[ "${ARM64_PIXEL_SETS:-all}" = all ] || ARM_SETS="--instruction-set $ARM64_PIXEL_SETS --threads $(nproc)"
# Both at once (the x86-64 one natively, in the background): the check waits for the slower.
t0=$(date +%s)
if [ "${ARM64_PIXEL_REFERENCE:-sid}" = host ]; then
    (cd "$SRC" && $X86_BIN $SUITE --all-instruction-sets --threads 1) > "$OUT/pixels-x86-64.txt" 2> "$OUT/pixels-x86-64.err" &
else
    in_root "$TOOLCHAIN" "cd /src && $X86_BIN $SUITE --all-instruction-sets --threads 1" > "$OUT/pixels-x86-64.txt" 2> "$OUT/pixels-x86-64.err" &
fi
x86=$!
in_root "$SID_ARM64" "cd /src && $ARM_BIN $SUITE $ARM_SETS" > "$OUT/pixels-arm64.txt" 2> "$OUT/pixels-arm64.err" \
    || die "bench suite under qemu-user failed: $(tail -3 "$OUT/pixels-arm64.err")"
t1=$(date +%s)
wait "$x86" || die "bench suite of the x86-64 reference failed: $(tail -3 "$OUT/pixels-x86-64.err")"
echo "rendered: aarch64 under qemu-user $((t1 - t0)) s, x86-64 alongside (all done after $(($(date +%s) - t0)) s)"

# The scenes built into the program (what `bench suite` renders on a board) are these files.
python3 - "$SRC/Sources/Raster/BenchSceneSet.swift" "$OUT/scenes" <<'PY' || die "the built-in scenes differ from the files: run scripts/embed-bench-scenes.py"
import json, os, re, sys
built = dict(re.findall(r'\("([^"]+)", #"(.*)"#\),', open(sys.argv[1]).read()))
files = {f[:-5]: json.load(open(os.path.join(sys.argv[2], f))) for f in os.listdir(sys.argv[2]) if f.endswith(".json")}
bad = sorted(n for n in built if n in files and json.loads(built[n]) != files[n])
missing = sorted(set(files) - set(built))
print("built-in scenes: %d, the same as the files: %s" % (len(built), "yes" if not bad else "NO: " + ", ".join(bad))
      + ("; not built in (run scripts/embed-bench-scenes.py): " + ", ".join(missing) if missing else ""))
sys.exit(1 if bad else 0)
PY

# One row per scene and filter: each build's checksums, and whether they are all the same.
awk -F'\t' '
    FNR == 1 { arch = FILENAME ~ /pixels-arm64/ ? "arm64" : "x86-64" }
    $1 == "SUITE" {
        key = $2 "\t" $3
        if (!(key in seen)) { seen[key] = 1; order[++n] = key }
        col = arch "-" $4
        sums[key] = sums[key] (sums[key] == "" ? "" : " ") col "=" $9
        if (!(key in first)) first[key] = $9
        else if (first[key] != $9) bad[key] = 1
        if (arch == "arm64") arm[key] = 1; else x86[key] = 1
    }
    END {
        same = 0; diff = 0
        for (i = 1; i <= n; i++) {
            k = order[i]
            ok = !(k in bad) && (k in arm) && (k in x86)
            printf "%-12s %-9s %-9s %s\n", substr(k, 1, index(k, "\t") - 1), substr(k, index(k, "\t") + 1), ok ? "same" : "DIFFERENT", sums[k]
            if (ok) same++; else diff++
        }
        printf "pixels: %d same, %d different (scene and filter pairs; the checksums of every build and instruction set in the row)\n", same, diff
        exit diff > 0 || n == 0
    }' "$OUT/pixels-arm64.txt" "$OUT/pixels-x86-64.txt"
