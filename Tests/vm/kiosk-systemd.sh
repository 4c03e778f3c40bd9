#!/usr/bin/env bash
# The shipped unit under real systemd (252, Debian 12) in the VM: systemd runs as PID 1 of a
# PID namespace inside the guest (the guest's own PID 1 is kiosk-vm's init). Installs
# systemd/kiosk-carousel.service as written, plus a test drop-in that only sends the service's
# output to a file (libdispatch's messages too, which go to syslog by default: LIBDISPATCH_LOG=stderr), and `DefaultDependencies=no` (so that systemd starts this one unit, not the
# host image's whole boot); the drop-in also shortens WatchdogSec to 4 s (x KIOSK_VM_SLOWDOWN) to keep the test short.
# Checks:
#   1. Type=notify: the unit becomes active (READY=1) with the kiosk's STATUS=, running as the
#      unprivileged `kiosk` user with NoNewPrivs, a seccomp filter and no capabilities;
#   2. the control socket in RuntimeDirectory= (0700 folder, 0600 socket, owned by kiosk)
#      answers `state`, and `select` runs a background exec action inside the sandbox;
#   3. a keyboard at the kiosk cannot type into its console (docs/security.md): the kiosk turned
#      tty1's keyboard off (KDSKBMODE K_OFF), and Ctrl-C, Ctrl-\ and Ctrl-Z typed on a uinput
#      keyboard leave the same main process running, not restarted; Ctrl-Alt-F2 leaves tty1 the
#      active console;
#   4. the watchdog: after `kill -STOP` of the main process systemd reports a watchdog timeout,
#      kills it and restarts it (Restart=always): a new main pid, active again; the SIGABRT ends
#      the process by itself (no SIGKILL after TimeoutAbortSec: the backtracer is off);
#   5. the output has no "Failed to set thread priority" (libdispatch under the seccomp filter);
#   6. `systemctl stop`: STOPPING=1 and a clean exit (status 0), the unit inactive.
# Each step has its own limit (Tests/vm/lib/steps.bash, scaled by $KIOSK_VM_SLOWDOWN); a step
# that runs out says which one and how long the earlier ones took. The VM's --timeout is their
# sum plus the boot, a backstop only.
# Needs: $KIOSK_VM, $BIN (`run` wired to SystemdNotifier, ControlServer and ActionRunner).
source "$(dirname "$0")/lib/systemd-host.bash"
cat > "$tmp/config.toml" <<'TOML'
[control]
socket = "/run/kiosk-carousel/control.sock"

[actions.env]
GREETING = "hello"

[[item]]
id = "one"
title = "One"
action = { exec = ["/bin/sh", "-c", "echo $GREETING $(id -u) > /run/kiosk-carousel/ran"], mode = "background" }

[[item]]
id = "two"
title = "Two"
TOML
systemd_guest_script <<'GUEST'
# WatchdogSec 4 s x KIOSK_VM_SLOWDOWN: the kiosk stops pinging when a due frame waits half of it,
# and on a loaded host a TCG guest's frame can take 2 s.
printf '[Service]\nStandardOutput=file:/run/kiosk-test.log\nStandardError=file:/run/kiosk-test.log\nWatchdogSec=%s\nEnvironment=LIBDISPATCH_LOG=stderr\n' \
    "$(scaled 4)" > /etc/systemd/system/kiosk-carousel.service.d/test-output.conf
start_systemd kiosk-carousel.service || step_fail "systemd did not start"
prop() { unit_prop kiosk-carousel "$1"; }

step "start (active: READY=1)"
wait_until 90 '[ "$(prop ActiveState)" = active ]'
echo "active; StatusText='$(prop StatusText)' WatchdogUSec=$(prop WatchdogUSec)"
[ -n "$(prop StatusText)" ] || step_fail "no STATUS= from the kiosk"

step "sandbox of the main process"
main=$(prop MainPID)
outer=$(nsenter --target "$sdpid" --mount --pid cat /proc/$main/status 2>/dev/null)
echo "$outer" | grep -E "^(Uid|Groups|NoNewPrivs|Seccomp|CapEff|CapBnd):"
echo "$outer" | grep -q "^Uid:[[:space:]]*$(id -u kiosk)[[:space:]]" || step_fail "not running as kiosk"
echo "$outer" | grep -q "^NoNewPrivs:[[:space:]]*1" || step_fail "NoNewPrivs not set"
echo "$outer" | grep -q "^Seccomp:[[:space:]]*2" || step_fail "no seccomp filter"
echo "$outer" | grep -q "^CapBnd:[[:space:]]*0000000000000000" || step_fail "capability bounding set not empty"

