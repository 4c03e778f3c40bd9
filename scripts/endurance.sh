#!/usr/bin/env bash
# The endurance run (make endurance HOURS=N, or MINUTES=N; docs/reliability.md, "Endurance"):
# the shipped unit under real systemd in kiosk-vm with synthetic use for the whole time
# (Tests/endurance/use.py), sampled every SAMPLE seconds (Tests/endurance/sample.py), then the
# verdict on growth (Tests/endurance/verdict.py) and the plots (Tests/endurance/plot.py).
#
#   scripts/endurance.sh MINUTES OUT
#
# OUT receives, as the run goes (kept if it is stopped early): samples.jsonl and samples.csv,
# use.jsonl (every action), events.jsonl (the kiosk's), kiosk.log (the unit's output), usb-unit.log, systemd.log, vm.log;
# at the end verdict.txt, verdict.json and endurance-*.png. Exit status: 0 when the run
# finished and nothing grew, 1 otherwise (the verdict says which series and by how much).
# Environment: KIOSK_VM (../shared/vm/kiosk-vm), BIN (.build/debug/kiosk-carousel),
# KIOSK_VM_SLOWDOWN (measured when unset, Tests/vm/lib/slowdown.bash), ENDURANCE_SAMPLE
# (seconds between samples: 60, or 20 for runs under an hour), ENDURANCE_WARMUP (minutes left out
# of the fit: 30, or half of runs under 100 minutes), ENDURANCE_SEED (the use's random seed).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
minutes=${1:?usage: scripts/endurance.sh MINUTES OUT}
out=${2:?usage: scripts/endurance.sh MINUTES OUT}
[[ $minutes =~ ^[0-9]+$ ]] && [ "$minutes" -ge 5 ] || { echo "endurance: MINUTES must be a whole number >= 5, not '$minutes'" >&2; exit 2; }
export KIOSK_VM=${KIOSK_VM:-$top/../shared/vm/kiosk-vm}
BIN=$(realpath "${BIN:-$top/.build/debug/kiosk-carousel}")
export BIN
[ -x "$BIN" ] || { echo "endurance: no binary at $BIN (make build)" >&2; exit 2; }
sample=${ENDURANCE_SAMPLE:-$([ "$minutes" -lt 60 ] && echo 20 || echo 60)}
warmup=${ENDURANCE_WARMUP:-$([ "$minutes" -lt 100 ] && echo $((minutes / 2)) || echo 30)}
seed=${ENDURANCE_SEED:-$(date +%s)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
for f in samples.jsonl samples.csv use.jsonl events.jsonl kiosk.log usb-unit.log sampler.stop verdict.txt verdict.json; do rm -f "$out/$f"; done
rm -rf "$out/usb-req"
log() { echo "endurance: $*" | tee -a "$out/vm.log"; }
source "$top/Tests/vm/lib/slowdown.bash"
vm_slowdown_setup
log "$minutes min, a sample every $sample s, warm-up $warmup min, seed $seed, KIOSK_VM_SLOWDOWN=$KIOSK_VM_SLOWDOWN, binary $BIN, data in $out"

# What the guest installs: the configuration, the pictures and a clip, the foreground program,
# two USB sticks (FAT, built with mtools: no root, no mount).
python3 "$top/Tests/endurance/make-config.py" machine > "$out/kiosk.toml" || exit 1
mkdir -p "$out/media"
cp "$top"/config/media/*.jpg "$top"/config/media/*.png "$top"/config/media/*.webp "$out/media/"
ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc2=size=320x240:rate=15:duration=8" \
    -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 15 "$out/clip.mp4" || { log "ffmpeg failed"; exit 1; }
cc -O2 -Wall -o "$out/fill-screen" "$top/Tests/vm/fill-screen.c" $(pkg-config --cflags --libs libdrm) || exit 1
for s in a b; do
    rm -rf "$out/stick-$s" "$out/stick-$s.img"
    mkdir -p "$out/stick-$s/kiosk-carousel/pictures" "$out/stick-$s/kiosk-carousel/clips"
    python3 "$top/Tests/endurance/make-config.py" "stick-$s" > "$out/stick-$s/kiosk-carousel/config.toml" || exit 1
    cp "$out"/media/* "$out/stick-$s/kiosk-carousel/pictures/"
    cp "$out/clip.mp4" "$out/stick-$s/kiosk-carousel/clips/"
    mkfs.vfat -C -n "STICK${s^^}" "$out/stick-$s.img" $((24 * 1024)) > /dev/null || exit 1
    mcopy -s -i "$out/stick-$s.img" "$out/stick-$s/kiosk-carousel" ::/ || exit 1
    rm -rf "$out/stick-$s"
done

# The xHCI controller the sticks plug into: as Tests/vm/usb-stick.sh adds it (kiosk-vm has no
# option for extra devices), through a qemu found first in PATH; the host side of the plugs is
# Tests/vm/lib/usb-host.py, which finds this run's qemu by OUT on its command line.
mkdir -p "$out/qemu"
printf '#!/bin/sh\nexec %s "$@" -device qemu-xhci,id=xhci\n' "$(command -v qemu-system-x86_64)" > "$out/qemu/qemu-system-x86_64"
chmod +x "$out/qemu/qemu-system-x86_64"
seconds=$((minutes * 60))
python3 "$top/Tests/vm/lib/usb-host.py" "$out" $((seconds * 3 + 3600)) > "$out/usb-host.log" 2>&1 &
usb_host=$!
stop_usb_host() { touch "$out/usb-req/STOP" 2>/dev/null; wait "$usb_host" 2>/dev/null; }
trap 'stop_usb_host' EXIT

# The VM's --timeout is a backstop (kiosk-vm-scaled multiplies it by the slowdown): the run, the
# set-up and the stop (the guest's steps have their own limits and say which one ran out).
start=$(date +%s)
PATH="$out/qemu:$PATH" "$KIOSK_VM" --size 800x480 --display bochs --mem 1024 --rw "$out" --timeout $((seconds + 900)) \
    -- bash "$top/Tests/endurance/guest.sh" "$out" "$top" "$BIN" "$seconds" "$sample" "$seed" 2>&1 | tee -a "$out/vm.log"
vm_status=${PIPESTATUS[0]}
log "the VM ended with status $vm_status after $(( $(date +%s) - start )) s"
stop_usb_host
trap - EXIT

python3 "$top/Tests/endurance/verdict.py" "$out" --warmup "$warmup" | tee "$out/verdict.txt"
verdict_status=${PIPESTATUS[0]}
/usr/bin/python3 "$top/Tests/endurance/plot.py" "$out" --warmup "$warmup" || log "the plots failed (python3-matplotlib?)"
[ "$vm_status" = 0 ] && [ "$verdict_status" = 0 ]
