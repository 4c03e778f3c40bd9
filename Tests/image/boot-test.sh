#!/usr/bin/env bash
# make image-test: boots a copy of out/kiosk-carousel-<version>-amd64.img in QEMU (TCG, OVMF,
# virtio disk, virtio-gpu 1280x720, serial to a file, QMP) from its own disk: firmware ->
# systemd-boot -> kernel -> systemd -> kiosk-carousel.service -> the carousel through DRM.
#
#   1. the carousel on screen (power-on -> first frame, from QEMU start; host load noted), then
#      equal to `simulate` of the same config (the one on the image's KIOSK partition)
#   2. QMP key Right: the screen equals `simulate` of the same config fed the same key
#   3. the boot's breakdown from the guest's report on the serial port
#   4. the image's identity and slots from the report: IMAGE_VERSION, rauc.slot=A, boot.json
#      (slot A, not rolled back), slot A's loader entry shipped good (kiosk-1-a.conf, no counter,
#      so no trial and no blessing on a first boot), the data partition read-write at /data and
#      /var/lib/kiosk-carousel bound to it
#   5. the power cut: SIGKILL of QEMU while the kiosk runs: config and media on the KIOSK
#      partition unchanged; then, as a laptop would, a changed config.toml written to the KIOSK
#      partition (other background colours, and [usb] import = true); boot again: the carousel is
#      back and equals `simulate` of the changed config
#   6. the keys a stranger presses to leave the kiosk (boot 2, after the report, while the
#      carousel runs): QMP send-key Ctrl-Alt-Del 8 times within 2 s, then Alt-SysRq-B; the image's
#      masked ctrl-alt-del.target, CtrlAltDelBurstAction=none and kernel.sysrq = 0 must leave the
#      guest in the same boot (QEMU runs on under -no-reboot, no reset event, one firmware banner
#      and one boot report on the serial port, the carousel unchanged), checked again after the
#      USB import below (a unit systemd starts: a shutdown under way would refuse it)
#   7. USB content import on the image: a FAT32 stick with a kiosk-carousel/ folder (mtools, no
#      root) plugged in at run time (QMP device_add usb-storage on QEMU's xHCI): the screen changes
#      to a card, the import's end is on the serial port (the image's usb-report: systemd's
#      result success, status.json done), then the result card; power cut; the data partition e2fsck-clean with the
#      import's `current` and status `done` on it; boot 3: the screen equals `simulate` of the
#      config with the stick's content (it survived the power cut); after the last power cut the
#      KIOSK files are the edited ones, the data partition is clean, the ESP's entries unchanged,
#      and the root partition is unchanged (or e2fsck-clean)
#
# ARCH=arm64: the arm64 image (make image ARCH=arm64) in qemu-system-aarch64 -M virt (AAVMF, a USB
# keyboard); the references come from the x86-64 host binary (SIM_BIN=, default: the newest
# out/kiosk-carousel_*_amd64.deb's), since the image's own binary is aarch64.
#
# Variables: ARCH (amd64 or arm64, default amd64), IMG (default: the newest
# out/kiosk-carousel-*-$ARCH.img), SIM_BIN (ARCH=arm64 only), KIOSK_VM_SLOWDOWN
# (multiplies every deadline, default 1), KEEP=1 keeps the work folder (screenshots, serial logs).
# Prints "N passed, N failed"; exit status 1 when a check failed. docs/image.md has the figures.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/Tests/image
cd "$top"
SIZE=1280x720
ARCH=${ARCH:-amd64}
# The screenshots against simulate: compare.py's threshold (mean <= 0.5, <= 0.1 % of pixels off
# by > 4). arm64: the references are the x86-64 binary's, drawn with bookworm's font libraries,
# the guest's text with trixie's: <= 1 % (measured 0.25-0.5 %, all of it text; docs/image.md).
CMP=()
[ "$ARCH" = amd64 ] || CMP=(--max-over4 0.01)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
passed=0 failed=0
say() { printf '%s\n' "$*"; }
ok() { say "ok: $*"; passed=$((passed + 1)); }
fail() { say "FAIL: $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }
finish() {
    [ "$failed" -gt 0 ] && [ "${KEEP:-0}" != 1 ] && say "(KEEP=1 keeps the screenshots and serial logs of a run)"
    say "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
    exit $?
}
# Prerequisites (Debian packages), installed when missing and we are root.
need=()
qemu=qemu-system-x86_64:qemu-system-x86
[ "$ARCH" = amd64 ] || qemu=qemu-system-aarch64:qemu-system-arm
for pair in $qemu mcopy:mtools sfdisk:fdisk e2fsck:e2fsprogs \
            debugfs:e2fsprogs fsck.vfat:dosfstools; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
done
if [ "$ARCH" = amd64 ]; then
    [ -f /usr/share/OVMF/OVMF_CODE_4M.fd ] || need+=(ovmf)
else
    [ -f /usr/share/AAVMF/AAVMF_CODE.fd ] || need+=(qemu-efi-aarch64)
fi
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        say "installing ${need[*]}"
        apt-get update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null \
            || { fail "apt-get install ${need[*]} failed"; finish; }
    else
        fail "missing: apt-get install ${need[*]}"; finish
    fi
fi

IMG=${IMG:-$(ls -t out/kiosk-carousel-*-"$ARCH".img 2>/dev/null | head -1)}
[ -n "$IMG" ] && [ -f "$IMG" ] || { fail "no image: run make image first (or set IMG=)"; finish; }
say "== image $IMG"
W=$(mktemp -d /var/tmp/kiosk-image-test.XXXXXX)
[ "${KEEP:-0}" = 1 ] && say "work folder (kept): $W" || trap 'rm -rf "$W"' EXIT

# --- the partitions, from the table itself ----------------------------------------------------
# part N -> "start_sector size_sectors"
part() { sfdisk -J "$1" | "$PY" -c "import json,sys; p=json.load(sys.stdin)['partitiontable']['partitions'][$2-1]; print(p['start'], p['size'])"; }
# 1 ESP, 2 root-a, 3 root-b, 4 KIOSK, 5 data (scripts/make-image.sh)
read -r esp_start esp_size < <(part "$IMG" 1)
read -r root_start root_size < <(part "$IMG" 2)
read -r kiosk_start kiosk_size < <(part "$IMG" 4)
read -r data_start data_size < <(part "$IMG" 5)
kiosk_off=$((kiosk_start * 512))
esp_off=$((esp_start * 512))
image_version=$(sed -n 's/^version=//p' "$IMG.layout" 2>/dev/null)
export MTOOLS_SKIP_CHECK=1

# What the KIOSK partition holds before any boot: every file with its checksum.
kiosk_sums() {   # kiosk_sums DISK DIR: copies config.toml + media/ out to DIR, prints checksums
    rm -rf "$2"; mkdir -p "$2"
    mcopy -s -n -i "$1@@$kiosk_off" ::/config.toml ::/media "$2/" 2>/dev/null || return 1
    (cd "$2" && find . -type f | LC_ALL=C sort | xargs sha256sum)
}
root_sum() { dd if="$1" bs=512 skip="$root_start" count="$root_size" status=none | sha256sum | cut -d' ' -f1; }
kiosk_sums "$IMG" "$W/kiosk-before" >"$W/kiosk-before.sums" || { fail "cannot read the KIOSK partition of $IMG"; finish; }
say "KIOSK partition: $(wc -l <"$W/kiosk-before.sums") files"
root_before=$(root_sum "$IMG")

# --- references: simulate with the image's own binary and the KIOSK partition's config -------
dd if="$IMG" of="$W/root.ext4" bs=512 skip="$root_start" count="$root_size" status=none
debugfs -R "dump /usr/bin/kiosk-carousel $W/kiosk-carousel" "$W/root.ext4" >/dev/null 2>&1
rm -f "$W/root.ext4"
chmod +x "$W/kiosk-carousel"
BIN=$W/kiosk-carousel
if [ "$ARCH" = amd64 ]; then
    "$BIN" --version >/dev/null 2>&1 || { fail "the image's /usr/bin/kiosk-carousel does not run here"; finish; }
    say "binary: kiosk-carousel $("$BIN" --version | head -1) (from the image's root partition)"
else
    # The image's binary is aarch64: simulate with the x86-64 build of the same version.
    BIN=${SIM_BIN:-}
    if [ -z "$BIN" ]; then
        hostdeb=$(ls -t out/kiosk-carousel_*_amd64.deb 2>/dev/null | head -1)
        [ -n "$hostdeb" ] || { fail "ARCH=arm64: no out/kiosk-carousel_*_amd64.deb for simulate (make deb, or set SIM_BIN=)"; finish; }
        dpkg-deb -x "$hostdeb" "$W/hostdeb"
        BIN=$W/hostdeb/usr/bin/kiosk-carousel
    fi
    "$BIN" --version >/dev/null 2>&1 || { fail "$BIN does not run here"; finish; }
    say "simulate: x86-64 kiosk-carousel $("$BIN" --version | head -1) ($BIN); the image's is aarch64"
fi
cat >"$W/right.jsonl" <<'EOF'
# The Right arrow once (what the boot test sends over QMP), at t = 1 s.
{"t":1.0,"type":"key_down","key":"right"}
{"t":1.05,"type":"key_up","key":"right"}
EOF
"$BIN" simulate --config "$W/kiosk-before/config.toml" --size "$SIZE" --input "$W/right.jsonl" \
    --until 4.5 --shot "0.9=$W/ref-start.png" --shot "4.4=$W/ref-after.png" >/dev/null \
    || { fail "simulate failed"; finish; }
check "the simulate frames before and after the Right key differ (the comparison can fail)" \
    "$PY" Tests/vm/display/compare.py "$W/ref-start.png" "$W/ref-after.png" --expect-different

# --- boot 1 -------------------------------------------------------------------------------------
cp --sparse=always "$IMG" "$W/disk.img"
say "== boot 1 (load $(cut -d' ' -f1-3 /proc/loadavg))"
"$PY" "$here/qemu_boot.py" --arch "$ARCH" --disk "$W/disk.img" --out "$W" --name boot1 --size "$SIZE" \
    --ref-start "$W/ref-start.png" --ref-after "$W/ref-after.png" | tee "$W/boot1.out"
rc=${PIPESTATUS[0]}
check "boot 1: the carousel came up, turned and reported in time" test "$rc" -eq 0
result() { sed -n "s/^RESULT $2=//p" "$W/$1.out" | tr -d '"'; }
if [ -f "$W/boot1-start.png" ]; then
    check "boot 1: the screen equals simulate's start frame" \
        "$PY" Tests/vm/display/compare.py "$W/ref-start.png" "$W/boot1-start.png" "${CMP[@]}"
fi
if [ -f "$W/boot1-after.png" ]; then
    check "boot 1: after the Right key the screen equals simulate's frame with the same key" \
        "$PY" Tests/vm/display/compare.py "$W/ref-after.png" "$W/boot1-after.png" "${CMP[@]}"
fi

# --- the breakdown from the guest -----------------------------------------------------------
has() {   # has TEXT STRING...: every STRING is in TEXT
    local text=$1; shift
    for want; do printf '%s\n' "$text" | grep -qF -- "$want" || { say "  (not in the report: $want)"; return 1; }; done
}
report() {   # report BOOT: the report's key=value lines
    sed -n '/KIOSK-BOOT-REPORT BEGIN/,/KIOSK-BOOT-REPORT END/p' "$W/$1-serial.log" | tr -d '\r'
}
breakdown() {
    local b=$1 r first
    r=$(report "$b")
    [ -n "$r" ] || { fail "$b: no boot report on the serial port"; return; }
    v() { printf '%s\n' "$r" | sed -n "s/^$1=//p" | head -1; }
    first=$(result "$b" first_frame_s)
    "$PY" - "$first" "$(v FirmwareTimestampMonotonic)" "$(v LoaderTimestampMonotonic)" \
        "$(v UserspaceTimestampMonotonic)" "$(v KioskExecMainStartTimestampMonotonic)" \
        "$(v KioskActiveEnterTimestampMonotonic)" "$(v FinishTimestampMonotonic)" \
        "$(printf '%s\n' "$r" | sed -n 's/^\[ *\([0-9.]*\)\].*first frame on screen.*/\1/p' | head -1)" \
        "$here" "$r" <<'EOF'
import sys
first, fw, ld, us, ex, act, fin, ff, here, report = sys.argv[1:]
sys.path.insert(0, here)
from qemu_boot import keyboard_added_at
kb = keyboard_added_at(report)
s = lambda x: int(x) / 1e6
first = float(first) if first else None
print(f"  QEMU start -> first frame (host, screendump poll)  {first:6.2f} s" if first else "  first frame: not seen")
if int(fw or 0) or int(ld or 0):
    print(f"  firmware (guest, systemd)                         {s(fw) - s(ld):6.2f} s")
    print(f"  boot loader (guest, systemd-boot)                 {s(ld):6.2f} s")
if first:
    print(f"  QEMU start -> kernel start (host first frame - guest READY)  {first - s(act):6.2f} s")
print(f"  kernel + initramfs (guest: kernel start -> systemd)  {s(us):6.2f} s")
print(f"  userspace before our unit (systemd -> exec)       {s(ex) - s(us):6.2f} s")
if ff:
    print(f"  our unit: exec -> first frame on screen (its log)  {float(ff) - s(ex):6.2f} s")
print(f"  our unit: exec -> READY=1 (after the first frame)  {s(act) - s(ex):6.2f} s")
if ff and kb is not None:
    print(f"  our unit: first frame -> its keyboard added (its log)  {kb - float(ff):6.2f} s")
print(f"  kernel start -> READY=1                            {s(act):6.2f} s")
print(f"  boot finished (all units, guest)                   {s(fin):6.2f} s")
EOF
    # Early KMS (the initramfs hook kiosk-early-kms): the GPU's driver is loaded by the initramfs's
    # udev, so the card is there before systemd starts in the real root and the kiosk does not
    # wait for the real root's coldplug (docs/start-up.md).
    # Both times on the kernel's clock (boot-report): systemd's "running in system mode" line;
    # UserspaceTimestampMonotonic is on the monotonic clock, which on arm64 `virt` runs behind the
    # kernel's by the firmware's seconds (the driver at 12.7 s, systemd at 7.0 s, in that order).
    local drm_at us_at
    drm_at=$(printf '%s\n' "$r" | sed -n 's/^\[ *\([0-9.]*\)\].*\[drm\] Initialized.*/\1/p' | head -1)
    us_at=$(printf '%s\n' "$r" | sed -n 's/^\[ *\([0-9.]*\)\].*systemd\[1\]: systemd [^ ]* running in system mode.*/\1/p' | head -1)
    check "$b: the GPU's driver started in the initramfs ([drm] Initialized at ${drm_at:-never} s, systemd in the real root at ${us_at:-never} s, the kernel's clock)" \
        awk -v d="$drm_at" -v u="$us_at" 'BEGIN { exit !(d != "" && u != "" && d + 0 < u + 0) }'
    # The kernel's random number generator ready before our exec: the kiosk's runtime waits for it
    # before main, and on a machine without a hardware generator (this QEMU's) the initramfs starts
    # the kernel's wait for it (init-top/kiosk-random; docs/start-up.md, stop 67). Its line is on
    # the kernel's clock, our exec on the monotonic one: carried over by systemd's start, on both.
    local crng_at exec_at
    crng_at=$(printf '%s\n' "$r" | sed -n 's/^KernelCrngReady \[ *\([0-9.]*\)\].*crng init done.*/\1/p' | head -1)
    exec_at=$(awk -v u="$us_at" -v m="$(v UserspaceTimestampMonotonic)" -v e="$(v KioskExecMainStartTimestampMonotonic)" \
        'BEGIN { if (u != "" && m + 0 > 0 && e + 0 > 0) printf "%.2f", u + (e - m) / 1e6 }')
    check "$b: the kernel's random numbers ready before our exec (crng init done at ${crng_at:-never} s, our exec at ${exec_at:-?} s, the kernel's clock)" \
        awk -v c="$crng_at" -v e="$exec_at" 'BEGIN { exit !(c != "" && e != "" && c + 0 < e + 0) }'
    # The boot ended with every start-up job done and nothing degraded: the units the image masks
    # (customize.sh) must leave nothing waiting on them.
    check "$b: the boot ended running (SystemState=$(v SystemState))" test "$(v SystemState)" = running
    check "$b: no failed units" test -z "$(printf '%s\n' "$r" | sed -n '/^--- failed units/,/^---/p' | grep -v '^---' | grep -v '^$')"
    # The static device nodes come from the image's own list (customize.sh; kmod-static-nodes is
    # masked), the KIOSK partition's modules from modules-load.d (docs/start-up.md).
    local nodes
    nodes=$(printf '%s\n' "$r" | grep '^node ')
    check "$b: the image's static device nodes made at boot ($(printf '%s\n' "$nodes" | grep -c 'character special file') character devices, /dev/loop-control among them for RAUC)" \
        bash -c 'test -n "$1" && ! printf "%s\n" "$1" | grep -qv "character special file" && printf "%s\n" "$1" | grep -q "^node /dev/loop-control "' _ "$nodes"
    check "$b: vfat, nls_cp437 and nls_utf8 loaded by systemd-modules-load" \
        has "$r" 'modules: active success;' 'vfat ' 'nls_cp437 ' 'nls_utf8 '
    check "$b: the kiosk started once (no restart)" test "$(v KioskNRestarts)" = 0
    # Its /tmp and /var/tmp are tmpfs of its own, open to every user with the sticky bit, and
    # the unit no longer waits for tmpfiles' setup (early-start.conf, docs/start-up.md).
    local tmp after
    tmp=$(printf '%s\n' "$r" | sed -n 's/^kiosk tmp: //p')
    after=$(printf '%s\n' "$r" | sed -n 's/^kiosk after: //p')
    check "$b: the kiosk's own /tmp and /var/tmp ($tmp)" \
        test "$tmp" = "PrivateTmp=no /tmp tmpfs 1777 /var/tmp tmpfs 1777"
    check "$b: the kiosk is not ordered after systemd-tmpfiles-setup.service" \
        bash -c 'test -n "$1" && ! printf "%s\n" "$1" | tr " " "\n" | grep -qx systemd-tmpfiles-setup.service' _ "$after"
    # Its slice beside system.slice, with the highest CPU weight (100 times the default) during start-up
    # (kiosk.slice, docs/start-up.md).
    local slice
    slice=$(printf '%s\n' "$r" | sed -n 's/^kiosk slice: //p')
    check "$b: the kiosk runs in kiosk.slice, StartupCPUWeight=10000 ($slice)" \
        test "$slice" = "/kiosk.slice/kiosk-carousel.service StartupCPUWeight=10000"
    check "$b: root mounted read-only, KIOSK read-only at /srv/kiosk" \
        bash -c "printf '%s\n' \"\$1\" | grep -q ' / ext4 ro,' && printf '%s\n' \"\$1\" | grep -q ' /srv/kiosk vfat ro,'" _ "$r"
    check "$b: the data partition read-write at /data (ext4), /var/lib/kiosk-carousel on it" \
        has "$r" ' /data ext4 rw,' ' /var/lib/kiosk-carousel ext4 rw,'
    # The kiosk binds the data partition's folder itself (BindReadOnlyPaths=, image.conf) instead
    # of waiting for fstab's bind (docs/start-up.md, stop 60): in its namespace
    # /var/lib/kiosk-carousel is the data partition's /kiosk-carousel, read-only at least once
    # (fstab's bind may come later and stack on it: the same folder).
    local varlib
    varlib=$(printf '%s\n' "$r" | sed -n 's/^kiosk var-lib: //p')
    check "$b: the kiosk is not ordered after fstab's bind, var-lib-kiosk\\x2dcarousel.mount" \
        bash -c 'test -n "$1" && ! printf "%s\n" "$1" | tr -d "\"" | tr " " "\n" | grep -qFx "var-lib-kiosk\\x2dcarousel.mount"' _ "$after"
    check "$b: the kiosk's /var/lib/kiosk-carousel is the data partition's folder, read-only ($varlib)" \
        bash -c 'printf "%s\n" "$1" | tr ";" "\n" | grep -qE "^/kiosk-carousel ro,[^ ]* ext4$"' _ "$varlib"
    check "$b: slot A booted (rauc.slot=A), IMAGE_VERSION=$image_version" \
        has "$r" ' rauc.slot=A ' "IMAGE_VERSION=$image_version"
    check "$b: boot.json says slot A, version $image_version, not rolled back" \
        has "$r" "boot.json: {\"slot\":\"A\",\"version\":\"$image_version\",\"rolled_back\":false}"
    check "$b: one loader entry, slot A's, good (no boot counter: kiosk-1-a.conf)" \
        test "$(printf '%s\n' "$r" | sed -n '/^loader entries/,/^health gate/p' | grep '^  ')" = "  0 1 a - /efi/loader/entries/kiosk-1-a.conf"
}
say "== boot 1 breakdown (load at first frame: $(result boot1 load_at_first_frame); the first frame came between the screendumps at $(result boot1 first_frame_after_s) s and $(result boot1 first_frame_s) s)"
breakdown boot1

# --- after the first power cut: the KIOSK partition, then edited as on a laptop ---------------
kiosk_sums "$W/disk.img" "$W/kiosk-after1" >"$W/kiosk-after1.sums"
check "KIOSK partition: config.toml and every media file unchanged after the power cut" \
    cmp -s "$W/kiosk-before.sums" "$W/kiosk-after1.sums"
# The theme's two background colours changed, the way someone edits config.toml on a laptop, and
# USB content import switched on ([usb] is not in the example: appended).
{
    sed -e 's/^background = "#0B1626"/background = "#3B1010"/' \
        -e 's/^background_bottom = "#1D3350"/background_bottom = "#5A2A10"/' \
        "$W/kiosk-before/config.toml"
    printf '\n[usb]\nimport = true\n'
} >"$W/config-edited.toml"
if cmp -s <(printf '%s\n[usb]\nimport = true\n' "$(cat "$W/kiosk-before/config.toml")") "$W/config-edited.toml" \
   || grep -c '^\[usb\]' "$W/config-edited.toml" | grep -qv '^1$'; then
    fail "could not edit the example's [theme] background colours, or it has a [usb] table already (did the example change?)"
fi
mcopy -o -i "$W/disk.img@@$kiosk_off" "$W/config-edited.toml" ::/config.toml
kiosk_sums "$W/disk.img" "$W/kiosk-edited" >"$W/kiosk-edited.sums"
"$BIN" simulate --config "$W/kiosk-edited/config.toml" --size "$SIZE" --until 1 \
    --shot "0.9=$W/ref-start2.png" >/dev/null || fail "simulate of the edited config failed"
check "the edited config's simulate frame differs from the original's" \
    "$PY" Tests/vm/display/compare.py "$W/ref-start.png" "$W/ref-start2.png" --expect-different

# The USB stick (docs/usb.md): a FAT32 file system with a kiosk-carousel/ folder, two of the
# example's pictures, made with mtools (as Tests/vm/usb-stick.sh does).
mkdir -p "$W/stick/kiosk-carousel/pictures"
pics=($(ls "$W/kiosk-before/media" | head -2))
cp "$W/kiosk-before/media/${pics[0]}" "$W/kiosk-before/media/${pics[1]}" "$W/stick/kiosk-carousel/pictures/"
cat >"$W/stick/kiosk-carousel/config.toml" <<TOML
[carousel]
type = "linear"
item_size = [240, 180]

[[item]]
id = "first"
title = "First from the stick"
image = "pictures/${pics[0]}"

[[item]]
id = "second"
title = "Second from the stick"
image = "pictures/${pics[1]}"

[[item]]
id = "plain"
title = "A card without a picture"
TOML
"$BIN" check-config "$W/stick/kiosk-carousel/config.toml" >/dev/null || fail "the stick's config.toml does not pass check-config"
mkfs.vfat -C -F 32 -n STICK "$W/stick.img" $((40 * 1024)) >/dev/null && mcopy -s -i "$W/stick.img" "$W/stick/kiosk-carousel" ::/ \
    || fail "could not make the stick's FAT image"
# What the kiosk shows after the import: the edited config with the stick's copy current
# (simulate reads [usb] content/current as run does).
mkdir -p "$W/content/gen-1"
cp -r "$W/stick/kiosk-carousel/." "$W/content/gen-1/"
ln -s gen-1 "$W/content/current"
{ cat "$W/kiosk-edited/config.toml"; printf 'content = "%s"\n' "$W/content"; } >"$W/kiosk-edited/config-with-stick.toml"
"$BIN" simulate --config "$W/kiosk-edited/config-with-stick.toml" --size "$SIZE" --until 1 \
    --shot "0.9=$W/ref-start3.png" >/dev/null || fail "simulate of the config with the stick's content failed"
check "the stick's content looks different from the edited config's start frame" \
    "$PY" Tests/vm/display/compare.py "$W/ref-start2.png" "$W/ref-start3.png" --expect-different

# --- boot 2, after the power cut, with the edited config; the USB stick plugged in -------------
say "== boot 2 after the power cut, config.toml edited on the KIOSK partition, then Ctrl-Alt-Del and Alt-SysRq-B, then the USB stick (load $(cut -d' ' -f1-3 /proc/loadavg))"
"$PY" "$here/qemu_boot.py" --arch "$ARCH" --disk "$W/disk.img" --out "$W" --name boot2 --size "$SIZE" \
    --ref-start "$W/ref-start2.png" --hostile-keys --usb-stick "$W/stick.img" | tee "$W/boot2.out"
rc=${PIPESTATUS[0]}
check "boot 2 (after SIGKILL of QEMU): the carousel came up again, then the stick's cards showed" test "$rc" -eq 0
check "boot 2: Ctrl-Alt-Del x8 and Alt-SysRq-B left the carousel on the screen and the guest in the same boot" \
    grep -q '^RESULT hostile_keys_same_boot_until_s=' "$W/boot2.out"
if [ -f "$W/boot2-start.png" ]; then
    check "boot 2: the screen equals simulate's frame of the edited config (the kiosk reads the KIOSK partition)" \
        "$PY" Tests/vm/display/compare.py "$W/ref-start2.png" "$W/boot2-start.png" "${CMP[@]}"
fi
check "boot 2: the import's end on the serial port says the FAT stick was read by mtools, not mounted (the default, [usb] fat_without_mount): $(sed -n 's/^USB-IMPORT //p' "$W/boot2.out" | cut -c1-160)" \
    grep -q '^USB-IMPORT .* read=mtools ' "$W/boot2.out"
say "== boot 2 breakdown (load at first frame: $(result boot2 load_at_first_frame); the first frame came between the screendumps at $(result boot2 first_frame_after_s) s and $(result boot2 first_frame_s) s; stick plugged -> a card $(result boot2 usb_plug_to_card_s) s, -> the import's end on the serial port $(result boot2 usb_plug_to_import_end_s) s, -> the result card $(result boot2 usb_plug_to_result_s) s)"
breakdown boot2

# --- the data partition after the power cut: clean, with the import on it --------------------
data_check() {   # data_check WHEN: e2fsck after replaying the journal (what the next mount does)
    dd if="$W/disk.img" of="$W/data.ext4" bs=512 skip="$data_start" count="$data_size" status=none
    e2fsck -E journal_only -y "$W/data.ext4" >/dev/null 2>&1
    check "data partition $1: e2fsck -fn clean after the journal's replay" e2fsck -fn "$W/data.ext4"
}
data_check "after the power cut during boot 2"
# status.json is renamed into place after an fsync of the file, not of its folder: a power cut a
# few seconds after the import can leave the one before it (AtomicFile; docs/updates.md). It must
# be whole JSON either way; its state is shown.
debugfs -R "cat /kiosk-carousel/usb/status.json" "$W/data.ext4" 2>/dev/null >"$W/usb-status.json"
check "data partition: the import's status.json is whole JSON (state: $("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("state"))' "$W/usb-status.json" 2>&1 | tail -1))" \
    "$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' "$W/usb-status.json"
