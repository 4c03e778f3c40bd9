#!/usr/bin/env bash
# fault-input: input devices that go away under a running kiosk (`kiosk-carousel run`), on a
# real kernel (kiosk-vm, uinput): the touchscreen is destroyed in the middle of a drag, the knob
# is destroyed and created again. The kiosk must end the drag (drag_ended), keep running, log
# one line per device that went or came, take the re-added knob's turns, and exit 0 on SIGTERM.
# Headless display: only the input side is under test here.
set -u
source "$(dirname "$0")/lib/input-host.sh"
work_folder fault-input
{
    printf '[carousel]\ntype = "linear"\nitem_size = [120, 90]\n[display]\nheadless_size = [400, 240]\n'
    printf '[input.rotary]\nname = "fi-knob"\n'
    for i in $(seq 0 9); do printf '\n[[item]]\nid = "item%d"\ntitle = "%d"\n' "$i" "$i"; done
} > "$out/kiosk.toml"
cat > "$out/play.play" <<'PLAY'
touchscreen fi-touch 4095 4095
knob fi-knob REL_DIAL KEY_ENTER
settle
say ready
wait GO
waitlog run.err 1 device added: fi-touch
waitlog run.err 1 rotary encoder opened: fi-knob
down fi-touch 0 3000 2048
move fi-touch 0 2800 2048
move fi-touch 0 2600 2048
move fi-touch 0 2400 2048
waitlog events.jsonl 1 drag_began
destroy fi-touch
waitlog run.err 1 device removed: fi-touch
sleep 2
destroy fi-knob
sleep 1
knob fi-knob REL_DIAL KEY_ENTER
waitlog run.err 2 rotary encoder opened: fi-knob
say knob-back
wait TURN
turn fi-knob 1 1
sleep 1.5
say done
PLAY
guest_script <<GUEST
step "devices made"
play play
wait_for "\$OUT/play.play.out" ready 30 || exit 1
step "kiosk running"
"\$BIN" run --config "\$OUT/kiosk.toml" --backend headless --events "\$OUT/events.jsonl" > "\$OUT/run.err" 2>&1 &
RUN=\$!
wait_for "\$OUT/run.err" "source(s) opened" 60 || exit 1   # the input devices open after the first frame
step "touchscreen destroyed mid-drag, knob destroyed and back"
touch "\$OUT/GO"
wait_for "\$OUT/play.play.out" knob-back 90 || exit 1
step "the knob turns"
wc -l < "\$OUT/events.jsonl" > "\$OUT/before-turn"
touch "\$OUT/TURN"
wait_for "\$OUT/play.play.out" done 30 || exit 1
step "SIGTERM"
kill -0 \$RUN && echo alive > "\$OUT/alive"
kill -TERM \$RUN
wait \$RUN
echo \$? > "\$OUT/run.rc"
wait \$PLAY_PID
steps_done
GUEST
run_guest "$out" --timeout 300
check_events "$out" <<'PY'
import json, os
check(os.path.exists(d + '/alive'), 'the kiosk survived both removals')
check(open(d + '/run.rc').read().strip() == '0', 'run exited 0 after SIGTERM')
ev = [json.loads(l) for l in open(d + '/events.jsonl') if l.strip()]
names = [e['event'] for e in ev]
check('drag_began' in names, 'the touch started a drag')
check(names.count('drag_began') == names.count('drag_ended'), 'touchscreen removed mid-drag: drag_ended follows drag_began')
split = int(open(d + '/before-turn').read())
after = [e['index'] for e in ev[split:] if e['event'] == 'current_index_changed']
check(len(after) >= 1, 'the re-added knob turns the carousel: %s' % after)
err = open(d + '/run.err').read()
check('device removed: fi-touch' in err, 'one log line: the touchscreen went away')
check(err.count('rotary encoder opened: fi-knob') == 2, 'the knob was opened again after it came back')
PY
status=$?
[ $status = 0 ] && rm -rf "$out"
exit $status
