#!/usr/bin/env bash
# input-run-late-device: the kiosk itself (`kiosk-carousel run`) starts with no input device at
# all; a touchscreen is plugged in (uinput) after it runs, and a swipe on it must turn the
# carousel: the events file shows drag_began, drag_ended and the index moving forward.
# (input-hotplug.sh proves the same for `record`; this one proves the loop picks the device up.)
set -u
source "$(dirname "$0")/lib/input-host.sh"
work_folder input-run-late-device

{
    echo '[carousel]'
    echo 'type = "linear"'
    echo 'item_size = [120, 90]'
    echo '[display]'
    echo 'headless_size = [800, 480]'
    for i in $(seq 0 9); do printf '\n[[item]]\nid = "item%d"\ntitle = "Item %d"\n' "$i" "$i"; done
} > "$out/kiosk.toml"

cat > "$out/late.play" <<'PLAY'
say waiting
wait GO
touchscreen late-touch 4095 4095
settle
waitlog run.err 1 device added: late-touch
# swipe left by ~240 px of the 800 px screen: two 120 px items forward
swipe late-touch 0 3000 2048 1800 2048 12
waitlog events.jsonl 1 drag_ended
sleep 2
say done
PLAY

guest_script <<GUEST
step "kiosk running"
"\$BIN" run --config "\$OUT/kiosk.toml" --backend headless --events "\$OUT/events.jsonl" > "\$OUT/run.err" 2>&1 &
RUN=\$!
wait_for "\$OUT/run.err" "source(s) opened" 60 || exit 1   # the input devices open after the first frame
step "late device made"
play late
wait_for "\$OUT/late.play.out" waiting 30 || exit 1
step "swipe on the late device"
touch "\$OUT/GO"
wait_for "\$OUT/late.play.out" done 90 || exit 1
step "SIGTERM"
kill -TERM \$RUN
wait \$RUN
echo \$? > "\$OUT/run.rc"
wait \$PLAY_PID
steps_done
GUEST

run_guest "$out" --out "$out" --timeout 240

check_events "$out" <<'PY'
import json
check(open(d + '/run.rc').read().strip() == '0', 'run exited 0 after SIGTERM')
log = open(d + '/run.err').read()
check('device added: late-touch' in log, 'the loop picked up the touchscreen plugged in after start')
ev = [json.loads(l) for l in open(d + '/events.jsonl') if l.strip()]
names = [e['event'] for e in ev]
check('drag_began' in names and 'drag_ended' in names, 'the swipe is a drag: %s' % names)
idx = [e['index'] for e in ev if e['event'] == 'current_index_changed']
check(idx and idx[-1] > 0, 'the swipe moved the carousel forward: %s' % idx)
PY
status=$?
[ $status = 0 ] && rm -rf "$out"
exit $status
