#!/usr/bin/env bash
# input-replay: what a person saw live replays the same. On a real kernel (kiosk-vm) with real
# devices (udev, libinput), a uinput touchscreen flings the carousel while `kiosk-carousel run
# --events` shows it and `kiosk-carousel record` writes the same device's events as a script.
# The kiosk is busy during the whole flick (SIGSTOP until the finger has left, as a long frame
# on a slow board would hold it): it reads the flick in one batch. The script is then replayed by `simulate`.
# Both take each event at the kernel's time (#18 §1), so:
#   1. the replay ends on the same item as the live run;
#   2. the glide ends at the same time after the drag began (within one engine tick: the live
#      engine's ticks are not on the replay's grid);
#   3. the fling really glided (the index moved on after the finger left).
set -u
source "$(dirname "$0")/lib/input-host.sh"
work_folder input-replay

{
    # A small headless screen: this test is about input times, and the debug build's frames at
    # 800x480 under TCG on a busy host can take longer than the engine's 2 s catch-up limit.
    printf '[carousel]\ntype = "linear"\nitem_size = [36, 27]\ntick_hz = 120\n[display]\nheadless_size = [240, 144]\n'
    for i in $(seq 0 59); do printf '\n[[item]]\nid = "item%02d"\ntitle = "%d"\n' "$i" "$i"; done
} > "$out/kiosk.toml"

# A quick flick to the left: 8 moves 20 ms apart over ~1/3 of the screen width, then up.
cat > "$out/play.play" <<'PLAY'
touchscreen rp-touch 4095 4095
settle
say ready
wait GO
waitlog run.err 1 device added: rp-touch
swipe rp-touch 0 3000 2048 1300 2048 8
say swiped
waitlog events.jsonl 1 drag_ended
sleep 4
say done
PLAY

guest_script <<'GUEST'
step "devices made"
play play
wait_for "$OUT/play.play.out" ready 30 || exit 1
step "kiosk running"
"$BIN" run --config "$OUT/kiosk.toml" --backend headless --events "$OUT/events.jsonl" > "$OUT/run.err" 2>&1 &
RUN=$!
wait_for "$OUT/run.err" "source(s) opened" 60 || exit 1   # the input devices open after the first frame
step "record running"
record script --config "$OUT/kiosk.toml" --size 240x144 || exit 1
step "flick while the kiosk is stopped"
kill -STOP $RUN
touch "$OUT/GO"
wait_for "$OUT/play.play.out" swiped 60 || { kill -CONT $RUN; exit 1; }
kill -CONT $RUN
step "glide"
wait_for "$OUT/play.play.out" done 60 || exit 1
stop_record script
kill -TERM $RUN
wait $RUN
echo $? > "$OUT/run.rc"
wait $PLAY_PID
step "replay"
# The recorded script on simulate's virtual clock, the same config and screen.
"$BIN" simulate --config "$OUT/kiosk.toml" --size 240x144 --input "$OUT/script.jsonl" \
    --until 30 --events "$OUT/replay.jsonl" > "$OUT/simulate.err" 2>&1
echo $? > "$OUT/simulate.rc"
steps_done
GUEST

run_guest "$out" --timeout 300

check_events "$out" <<'PY'
import json
def events(name):
    return [json.loads(l) for l in open(d + '/' + name) if l.strip()]
check(open(d + '/run.rc').read().strip() == '0', 'run exited 0 after SIGTERM')
check(open(d + '/script.rc').read().strip() == '0', 'record exited 0 after SIGINT')
check(open(d + '/simulate.rc').read().strip() == '0', 'simulate exited 0')
live, replay = events('events.jsonl'), events('replay.jsonl')

def summary(ev, label):
    began = [e['t'] for e in ev if e['event'] == 'drag_began']
    ended = [e['t'] for e in ev if e['event'] == 'drag_ended']
    glide = [e['t'] for e in ev if e['event'] == 'deceleration_ended']
    idx = [e['index'] for e in ev if e['event'] == 'current_index_changed']
    check(len(began) == 1 and len(ended) == 1 and len(glide) == 1,
          '%s: one drag and one glide (drag_began %d, drag_ended %d, deceleration_ended %d)'
          % (label, len(began), len(ended), len(glide)))
    if not (began and ended and glide and idx):
        return None
    after_up = [e['index'] for e in ev if e['event'] == 'current_index_changed' and e['t'] > ended[0]]
    print('  %s: drag %.4f..%.4f s, glide ends %.4f s (%.4f s after the drag began), final item %d, %d items after the finger left'
          % (label, began[0], ended[0], glide[0], glide[0] - began[0], idx[-1], len(after_up)))
    return {'glide': glide[0] - began[0], 'item': idx[-1], 'after_up': len(after_up)}

a, b = summary(live, 'live'), summary(replay, 'replay')
if a and b:
    check(a['after_up'] >= 1, 'the live fling glided on after the finger left')
    check(a['item'] == b['item'], 'the replay ends on the live run\'s item (%d, %d)' % (a['item'], b['item']))
    tick = 1 / 120
    check(abs(a['glide'] - b['glide']) <= tick + 1e-3,
          'the glide ends at the same time after the drag began: live %.4f s, replay %.4f s (at most one tick, %.4f s, apart)'
          % (a['glide'], b['glide'], tick))
PY
status=$?
[ $status = 0 ] && rm -rf "$out"
exit $status
