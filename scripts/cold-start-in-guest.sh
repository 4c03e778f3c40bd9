#!/usr/bin/env bash
# What a cold start of the binary costs, inside a kiosk-vm guest (docs/start-up.md, stop 66):
#
#   ../shared/vm/kiosk-vm --timeout 900 [--append init_on_alloc=0] -- \
#       scripts/cold-start-in-guest.sh [--runs 5] [--read-ahead "128 2048"] [--config FILE] BINARY
#
# The binary is copied onto an ext4 file system of its own (a loop device over a file in the
# guest's /tmp), so that its pages can leave the page cache while the libraries' stay. Each round
# starts it twice with `run --backend headless --exit-after 0`: cold (its pages dropped first,
# `dd iflag=nocache count=0`) and warm (the same again). One line per start:
#
#   ra=<read_ahead_kb> cold|warm <bytes of the binary in the page cache after it> <its start-up: line>
#
# --read-ahead: the loop device's read_ahead_kb values to run the rounds with, in turn (the
# kernel's read-around of a page fault in a mapped file is that window). Needs root and the loop
# module: a guest's, not the host's.
set -euo pipefail
runs=5 read_ahead=128 config=config/example.toml
while [ $# -gt 1 ]; do
    case $1 in
        --runs) runs=$2; shift 2 ;;
        --read-ahead) read_ahead=$2; shift 2 ;;
        --config) config=$2; shift 2 ;;
        *) echo "cold-start-in-guest: unknown option $1" >&2; exit 2 ;;
    esac
done
[ $# -eq 1 ] || { echo "usage: $0 [--runs N] [--read-ahead \"KB …\"] [--config FILE] BINARY" >&2; exit 2; }
binary=$1
[ -n "${KIOSK_VM_OUT:-}" ] || { echo "cold-start-in-guest: run it in a guest (../shared/vm/kiosk-vm -- $0 …)" >&2; exit 2; }
[ -x "$binary" ] || { echo "cold-start-in-guest: $binary: not an executable" >&2; exit 2; }
[ -r "$config" ] || { echo "cold-start-in-guest: $config: cannot be read" >&2; exit 2; }
modprobe loop
work=$(mktemp -d /tmp/cold-start.XXXXXX)
truncate -s "$(( $(stat -c %s "$binary") / 1048576 + 64 ))M" "$work/fs.img"
mkfs.ext4 -q "$work/fs.img"
mkdir "$work/mnt"
dev=$(losetup --show -f "$work/fs.img")
trap 'umount "$work/mnt" 2>/dev/null; losetup -d "$dev" 2>/dev/null; rm -rf "$work"' EXIT
mount "$dev" "$work/mnt"
copy=$work/mnt/kiosk-carousel
cp "$binary" "$copy"
sync
echo "cold-start-in-guest: $(uname -r), $(grep -o 'init_on_alloc=[0-9]' /proc/cmdline || echo 'init_on_alloc as built'), $binary ($(stat -c %s "$binary") bytes)"
start() {
    local out
    out=$("$copy" run --backend headless --exit-after 0 --config "$config" 2>&1) || true
    grep -m1 'start-up: first frame' <<<"$out" || echo "(no start-up line: $(tail -n 1 <<<"$out"))"
}
start >/dev/null    # the libraries into the page cache
for ra in $read_ahead; do
    echo "$ra" > "/sys/block/${dev#/dev/}/queue/read_ahead_kb"
    for _ in $(seq "$runs"); do
        for kind in cold warm; do
            [ "$kind" = cold ] && dd if="$copy" iflag=nocache count=0 status=none
            line=$(start)
            echo "ra=$ra $kind $(fincore -b -n -o RES "$copy") $line"
        done
    done
done
