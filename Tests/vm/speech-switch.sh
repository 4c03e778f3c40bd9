#!/usr/bin/env bash
# speech-switch: a headphone jack (uinput, EV_SW SW_HEADPHONE_INSERT, as a sound card's jack
# device) turns speech on and off in the running kiosk (`[accessibility] speech = "headphones"`):
# plugged in, the events file says speech_on (reason headphones_plugged) and a key's new focus is
# spoken; pulled out, speech_off, and the next key is not spoken. The jack is made after the
# kiosk runs (udev add) and read with libevdev (HeadphoneJackSource), not libinput. While
# plugged in, a volume knob (`[input.volume_knob]`, a uinput REL_DIAL device found by name)
# turned one detent sets the volume a step up, and the new level is spoken (EN 301 549 5.1.3.11).
set -u
source "$(dirname "$0")/lib/input-host.sh"
work_folder speech-switch

{
    echo '[carousel]'
    echo 'type = "linear"'
    echo 'item_size = [120, 90]'
    echo '[display]'
    echo 'headless_size = [800, 480]'
    echo '[accessibility]'
    echo 'speech = "headphones"'
    echo '[input.volume_knob]'
    echo 'name = "speech-volume"'
    for i in $(seq 0 9); do printf '\n[[item]]\nid = "item%d"\ntitle = "Item %d"\n' "$i" "$i"; done
} > "$out/kiosk.toml"

cat > "$out/jack.play" <<'PLAY'
keyboard speech-keys KEY_RIGHT
jack speech-jack
knob speech-volume REL_DIAL
settle
waitlog run.err 1 headphone jack opened: speech-jack
waitlog run.err 1 volume knob opened
say ready
wait GO
press speech-keys KEY_RIGHT
sleep 1
switch speech-jack 1
waitlog events.jsonl 1 speech_on
sleep 1
press speech-keys KEY_RIGHT
waitlog events.jsonl 1 Item 2
turn speech-volume 1
waitlog events.jsonl 1 percent
switch speech-jack 0
waitlog events.jsonl 1 speech_off
sleep 1
press speech-keys KEY_RIGHT
sleep 2
say done
PLAY

guest_script <<GUEST
source "\$TOP/Tests/vm/lib/dpms-guest.sh"   # stop_kiosk
step "kiosk running"
"\$BIN" run --config "\$OUT/kiosk.toml" --backend headless --events "\$OUT/events.jsonl" > "\$OUT/run.err" 2>&1 &
RUN=\$!
wait_for "\$OUT/run.err" "source(s) opened" 60 || exit 1   # the input devices open after the first frame
step "jack and keys made"
play jack
wait_for "\$OUT/jack.play.out" ready 60 || exit 1
step "key, plug, key, unplug, key"
touch "\$OUT/GO"
wait_for "\$OUT/jack.play.out" done 120 || exit 1
step "SIGTERM"
stop_kiosk \$RUN
wait \$PLAY_PID
steps_done
GUEST

run_guest "$out" --out "$out" --timeout 300

check_events "$out" <<'PY'
import json
check(open(d + '/run.rc').read().strip() == '0', 'run exited 0 after SIGTERM')
ev = [json.loads(l) for l in open(d + '/events.jsonl') if l.strip()]
names = [e['event'] for e in ev]
idx = [e['index'] for e in ev if e['event'] == 'current_index_changed']
check(idx[:3] == [1, 2, 3] if len(idx) >= 3 else False, 'each of the three keys moved the carousel: %s' % idx)
on = [e for e in ev if e['event'] == 'speech_on']
off = [e for e in ev if e['event'] == 'speech_off']
check(len(on) == 1 and on[0].get('reason') == 'headphones_plugged', 'plugging in turned speech on: %s' % on)
check(len(off) == 1 and off[0].get('reason') == 'headphones_unplugged', 'pulling out turned it off: %s' % off)
spoken = [e for e in ev if e['event'] == 'spoken']
texts = [e['text'] for e in spoken]
check(texts[:2] == ['Speech on. Item 1.', 'Item 2.'] and len(texts) == 3, 'spoken while plugged in only, the focus, the new focus, the volume: %s' % texts)
vol = [e for e in ev if e['event'] == 'volume']
check(len(vol) == 1 and len(texts) == 3 and 'percent' in texts[2], 'one detent of the volume knob: one step, spoken: %s %s' % (vol, texts[2:]))
if on and off:
    check(all(on[0]['t'] <= e['t'] <= off[0]['t'] for e in spoken), 'nothing spoken before the plug or after the pull')
PY
status=$?
[ $status = 0 ] && rm -rf "$out"
exit $status
