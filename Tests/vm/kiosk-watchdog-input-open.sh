#!/usr/bin/env bash
# The input devices open on a thread of their own, so a slow opening never starves systemd's
# watchdog: on a cold Raspberry Pi libinput's start held the loop 7 s and more after READY=1 and
# systemd killed the kiosk (docs/start-up.md, stop 61). Under real systemd (252) in the VM, as
# kiosk-watchdog-screen.sh: the shipped unit, WatchdogSec=4 (x KIOSK_VM_SLOWDOWN), and the
# test-only fault switch KIOSK_TEST_FAULT=hold-input-open:/run/kiosk-hold-input (the opening
# waits while that file exists).
# Checks:
#   1. the kiosk starts (READY=1) with the file in place, and for 3 watchdog periods while its
#      devices are still opening: the same MainPID, no restart, the watchdog pinged, frames drawn
#      when asked (a `scroll_to`), no "source(s) opened" line yet;
#   2. the file removed: the devices join the loop ("input: N source(s) opened S s, after the
#      first frame (on their own thread; the loop went on)", S at least the hold), the control
#      socket's `state` counts them, the same MainPID;
#   3. `systemctl stop`: inactive, exit status 0.
# Needs: $KIOSK_VM, $BIN.
source "$(dirname "$0")/lib/systemd-host.bash"
control_config
systemd_guest_script <<'GUEST'
STEP_ON_FAIL='dump_kiosk_unit 40'
sock=/run/kiosk-carousel/control.sock
hold=/run/kiosk-hold-input
wd=$(scaled 4)
held=$(( 3 * wd ))
cat > /etc/systemd/system/kiosk-carousel.service.d/test.conf <<CONF
[Service]
StandardOutput=append:/run/kiosk-test.log
StandardError=append:/run/kiosk-test.log
WatchdogSec=$wd
Environment=KIOSK_TEST_FAULT=hold-input-open:$hold
CONF
touch "$hold"
echo "WatchdogSec=$wd (4 s x KIOSK_VM_SLOWDOWN=${KIOSK_VM_SLOWDOWN:-1}); the devices held $held s"
start_systemd kiosk-carousel.service || step_fail "systemd did not start"

props() { sc show kiosk-carousel -p ActiveState -p MainPID -p NRestarts -p WatchdogTimestampMonotonic 2>/dev/null; }
field() { echo "$1" | sed -n "s/^$2=//p"; }
state() { inside python3 "$ctl" "$sock" '{"cmd":"state"}' 2>/dev/null; }
number() { echo "$1" | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"; }

step "start (active, READY=1) with the devices held"
wait_until 90 '[ "$(unit_prop kiosk-carousel ActiveState)" = active ]'
grep -q "DRM /dev/dri/card" /run/kiosk-test.log || step_fail "the kiosk is not on the DRM backend: $(grep -i 'display\|drm' /run/kiosk-test.log | head -3)"
wait_until 30 '[ -n "$(number "$(state)" frames)" ]'
p=$(props); main=$(field "$p" MainPID); wd0=$(field "$p" WatchdogTimestampMonotonic)
f0=$(number "$(state)" frames)
echo "started: pid $main, $f0 frames drawn"

step "$held s with the devices still opening"
sleep $(( held / 2 ))   # a duration under test: 3 watchdog periods in all
inside python3 "$ctl" "$sock" '{"cmd":"scroll_to","index":2,"duration":1}' >/dev/null || step_fail "scroll_to refused"
sleep $(( held - held / 2 ))
p=$(props); s=$(state); f1=$(number "$s" frames); wd1=$(field "$p" WatchdogTimestampMonotonic)
[ "$(field "$p" ActiveState)" = active ] && [ "$(field "$p" MainPID)" = "$main" ] && [ "$(field "$p" NRestarts)" = 0 ] \
    || step_fail "not the same active instance after $held s with the devices opening: $p"
[ "$wd1" -gt "$wd0" ] || step_fail "no watchdog ping while the devices opened (WatchdogTimestampMonotonic $wd0 -> $wd1)"
[ "${f1:-0}" -gt "$f0" ] || step_fail "no frame drawn for the scroll while the devices opened: $f0 -> $f1"
grep -q "source(s) opened" /run/kiosk-test.log && step_fail "the devices opened while held: $(grep 'source(s) opened' /run/kiosk-test.log)"
dmesg | grep -q "kiosk-carousel.service: Watchdog timeout" && step_fail "systemd logged a watchdog timeout"
echo "held: pid $main active for $held s, $((f1 - f0)) frames drawn for the scroll, the last ping $(( (wd1 - wd0) / 1000000 )) s after the first reading, input_devices $(number "$s" input_devices)"

step "the devices open"
rm -f "$hold"
wait_until 60 'grep -q "source(s) opened" /run/kiosk-test.log'
line=$(grep "source(s) opened" /run/kiosk-test.log | head -1)
echo "$line"
echo "$line" | grep -q "after the first frame (on their own thread; the loop went on)" || step_fail "not opened on their own thread: $line"
took=$(echo "$line" | sed -n 's/.*opened \([0-9]*\)\.[0-9]* s,.*/\1/p')
[ "${took:-0}" -ge $(( held - 1 )) ] || step_fail "the opening took ${took:-?} s, less than the $held s it was held: $line"
s=$(state); n=$(number "$s" input_devices)
if ls /dev/input/event* >/dev/null 2>&1; then
    [ "${n:-0}" -gt 0 ] || step_fail "the guest has input devices ($(ls /dev/input/ | tr '\n' ' ')) but state says input_devices=${n:-?}"
fi
p=$(props)
[ "$(field "$p" MainPID)" = "$main" ] && [ "$(field "$p" NRestarts)" = 0 ] || step_fail "restarted: $p"
echo "opened: input_devices ${n:-?}, pid $main still, NRestarts 0"

stop_kiosk_unit
steps_done
echo PASS
GUEST
run_systemd_guest 240
