#!/usr/bin/env bash
# The updater proved in QEMU (docs/updates.md, "Proof"): RAUC in a running image, from its own
# disk, driven through Tests/image/guest-run.sh (systemd.run=) and Tests/image/qemu_run.py.
#
#   run 1  version N (slot A) running: bundles that must be refused are given to `rauc install`:
#          wrong architecture, signed by a key the image does not trust, signature removed,
#          tampered payload, the same version, an older version; each refused with its reason,
#          slot B's first 64 MiB and the loader entries unchanged. Then N+1 installed (into slot
#          B), reboot: N+1 boots from slot B on trial (kiosk-2-b+3.conf), the health gate passes,
#          systemd-bless-boot removes the counter (the ESP then has kiosk-2-b.conf).
#   run 2  from slot B, a broken N+2 (its kiosk exits at start) installed into slot A, reboot: it
#          fails its 3 trial boots (the health gate reboots each), systemd-boot goes back to slot
#          B by itself; boot.json says rolled_back, rolled_back_from A, failed_version N+2.
#
#   Tests/image/update-proof.sh IMG NEXT.raucb BROKEN.raucb
#
# IMG: make image's .img (version N); NEXT.raucb and BROKEN.raucb: make update-bundle of
# Tests/image/derive-rootfs.sh's copies of its root filesystem (versions N+1 and N+2, the
# broken one with a drop-in ExecStart=/bin/false for kiosk-carousel.service). Keys: the image's
# development keys in out/update-keys/ (the tiny refused bundles are signed with them).
# KEEP=1 keeps the work folder. Prints "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/Tests/image
[ $# -eq 3 ] || { echo "usage: $0 IMG NEXT.raucb BROKEN.raucb" >&2; exit 2; }
IMG=$1 NEXT=$2 BROKEN=$3
passed=0 failed=0
say() { printf '%s\n' "$*"; }
ok() { say "ok: $*"; passed=$((passed + 1)); }
fail() { say "FAIL: $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }
finish() { say "$passed passed, $failed failed"; [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]; exit $?; }
W=$(mktemp -d /var/tmp/kiosk-update-proof.XXXXXX)
[ "${KEEP:-0}" = 1 ] && say "work folder (kept): $W" || trap 'rm -rf "$W"' EXIT
export MTOOLS_SKIP_CHECK=1
version=$(sed -n 's/^version=//p' "$IMG.layout")
next_version=$(rauc info --no-verify "$NEXT" 2>/dev/null | sed -n "s/^Version:[[:space:]]*'\(.*\)'/\1/p")
say "== image $IMG (version $version); next $NEXT ($next_version); broken $BROKEN"
root_b_partuuid=$(sed -n 's/^root_b_partuuid=//p' "$IMG.layout")
keys=$top/out/update-keys

# --- the bundles that must be refused: a tiny root filesystem each (they never reach a slot) ---
source "$here/lib/bundles.bash"
tiny() {   # tiny VERSION OUT [VAR=VALUE ...]: lib/bundles.bash's tiny_bundle, signed with the image's keys
    tiny_bundle "$W" "$1" "$2" UPDATE_KEY="$keys/signing.key.pem" UPDATE_CERT="$keys/signing.cert.pem" \
        UPDATE_KEYRING="$keys/ca.cert.pem" "${@:3}"
}
B=$W/bundles
mkdir -p "$B"
tiny 9.0 "$B/wrong-arch.raucb" COMPATIBLE=KioskCarousel-arm64 || fail "could not make the wrong-arch bundle"
other_keys "$W/other-keys"
tiny 9.0 "$B/untrusted.raucb" UPDATE_KEY="$W/other-keys/signing.key.pem" UPDATE_CERT="$W/other-keys/signing.cert.pem" \
    UPDATE_KEYRING="$W/other-keys/ca.cert.pem" || fail "could not make the untrusted bundle"
tiny 9.0 "$B/tampered.raucb" || fail "could not make the bundle to tamper with"
# One byte of the payload changed (the squashfs at the start; the signature at the end is intact).
tamper "$B/tampered.raucb"
# The signature removed: a verity bundle ends with the CMS signature and its size (8 bytes,
# big-endian); cut both off.
tiny 9.0 "$B/unsigned.raucb" || fail "could not make the bundle to strip"
sigsize=$(tail -c 8 "$B/unsigned.raucb" | od -An -tu1 | awk '{ n = 0; for (i = 1; i <= NF; i++) n = n * 256 + $i; print n }')
truncate -s $(( $(stat -c %s "$B/unsigned.raucb") - sigsize - 8 )) "$B/unsigned.raucb"
tiny "$version" "$B/same.raucb" || fail "could not make the same-version bundle"
tiny 0.0.1 "$B/older.raucb" || fail "could not make the older bundle"
cp "$NEXT" "$B/next.raucb"
bundle_disk() {   # bundle_disk FOLDER DISK: an ext4 image holding FOLDER's files (/dev/vdb in the guest)
    mkfs.ext4 -q -d "$1" "$2" "$(( $(du -sm "$1" | cut -f1) + 64 ))M"
    ls -l "$1" | sed 's/^/  /'
}
bundle_disk "$B" "$W/bundles.ext4"

cp --sparse=always "$IMG" "$W/disk.img"
esp_off=$(( $(sfdisk -J "$W/disk.img" | python3 -c "import json,sys; print(json.load(sys.stdin)['partitiontable']['partitions'][0]['start'])") * 512 ))
entries() { mdir -b -i "$W/disk.img@@$esp_off" ::/loader/entries 2>/dev/null | sed 's|.*/||' | sort | tr '\n' ' '; }

# --- run 1 -------------------------------------------------------------------------------------
cat >"$W/run1.sh" <<GUEST
exec >/dev/ttyS0 2>&1
echo "GUEST start"
for i in \$(seq 120); do test -S /run/dbus/system_bus_socket && break; sleep 1; done
mount -o ro /dev/vdb /mnt || echo "GUEST cannot mount /dev/vdb"
slotb=\$(readlink -f /dev/disk/by-partuuid/$root_b_partuuid)
state() { head -c 64M "\$slotb" | sha256sum | cut -c1-16; /usr/lib/kiosk-image/rauc-bootloader list | tr '\n' ' '; }
before=\$(state)
for kind in wrong-arch untrusted unsigned tampered same older; do
    rm -f /run/kiosk-image/rauc-pre-install.result
    rauc install /mnt/\$kind.raucb >/tmp/out 2>&1
    rc=\$?
    [ "\$(state)" = "\$before" ] && same=yes || same=no
    echo "GUEST refused \$kind rc=\$rc unchanged=\$same"
    grep -v '^ *[0-9]*%\\|^installing\$\\|^idle\$' /tmp/out | sed "s/^/GUEST-OUT \$kind: /"
    echo "GUEST-OUT \$kind: pre-install handler: \$(cat /run/kiosk-image/rauc-pre-install.result 2>&1)"
done
t0=\$(date +%s)
rauc install /mnt/next.raucb >/tmp/out 2>&1
rc=\$?
echo "GUEST installed next rc=\$rc seconds=\$((\$(date +%s) - t0))"
tail -4 /tmp/out | sed 's/^/GUEST-OUT next: /'
/usr/lib/kiosk-image/rauc-bootloader list | sed 's/^/GUEST-ENTRY /'
ls -l /efi/b | sed 's/^/GUEST-ESP-B /'
echo "GUEST rebooting"
systemctl --no-block --job-mode=replace-irreversibly start reboot.target
GUEST
"$here/guest-run.sh" "$W/disk.img" "$W/run1.sh" || { fail "guest-run.sh"; finish; }
say "== run 1: refusals, then N+1 into slot B and the reboot into it (load $(cut -d' ' -f1-3 /proc/loadavg))"
"$here/qemu_run.py" --disk "$W/disk.img" --out "$W" --name run1 --extra-disk "$W/bundles.ext4" --timeout 1800 \
    --until 'GUEST rebooting' --until 'KIOSK-HEALTH good' --until 'KIOSK-BOOT-REPORT END' | tee "$W/run1.out"
rc=${PIPESTATUS[0]}
serial1=$(tr -d '\r' <"$W/run1-serial.log")
printf '%s\n' "$serial1" | grep '^GUEST' | sed 's/^/  /'
for kind in wrong-arch untrusted unsigned tampered same older; do
    line=$(printf '%s\n' "$serial1" | grep "^GUEST refused $kind ")
    check "run 1: the $kind bundle refused, nothing written ($line)" \
        bash -c '[[ $1 == *" unchanged=yes" ]] && [[ $1 != *" rc=0 "* ]]' _ "$line"
done
words() { printf '%s\n' "$serial1" | grep "^GUEST-OUT $1:" | grep -qi -- "$2"; }
check "run 1: wrong-arch says Compatible mismatch" words wrong-arch 'Compatible mismatch'
check "run 1: untrusted says the signature did not verify" words untrusted 'signature'
check "run 1: unsigned says so" words unsigned 'signature\|sign'
check "run 1: tampered is found by dm-verity" words tampered 'corrupt\|verity'
check "run 1: same version: the pre-install handler's exit 10" words same 'exited with code 10'
check "run 1: same version: its reason says 'same version'" words same 'refused same-version: the bundle is the same version'
check "run 1: older: the pre-install handler's exit 11" words older 'exited with code 11'
check "run 1: older: its reason says 'older'" words older 'refused older: .* is older than'
check "run 1: N+1 installed (rauc install exit 0)" bash -c 'printf "%s\n" "$1" | grep -q "^GUEST installed next rc=0 "' _ "$serial1"
check "run 1: then slot B booted, the health gate passed and the boot report came ($(tail -1 "$W/run1.out"))" test "$rc" -eq 0
check "run 1: slot B's boot report: rauc.slot=B, IMAGE_VERSION=$next_version" \
    bash -c 'printf "%s\n" "$1" | sed -n "/KIOSK-BOOT-REPORT BEGIN/,\$p" | grep -q "rauc.slot=B" && printf "%s\n" "$1" | grep -qx "IMAGE_VERSION=$2"' _ "$serial1" "$next_version"
after1=$(entries)
say "ESP entries after run 1: $after1"
check "run 1: slot B's entry blessed (kiosk-2-b.conf, no counter), slot A's kept" test "$after1" = "kiosk-1-a.conf kiosk-2-b.conf "

# --- run 2 -------------------------------------------------------------------------------------
cat >"$W/run2.sh" <<GUEST
exec >/dev/ttyS0 2>&1
echo "GUEST start (slot \$(sed -n 's/.*rauc.slot=\\([AB]\\).*/\\1/p' /proc/cmdline))"
for i in \$(seq 120); do test -S /run/dbus/system_bus_socket && break; sleep 1; done
mount -o ro /dev/vdb /mnt || echo "GUEST cannot mount /dev/vdb"
t0=\$(date +%s)
rauc install /mnt/broken.raucb >/tmp/out 2>&1
rc=\$?
echo "GUEST installed broken rc=\$rc seconds=\$((\$(date +%s) - t0))"
/usr/lib/kiosk-image/rauc-bootloader list | sed 's/^/GUEST-ENTRY /'
echo "GUEST rebooting"
systemctl --no-block --job-mode=replace-irreversibly start reboot.target
GUEST
# (BROKEN may still be in the making while run 1 goes: it is read only now)
broken_version=$(rauc info --no-verify "$BROKEN" 2>/dev/null | sed -n "s/^Version:[[:space:]]*'\(.*\)'/\1/p")
mkdir -p "$W/bundles2"
cp "$BROKEN" "$W/bundles2/broken.raucb"
bundle_disk "$W/bundles2" "$W/bundles2.ext4"
"$here/guest-run.sh" "$W/disk.img" "$W/run2.sh" || { fail "guest-run.sh"; finish; }
say "== run 2: the broken N+2 into slot A, its trial boots, the way back (load $(cut -d' ' -f1-3 /proc/loadavg))"
"$here/qemu_run.py" --disk "$W/disk.img" --out "$W" --name run2 --extra-disk "$W/bundles2.ext4" --timeout 3600 \
    --until 'GUEST rebooting' --until 'KIOSK-HEALTH bad' --until 'KIOSK-HEALTH bad' --until 'KIOSK-HEALTH bad' \
    --until 'KIOSK-BOOT-REPORT END' | tee "$W/run2.out"
rc=${PIPESTATUS[0]}
serial2=$(tr -d '\r' <"$W/run2-serial.log")
printf '%s\n' "$serial2" | grep '^GUEST\|^KIOSK-HEALTH\|^boot.json' | sed 's/^/  /'
check "run 2: the broken N+2 installed" bash -c 'printf "%s\n" "$1" | grep -q "^GUEST installed broken rc=0 "' _ "$serial2"
check "run 2: three failed trial boots, then a boot report ($(tail -1 "$W/run2.out"))" test "$rc" -eq 0
report2=$(printf '%s\n' "$serial2" | sed -n '/KIOSK-BOOT-REPORT BEGIN/,$p')
check "run 2: back on slot B (rauc.slot=B, IMAGE_VERSION=$next_version)" \
    bash -c 'printf "%s\n" "$1" | grep -q "rauc.slot=B" && printf "%s\n" "$1" | grep -qx "IMAGE_VERSION=$2"' _ "$report2" "$next_version"
want="boot.json: {\"slot\":\"B\",\"version\":\"$next_version\",\"rolled_back\":true,\"rolled_back_from\":\"A\",\"failed_version\":\"$broken_version\"}"
check "run 2: $want" bash -c 'printf "%s\n" "$1" | grep -qxF "$2"' _ "$report2" "$want"
after2=$(entries)
say "ESP entries after run 2: $after2"
check "run 2: slot A's entry out of tries (kiosk-3-a+0-3.conf), slot B's good" test "$after2" = "kiosk-2-b.conf kiosk-3-a+0-3.conf "
finish
