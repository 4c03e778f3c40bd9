#!/usr/bin/env bash
# make arm64-deb: out/kiosk-carousel_<version>_arm64.deb from the arm64 release binary
# (make arm64-release), by the same debian/ as the amd64 package, then installed with apt into a
# clean Debian 13 arm64 root to prove it pulls in its libraries and nothing from the build
# (docs/arm64.md). Steps, each announced with its time:
#   1. host packages (debhelper, lintian, an aarch64 strip), binfmt, the trixie roots (cached)
#   2. `dpkg-buildpackage -b --host-arch arm64 -d` (scripts/build-deb.sh with ARCH=arm64) with
#      the prebuilt binary, through debian/rules' variables and dh's own cross support:
#        KIOSK_BIN       the cross-built binary (no swift build in debian/rules)
#        KIOSK_HOST_BIN  the arm64 binary under qemu-user (for --version, check-config, the man
#                        page and the completions: the shipped binary's own output)
#        dpkg-shlibdeps  dh_shlibdeps runs the one first on PATH: here a wrapper that runs it
#                        inside the installed trixie arm64 root (shlibdeps-in-root.sh), where
#                        arm64's libraries and their shlibs/symbols files are
#        strip           dh_strip takes aarch64-linux-gnu-strip itself (DEB_HOST_GNU_TYPE)
#        KIOSK_SYSROOT   the trixie root, whose FFmpeg, librsvg and espeak-ng libraries scripts/dlopen-probe.sh links
#                        for dh_shlibdeps (the binary opens them with dlopen)
#   3. apt-get install ./the.deb in a fresh copy of a clean trixie arm64 root (apt's downloads
#      cached in $ARM64_CACHE/apt-archives), then what it pulled in, and there, under qemu-user:
#      --version, and check-config of the example the package ships (config/example.toml) and of
#      the conffile
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
host_packages dpkg-dev debhelper lintian binutils-aarch64-linux-gnu qemu-user-static
binfmt_ready
"$HERE/roots.sh" trixie-arm64 trixie-arm64-clean

step "dpkg-buildpackage --host-arch arm64 (debian/, the prebuilt binary)"
# A program that runs here and answers as the arm64 binary does: the binary itself, under
# qemu-user, with the trixie root's loader and libraries.
wrapper=$SRC/.build-arm64-release/kiosk-carousel-qemu
printf '#!/bin/sh\n# The arm64 kiosk-carousel under qemu-user (scripts/arm64/deb.sh).\nexec qemu-aarch64-static -L %q %q "$@"\n' \
    "$TRIXIE" "$BIN" > "$wrapper"
chmod +x "$wrapper"
"$wrapper" --version >/dev/null || die "the arm64 binary does not run under qemu-user"
# dh_shlibdeps calls `dpkg-shlibdeps`: the first on PATH is the one that runs in the trixie root.
shlibdeps_bin=$SRC/.build-arm64-release/shlibdeps-bin
mkdir -p "$shlibdeps_bin"
printf '#!/bin/sh\nexec %q "$@"\n' "$HERE/shlibdeps-in-root.sh" > "$shlibdeps_bin/dpkg-shlibdeps"
chmod +x "$shlibdeps_bin/dpkg-shlibdeps"
deb_log=$SRC/.build-arm64-release/build-deb.log
(cd "$SRC" && ARCH=arm64 KIOSK_BIN=$BIN KIOSK_HOST_BIN=$wrapper KIOSK_SCRATCH=$SRC/.build-arm64-release KIOSK_SYSROOT=$TRIXIE \
    PATH="$shlibdeps_bin:$PATH" scripts/build-deb.sh "$SRC/out") 2>&1 | tee "$deb_log"
[ "${PIPESTATUS[0]}" -eq 0 ] || die "dpkg-buildpackage failed (log: $deb_log)"
deb=$(sed -n 's/^build-deb: \(\/.*\.deb\) (.*/\1/p' "$deb_log" | tail -1)
[ -f "$deb" ] || die "no .deb named in build-deb.sh's output"

step "apt-get install ./$(basename "$deb") in a clean trixie arm64 root (qemu-user)"
test_root=$(mktemp -d "$ARM64_CACHE/deb-test.XXXXXX")
# --one-file-system: should a mount (the shared apt-archives) outlive umount_root, rm stops at it.
cleanup() { umount_root "$test_root"; rm -rf --one-file-system "$test_root"; }
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
# The example the package ships is the tree's config/example.toml (debian/rules installs it with
# its media/); check-config of it and of the conffile made from it, by the installed binary.
cmp "$SRC/config/example.toml" "$test_root/usr/share/kiosk-carousel/example/config.toml" \
    || die "the package's example/config.toml is not the tree's config/example.toml"
for config in /usr/share/kiosk-carousel/example/config.toml /etc/kiosk-carousel/config.toml; do
    said=$(in_root "$test_root" "kiosk-carousel check-config $config" 2>&1) \
        || { echo "$said"; die "kiosk-carousel check-config $config failed in the clean root"; }
    echo "check-config $config: $said"
done
in_root "$test_root" "dpkg -s kiosk-carousel | grep -E '^(Version|Depends):'"
step_end
echo "arm64 package: $deb"