check "data partition: the import's current generation holds the stick's config.toml" \
    bash -c 'debugfs -R "cat /kiosk-carousel/usb/current/config.toml" "$1" 2>/dev/null | grep -q "Second from the stick"' _ "$W/data.ext4"
rm -f "$W/data.ext4"

# --- boot 3: the stick's content is still there ---------------------------------------------
say "== boot 3 after the power cut: the stick's content (load $(cut -d' ' -f1-3 /proc/loadavg))"
"$PY" "$here/qemu_boot.py" --arch "$ARCH" --disk "$W/disk.img" --out "$W" --name boot3 --size "$SIZE" \
    --ref-start "$W/ref-start3.png" | tee "$W/boot3.out"
rc=${PIPESTATUS[0]}
check "boot 3: the carousel came up with the stick's content" test "$rc" -eq 0
if [ -f "$W/boot3-start.png" ]; then
    check "boot 3: the screen equals simulate's frame of the edited config with the stick's content" \
        "$PY" Tests/vm/display/compare.py "$W/ref-start3.png" "$W/boot3-start.png" "${CMP[@]}"
fi
data_check "after the power cut during boot 3"
rm -f "$W/data.ext4"
mdir -b -i "$W/disk.img@@$esp_off" ::/loader/entries 2>/dev/null | sed 's|.*/||' >"$W/entries.txt"
check "ESP: the loader entries are slot A's shipped one alone (kiosk-1-a.conf)" test "$(cat "$W/entries.txt")" = "kiosk-1-a.conf"

# --- after the last power cut: the disk -------------------------------------------------------
kiosk_sums "$W/disk.img" "$W/kiosk-after" >"$W/kiosk-after.sums"
check "KIOSK partition: the edited config.toml and every media file unchanged after the power cuts" \
    cmp -s "$W/kiosk-edited.sums" "$W/kiosk-after.sums"
dd if="$W/disk.img" of="$W/kiosk.fat" bs=512 skip="$kiosk_start" count="$kiosk_size" status=none
check "KIOSK partition: fsck.vfat -n finds nothing to repair" fsck.vfat -n "$W/kiosk.fat"
rm -f "$W/kiosk.fat"
if [ "$(root_sum "$W/disk.img")" = "$root_before" ]; then
    ok "root partition: not one byte changed by three boots and three power cuts"
else
    say "root partition changed; checking it"
    dd if="$W/disk.img" of="$W/root.ext4" bs=512 skip="$root_start" count="$root_size" status=none
    check "root partition: e2fsck -fn clean" e2fsck -fn "$W/root.ext4"
    rm -f "$W/root.ext4"
fi
rm -f "$W/disk.img"
finish
