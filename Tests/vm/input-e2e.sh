#!/usr/bin/env bash
# input-e2e: the whole kiosk (`kiosk-carousel run --events FILE`) driven by real devices on a
# real kernel (kiosk-vm): a uinput touchscreen swipes the carousel forward, a REL_DIAL knob
# turns it three detents and its push button selects. Checks the events file: the swipe moves
# the current index forward, each detent moves it by one, `selected` names the final index.
# With the DRM backend (KIOSK_E2E_BACKEND=drm, once `run` drives DRM) it also takes a
# screenshot of the new centre card and checks the card's colour at the screen centre.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
KIOSK_VM=${KIOSK_VM:-$top/../shared/vm/kiosk-vm}
BIN=$(realpath "${BIN:-$top/.build/debug/kiosk-carousel}")
backend=${KIOSK_E2E_BACKEND:-headless}
out=$(mktemp -d /tmp/kiosk-input-e2e.XXXXXX)
echo "work folder: $out (backend $backend)"

{
    echo '[carousel]'
    echo 'type = "linear"'
    echo 'item_size = [120, 90]'
    echo '[input.rotary]'
    echo 'name = "e2e-knob"'
    for i in $(seq 0 15); do
        printf '\n[[item]]\nid = "item%02d"\ntitle = "Item %d"\n' "$i" "$i"
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
# swipe left by ~190 px: the carousel moves forward
swipe e2e-touch 0 2600 2048 2000 2048 12
sleep 4
turn e2e-knob 1 1
sleep 1
turn e2e-knob 1 1
sleep 1
turn e2e-knob 1 1
sleep 2
say shoot
wait SHOT
press e2e-knob KEY_ENTER
sleep 1
say done
PLAY

cat > "$out/guest.sh" <<GUEST
set -u
BIN='$BIN' OUT='$out' TOP='$top'
source "\$TOP/Tests/vm/lib/input-guest.sh"
play play
wait_for "\$OUT/play.play.out" ready 30 || exit 1
"\$BIN" run --config "\$OUT/kiosk.toml" --backend $backend --events "\$OUT/events.jsonl" > "\$OUT/run.err" 2>&1 &
RUN=\$!
wait_for "\$OUT/run.err" "running:" 60 || exit 1
touch "\$OUT/GO"
wait_for "\$OUT/play.play.out" shoot 60 || exit 1
if [ $backend = drm ]; then kiosk-vm-shot centre > "\$OUT/shot.path" || exit 1; fi
touch "\$OUT/SHOT"
wait_for "\$OUT/play.play.out" done 30 || exit 1
kill -TERM \$RUN
wait \$RUN
echo \$? > "\$OUT/run.rc"
wait \$PLAY_PID
GUEST

"$KIOSK_VM" --size 800x480 --rw "$out" --out "$out" --timeout 150 -- bash "$out/guest.sh"
rc=$?
for f in run.err play.play.out events.jsonl; do echo "--- $f"; sed 's/^/    /' "$out/$f"; done
[ $rc = 0 ] || { echo "kiosk-vm failed (exit $rc)"; exit 1; }

python3 - "$out" "$top/Tests/vm/lib" "$backend" <<'PY'
import json, os, sys
sys.path.insert(0, sys.argv[2])
from events import check, finish
d, backend = sys.argv[1], sys.argv[3]
check(open(d + '/run.rc').read().strip() == '0', 'run exited 0 after SIGTERM')
ev = [json.loads(l) for l in open(d + '/events.jsonl') if l.strip()]
names = [e['event'] for e in ev]
idx = [e['index'] for e in ev if e['event'] == 'current_index_changed']
sel = [e for e in ev if e['event'] == 'selected']
check('drag_began' in names and 'drag_ended' in names, 'the swipe is a drag (drag_began, drag_ended)')
drag_end = names.index('drag_ended') if 'drag_ended' in names else len(names)
before_knob = [e['index'] for e in ev[:] if e['event'] == 'current_index_changed']
check(len(idx) >= 4, 'the index changed at least 4 times (swipe, 3 detents): %s' % idx)
if len(idx) >= 4:
    after_swipe = idx[-4]
    check(after_swipe > 0, 'the swipe moved the carousel forward (index %d)' % after_swipe)
    check(idx[-3:] == [after_swipe + 1, after_swipe + 2, after_swipe + 3],
          'three detents: +1 each (%s)' % idx[-3:])
    check(len(sel) == 1 and sel[0].get('index') == idx[-1],
          'the knob press selected the centre item %d: %s' % (idx[-1], sel))
if backend == 'drm':
    check(os.path.exists(d + '/centre.png'), 'a screenshot of the new centre card was taken')
finish()
PY
status=$?
[ $status = 0 ] && rm -rf "$out"
exit $status