step "control socket and a background action"
perms=$(inside stat -c '%a %U' /run/kiosk-carousel /run/kiosk-carousel/control.sock | tr '\n' ' ')
[ "$perms" = "700 kiosk 600 kiosk " ] || step_fail "runtime folder and socket are '$perms', expected '700 kiosk 600 kiosk '"
inside python3 "$ctl" /run/kiosk-carousel/control.sock '{"cmd":"state"}' || step_fail "no state reply"
inside python3 "$ctl" /run/kiosk-carousel/control.sock '{"cmd":"select","index":0}' || step_fail "select refused"
wait_until 10 'inside test -s /run/kiosk-carousel/ran'
ran=$(inside cat /run/kiosk-carousel/ran 2>/dev/null)
[ "$ran" = "hello $(id -u kiosk)" ] || step_fail "the background action wrote '$ran', expected 'hello $(id -u kiosk)'"
echo "control socket: $perms; state answered; a background action ran in the sandbox: '$ran'"

step "a keyboard at the kiosk cannot type into its console"
inside grep "console keyboard" /run/kiosk-test.log
inside grep -q "console keyboard off" /run/kiosk-test.log || step_fail "the kiosk did not turn tty1's keyboard off"
cat > "$dir/ctrl.play" <<'PLAY'
keyboard console-keys KEY_LEFTCTRL KEY_LEFTALT KEY_C KEY_Z KEY_BACKSLASH KEY_F2
settle
sleep 1
key console-keys KEY_LEFTCTRL 1
press console-keys KEY_C
press console-keys KEY_BACKSLASH
press console-keys KEY_Z
key console-keys KEY_LEFTALT 1
press console-keys KEY_F2
key console-keys KEY_LEFTALT 0
key console-keys KEY_LEFTCTRL 0
sleep 3
say done
PLAY
/usr/bin/python3 "$(dirname "$ctl")/../../scripts/uinput-play.py" "$dir/ctrl.play" > "$dir/ctrl.out" 2>&1 || { cat "$dir/ctrl.out"; step_fail "uinput-play failed"; }
state=$(sc show kiosk-carousel -p ActiveState -p NRestarts -p MainPID 2>/dev/null)
echo "after Ctrl-C, Ctrl-\\ and Ctrl-Z on a keyboard:" $state
[ "$(echo "$state" | sed -n 's/^MainPID=//p')" = "$main" ] && [ "$(echo "$state" | sed -n 's/^NRestarts=//p')" = 0 ] \
    && [ "$(echo "$state" | sed -n 's/^ActiveState=//p')" = active ] \
    || step_fail "the kiosk was stopped or restarted by the keyboard:" $state "(was MainPID=$main)"
inside grep -q "SIGINT" /run/kiosk-test.log && step_fail "the kiosk heard SIGINT"
active=$(cat /sys/class/tty/tty0/active 2>/dev/null)
echo "active console after Ctrl-Alt-F2: $active"
[ "$active" = tty1 ] || step_fail "Ctrl-Alt-F2 switched the console to $active"

step "watchdog restart after SIGSTOP"
inside kill -STOP "$main"
stopped=$(date +%s)
restarted() {
    # One systemctl call per try (each costs most of a second under TCG).
    state=$(sc show kiosk-carousel -p ActiveState -p NRestarts -p MainPID 2>/dev/null)
    st=$(echo "$state" | sed -n 's/^ActiveState=//p'); nr=$(echo "$state" | sed -n 's/^NRestarts=//p')
    new=$(echo "$state" | sed -n 's/^MainPID=//p')
    [ "${nr:-0}" -ge 1 ] && [ "$st" = active ] && [ "$new" != "$main" ] && [ "$new" != 0 ]
}
wait_until 60 restarted
dmesg | grep -q "kiosk-carousel.service: Watchdog timeout" || step_fail "systemd did not log a watchdog timeout"
# SIGABRT ends the process itself (SWIFT_BACKTRACE=enable=no in the unit): no SIGKILL needed.
dmesg | grep "kiosk-carousel.service: Main process exited" | tail -1
dmesg | grep -q "kiosk-carousel.service: State 'stop-watchdog' timed out" \
    && step_fail "the process outlived its SIGABRT until TimeoutAbortSec's SIGKILL"
echo "watchdog: stopped pid $main, systemd logged a watchdog timeout and restarted it as pid $(prop MainPID) within $(( $(date +%s) - stopped )) s (NRestarts=$(prop NRestarts))"

step "the kiosk's output has no errors of its own making"
# Under the unit's seccomp filter (~@resources) libdispatch's worker threads could not set their
# nice value and logged "Failed to set thread priority for worker thread: pqc=… errno=1" at start:
# a kiosk builder reading the journal takes it for a fault (docs/systemd.md).
out=$(inside cat /run/kiosk-test.log 2>/dev/null)
echo "$out" | grep -E "Failed to set thread priority|error" | head -5
if echo "$out" | grep -q "Failed to set thread priority"; then step_fail "libdispatch could not set a worker thread's priority under the unit"; fi
if echo "$out" | grep -q "swift-backtrace"; then step_fail "the Swift backtracer ran under the unit (SWIFT_BACKTRACE)"; fi

stop_kiosk_unit
steps_done
dmesg | grep "kiosk-carousel.service" | sed 's/^\[ *[0-9.]*\] //' | tail -8
echo PASS
GUEST
# Steps: setup 20 + start 90 + sandbox 10 + control 30 + keyboard 30 + watchdog 60 + output + stop 30
# (+ the checks between) = 290 s, and the boot.
run_systemd_guest 320
