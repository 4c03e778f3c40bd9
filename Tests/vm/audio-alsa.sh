#!/usr/bin/env bash
# audio-alsa: the kiosk's sound on a real kernel's ALSA (docs/accessibility.md "Sound"). The
# guest loads snd-aloop (from the host's Debian kernel's modules); the kiosk plays a video item
# with `audio = true` on the loopback's playback side while `arecord` (alsa-utils) captures the
# other side:
#   1. the capture is silent before the clip starts (start_delay 3 s), loud while it plays (RMS
#      of 100 ms windows: as long as the kiosk's periods with sound, which its closing line
#      counts; under TCG on a busy host its decoder falls behind, and the sound keeps to the
#      clip's clock, so the periods it could not fill stay silent: how much of the 6 s is
#      written depends on the host, what is written must be heard), silent
#      again after it ends (loop = false), never longer than the clip;
#   2. a config whose device does not exist: the kiosk runs, shows its frames (first frame, the
#      looping clip's video_started), logs the device's error once in 12 s of retries.
# Needs: $KIOSK_VM, $BIN (debug kiosk-carousel), ffmpeg (the clip), arecord in the guest.
set -u
source "$(dirname "$0")/lib/input-host.sh"
here=$(cd "$(dirname "$0")" && pwd)
work_folder audio-alsa

clip=$out/tone.mp4
ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i testsrc2=s=160x120:r=10:d=6 \
    -f lavfi -i sine=frequency=440:sample_rate=44100:duration=6 \
    -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -b:a 64k -shortest "$clip" || exit 1
# The loopback plays the clip once; the missing device gets a looping clip, so the kiosk keeps
# having something to play and keeps trying the device.
for dev in plughw:Loopback,0,0 hw:NoSuchCard,0; do
    name=${dev%%:*}
    loop=false; [ "$name" = hw ] && loop=true
    cat > "$out/$name.toml" <<TOML
[display]
backend = "drm"
[carousel]
type = "linear"
item_size = [240, 180]
[video]
start_delay = 3
[audio]
device = "$dev"
volume = 1
[[item]]
id = "tone"
title = "A clip with sound"
video = "$clip"
loop = $loop
audio = true
TOML
    "$BIN" check-config "$out/$name.toml" || exit 1
done

guest_script <<GUEST
source "\$TOP/Tests/vm/lib/dpms-guest.sh"
STEP_ON_FAIL='tail -n 30 "\$OUT/run.err"; cat "\$OUT/events.jsonl"'

step "snd-aloop"
modprobe snd-aloop || step_fail "modprobe snd-aloop"
wait_until 10 "[ -e /proc/asound/Loopback ]"
cat /proc/asound/cards

step "capture and play"
arecord -q -D hw:Loopback,1,0 -f S16_LE -r 48000 -c 2 -d 120 "\$OUT/capture.wav" 2> "\$OUT/arecord.err" &
REC=\$!
sleep 0.5
"\$BIN" run --config "\$OUT/plughw.toml" --events "\$OUT/events.jsonl" > "\$OUT/run.err" 2>&1 &
RUN=\$!
wait_for "\$OUT/run.err" "first frame on screen" 60 || { kiosk_state \$RUN; exit 1; }
wait_event video_started 1 30 || exit 1
sleep 1
cat /proc/asound/Loopback/pcm0p/sub0/hw_params /proc/asound/Loopback/pcm0p/sub0/status > "\$OUT/loopback.err" 2>&1
wait_event video_ended 1 30 || exit 1
sleep 2
stop_kiosk \$RUN
kill -INT \$REC; wait \$REC
[ -s "\$OUT/capture.wav" ] || step_fail "arecord wrote nothing: \$(cat "\$OUT/arecord.err")"
cp "\$OUT/run.err" "\$OUT/plughw-run.err"

