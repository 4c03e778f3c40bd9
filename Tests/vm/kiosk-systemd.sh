#!/usr/bin/env bash
# The shipped unit under real systemd (252, Debian 12) in the VM: systemd runs as PID 1 of a
# PID namespace inside the guest (the guest's own PID 1 is kiosk-vm's init). Installs
# systemd/kiosk-carousel.service as written, plus a test drop-in that only sends the service's
# output to a file, and `DefaultDependencies=no` (so that systemd starts this one unit, not the
# host image's whole boot); the drop-in also shortens WatchdogSec to 4 s to keep the test short.
# Checks:
#   1. Type=notify: the unit becomes active (READY=1) with the kiosk's STATUS=, running as the
#      unprivileged `kiosk` user with NoNewPrivs, a seccomp filter and no capabilities;
#   2. the control socket in RuntimeDirectory= (0700 folder, 0600 socket, owned by kiosk)
#      answers `state`, and `select` runs a background exec action inside the sandbox;
#   3. the watchdog: after `kill -STOP` of the main process systemd reports a watchdog timeout,
#      kills it and restarts it (Restart=always): a new main pid, active again;
#   4. `systemctl stop`: STOPPING=1 and a clean exit (status 0), the unit inactive.
# Needs: $KIOSK_VM, $BIN (`run` wired to SystemdNotifier, ControlServer and ActionRunner).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${KIOSK_VM:?}" "${BIN:?}"
tmp=$(mktemp -d /tmp/kiosk-systemd.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
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
cat > "$tmp/guest.sh" <<'GUEST'
set -u
bin=$1; unit=$2; dir=$3; ctl=$4
source "$5"
fail() {
    echo "FAIL: $*"
    dump_kiosk_unit 30
    exit 1
}
boot=$(date +%s)
elapsed() { echo "[$(( $(date +%s) - boot )) s]"; }
useradd --system --no-create-home --shell /usr/sbin/nologin --user-group -G video,input kiosk || exit 1
mkdir -p /etc/kiosk-carousel /etc/systemd/system/kiosk-carousel.service.d
cp "$dir/config.toml" /etc/kiosk-carousel/config.toml
# The binary goes where the shipped unit expects it (the guest's root is a writable overlay):
# a build folder under /tmp would be hidden from the sandboxed service by PrivateTmp.
install -D -m 0755 "$bin" /usr/local/bin/kiosk-carousel
sed -e 's|^\[Unit\]$|[Unit]\nDefaultDependencies=no|' "$unit" > /etc/systemd/system/kiosk-carousel.service
printf '[Service]\nStandardOutput=file:/run/kiosk-test.log\nStandardError=file:/run/kiosk-test.log\nWatchdogSec=4\n' \
    > /etc/systemd/system/kiosk-carousel.service.d/test-output.conf
start_systemd kiosk-carousel.service || { echo "FAIL: systemd did not start"; exit 1; }
prop() { unit_prop kiosk-carousel "$1"; }
wait_active() {  # SECONDS
    for _ in $(seq 1 "$1"); do [ "$(prop ActiveState)" = active ] && return 0; sleep 1; done
    return 1
}
t0=$(date +%s)
wait_active 90 || fail "not active within 90 s"
echo "$(elapsed) active after $(( $(date +%s) - t0 )) s; StatusText='$(prop StatusText)' WatchdogUSec=$(prop WatchdogUSec)"
[ -n "$(prop StatusText)" ] || fail "no STATUS= from the kiosk"
main=$(prop MainPID)
outer=$(nsenter --target "$sdpid" --mount --pid cat /proc/$main/status 2>/dev/null)
echo "$outer" | grep -E "^(Uid|Groups|NoNewPrivs|Seccomp|CapEff|CapBnd):"
echo "$outer" | grep -q "^Uid:[[:space:]]*$(id -u kiosk)[[:space:]]" || fail "not running as kiosk"
echo "$outer" | grep -q "^NoNewPrivs:[[:space:]]*1" || fail "NoNewPrivs not set"
echo "$outer" | grep -q "^Seccomp:[[:space:]]*2" || fail "no seccomp filter"
echo "$outer" | grep -q "^CapBnd:[[:space:]]*0000000000000000" || fail "capability bounding set not empty"

perms=$(inside stat -c '%a %U' /run/kiosk-carousel /run/kiosk-carousel/control.sock | tr '\n' ' ')
[ "$perms" = "700 kiosk 600 kiosk " ] || fail "runtime folder and socket are '$perms', expected '700 kiosk 600 kiosk '"
inside python3 "$ctl" /run/kiosk-carousel/control.sock '{"cmd":"state"}' || fail "no state reply"
inside python3 "$ctl" /run/kiosk-carousel/control.sock '{"cmd":"select","index":0}' || fail "select refused"
for _ in $(seq 1 50); do [ -s /run/kiosk-carousel/ran ] && break; inside test -s /run/kiosk-carousel/ran && break; sleep 0.2; done
ran=$(inside cat /run/kiosk-carousel/ran 2>/dev/null)
[ "$ran" = "hello $(id -u kiosk)" ] || fail "the background action wrote '$ran', expected 'hello $(id -u kiosk)'"
echo "$(elapsed) control socket: $perms; state answered; a background action ran in the sandbox: '$ran'"

inside kill -STOP "$main"
stopped=$(date +%s)
restarted=
for _ in $(seq 1 60); do
    # One systemctl call per round (each costs most of a second under TCG).
    state=$(sc show kiosk-carousel -p ActiveState -p NRestarts -p MainPID 2>/dev/null)
    st=$(echo "$state" | sed -n 's/^ActiveState=//p'); nr=$(echo "$state" | sed -n 's/^NRestarts=//p')
    new=$(echo "$state" | sed -n 's/^MainPID=//p')
    if [ "${nr:-0}" -ge 1 ] && [ "$st" = active ] && [ "$new" != "$main" ] && [ "$new" != 0 ]; then restarted=1; break; fi
    sleep 1
done
[ -n "$restarted" ] || fail "no watchdog restart within 60 s of SIGSTOP"
dmesg | grep -q "kiosk-carousel.service: Watchdog timeout" || fail "systemd did not log a watchdog timeout"
echo "$(elapsed) watchdog: stopped pid $main, systemd logged a watchdog timeout and restarted it as pid $(prop MainPID) within $(( $(date +%s) - stopped )) s (NRestarts=$(prop NRestarts))"

sc --no-block stop kiosk-carousel || fail "systemctl stop failed"
for _ in $(seq 1 30); do [ "$(prop ActiveState)" = inactive ] && break; sleep 1; done
[ "$(prop ActiveState)" = inactive ] || fail "not inactive 30 s after stop: $(prop ActiveState)"
[ "$(prop ExecMainStatus)" = 0 ] || fail "exit status $(prop ExecMainStatus) after stop"
echo "$(elapsed) stop: inactive, exit status 0"
dmesg | grep "kiosk-carousel.service" | sed 's/^\[ *[0-9.]*\] //' | tail -8
echo PASS
GUEST
"$KIOSK_VM" --timeout 170 -- bash "$tmp/guest.sh" "$BIN" "$here/../../systemd/kiosk-carousel.service" "$tmp" "$here/control-client.py" \
    "$here/lib/systemd-ns.bash"
