#!/usr/bin/env bash
# make update-bundle: a signed RAUC bundle of an image's root filesystem (docs/updates.md).
#
#   out/kiosk-carousel-<version>-<arch>.raucb
#
# The bundle holds slot A's root filesystem of `make image` (out/kiosk-carousel-<version>-<arch>.rootfs.ext4,
# written beside the .img) and the slot hook (image/rauc-bundle-hook: the new slot's kernel and
# initrd to the ESP); format verity (RAUC checks every block as it reads it; the image refuses
# plain bundles). <version> is the root filesystem's IMAGE_VERSION (its /usr/lib/os-release).
#
# Variables: ARCH (amd64 or arm64, default amd64), ROOTFS (default: the newest
# out/kiosk-carousel-*-$ARCH.rootfs.ext4), OUT (default out/), UPDATE_KEY + UPDATE_CERT (the
# signing key and its certificate; default the development ones of out/update-keys/, made when
# missing: scripts/update-keys.sh), BUNDLE (the output file, default as above).
# ZSTD_LEVEL (mksquashfs' zstd level, default its own, 15): lower packs faster into a larger
# bundle (make update-test uses 3).
# Test only: COMPATIBLE (default KioskCarousel-$ARCH) makes a bundle for another system.
# Needs rauc and squashfs-tools (installed when missing, as root), debugfs (e2fsprogs).
set -euo pipefail
trap 'echo "make-update-bundle: stopped at line $LINENO: $BASH_COMMAND (exit $?)" >&2' ERR
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
OUT=${OUT:-$top/out}
ARCH=${ARCH:-amd64}
die() { echo "make-update-bundle: $*" >&2; exit 1; }
case $ARCH in amd64|arm64) ;; *) die "ARCH=$ARCH: amd64 or arm64" ;; esac
COMPATIBLE=${COMPATIBLE:-KioskCarousel-$ARCH}

need=()
for pair in rauc:rauc mksquashfs:squashfs-tools debugfs:e2fsprogs openssl:openssl; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
    [ "$(id -u)" -eq 0 ] || die "missing: apt-get install ${need[*]}"
    echo "make-update-bundle: installing ${need[*]}"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
fi

if [ -z "${ROOTFS:-}" ]; then
    ROOTFS=$(ls -t "$OUT"/kiosk-carousel-*-"$ARCH".rootfs.ext4 2>/dev/null | head -1 || true)
    [ -n "$ROOTFS" ] || die "no $OUT/kiosk-carousel-*-$ARCH.rootfs.ext4: run make image first (ARCH=$ARCH), or set ROOTFS="
fi
[ -f "$ROOTFS" ] || die "ROOTFS=$ROOTFS: no such file"
version=$(debugfs -R 'cat /usr/lib/os-release' "$ROOTFS" 2>/dev/null | sed -n 's/^IMAGE_VERSION=//p' | tr -d '"')
[ -n "$version" ] || die "$ROOTFS: no IMAGE_VERSION in its /usr/lib/os-release (not a root filesystem of make image?)"
BUNDLE=${BUNDLE:-$OUT/kiosk-carousel-$version-$ARCH.raucb}

source "$top/scripts/update-keys.sh"
update_keys "$OUT/update-keys"

work=$(mktemp -d "${TMPDIR:-/var/tmp}/kiosk-update-bundle.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/content"
# The root filesystem is linked, not copied, when it is on the same file system.
ln "$ROOTFS" "$work/content/rootfs.ext4" 2>/dev/null || cp --sparse=always "$ROOTFS" "$work/content/rootfs.ext4"
install -m 0755 "$top/image/rauc-bundle-hook" "$work/content/hook"
cat >"$work/content/manifest.raucm" <<MANIFEST
[update]
compatible=$COMPATIBLE
version=$version
description=KioskCarousel $version ($ARCH)
build=$(date -u +%Y%m%dT%H%M%SZ)

[bundle]
format=verity

[hooks]
filename=hook

[image.rootfs]
filename=rootfs.ext4
hooks=post-install
MANIFEST
rm -f "$BUNDLE"
t0=$(date +%s)
# zstd: the kernels of both suites read it (SQUASHFS_ZSTD); it packs ~3x faster than the default gzip.
squash_args="-comp zstd${ZSTD_LEVEL:+ -Xcompression-level $ZSTD_LEVEL}"
rauc bundle --cert="$UPDATE_CERT" --key="$UPDATE_KEY" --mksquashfs-args="$squash_args" \
    "$work/content" "$BUNDLE" >"$work/rauc.log" 2>&1 \
    || { cat "$work/rauc.log" >&2; die "rauc bundle failed"; }
# Checked against the keyring the images get (UPDATE_KEYRING), with the image's check-purpose, as a
# device would.
printf '[system]\ncompatible=%s\nbootloader=noop\n[keyring]\npath=%s\ncheck-purpose=codesign\n' \
    "$COMPATIBLE" "$(realpath "$UPDATE_KEYRING")" >"$work/system.conf"
rauc info --conf="$work/system.conf" "$BUNDLE" >"$work/info.log" 2>&1 \
    || { cat "$work/info.log" >&2; die "rauc info: the bundle does not verify against $UPDATE_KEYRING"; }
echo "make-update-bundle: $BUNDLE ($(du -h "$BUNDLE" | cut -f1); version $version, $COMPATIBLE, root filesystem $(du -h --apparent-size "$ROOTFS" | cut -f1); $(($(date +%s) - t0)) s)"
