# Runs in the guest (Tests/vm/fault-display.sh): `kiosk-carousel run` on the DRM device with a
# uinput touchscreen and the control socket. The connector is forced off while the carousel
# scrolls (control `scroll_by`), forced back on (`detect`), then once more while still; after
# each replug the carousel is put back on item 0 and photographed; then CYCLES - 1 more times
# while it is still; then a swipe on the touchscreen must still turn it. What the kiosk logged
# and recorded goes to $KIOSK_VM_OUT.
set -u
BIN=$1 CONFIG=$2 TOP=$3 CYCLES=${4:-2}
out=$KIOSK_VM_OUT
sock=/tmp/kiosk.sock
source "$TOP/Tests/vm/lib/steps.bash"
ctl() { /usr/bin/python3 "$TOP/Tests/vm/control-client.py" "$sock" "$1"; }
# waitlog TEXT [COUNT] [SECONDS]: until the kiosk's log holds TEXT COUNT times (SECONDS, default
# 60, x the slowdown); says in which step it gave up.
waitlog() {
    local limit deadline
    limit=$(scaled "${3:-60}"); deadline=$((SECONDS + limit))
    until [ "$(grep -c -- "$1" /tmp/run.out)" -ge "${2:-1}" ]; do
        ((SECONDS >= deadline)) && { step_fail_message "'$1' x${2:-1} not in the kiosk's log within $limit s"; return 1; }
        sleep 0.1
    done
}
status=$(ls -d /sys/class/drm/card0-*/ | head -1)status
plug() { # on|off
    echo "$([ "$1" = on ] && echo detect || echo off)" >"$status"
    udevadm trigger --action=change --subsystem-match=drm
}
cat >/tmp/touch.play <<'PLAY'
touchscreen fd-touch 4095 4095
settle
say ready
wait /tmp/SWIPE 600
swipe fd-touch 0 3000 2048 1000 2048 12
sleep 1
say swiped
sleep 60
PLAY
# The touchscreen is made while the kiosk starts (python's start-up under TCG takes seconds);
# the kiosk picks it up through udev either way.
/usr/bin/python3 "$TOP/scripts/uinput-play.py" /tmp/touch.play >/tmp/play.out 2>&1 &
"$BIN" run --config "$CONFIG" --backend drm --events /tmp/events.jsonl >/tmp/run.out 2>&1 &
pid=$!
finish() {
    cp /tmp/run.out /tmp/events.jsonl /tmp/play.out "$out/" 2>/dev/null
    exit "$1"
}
STEP_ON_FAIL='cp /tmp/run.out /tmp/events.jsonl /tmp/play.out "$out/" 2>/dev/null'
step "first frame, touchscreen added"
waitlog "first frame on screen" || finish 1
waitlog "device added: fd-touch" || finish 1
sleep 2
kiosk-vm-shot before >/dev/null

# 1. Unplugged while scrolling: the animation runs on without a screen.
step "unplug 1 while scrolling"
ctl '{"cmd":"scroll_by","items":3,"duration":2.5}' >/dev/null
sleep 0.3
plug off
waitlog "unplugged; running without a screen" 1 || finish 1
kiosk-vm-shot unplugged-1 >/dev/null
ctl '{"cmd":"state"}' >"$out/state-unplugged.json"
sleep 2
step "replug 1"
plug on
waitlog "laying out" 1 || finish 1
ctl '{"cmd":"scroll_to","index":0,"duration":0}' >/dev/null
sleep 1
kiosk-vm-shot replugged-1 >/dev/null

# 2. Again CYCLES - 1 times, with the carousel still; the screen after the last replug.
for n in $(seq 2 "$CYCLES"); do
    step "unplug and replug $n"
    plug off
    waitlog "unplugged; running without a screen" "$n" || finish 1
    plug on
    waitlog "laying out" "$n" || finish 1
done
sleep 1
kiosk-vm-shot replugged-last >/dev/null

# 3. Input after the replugs: a swipe to the left turns the carousel on.
step "swipe"
ctl '{"cmd":"state"}' >"$out/state-before-swipe.json"
touch /tmp/SWIPE
wait_until 30 'grep -q swiped /tmp/play.out' 
ctl '{"cmd":"state"}' >"$out/state-end.json"
kill -0 "$pid" && echo alive >"$out/alive"
step "SIGTERM"
kill -TERM "$pid"
wait "$pid"
echo $? >"$out/run.rc"
steps_done
finish 0
