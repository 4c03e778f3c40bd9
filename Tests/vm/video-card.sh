#!/usr/bin/env bash
# video-card: a video item's clip plays on its card on a real DRM driver (bochs, in kiosk-vm),
# and a swipe during playback moves the carousel at once:
#   1. the kiosk starts with the video item centred; its clip (made here by ffmpeg: testsrc2,
#      H.264 in MP4) starts once the carousel rests (`video_started`); the log names the decoder
#      (software here: the VM has no V4L2 decoder);
#   2. two screendumps with new frames presented between them (the control socket's `state`
#      counts them: no fixed sleep, so a slow host only makes it wait longer) differ, and only
#      inside the card's rectangle (the rest of the screen is not drawn again);
#   3. a uinput swipe: `video_stopped` (reason "moved") at the time of the first drag event, a
#      latency-trace frame showing the drag, and the next item at the centre afterwards.
# Needs: $KIOSK_VM, $BIN (debug kiosk-carousel), ffmpeg on the host.
set -u
source "$(dirname "$0")/lib/input-host.sh"
work_folder video-card

# 320x240 cards on the 800x480 screen: the centre card covers x 240..559, y 120..359.
ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc2=size=320x240:rate=15:duration=20" \
    -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 15 "$out/clip.mp4" || { echo "ffmpeg failed"; exit 1; }
{
    echo '[carousel]'
    echo 'type = "linear"'
    echo 'item_size = [320, 240]'
    echo '[video]'
    echo 'start_delay = 0.3'
    echo '[control]'
    echo 'socket = "/run/kiosk-video-card.sock"'
    printf '\n[[item]]\nid = "film"\ntitle = ""\nvideo = "%s"\n' "$out/clip.mp4"
    for i in 1 2 3; do
        colour=$(python3 -c "import sys; sys.path.insert(0, '$lib'); from events import item_colour; print('#%02x%02x%02x' % item_colour($i))")
        printf '\n[[item]]\nid = "item%d"\ntitle = ""\nbackground = "%s"\nbackground_bottom = "%s"\n' "$i" "$colour" "$colour"
    done
} > "$out/kiosk.toml"

cat > "$out/play.play" <<'PLAY'
touchscreen video-touch 4095 4095
settle
say ready
wait SWIPE
waitlog run.err 1 device added: video-touch
# swipe left by ~320 px of the 800 px screen: one card forward
swipe video-touch 0 3000 2048 1400 2048 10
waitlog events.jsonl 1 drag_ended
sleep 3
say settled
PLAY

guest_script <<GUEST
# frames: how many frames the kiosk has presented (the control socket's state reply).
frames() { /usr/bin/python3 "\$TOP/Tests/vm/control-client.py" /run/kiosk-video-card.sock '{"cmd":"state"}' | sed -n 's/.*"frames":\([0-9]*\).*/\1/p'; }
# settled: true when no frame was presented for a second.
settled() { local a=\$(frames); sleep 1; [ -n "\$a" ] && [ "\$a" = "\$(frames)" ]; }
# frames_after N: waits until more than N frames were presented.
frames_after() { wait_until 60 "[ \\"\\\$(frames)\\" -gt \$1 ]"; }
step "kiosk running"
play play
wait_for "\$OUT/play.play.out" ready 30 || exit 1
"\$BIN" run --config "\$OUT/kiosk.toml" --events "\$OUT/events.jsonl" --latency-trace "\$OUT/latency.jsonl" > "\$OUT/run.err" 2>&1 &
RUN=\$!
wait_for "\$OUT/run.err" "first frame on screen" 60 || exit 1
step "clip playing"
wait_for "\$OUT/events.jsonl" video_started 60 || exit 1
# The first decoded frames reach the card; then two shots with new frames between them.
n=\$(frames)
frames_after \$((n + 2))
kiosk-vm-shot playing-a > /dev/null || exit 1
n=\$(frames)
frames_after \$((n + 1))
kiosk-vm-shot playing-b > /dev/null || exit 1
step "swipe during playback"
touch "\$OUT/SWIPE"
wait_for "\$OUT/play.play.out" settled 60 || exit 1
# The glide is over by now (its time is the loop's, not the frames'); the last frame is on the
# screen once a second passes without a new one.
wait_until 60 settled
kiosk-vm-shot after-swipe > /dev/null || exit 1
step "SIGTERM"
kill -TERM \$RUN
wait \$RUN
echo \$? > "\$OUT/run.rc"
wait \$PLAY_PID
steps_done
GUEST

# Steps: 30 + 60 + 60 + 60 s of waits and the boot: 240 s is their sum (a backstop).
run_guest "$out" --out "$out" --timeout 240

check_events "$out" "" <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(sys.argv[1], '..', 'display'))
from compare import read_png
check(open(d + '/run.rc').read().strip() == '0', 'run exited 0 after SIGTERM')
log = open(d + '/run.err').read()
check('software' in log and 'video' in log, 'the log names the decoder that runs (software here)')
ev = [json.loads(l) for l in open(d + '/events.jsonl') if l.strip()]
names = [e['event'] for e in ev]
check('video_started' in names, 'the centred card started its clip')

# 2. Two shots during playback: different, and only inside the card's rectangle.
w, h, a = read_png(d + '/playing-a.png')
_, _, b = read_png(d + '/playing-b.png')
inside = outside = 0
for y in range(h):
    ra, rb = a[y], b[y]
    for x in range(w):
        if ra[x] != rb[x]:
            if 240 <= x < 560 and 120 <= y < 360:
                inside += 1
            else:
                outside += 1
check(inside > 1000, 'the card shows a later frame of the clip: %d pixels changed inside the card' % inside)
check(outside == 0, 'nothing outside the card changed: %d pixels' % outside)

# 3. The swipe stopped playback with its first drag event, and moved the carousel.
began = [e['t'] for e in ev if e['event'] == 'drag_began']
stopped = [e for e in ev if e['event'] == 'video_stopped']
check(began and stopped, 'drag_began and video_stopped were written')
if began and stopped:
    check(stopped[0].get('reason') == 'moved' and abs(stopped[0]['t'] - began[0]) < 1e-3,
          'playback stopped at the first drag event (drag_began %.4f, video_stopped %.4f, %s)'
          % (began[0], stopped[0]['t'], stopped[0].get('reason')))
# The swipe is the only input: every traced frame shows it.
trace = [json.loads(l) for l in open(d + '/latency.jsonl') if l.strip()]
shown = [f for f in trace if f.get('kind') == 'frame']
check(len(shown) > 0, 'frames showed the drag that interrupted the clip: %d traced, first %.1f ms input to screen'
      % (len(shown), shown[0]['latency_ms'] if shown else -1))
idx = [e['index'] for e in ev if e['event'] == 'current_index_changed']
check(idx and idx[-1] >= 1, 'the swipe moved the carousel forward: %s' % idx)
if idx:
    got, want = png_pixel(d + '/after-swipe.png', 400 - 60, 240 - 40), item_colour(idx[-1])
    check(all(abs(g - w) <= 8 for g, w in zip(got, want)),
          'item %d is at the centre after the swipe: pixel %s, its colour %s' % (idx[-1], got, want))
PY
status=$?
[ $status = 0 ] && rm -rf "$out"
exit $status
