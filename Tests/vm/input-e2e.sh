#!/usr/bin/env bash
# input-e2e: the whole kiosk (`kiosk-carousel run --events FILE`) driven by real devices on a
# real kernel (kiosk-vm): a uinput touchscreen swipes the carousel forward, a REL_DIAL knob
# turns it three detents and its push button selects. Checks the events file: the swipe moves
# the current index forward, each detent moves it by one, `selected` names the final index.
# (The events file is split where the swipe has settled: the guest notes its line count before
# the knob turns.)
# Then a screenshot of the new centre card: the pixel off the screen's centre must have the
# selected item's colour (each item has its own). Uses the DRM backend (the display branch);
# KIOSK_E2E_BACKEND=headless checks the events only.
set -u
source "$(dirname "$0")/lib/input-host.sh"
backend=${KIOSK_E2E_BACKEND:-drm}
work_folder input-e2e

{
    echo '[carousel]'
    echo 'type = "linear"'
    echo 'item_size = [120, 90]'
    echo '[display]'
    echo 'headless_size = [400, 240]'
    echo '[input.rotary]'
    echo 'name = "e2e-knob"'
    # 48 items: however hard the swipe flings (its speed comes from the guest's event timing),
    # three items are left after it for the knob (16 once let it reach the last item).
    for i in $(seq 0 47); do
        colour=$(python3 -c "import sys; sys.path.insert(0, '$lib'); from events import item_colour; print('#%02x%02x%02x' % item_colour($i))")
        printf '\n[[item]]\nid = "item%02d"\ntitle = ""\nbackground = "%s"\nbackground_bottom = "%s"\n' "$i" "$colour" "$colour"
    done
} > "$out/kiosk.toml"

cat > "$out/play.play" <<'PLAY'
touchscreen e2e-touch 4095 4095
knob e2e-knob REL_DIAL KEY_ENTER
settle
say ready
wait GO
waitlog run.err 1 device added: e2e-touch
waitlog run.err 1 rotary encoder opened: e2e-knob
# swipe left by ~240 px (two 120 px items) of a 400 px wide screen: the carousel moves forward
swipe e2e-touch 0 3500 2048 1000 2048 12
waitlog events.jsonl 1 drag_ended
sleep 3
say swipe-settled
wait KNOB
turn e2e-knob 1 1
sleep 1.5
turn e2e-knob 1 1
sleep 1.5
turn e2e-knob 1 1
sleep 2
say shoot
wait SHOT
press e2e-knob KEY_ENTER
sleep 1
say done
PLAY

guest_script <<GUEST
step "devices made"
play play
wait_for "\$OUT/play.play.out" ready 30 || exit 1
step "kiosk running"
"\$BIN" run --config "\$OUT/kiosk.toml" --backend $backend --events "\$OUT/events.jsonl" > "\$OUT/run.err" 2>&1 &
RUN=\$!
wait_for "\$OUT/run.err" "source(s) opened" 60 || exit 1   # the input devices open after the first frame
step "swipe"
touch "\$OUT/GO"
wait_for "\$OUT/play.play.out" swipe-settled 60 || exit 1
wc -l < "\$OUT/events.jsonl" > "\$OUT/swipe-lines"
step "knob"
touch "\$OUT/KNOB"
wait_for "\$OUT/play.play.out" shoot 60 || exit 1
step "screenshot and tap"
if [ $backend = drm ]; then kiosk-vm-shot centre > "\$OUT/shot.path" || exit 1; fi
touch "\$OUT/SHOT"
wait_for "\$OUT/play.play.out" done 30 || exit 1
step "SIGTERM"
kill -TERM \$RUN
wait \$RUN
echo \$? > "\$OUT/run.rc"
wait \$PLAY_PID
steps_done
GUEST

# Steps: 30 + 60 + 60 + 60 + 30 s of waits and the boot: 300 s is their sum (a backstop).
run_guest "$out" --out "$out" --timeout 300

check_events "$out" "$backend" <<'PY'
import json, os
check(open(d + '/run.rc').read().strip() == '0', 'run exited 0 after SIGTERM')
ev = [json.loads(l) for l in open(d + '/events.jsonl') if l.strip()]
split = int(open(d + '/swipe-lines').read())
swipe, knob = ev[:split], ev[split:]
names = [e['event'] for e in swipe]
check('drag_began' in names and 'drag_ended' in names, 'the swipe is a drag (drag_began, drag_ended)')
swipe_idx = [e['index'] for e in swipe if e['event'] == 'current_index_changed']
check(swipe_idx and swipe_idx[-1] > 0, 'the swipe moved the carousel forward: %s' % swipe_idx)
start = swipe_idx[-1] if swipe_idx else 0
knob_idx = [e['index'] for e in knob if e['event'] == 'current_index_changed']
check(knob_idx == [start + 1, start + 2, start + 3], 'three detents: +1 each from %d: %s' % (start, knob_idx))
sel = [e for e in knob if e['event'] == 'selected']
check(len(sel) == 1 and sel[0].get('index') == start + 3,
      'the knob press selected the centre item %d: %s' % (start + 3, sel))
if arg == 'drm':
    shot = d + '/centre.png'
    check(os.path.exists(shot), 'a screenshot of the new centre card was taken')
    if os.path.exists(shot):
        # The 120x90 centre card covers the middle of the 800x480 screen; sample off its centre
        # (clear of any title text) and compare with the colour of item start + 3.
        got, want = png_pixel(shot, 400 - 30, 240 - 22), item_colour(start + 3)
        check(all(abs(g - w) <= 8 for g, w in zip(got, want)),
              'the screenshot shows item %d at the centre: pixel %s, its colour %s' % (start + 3, got, want))
PY
status=$?
[ $status = 0 ] && rm -rf "$out"
exit $status
