#!/usr/bin/env bash
# display-render-scale: `[display] render_scale = 0.5` on a real DRM driver (virtio-gpu, 800x480
# panel) with rotation 180. The kiosk (`run`) draws 400x240 frames and the scan-out copy doubles
# them into the dumb buffer, turned: the screendump at rest equals simulate's 800x480 frame (the
# same enlargement, unturned) turned 180°. Then a uinput touch at the panel position where the
# card right of the centre shows (panel 280,240 = screen 520,240 after the rotation) moves the
# carousel to that item (current_index_changed 1), and the screendump after it equals simulate's
# frame after the same tap.
set -u
source "$(dirname "$0")/lib/input-host.sh"
work_folder render-scale

{
    printf '[display]\nrotation = 180\nrender_scale = 0.5\n\n[carousel]\ntype = "linear"\nitem_size = [120, 90]\n'
    for i in 0 1 2 3 4; do
        colour=$(python3 -c "import sys; sys.path.insert(0, '$lib'); from events import item_colour; print('#%02x%02x%02x' % item_colour($i))")
        printf '\n[[item]]\nid = "item%d"\ntitle = ""\nbackground = "%s"\nbackground_bottom = "%s"\n' "$i" "$colour" "$colour"
    done
} > "$out/kiosk.toml"

# The reference frames: simulate with the same file (render_scale 0.5: the enlarged frame) and
# the same tap in screen pixels.
printf '{"t":1.0,"type":"touch_down","slot":0,"x":520,"y":240}\n{"t":1.05,"type":"touch_up","slot":0}\n' > "$out/tap.jsonl"
"$BIN" simulate --config "$out/kiosk.toml" --size 800x480 --input "$out/tap.jsonl" --until 3.5 \
    --shot "0.5=$out/ref-rest.png" --shot "3.5=$out/ref-after.png" > /dev/null || { echo "simulate failed"; exit 1; }

cat > "$out/play.play" <<'PLAY'
touchscreen rs-touch 4095 4095
settle
say ready
wait GO
waitlog run.err 1 device added: rs-touch
# panel (280, 240) of 800x480: 280/800 and 240/480 of 0..4095
down rs-touch 0 1433 2048
sleep 0.05
up rs-touch 0
sleep 2.5
say tapped
wait DONE
say done
PLAY

guest_script <<GUEST
step "devices made"
play play
wait_for "\$OUT/play.play.out" ready 30 || exit 1
step "kiosk running"
"\$BIN" run --config "\$OUT/kiosk.toml" --backend drm --events "\$OUT/events.jsonl" > "\$OUT/run.err" 2>&1 &
RUN=\$!
wait_for "\$OUT/run.err" "source(s) opened" 60 || exit 1   # the input devices open after the first frame
sleep 1
step "screenshot at rest"
kiosk-vm-shot rest > /dev/null || exit 1
step "tap"
touch "\$OUT/GO"
wait_for "\$OUT/play.play.out" tapped 60 || exit 1
step "screenshot after the tap"
kiosk-vm-shot after > /dev/null || exit 1
touch "\$OUT/DONE"
wait_for "\$OUT/play.play.out" done 30 || exit 1
step "SIGTERM"
kill -TERM \$RUN
wait \$RUN
echo \$? > "\$OUT/run.rc"
wait \$PLAY_PID
steps_done
GUEST

run_guest "$out" --out "$out" --timeout 240

status=0
check_events "$out" "$top/Tests/vm/display/compare.py" <<'PY' || status=1
import json, os, subprocess
check(open(d + '/run.rc').read().strip() == '0', 'run exited 0 after SIGTERM')
log = open(d + '/run.err').read()
check('drawn at 400x240 (render_scale 0.5, double)' in log, 'the display draws at 400x240 and doubles (its start-up line)')
ev = [json.loads(l) for l in open(d + '/events.jsonl') if l.strip()]
idx = [e['index'] for e in ev if e['event'] == 'current_index_changed']
check(idx == [1], 'the touch at panel 280,240 (screen 520,240) moved the carousel to item 1: %s' % idx)
for name in ['rest', 'after']:
    shot = d + '/' + name + '.png'
    check(os.path.exists(shot), 'a screendump %s was taken' % name)
    if os.path.exists(shot):
        r = subprocess.run(['python3', arg, d + '/ref-' + name + '.png', shot, '--rotate', '180'], capture_output=True, text=True)
        print(r.stdout.strip())
        check(r.returncode == 0, 'screendump %s = simulate frame at render_scale 0.5 turned 180°' % name)
# The comparison can fail: the frame at rest is not the one after the tap.
r = subprocess.run(['python3', arg, d + '/ref-rest.png', d + '/after.png', '--rotate', '180', '--expect-different'], capture_output=True, text=True)
check(r.returncode == 0, 'the screendump after the tap differs from the frame at rest (the check can fail)')
PY
[ $status = 0 ] && rm -rf "$out"
exit $status
