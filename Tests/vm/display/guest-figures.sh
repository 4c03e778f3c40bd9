# Runs in the guest: the figures of docs/display.md for one virtual GPU.
set -u
BIN=$1 CONFIG=$2 SCRIPT=$3
launch=$(date +%s.%N)
"$BIN" display-test --config "$CONFIG" --input "$SCRIPT" --seconds 8 >/tmp/carousel.out 2>&1
grep "^stats" /tmp/carousel.out
first=$(grep -o "first_frame_wall=[0-9.]*" /tmp/carousel.out | cut -d= -f2)
python3 -c "print('figure launch_to_first_frame_ms=%.0f' % ((float('$first') - float('$launch')) * 1000))"
grep -o "scroll_fps=[0-9.]*\|idle_frames=[0-9]*\|idle_seconds=[0-9.]*\|idle_cpu_ms=[0-9.]*" /tmp/carousel.out | sed 's/^/figure carousel_/'
"$BIN" display-test --config "$CONFIG" --scene bars --seconds 4 2>/dev/null | grep "^synthetic"
"$BIN" display-test --config "$CONFIG" --scene full --seconds 4 2>/dev/null | grep "^synthetic"
"$BIN" display-test --config "$CONFIG" --scene bars --seconds 4 --rotation 90 2>/dev/null | grep "^synthetic" | sed 's/^synthetic/synthetic rotation=90/'
