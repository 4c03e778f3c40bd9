#!/usr/bin/env bash
# speech-alsa: speech heard on a real kernel's ALSA (docs/accessibility.md "Speech", EN 301 549
# 5.1.3.1/5.1.3.2). The guest loads snd-aloop; the kiosk (`[accessibility] speech = "always"`,
# `[audio] device` the loopback's playback side) runs with a uinput keyboard; `arecord` captures
# the other side. Nothing is said at start; a key press moves the focus and its title ("Item 1",
# synthesized by espeak-ng on the speech thread, mixed and played by the ALSA thread) is heard:
#   1. the capture is silent from the start until the key (nothing to say yet);
#   2. loud within a second of the key (the speech starts within 300 ms of the focus change on
#      the virtual clock; here the first loud 100 ms window after the key, TCG and all);
#   3. the events say `spoken` "Item 1." in "en".
# Needs: $KIOSK_VM, $BIN (debug kiosk-carousel), arecord in the guest (alsa-utils).
set -u
source "$(dirname "$0")/lib/input-host.sh"
work_folder speech-alsa

{
    echo '[carousel]'
    echo 'type = "linear"'
    echo 'item_size = [120, 90]'
    echo '[display]'
    echo 'headless_size = [320, 240]'
    echo '[audio]'
    echo 'device = "plughw:Loopback,0,0"'
    echo 'volume = 1'
    echo '[accessibility]'
    echo 'speech = "always"'
    for i in $(seq 0 3); do printf '\n[[item]]\nid = "item%d"\ntitle = "Item %d"\n' "$i" "$i"; done
} > "$out/kiosk.toml"
"$BIN" check-config "$out/kiosk.toml" || exit 1

cat > "$out/keys.play" <<'PLAY'
keyboard speech-alsa-keys KEY_RIGHT
settle
waitlog run.err 1 device added: speech-alsa-keys
say ready
wait GO
press speech-alsa-keys KEY_RIGHT
waitlog events.jsonl 1 spoken
sleep 3
say done
PLAY

guest_script <<GUEST
source "\$TOP/Tests/vm/lib/dpms-guest.sh"   # stop_kiosk
STEP_ON_FAIL='tail -n 30 "\$OUT/run.err"; cat "\$OUT/events.jsonl"'
step "snd-aloop"
modprobe snd-aloop || step_fail "modprobe snd-aloop"
wait_until 10 "[ -e /proc/asound/Loopback ]"
step "capture, kiosk running"
arecord -q -D hw:Loopback,1,0 -f S16_LE -r 48000 -c 2 -d 120 "\$OUT/capture.wav" 2> "\$OUT/arecord.err" &
REC=\$!
"\$BIN" run --config "\$OUT/kiosk.toml" --backend headless --events "\$OUT/events.jsonl" > "\$OUT/run.err" 2>&1 &
RUN=\$!
wait_for "\$OUT/run.err" "source(s) opened" 60 || exit 1   # the input devices open after the first frame
step "keyboard made"
play keys
wait_for "\$OUT/keys.play.out" ready 60 || exit 1
sleep 2
step "the key, the focus spoken"
date +%s.%N > "\$OUT/key.time"
touch "\$OUT/GO"
wait_for "\$OUT/keys.play.out" done 90 || exit 1
# The utterance is queued when the focus changes; espeak-ng starts at the first one and the sound
# follows it by ~2-3 s on a quiet host: wait for the event, then give the sound its time, scaled
# (stopping at once after the key lost it under load).
wait_for "\$OUT/events.jsonl" '"spoken"' 30 || exit 1
sleep "\$(scaled 5)"
step "SIGTERM"
stop_kiosk \$RUN
kill -INT \$REC; wait \$REC
date +%s.%N > "\$OUT/end.time"
wait \$PLAY_PID
[ -s "\$OUT/capture.wav" ] || step_fail "arecord wrote nothing: \$(cat "\$OUT/arecord.err")"
steps_done
GUEST

run_guest "$out" --out "$out" --timeout 300

check_events "$out" <<'PY'
import json, struct, wave, os
check(open(d + '/run.rc').read().strip() == '0', 'run exited 0 after SIGTERM')
ev = [json.loads(l) for l in open(d + '/events.jsonl') if l.strip()]
spoken = [e for e in ev if e['event'] == 'spoken']
check([(e['text'], e['language']) for e in spoken][:1] == [('Item 1.', 'en')], 'the new focus is spoken: %s' % spoken)
w = wave.open(d + '/capture.wav')
data = w.readframes(w.getnframes())
samples = struct.unpack('<%dh' % (len(data) // 2), data)
win = 4800 * 2   # 100 ms of 48 kHz stereo
rms = [(sum(s * s for s in samples[i:i + win]) / win) ** 0.5 for i in range(0, len(samples) - win + 1, win)]
loud = [r > 300 for r in rms]
print('capture: %d windows of 100 ms, loud: %s' % (len(rms), ''.join('#' if l else '.' for l in loud)))
# Where the key came, in the capture: the capture ended at end.time; the key was pressed at key.time.
end, key = float(open(d + '/end.time').read()), float(open(d + '/key.time').read())
key_window = max(0, len(rms) - int(round((end - key) * 10)))
print('the key at window %d' % key_window)
check(not any(loud[:max(0, key_window - 2)]), 'silent from the start until the key (nothing to say yet)')
heard = [i for i in range(max(0, key_window - 2), len(loud)) if loud[i]]
check(bool(heard), 'the spoken focus is heard after the key')
if heard:
    print('first loud window %d: %.1f s after the key; %.1f s of speech heard' % (heard[0], (heard[0] - key_window) / 10, len(heard) / 10))
    check(len(heard) >= 3, 'at least 0.3 s of speech heard: %.1f s' % (len(heard) / 10))
PY
status=$?
[ $status = 0 ] && rm -rf "$out"
exit $status
