#!/usr/bin/env bash
# make rpi-image-test (second half): boots a copy of the Raspberry Pi image
# (out/kiosk-carousel-<version>-rpi-arm64.img, make image BOARD=rpi) in qemu-system-aarch64
# -M raspi4b, as far as the emulator goes (docs/raspberry-pi.md, "Boot in QEMU").
#
# QEMU does not run the Pi's firmware: it loads the kernel, initrd and DTB itself. So they are
# taken from the image's boot partition (mtools, no mount) as the firmware would take them —
# config.txt's kernel= and initramfs, the board's DTB, cmdline.txt's line — and the whole image is
# the SD card (if=sd; QEMU wants a power-of-two size, so the copy is enlarged, sparse). The kernel
# command line is cmdline.txt's plus the emulated board's console (PL011, ttyAMA0) and, for the
# log, the kernel's and systemd's messages turned back on (the image keeps the console quiet) and
# the journal forwarded to the console (so the kiosk's own log lines are in the serial log).
#
# Debian 12's QEMU (7.2) has no raspi4b; trixie's (10.0) has. It runs from a Debian 13 amd64 root
# made with mmdebstrap (qemu-system-arm, ~250 MB), cached in QEMU_ROOT.
#
# Checks, each from the serial log: the kernel starts; the SD card's partitions are found; the
# initramfs finds the root by its PARTUUID and systemd starts in it; kiosk-carousel.service is
# started and the kiosk logs; the image's boot report (kiosk-boot-report.service) reaches the
# serial port. Then it says what the emulated board lacks (from the same log) and prints the
# boot's split from the report (scripts/boot-time.py --serial). Prints "N passed, N failed".
#
# Variables: IMG (default: the newest out/kiosk-carousel-*-rpi-arm64.img), QEMU_ROOT (default
# /var/cache/kiosk-carousel/qemu-trixie-amd64), MIRROR (Debian's archive, default deb.debian.org),
# KIOSK_VM_SLOWDOWN (multiplies the deadlines, default 1), KEEP=1 keeps the work folder.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
QEMU_ROOT=${QEMU_ROOT:-/var/cache/kiosk-carousel/qemu-trixie-amd64}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SLOW=${KIOSK_VM_SLOWDOWN:-1}
export MTOOLS_SKIP_CHECK=1
passed=0 failed=0
say() { printf '%s\n' "$*"; }
ok() { say "ok: $*"; passed=$((passed + 1)); }
fail() { say "FAIL: $*"; failed=$((failed + 1)); }
finish() {
    say "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
    exit $?
}
[ "$(id -u)" -eq 0 ] || { fail "needs root (chroot into the trixie root with QEMU)"; finish; }
for pair in mmdebstrap:mmdebstrap mcopy:mtools sfdisk:fdisk fdtput:device-tree-compiler bc:bc; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || {
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${pair#*:}" >/dev/null \
            || { fail "apt-get install ${pair#*:} failed"; finish; }
    }
done
IMG=${IMG:-$(ls -t out/kiosk-carousel-*-rpi-arm64.img 2>/dev/null | head -1)}
[ -f "$IMG" ] || { fail "no Raspberry Pi image (make image BOARD=rpi)"; finish; }

# --- trixie's QEMU, in its own root (cached) ------------------------------------------------
if [ ! -x "$QEMU_ROOT/usr/bin/qemu-system-aarch64" ]; then
    say "making $QEMU_ROOT: Debian 13 with qemu-system-arm (mmdebstrap)"
    rm -rf --one-file-system "$QEMU_ROOT.tmp"
    mmdebstrap --mode=root --variant=apt --include=qemu-system-arm \
        --aptopt='APT::Install-Recommends "false"' trixie "$QEMU_ROOT.tmp" "$MIRROR" >"$QEMU_ROOT.log" 2>&1 \
        || { fail "mmdebstrap of the QEMU root failed ($QEMU_ROOT.log)"; finish; }
    mv "$QEMU_ROOT.tmp" "$QEMU_ROOT"
fi
say "QEMU: $(chroot "$QEMU_ROOT" qemu-system-aarch64 --version | head -1)"

# --- what the firmware would load, from the image's boot partition --------------------------
work=$(mktemp -d /var/tmp/rpi-boot-test.XXXXXX)
mnt=$QEMU_ROOT/mnt/rpi-boot-test
qpid=
cleanup() {
    [ -z "$qpid" ] || kill "$qpid" 2>/dev/null
    mountpoint -q "$mnt" && umount "$mnt"
    for d in dev proc; do mountpoint -q "$QEMU_ROOT/$d" && umount -l "$QEMU_ROOT/$d"; done
    if [ "${KEEP:-0}" = 1 ]; then say "kept: $work"; else rm -rf --one-file-system "$work"; fi
}
trap cleanup EXIT
trap "exit 1" INT TERM HUP
part_start() {   # the byte offset of partition $1 of $2
    sfdisk --json "$2" | python3 -c "import json,sys; t=json.load(sys.stdin)['partitiontable']; print([p['start']*512 for p in t['partitions'] if p['node'].endswith(sys.argv[1])][0])" "$1"
}
auto=$(part_start 1 "$IMG")
bootnum=$(mtype -i "$IMG@@$auto" ::/autoboot.txt | awk -F= '/^\[/ { all = ($0 == "[all]") } all && $1 == "boot_partition" { print $2; exit }' | tr -d '\r')
boot=$(part_start "$bootnum" "$IMG")
cfg=$(mtype -i "$IMG@@$boot" ::/config.txt | tr -d '\r')
kernel=$(sed -n 's/^kernel=//p' <<<"$cfg" | tail -1)
initramfs=$(sed -n 's/^initramfs[[:space:]]\+\([^[:space:]]*\).*/\1/p' <<<"$cfg" | tail -1)
for f in "$kernel" "$initramfs" bcm2711-rpi-4-b.dtb cmdline.txt; do
    mcopy -n -i "$IMG@@$boot" "::/$f" "$work/$f" || { fail "no $f on boot partition $bootnum"; finish; }
done
cmdline="$(tr -d '\r\n' <"$work/cmdline.txt") console=ttyAMA0,115200 earlycon=pl011,mmio32,0xfe201000 loglevel=7 systemd.show_status=true systemd.log_target=console systemd.journald.forward_to_console=1"
# QEMU's raspi4b has no HDMI block: its interrupt controller, DDC I2C buses, HDMI encoders and HDMI
# clock are absent (reading them is a synchronous external abort: the kernel dies in
# brcmstb_l2_intc_of_init, then in brcmstb_i2c_probe). QEMU itself disables the nodes of the other
# devices it lacks (PCIe, GENET, RNG, thermal: its warnings in qemu.log); these five it leaves, so
# the copy of the DTB given to QEMU has them disabled too. The image's own DTB is not changed.
unemulated="/soc/interrupt-controller@7ef00100 /soc/i2c@7ef04500 /soc/i2c@7ef09500 /soc/hdmi@7ef00700 /soc/hdmi@7ef05700 /soc/clock@7ef00000"
for node in $unemulated; do
    fdtput -t s "$work/bcm2711-rpi-4-b.dtb" "$node" status disabled || { fail "fdtput $node"; finish; }
done
# The SD card's supplies are regulators switched through the firmware's GPIO expander (a mailbox
# QEMU does not answer: "regulator-sd-vcc: can't get GPIO", error -EIO), so emmc2 would wait for
# them for ever: QEMU's copy has the card powered without them.
for prop in vmmc-supply vqmmc-supply; do
    fdtput -d "$work/bcm2711-rpi-4-b.dtb" /emmc2bus/mmc@7e340000 "$prop" || { fail "fdtput -d $prop"; finish; }
done
# The other SD host (mmc@7e300000, the Wi-Fi's SDIO on a Pi 4) waits for the Wi-Fi's power
# sequence, on the same expander: QEMU's copy has it without, and without the Wi-Fi chip.
fdtput -d "$work/bcm2711-rpi-4-b.dtb" /soc/mmc@7e300000 mmc-pwrseq && fdtput -d "$work/bcm2711-rpi-4-b.dtb" /soc/mmc@7e300000 non-removable \
    && fdtput -r "$work/bcm2711-rpi-4-b.dtb" /soc/mmc@7e300000/wifi@1 || { fail "fdtput mmc@7e300000"; finish; }
# The PL011 (uart0, QEMU's first serial port) is the Bluetooth chip's on a Pi 4: its serdev driver
# takes it and no /dev/ttyAMA0 exists, so the console and the boot report (which writes to
# ttyAMA0 when there is one, else to ttyS0: the mini UART on GPIO 14/15, a real board's serial
# cable) would reach no port QEMU brings out (stop 43). QEMU's copy has uart0 without the chip.
fdtput -r "$work/bcm2711-rpi-4-b.dtb" /soc/serial@7e201000/bluetooth || { fail "fdtput -r the PL011's bluetooth"; finish; }
say "disabled in QEMU's copy of the DTB (not emulated): $unemulated; emmc2 without vmmc-supply/vqmmc-supply; mmc@7e300000 without the Wi-Fi; uart0 without the Bluetooth chip"
say "boot partition $bootnum: kernel=$kernel initramfs=$initramfs; cmdline: $cmdline"
# The SD card: a sparse copy, enlarged to a power of two.
cp --sparse=always "$IMG" "$work/sd.img"
size=$(stat -c %s "$work/sd.img") pow=1
while [ "$pow" -lt "$size" ]; do pow=$((pow * 2)); done
truncate -s "$pow" "$work/sd.img"

# --- boot -----------------------------------------------------------------------------------
mkdir -p "$mnt"
mount --bind "$work" "$mnt"
mountpoint -q "$QEMU_ROOT/dev" || mount --bind /dev "$QEMU_ROOT/dev"
mountpoint -q "$QEMU_ROOT/proc" || mount -t proc proc "$QEMU_ROOT/proc"
serial=$work/serial.log
: >"$serial"
t0=$(date +%s.%N)
nice chroot "$QEMU_ROOT" qemu-system-aarch64 -M raspi4b -accel tcg \
    -kernel "/mnt/rpi-boot-test/$kernel" -initrd "/mnt/rpi-boot-test/$initramfs" \
    -dtb /mnt/rpi-boot-test/bcm2711-rpi-4-b.dtb -append "$cmdline" \
    -drive file=/mnt/rpi-boot-test/sd.img,if=sd,format=raw \
    -display none -monitor none -serial file:/mnt/rpi-boot-test/serial.log \
    >"$work/qemu.log" 2>&1 &
qpid=$!
since() { printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)"; }
# wait_for WHAT PATTERN DEADLINE: the time from QEMU's start when PATTERN appears in the log.
declare -A at
wait_for() {
    local what=$1 pattern=$2 deadline
    deadline=$(echo "$3 * $SLOW" | bc)
    while ! grep -aqE "$pattern" "$serial"; do
        if ! kill -0 "$qpid" 2>/dev/null; then fail "$what: QEMU exited ($(tail -3 "$work/qemu.log"))"; return 1; fi
        if [ "$(echo "$(since) > $deadline" | bc)" = 1 ]; then
            fail "$what: not in the serial log after ${deadline} s (host load $(cut -d' ' -f1-3 /proc/loadavg); last line: $(tail -1 "$serial" | tr -d '\r' | cut -c1-160))"
            return 1
        fi
        sleep 1
    done
    at[$what]=$(since)
    ok "$what at ${at[$what]} s (host load $(cut -d' ' -f1 /proc/loadavg)): $(grep -aE -m1 "$pattern" "$serial" | tr -d '\r' | cut -c1-150)"
}
wait_for "kernel started" 'Linux version|Kernel command line' 300 &&
wait_for "SD card found (mmc)" 'mmcblk[0-9]+: p1 p2 p3 p4 < p5 p6 p7 p8 >' 600 &&
wait_for "systemd started in the root (initramfs found root=PARTUUID)" 'systemd\[1\]: systemd [0-9]+.* running in system mode|Welcome to .*Debian' 1200 &&
# (systemd's status lines colour the unit's name: an escape sequence between "Starting" and it)
wait_for "kiosk-carousel.service started" 'Starting .*kiosk-carousel\.service' 1800 &&
wait_for "the kiosk's own log on the console" 'kiosk-carousel\[[0-9]+\]: ' 2100 &&
wait_for "boot report on the serial port" 'KIOSK-BOOT-REPORT END' 2400
kill "$qpid" 2>/dev/null
wait "$qpid" 2>/dev/null
qpid=

# --- where emulation stops ------------------------------------------------------------------
say "--- the emulated board (from the serial log)"
for what in 'vc4|drm' 'v3d' 'mmc' 'xhci|usb' 'bcmgenet|eth0' 'cec' 'brcmfmac'; do
    say "  $what: $(grep -aiE "$what" "$serial" | grep -viE 'kiosk-boot-report' | tr -d '\r' | head -3 | cut -c1-160 | paste -sd'|' -)"
done
say "--- the boot report"
sed -n '/KIOSK-BOOT-REPORT BEGIN/,/KIOSK-BOOT-REPORT END/p' "$serial" | tr -d '\r' | head -120
# The Pi's boot split as far as QEMU goes (issue 31 §3; docs/raspberry-pi.md, "Measured"): the
# report's figures on the guest's clock, as make boot-time gives the UEFI image's (no first frame
# here: exec -> the kiosk's `running:` line and exec -> READY=1 instead).
if grep -aq 'KIOSK-BOOT-REPORT END' "$serial"; then
    say "--- the boot's split (scripts/boot-time.py --serial)"
    python3 "$top/scripts/boot-time.py" --serial "$serial" || fail "the boot's split could not be read from the report"
fi
cp "$serial" "${SERIAL_OUT:-/dev/null}" 2>/dev/null || true
finish