step "a device that does not exist"
rm -f "\$OUT/events.jsonl"
"\$BIN" run --config "\$OUT/hw.toml" --events "\$OUT/events.jsonl" > "\$OUT/run.err" 2>&1 &
RUN=\$!
wait_for "\$OUT/run.err" "first frame on screen" 60 || { kiosk_state \$RUN; exit 1; }
wait_event video_started 1 30 || exit 1
sleep 12
kill -0 \$RUN || step_fail "the kiosk is gone"
stop_kiosk \$RUN
[ "\$(cat "\$OUT/run.rc")" = 0 ] || step_fail "the kiosk exited \$(cat "\$OUT/run.rc")"
cp "\$OUT/run.err" "\$OUT/missing-run.err"
steps_done
GUEST

run_guest "$out" --out "$out" --display bochs --timeout 400
{ cat <<'PY'; } | check_events "$out"
import re, struct, wave
w = wave.open(d + '/capture.wav')
check(w.getframerate() == 48000 and w.getnchannels() == 2, 'capture is 48 kHz stereo')
data = w.readframes(w.getnframes())
samples = struct.unpack('<%dh' % (len(data) // 2), data)
win = 4800 * 2   # 100 ms
rms = [(sum(s * s for s in samples[i:i + win]) / win) ** 0.5 for i in range(0, len(samples) - win + 1, win)]
loud = [r > 500 for r in rms]
print('capture: %d windows of 100 ms, loud: %s' % (len(rms), ''.join('#' if l else '.' for l in loud)))
check(any(loud), 'the clip is heard')
if any(loud):
    first, last = loud.index(True), len(loud) - 1 - loud[::-1].index(True)
    heard = sum(loud[first:last + 1])
    print('heard %.1f s of the 6 s clip (loud windows %d of %d from the first to the last)' % (heard / 10, heard, last - first + 1))
    check(first >= 20, 'silent for 2 s before the clip starts (start_delay 3 s): first loud window %d' % first)
    check(len(loud) - last > 10, 'silent after the clip ends: last loud window %d of %d' % (last, len(loud)))
    check((last - first + 1) / 10 <= 6.6, 'the sound does not outlast the 6 s clip: %.1f s' % ((last - first + 1) / 10))
ok = open(d + '/plughw-run.err').read()
# What the kiosk wrote: its periods with sound (its closing line) times the period. How much of
# the clip's sound there was to write depends on the host (under TCG on a busy host the decoder
# falls behind, and its periods stay silent: the sound keeps to the clip's clock); what was
# written with sound must be heard, whatever the load.
played = re.search(r'audio: playing on ALSA device "plughw:Loopback,0,0": (\d+)-frame periods', ok)
closed = re.search(r'closed ALSA device "plughw:Loopback,0,0" after (\d+) periods \((\d+) with sound\)', ok)
check(played and closed, 'the kiosk says its period and how many periods it wrote with sound')
if played and closed and any(loud):
    written = int(closed.group(2)) * int(played.group(1)) / 48000
    print('written with sound: %.2f s (%s periods of %s frames), heard %.1f s' % (written, closed.group(2), played.group(1), heard / 10))
    check(written > 0, 'the kiosk wrote sound: %.2f s' % written)
    # The capture's 100 ms windows: a window with one period of the tone (21 ms) is loud, so
    # scattered periods make more loud windows than their length, a stretch's edges may count
    # or not; a lost stretch of sound shows as fewer.
    check(heard / 10 >= 0.8 * written - 0.2, 'what the kiosk wrote with sound is heard: %.1f s of %.2f s' % (heard / 10, written))
problems = [l for l in ok.splitlines() if re.match(r'<[0-4]>kiosk\.audio', l)]
check(not problems, 'no audio error or warning with the loopback: %s' % problems)
print('loopback: %s' % [l for l in ok.splitlines() if 'kiosk.audio' in l])
missing = open(d + '/missing-run.err').read()
lines = [l for l in missing.splitlines() if 'audio: ALSA device "hw:NoSuchCard,0"' in l]
print('missing device: %s' % lines)
check(len(lines) == 1, 'the missing device is logged once in 12 s of retries: %d lines' % len(lines))
check(all('errno' in l for l in lines), 'the line gives the errno')
PY
