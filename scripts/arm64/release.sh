#!/usr/bin/env bash
# make arm64-release: the aarch64 binary a Debian 13 (trixie) / Raspberry Pi OS board runs
# (docs/arm64.md). Steps, each announced with its time:
#   1. the roots (scripts/arm64/roots.sh; cached): the sid toolchain, sid's arm64 Swift
#      resources, and an installed trixie arm64 root (the sysroot: trixie's C libraries, glibc 2.41)
#   2. cross build, release, the Swift runtime linked statically (scripts/arm64/cross-build.sh release)
#   3. the glibc and libstdc++ symbol versions the binary needs, against what trixie has
#   4. `--version` and `simulate` in the trixie arm64 root under qemu-user
# Output: .build-arm64-release/aarch64-unknown-linux-gnu/release/kiosk-carousel
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
. "$HERE/lib.sh"
need_root
TOOLCHAIN=$ARM64_CACHE/sid-amd64
TRIXIE=$ARM64_CACHE/trixie-arm64
BIN=.build-arm64-release/aarch64-unknown-linux-gnu/release/kiosk-carousel
# trixie's glibc is 2.41: the binary may need no symbol version above it.
GLIBC_MAX=${GLIBC_MAX:-2.41}

step "host packages, qemu-user binfmt"
binfmt_ready

step "roots (cached in $ARM64_CACHE)"
"$HERE/roots.sh" toolchain sid-arm64 trixie-arm64

step "cross build (aarch64 release, static Swift runtime, trixie sysroot)"
"$HERE/cross-build.sh" release
[ -x "$SRC/$BIN" ] || die "no $BIN"

step "symbol versions the binary needs (trixie: glibc $GLIBC_MAX)"
unmount_on_exit "$TOOLCHAIN" "$TRIXIE"
enter_root "$TOOLCHAIN"
bind_once "$SRC" "$TOOLCHAIN/src"
in_root "$TOOLCHAIN" "/usr/libexec/swift/bin/llvm-objdump -T /src/$BIN" > "$SRC/.build-arm64-release/dynamic-symbols.txt"
in_root "$TOOLCHAIN" "/usr/libexec/swift/bin/llvm-objdump -p /src/$BIN" | awk '/NEEDED/ {print "  needs " $2}'
highest=$(grep -o 'GLIBC_[0-9.]*' "$SRC/.build-arm64-release/dynamic-symbols.txt" | sort -uV | tail -1)
echo "highest glibc symbol version: $highest"
echo "highest libstdc++ symbol version: $(grep -o 'GLIBCXX_[0-9.]*' "$SRC/.build-arm64-release/dynamic-symbols.txt" | sort -uV | tail -1)"
too_new=$(awk -v max="$GLIBC_MAX" '
    match($0, /GLIBC_[0-9.]+/) { v = substr($0, RSTART + 6, RLENGTH - 6); split(v, a, "."); split(max, m, ".")
        if (a[1] > m[1] || (a[1] == m[1] && a[2] + 0 > m[2] + 0)) print "  " $NF " (GLIBC_" v ")" }' \
    "$SRC/.build-arm64-release/dynamic-symbols.txt")
[ -z "$too_new" ] || die "symbols newer than glibc $GLIBC_MAX:
$too_new"

step "--version and simulate in the trixie arm64 root (qemu-user)"
enter_root "$TRIXIE"
bind_once "$SRC" "$TRIXIE/src"
in_root "$TRIXIE" "cd /src && $BIN --version" || die "--version failed in trixie"
mkdir -p "$SRC/.build-arm64-release/check"
in_root "$TRIXIE" "cd /src && $BIN simulate --config config/example.toml --size 1280x720 --until 2 --shot 1=.build-arm64-release/check/trixie-release.png >/dev/null" \
    || die "simulate failed in trixie"
ls -l "$SRC/.build-arm64-release/check/trixie-release.png"
if [ -f "$SRC/.build-arm64/check/arm64.png" ]; then
    echo "against the debug build's PNG (sid libraries; make arm64-check), for information:"
    python3 "$HERE/png-compare.py" "$SRC/.build-arm64/check/arm64.png" "$SRC/.build-arm64-release/check/trixie-release.png"
fi
echo "arm64 release binary: $BIN ($(du -h "$SRC/$BIN" | cut -f1))"
step_end
