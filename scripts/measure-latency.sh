#!/usr/bin/env bash
# measure-latency: input-to-photon latency of the real kiosk on a real kernel (kiosk-vm, DRM).
#
# For each screen size and `[display] buffers` value, boots kiosk-vm; in it, a uinput
# touchscreen drags the carousel back and forth at a steady speed (a move every 8 ms) while
# `kiosk-carousel run --backend drm --latency-trace FILE` runs. Each trace line is one frame
# that showed new input: the flip event's kernel timestamp minus the kernel time of the newest
# input event delivered before the frame was drawn. Prints, per size × buffers: frames,
# median / p95 / max latency, the refresh interval, the median render and present times, the
# latency beyond them, the median wait (newest input → render start) and submit → shown, and
# the host's load average (scripts/latency-summary.py; docs/latency.md).
#
#   scripts/measure-latency.sh [--sizes "800x480 1920x1080"] [--buffers "2 3"] [--seconds 20]
#                              [--display bochs|virtio] [--hold MS] [--keep]
#
# --hold MS: after every 100 ms of motion the finger rests MS (a slow, halting finger).
# Uses the RELEASE binary (BIN; default .build/release/kiosk-carousel, brought up to date with
# `swift build -c release` first: the debug build's compositor is ~100x slower and would
# measure the debug build, not the product).
# KIOSK_VM: the VM runner (default ../shared/vm/kiosk-vm). Results stay in the work folder
# printed (removed unless --keep).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
sizes="800x480 1920x1080" buffers="2 3" seconds=20 vmdisplay=bochs keep=0 hold=0
while [ $# -gt 0 ]; do
    case $1 in
        --sizes) sizes=$2; shift 2 ;;
        --buffers) buffers=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --display) vmdisplay=$2; shift 2 ;;
        --hold) hold=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
        *) echo "measure-latency: unknown option $1" >&2; exit 2 ;;
    esac
done
KIOSK_VM=${KIOSK_VM:-$top/../shared/vm/kiosk-vm}
if [ -z "${BIN:-}" ]; then
    BIN=$top/.build/release/kiosk-carousel
    (cd "$top" && swift build -c release --product kiosk-carousel) || exit 1
fi
BIN=$(realpath "$BIN")
out=$(mktemp -d /tmp/kiosk-latency.XXXXXX)
echo "work folder: $out"

for b in $buffers; do
    {
        echo '[display]'
        echo "buffers = $b"
        echo '[idle]'
        echo 'attract_after = 0'
        for i in $(seq 0 23); do
            printf '\n[[item]]\nid = "item%02d"\ntitle = "Item %d"\nbackground = "#%02x%02x%02x"\n' \
                "$i" "$i" $((40 + i * 8)) $((200 - i * 6)) $((90 + i * 5))
        done
    } > "$out/kiosk-b$b.toml"
    # Drag across the middle third of the screen and back, one leg a second.
    cat > "$out/drag-b$b.play" <<PLAY
touchscreen latency-touch 4095 4095
settle
say ready
wait GO-b$b 120
waitlog run-b$b.err 1 device added: latency-touch
sleep 2
drag latency-touch 0 1400 2048 2700 2048 1.0 $seconds 8 $hold
sleep 0.5
say done
PLAY
done

# One VM boot per size × buffers (a second run in the same guest measured slower).
for size in $sizes; do
    for b in $buffers; do
        {
            printf 'set -u\nBIN=%q OUT=%q TOP=%q\nsource "$TOP/Tests/vm/lib/input-guest.sh"\n' "$BIN" "$out" "$top"
            cat <<GUEST
play drag-b$b
wait_for "\$OUT/drag-b$b.play.out" ready 60 || exit 1
"\$BIN" run --config "\$OUT/kiosk-b$b.toml" --backend drm --latency-trace "\$OUT/trace-$size-b$b.jsonl" > "\$OUT/run-$size-b$b.err" 2>&1 &
RUN=\$!
wait_for "\$OUT/run-$size-b$b.err" "source(s) opened" 120 || exit 1   # the input devices open after the first frame
touch "\$OUT/GO-b$b"
wait_for "\$OUT/drag-b$b.play.out" done $((seconds * 4 + 120)) || exit 1
kill -TERM \$RUN
wait \$RUN
wait \$PLAY_PID
rm -f "\$OUT/GO-b$b"
GUEST
        } > "$out/guest-$size-b$b.sh"
        sed -i "s/run-b$b.err/run-$size-b$b.err/" "$out/drag-b$b.play"
        load_before=$(cut -d' ' -f1-3 /proc/loadavg)
        "$KIOSK_VM" --display "$vmdisplay" --size "$size" --rw "$out" --timeout $((300 + seconds * 10)) \
            -- bash "$out/guest-$size-b$b.sh" > "$out/vm-$size-b$b.log" 2>&1
        rc=$?
        sed -i "s/run-$size-b$b.err/run-b$b.err/" "$out/drag-b$b.play"
        echo "$size buffers $b: load average $load_before → $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/load-$size-b$b.txt"
        [ $rc = 0 ] || { echo "kiosk-vm failed for $size, buffers $b (exit $rc): see $out"; tail -20 "$out/vm-$size-b$b.log"; exit 1; }
    done
done

accel=$(grep -qE 'vmx|svm' /proc/cpuinfo && [ -w /dev/kvm ] && echo "KVM" || echo "TCG")
python3 "$top/scripts/latency-summary.py" --accel "$accel" --display "$vmdisplay" "$out" || exit 1
[ $keep = 1 ] || rm -rf "$out"
