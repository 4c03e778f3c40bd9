#!/usr/bin/env bash
# The watchdog watches the screen, not just the loop, under real systemd (252) in the VM (as
# kiosk-systemd.sh: systemd as PID 1 of a PID namespace, the shipped unit, DefaultDependencies=no).
# The test drop-in sets WatchdogSec=4 (x KIOSK_VM_SLOWDOWN: the kiosk stops pinging when a due
# frame waits half of it, and on a loaded host a TCG guest's frame can take 2 s) and the test-only fault switch
# KIOSK_TEST_FAULT=wedge-flip:/run/kiosk-carousel/wedge: while that file exists the DRM backend
# drops its page flips' completion events (the kernel flips; the kiosk never hears of it).
# Checks:
#   1. idle: once settled, the kiosk draws 0 frames (the control socket's `state` frame
#      counter stands still) for 20 s and at least 2 watchdog periods and keeps pinging
#      (systemd's WatchdogTimestamp moves), same MainPID, no restart;
#   2. wedge: the file is created, a `scroll_to` needs frames; the flips are never confirmed,
#      the kiosk says why (journal line, STATUS=), stops pinging, and systemd reports a watchdog
#      timeout and restarts it (a new MainPID; the runtime folder, and with it the file, is gone);
#   3. the new instance draws and stays up: same MainPID for 12 s and at least 2 watchdog periods;
#   4. `systemctl stop`: inactive, exit status 0.
# Needs: $KIOSK_VM, $BIN.
source "$(dirname "$0")/lib/systemd-host.bash"
control_config
systemd_guest_script <<'GUEST'
STEP_ON_FAIL='dump_kiosk_unit 40'
sock=/run/kiosk-carousel/control.sock
# append: (not file:) so the restarted instance's lines follow the first one's.
wd=$(scaled 4)
idle=$(( 2 * wd > 20 ? 2 * wd : 20 )); stay=$(( 2 * wd > 12 ? 2 * wd : 12 ))
cat > /etc/systemd/system/kiosk-carousel.service.d/test.conf <<EOF
[Service]
StandardOutput=append:/run/kiosk-test.log
StandardError=append:/run/kiosk-test.log
WatchdogSec=$wd
Environment=KIOSK_TEST_FAULT=wedge-flip:/run/kiosk-carousel/wedge
EOF
echo "WatchdogSec=$wd (4 s x KIOSK_VM_SLOWDOWN=${KIOSK_VM_SLOWDOWN:-1}); idle $idle s, the new instance watched $stay s"
start_systemd kiosk-carousel.service || step_fail "systemd did not start"

props() { sc show kiosk-carousel -p ActiveState -p MainPID -p NRestarts -p WatchdogTimestampMonotonic -p StatusText 2>/dev/null; }
field() { echo "$1" | sed -n "s/^$2=//p"; }
frames() { inside python3 "$ctl" "$sock" '{"cmd":"state"}' 2>/dev/null | sed -n 's/.*"frames":\([0-9]*\).*/\1/p'; }
# Frames stop changing: three readings 2 s apart agree (no card left to arrive and fade in).
settled() { a=$(frames); sleep 2; b=$(frames); sleep 2; c=$(frames); [ -n "$a" ] && [ "$a" = "$b" ] && [ "$b" = "$c" ]; }

step "start (active, READY=1)"
wait_until 90 '[ "$(unit_prop kiosk-carousel ActiveState)" = active ]'
grep -q "DRM /dev/dri/card" /run/kiosk-test.log || step_fail "the kiosk is not on the DRM backend: $(grep -i 'display\|drm' /run/kiosk-test.log | head -3)"
grep "watchdog: pinging" /run/kiosk-test.log || true

step "settle (frames stop)"
wait_until 60 settled
p=$(props); main=$(field "$p" MainPID); wd0=$(field "$p" WatchdogTimestampMonotonic); f0=$(frames)
echo "settled: pid $main, $f0 frames drawn, StatusText='$(field "$p" StatusText)'"

step "idle for $idle s"
sleep "$idle"   # a duration under test: 20 s, and 2 watchdog periods at least
p=$(props); f1=$(frames); wd1=$(field "$p" WatchdogTimestampMonotonic)
[ "$(field "$p" ActiveState)" = active ] && [ "$(field "$p" MainPID)" = "$main" ] && [ "$(field "$p" NRestarts)" = 0 ] \
    || step_fail "not the same active instance after $idle s idle: $p"
[ "$f1" = "$f0" ] || step_fail "frames drawn while idle: $f0 -> $f1"
[ "$wd1" -gt "$wd0" ] || step_fail "no watchdog ping in $idle s (WatchdogTimestampMonotonic $wd0 -> $wd1)"
grep -q "display stalled" /run/kiosk-test.log && step_fail "a stall reported while idle"
echo "idle: pid $main active for $idle s, 0 frames drawn ($f0 in all), pings went on (the last one $(( (wd1 - wd0) / 1000000 )) s after the first reading)"

step "wedge presentation, scroll"
inside touch /run/kiosk-carousel/wedge
inside python3 "$ctl" "$sock" '{"cmd":"scroll_to","index":2,"duration":3}' || step_fail "scroll_to refused"
wedged=$(date +%s)
status_seen=
restarted() {
    p=$(props)
    case $(field "$p" StatusText) in "display stalled"*) status_seen=$(field "$p" StatusText) ;; esac
    new=$(field "$p" MainPID)
    [ "$(field "$p" ActiveState)" = active ] && [ "$new" != "$main" ] && [ "$new" != 0 ]
}

step "watchdog restart"
wait_until 60 restarted
dmesg | grep -q "kiosk-carousel.service: Watchdog timeout" || step_fail "systemd did not log a watchdog timeout"
grep "display stalled" /run/kiosk-test.log | head -2
grep -q "display stalled: a page flip has not been confirmed on screen" /run/kiosk-test.log \
    || step_fail "the kiosk did not say why it stopped pinging"
echo "wedged: pid $main stopped pinging; systemd logged a watchdog timeout and restarted it as pid $new $(( $(date +%s) - wedged )) s after the scroll (NRestarts=$(field "$p" NRestarts))"
echo "STATUS= seen while stalled: '${status_seen:-(not caught between two polls)}'"
inside test -e /run/kiosk-carousel/wedge && step_fail "the fault file survived the restart"

step "the new instance stays up"
wait_until 60 settled
p=$(props); wdA=$(field "$p" WatchdogTimestampMonotonic)
sleep "$stay"   # a duration under test: 12 s, and 2 watchdog periods at least
p=$(props); wdB=$(field "$p" WatchdogTimestampMonotonic)
[ "$(field "$p" ActiveState)" = active ] && [ "$(field "$p" MainPID)" = "$new" ] || step_fail "restarted again: $p"
[ "$wdB" -gt "$wdA" ] || step_fail "the new instance does not ping"
echo "recovered: pid $new active and pinging, $(frames) frames drawn, StatusText='$(field "$p" StatusText)'"

stop_kiosk_unit
steps_done
dmesg | grep "kiosk-carousel.service" | sed 's/^\[ *[0-9.]*\] //' | tail -8
echo PASS
GUEST
run_systemd_guest 300
