#!/usr/bin/env bash
# make arm64-deb: out/kiosk-carousel_<version>_arm64.deb from the arm64 release binary
# (make arm64-release), by the project's own scripts/make-deb.sh, then installed with apt into a
# clean Debian 13 arm64 root to prove it pulls in its libraries and nothing from the build
# (docs/arm64.md). Steps, each announced with its time:
#   1. host packages (dpkg-dev, lintian, an aarch64 strip), binfmt, the trixie roots (cached)
#   2. scripts/make-deb.sh with ARCH=arm64, the hooks it has for a foreign architecture:
#        HOST_BIN  the arm64 binary under qemu-user (for --version, check-config, the man page
#                  and the completions: the shipped binary's own output)
#        SHLIBDEPS dpkg-shlibdeps inside the installed trixie arm64 root (shlibdeps-in-root.sh)
#        STRIP     aarch64-linux-gnu-strip
#   3. apt-get install ./the.deb in a fresh copy of a clean trixie arm64 root (apt's downloads
#      cached in $ARM64_CACHE/apt-archives), then what it pulled in, and --version there
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
. "$HERE/lib.sh"
need_root
BIN=$SRC/.build-arm64-release/aarch64-unknown-linux-gnu/release/kiosk-carousel
TRIXIE=$ARM64_CACHE/trixie-arm64
CLEAN=$ARM64_CACHE/trixie-arm64-clean

step "host packages, binfmt, roots"
[ -x "$BIN" ] || die "$BIN missing: make arm64-release first"
host_packages dpkg-dev lintian binutils-aarch64-linux-gnu qemu-user-static
binfmt_ready
"$HERE/roots.sh" trixie-arm64 trixie-arm64-clean

step "make-deb.sh (ARCH=arm64)"
# A program that runs here and answers as the arm64 binary does: the binary itself, under
# qemu-user, with the trixie root's loader and libraries.
wrapper=$SRC/.build-arm64-release/kiosk-carousel-qemu
printf '#!/bin/sh\n# The arm64 kiosk-carousel under qemu-user (scripts/arm64/deb.sh).\nexec qemu-aarch64-static -L %q %q "$@"\n' \
    "$TRIXIE" "$BIN" > "$wrapper"
chmod +x "$wrapper"
"$wrapper" --version >/dev/null || die "the arm64 binary does not run under qemu-user"
deb_log=$SRC/.build-arm64-release/make-deb.log
(cd "$SRC" && BIN=$BIN ARCH=arm64 HOST_BIN=$wrapper SHLIBDEPS=$HERE/shlibdeps-in-root.sh \
    STRIP=aarch64-linux-gnu-strip SCRATCH=$SRC/.build-arm64-release scripts/make-deb.sh) 2>&1 | tee "$deb_log"
[ "${PIPESTATUS[0]}" -eq 0 ] || die "make-deb.sh failed"
deb=$(sed -n 's/^make-deb: \(\/.*\.deb\) (.*/\1/p' "$deb_log" | tail -1)
[ -f "$deb" ] || die "no .deb named in make-deb.sh's output"

step "apt-get install ./$(basename "$deb") in a clean trixie arm64 root (qemu-user)"
test_root=$(mktemp -d "$ARM64_CACHE/deb-test.XXXXXX")
cleanup() { umount_root "$test_root"; rm -rf "$test_root"; }
trap cleanup EXIT
cp -a "$CLEAN/." "$test_root/"
mkdir -p "$ARM64_CACHE/apt-archives/partial"
bind_once "$ARM64_CACHE/apt-archives" "$test_root/var/cache/apt/archives"
mountpoint -q "$test_root/proc" || mount -t proc proc "$test_root/proc"
cp /etc/resolv.conf "$test_root/etc/resolv.conf" 2>/dev/null || true
cp "$deb" "$test_root/tmp/"
in_root "$test_root" "dpkg-query -W -f='\${Package}\n' | sort > /tmp/before.txt"
in_root "$test_root" DEBIAN_FRONTEND=noninteractive "apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends /tmp/$(basename "$deb")" \
    > "$SRC/.build-arm64-release/apt-install.log" 2>&1 || { tail -20 "$SRC/.build-arm64-release/apt-install.log"; die "apt-get install failed"; }
in_root "$test_root" "dpkg-query -W -f='\${Package}\n' | sort > /tmp/after.txt"
added=$(comm -13 "$test_root/tmp/before.txt" "$test_root/tmp/after.txt")
echo "installed with it ($(wc -l <<< "$added") packages): $(echo $added)"
bad=$(grep -E -- '-dev$|swift|clang|gcc|binutils' <<< "$added" || true)
[ -z "$bad" ] || die "the package pulled in build packages: $bad"
in_root "$test_root" "kiosk-carousel --version" || die "kiosk-carousel --version failed in the clean root"
in_root "$test_root" "dpkg -s kiosk-carousel | grep -E '^(Version|Depends):'"
step_end
echo "arm64 package: $deb"
