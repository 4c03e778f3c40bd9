#!/usr/bin/env bash
# make update-test: updates of the kiosk image proven in QEMU from the image's own disk
# (docs/updates.md, "Proof"). Builds the bundles from the image's own root filesystem, then runs
# Tests/image/update_test.py's steps:
#
#   updates     N from slot A; N+1 from a URL (a server on this machine's loopback, reached
#               through QEMU's user-mode network), installed while the carousel runs, the reboot
#               when idle (kiosk-carousel-update-reboot.path: at once); N+1 from slot B, marked
#               good; N+2 from a USB stick into slot A the same way; KIOSK edits and the data
#               partition kept. Its timings and the disk with N+1 pending are kept for the power
#               cuts, which start as soon as the URL update and N+1's first boot have been timed.
#   rollback    a broken N+1 (its kiosk exits at start) from a stick: back on N by itself, and N
#               stays up past the update timer's first run (no reboot into the failed version)
#   refusals    wrong architecture, foreign key, tampered, older: refused, nothing written (in
#               the rolled-back boot when both steps run; else a boot of its own)
#   power-cuts  QEMU killed during download, install, slot switch and first boot of N+1:
#               every time the kiosk comes back (20 points; QUICK=1: 2, one in the update and one
#               in N+1's first boot)
#
# The steps side by side when all run (LANES=3, the default: update_test.py's run_in_lanes):
# updates in one guest, rollback with the refusals in another, the power cuts in a third as soon
# as the updates step has measured their phase, then in all three (a booted guest mostly waits:
# the health gate's steady time, the update timer, the quiet moment). LANES=1: one after another.
#
# No second mmdebstrap: N is `make image`'s image (out/kiosk-carousel-<version>-amd64.img and its
# .rootfs.ext4, as make package-test left them); N+1, N+2 and the broken N+1 are copies of its root
# filesystem with another IMAGE_VERSION (Tests/image/derive-rootfs.sh); the bundles that must be
# refused are tiny (they never reach a slot). Keys: the development keys of out/update-keys/,
# which the image trusts.
#
# Variables: IMG (default the newest out/kiosk-carousel-*-amd64.img), QUICK=1 (CI's form: 3 power
# cuts), STEPS (default all four, comma-separated), CUTS=FIRST-LAST (only those power cuts, numbered
# from 1: the rest of a 20-point run that did not fit one sitting), KIOSK_VM_SLOWDOWN (multiplies every deadline;
# measured here when unset, as the VM tests do, with KIOSK_VM or ../shared/vm/kiosk-vm), LANES
# (above), ZSTD_LEVEL (the bundles' compression, default 3: 10 s a bundle instead of ~60 at
# mksquashfs' default 15, ~13 % larger), KEEP=1 keeps the work folder.
# Prints "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/Tests/image
cd "$top"
say() { printf '%s\n' "$*"; }
die() { say "FAIL: $*"; say "0 passed, 1 failed"; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (apt for the prerequisites; RAUC's bundle tools)"
need=()
for pair in qemu-system-x86_64:qemu-system-x86 mcopy:mtools mkfs.vfat:dosfstools debugfs:e2fsprogs \
            sfdisk:fdisk rauc:rauc mksquashfs:squashfs-tools openssl:openssl socat:socat; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
done
[ -f /usr/share/OVMF/OVMF_CODE_4M.fd ] || need+=(ovmf)
if [ ${#need[@]} -gt 0 ]; then
    say "installing ${need[*]}"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null \
        || die "apt-get install ${need[*]} failed"
fi
IMG=${IMG:-$(ls -t out/kiosk-carousel-*-amd64.img 2>/dev/null | head -1)}
[ -n "$IMG" ] && [ -f "$IMG" ] || die "no image: run make image first (or set IMG=)"
ROOTFS=${IMG%.img}.rootfs.ext4
[ -f "$ROOTFS" ] || die "no $ROOTFS beside $IMG (make image writes it)"
N=$(sed -n 's/^version=//p' "$IMG.layout")
[ -n "$N" ] || die "$IMG.layout names no version"
# dpkg's order: N < N+u1 < N+u2; 0.0.1 is older than any release.
N1=$N+u1 N2=$N+u2 OLDER=0.0.1
W=$(mktemp -d /var/tmp/kiosk-update-test.XXXXXX)
[ "${KEEP:-0}" = 1 ] && say "work folder (kept): $W" || trap 'rm -rf "$W"' EXIT
B=$W/bundles
mkdir -p "$B"
keys=$top/out/update-keys
[ -f "$keys/signing.key.pem" ] || die "no development keys in $keys: the image was not built with them (UPDATE_KEY= given?); build it with make image"
export UPDATE_KEY=$keys/signing.key.pem UPDATE_CERT=$keys/signing.cert.pem UPDATE_KEYRING=$keys/ca.cert.pem

python3 "$here/update_test.py" --self-test >/dev/null || die "update_test.py --self-test failed (run it to see which check)"
t0=$(date +%s)
say "== bundles from $ROOTFS (N = $N)"
bundle() {   # bundle ROOTFS OUT [VAR=VALUE ...]
    local rootfs=$1 out=$2; shift 2
    env ROOTFS="$rootfs" BUNDLE="$out" ZSTD_LEVEL="${ZSTD_LEVEL:-3}" "$@" scripts/make-update-bundle.sh | sed 's/^/  /'
    [ "${PIPESTATUS[0]}" -eq 0 ] && [ -f "$out" ]
}
cat >"$W/broken.conf" <<'EOF'
# update-test: a kiosk that exits at start (the broken N+1 of docs/updates.md, "Proof").
[Service]
ExecStart=
ExecStart=/bin/false
EOF
Tests/image/derive-rootfs.sh "$ROOTFS" "$W/next.ext4" "$N1" || die "could not derive N+1's root filesystem"
bundle "$W/next.ext4" "$B/next.raucb" || die "could not make next.raucb"
rm -f "$W/next.ext4"
Tests/image/derive-rootfs.sh "$ROOTFS" "$W/next2.ext4" "$N2" || die "could not derive N+2's root filesystem"
bundle "$W/next2.ext4" "$B/next2.raucb" || die "could not make next2.raucb"
rm -f "$W/next2.ext4"
Tests/image/derive-rootfs.sh "$ROOTFS" "$W/broken.ext4" "$N1" \
    "$W/broken.conf:/etc/systemd/system/kiosk-carousel.service.d/zz-update-test-broken.conf" \
    || die "could not derive the broken root filesystem"
bundle "$W/broken.ext4" "$B/broken.raucb" || die "could not make broken.raucb"
rm -f "$W/broken.ext4"
# The refused ones: a tiny root filesystem each (Tests/image/lib/bundles.bash).
source "$here/lib/bundles.bash"
tiny_bundle "$W" "$N1" "$B/wrong-arch.raucb" COMPATIBLE=KioskCarousel-arm64 || die "could not make wrong-arch.raucb"
other_keys "$W/other-keys" || die "could not make a second (foreign) key"
tiny_bundle "$W" "$N1" "$B/foreign-key.raucb" UPDATE_KEY="$W/other-keys/signing.key.pem" \
    UPDATE_CERT="$W/other-keys/signing.cert.pem" UPDATE_KEYRING="$W/other-keys/ca.cert.pem" \
    || die "could not make foreign-key.raucb"
tiny_bundle "$W" "$N1" "$B/tampered.raucb" || die "could not make the bundle to tamper with"
tamper "$B/tampered.raucb"
tiny_bundle "$W" "$OLDER" "$B/older.raucb" || die "could not make older.raucb"
say "bundles made in $(( $(date +%s) - t0 )) s:"
ls -l "$B" | sed 's/^/  /'

KIOSK_VM=${KIOSK_VM:-$top/../shared/vm/kiosk-vm}
if [ -z "${KIOSK_VM_SLOWDOWN:-}" ] && [ -x "$KIOSK_VM" ]; then
    source Tests/vm/lib/slowdown.bash
    vm_slowdown_setup
fi
args=(--image "$IMG" --bundles "$B" --versions "$N,$N1,$N2,$OLDER" --out "$W/run")
[ "${QUICK:-0}" = 1 ] && args+=(--quick)
[ -n "${STEPS:-}" ] && args+=(--steps "$STEPS")
[ -n "${LANES:-}" ] && args+=(--lanes "$LANES")
[ -n "${CUTS:-}" ] && args+=(--cuts "$CUTS")
python3 "$here/update_test.py" "${args[@]}"
