#!/usr/bin/env bash
# Type=notify and the watchdog, without systemd (the VM has no systemd as PID 1): runs
# `kiosk-carousel run` under Tests/vm/watchdog-stub.py, which behaves like systemd's
# Type=notify + WatchdogSec=3 + NotifyAccess=main. Checks: READY=1 arrives (after the first
# frame), WATCHDOG=1 comes from the loop at least every 1.5 s, and after `kill -STOP` of the
# kiosk the missing pings are detected and the process is ended (SIGABRT, then SIGKILL).
# Then a second run checks STOPPING=1 and a clean exit on SIGTERM.
# Needs: $KIOSK_VM, $BIN (`run` wired to SystemdNotifier).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${KIOSK_VM:?}" "${BIN:?}"
tmp=$(mktemp -d /tmp/kiosk-watchdog.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/config.toml" <<'TOML'
[[item]]
id = "one"
title = "One"

[[item]]
id = "two"
title = "Two"

[[item]]
id = "three"
title = "Three"
TOML
cat > "$tmp/guest.sh" <<'GUEST'
set -u
stub=$1; bin=$2; dir=$3
fail() { echo "FAIL: $*"; echo "--- stub log"; cat "$dir/$log"; exit 1; }
wait_for() {  # PATTERN FILE SECONDS
    for _ in $(seq 1 $(( $3 * 10 ))); do grep -q "$1" "$dir/$2" && return 0; sleep 0.1; done
    return 1
}

# 1. Stalled loop.
log=stall.log
python3 "$stub" --watchdog-sec 3 --start-timeout 60 --kill-after 2 --pid-file "$dir/stall.pid" -- \
    "$bin" run --config "$dir/config.toml" > "$dir/$log" 2>&1 &
stub_pid=$!
wait_for "READY=1" $log 60 || fail "no READY=1 within 60 s"
sleep 4
pings=$(grep -c "WATCHDOG=1" "$dir/$log" || true)
[ "$pings" -ge 2 ] || fail "expected at least 2 WATCHDOG=1 in 4 s, got $pings"
grep -q "ignored a notification" "$dir/$log" && fail "a notification came from another process"
kiosk=$(cat "$dir/stall.pid")
stopped_at=$(date +%s.%N)
kill -STOP "$kiosk"
wait "$stub_pid"; rc=$?
detected_after=$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $stopped_at }")
[ "$rc" -eq 2 ] || fail "stub exit status $rc, expected 2 (watchdog timeout)"
grep -q "watchdog timeout" "$dir/$log" || fail "no watchdog timeout logged"
grep -q "service killed by signal 9" "$dir/$log" || fail "the stopped kiosk was not killed"
echo "stalled loop: $pings pings before SIGSTOP, detected and killed ${detected_after} s after SIGSTOP"

# 2. Clean stop.
log=stop.log
python3 "$stub" --watchdog-sec 3 --pid-file "$dir/stop.pid" -- \
    "$bin" run --config "$dir/config.toml" > "$dir/$log" 2>&1 &
stub_pid=$!
wait_for "READY=1" $log 60 || fail "no READY=1 within 60 s (second run)"
sleep 1
kill -TERM "$stub_pid"
wait "$stub_pid"; rc=$?
grep -q "STOPPING=1" "$dir/$log" || fail "no STOPPING=1 on SIGTERM"
[ "$rc" -eq 0 ] || fail "exit status $rc after SIGTERM, expected 0"
echo "clean stop: STOPPING=1, exit 0"
echo "--- stub log of the stalled run"; cat "$dir/stall.log" | grep "^stub:"
GUEST
"$KIOSK_VM" --timeout 110 -- bash "$tmp/guest.sh" "$here/watchdog-stub.py" "$BIN" "$tmp"
