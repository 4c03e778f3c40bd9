# Helpers shared by the Tests/vm/fault-*.sh scripts (sourced; run-vm-tests.sh runs only Tests/vm/*.sh).
# Each fault script starts `kiosk-carousel run --backend headless` ($BIN) on the host (no VM
# needed for config and signal faults), injects faults and checks the kiosk's reaction.
# Each `check` is a step (lib/steps.bash): a failed one says how long it and the earlier ones
# took; every limit here is multiplied by $KIOSK_VM_SLOWDOWN.
source "$(dirname "${BASH_SOURCE[0]}")/steps.bash"

BIN=${BIN:-.build/debug/kiosk-carousel}
[ -x "$BIN" ] || { echo "fault: $BIN not built" >&2; exit 1; }
BIN=$(readlink -f "$BIN")
WORK=$(mktemp -d /tmp/kiosk-fault.XXXXXX)
KIOSK_PID=
trap 'fault_cleanup' EXIT
failures=0; checks=0

fault_cleanup() {
    [ -n "$KIOSK_PID" ] && kill "$KIOSK_PID" 2>/dev/null
    [ -n "${KEEP_FAULT_DIR:-}" ] || rm -rf "$WORK"
}

# A valid config with N items (default 3).
write_config() { # FILE [N]
    local n=${2:-3} i
    {
        printf '[display]\nbackend = "headless"\n\n[carousel]\ntype = "linear"\nitem_size = [200, 150]\n'
        for ((i = 0; i < n; i++)); do printf '\n[[item]]\nid = "item%d"\ntitle = "Item %d"\n' "$i" "$i"; done
    } >"$1"
}

# Starts the kiosk on CONFIG in the background; logs to $WORK/log.txt, events to $WORK/events.jsonl.
start_kiosk() { # CONFIG [EXTRA ARGS...]
    local config=$1; shift
    : >"$WORK/log.txt"
    "$BIN" run --config "$config" --backend headless --events "$WORK/events.jsonl" "$@" >>"$WORK/log.txt" 2>&1 &
    KIOSK_PID=$!
}

# Waits (up to SECONDS, default 20, x the slowdown) until the log has, since the last mark_log,
# a line matching REGEX.
wait_for_log() { # REGEX [SECONDS]
    local deadline=$(( $(date +%s) + $(scaled "${2:-20}") ))
    while ! new_log | grep -qE "$1"; do
        [ "$(date +%s)" -ge "$deadline" ] && return 1
        sleep 0.05
    done
}

# Waits for the kiosk to exit (SIGKILL after SECONDS, default 20, x the slowdown); sets EXIT_RC
# to its exit status (128+N when a signal N ended it). Not for $(...): the kiosk is this shell's child.
wait_exit() { # [SECONDS]
    local deadline=$(( $(date +%s) + $(scaled "${1:-20}") ))
    while kill -0 "$KIOSK_PID" 2>/dev/null; do
        if [ "$(date +%s)" -ge "$deadline" ]; then kill -KILL "$KIOSK_PID" 2>/dev/null; break; fi
        sleep 0.05
    done
    wait "$KIOSK_PID" 2>/dev/null
    EXIT_RC=$?
    KIOSK_PID=
}

check() { # DESCRIPTION COMMAND...
    local what=$1; shift
    checks=$((checks + 1))
    step "$what" >/dev/null  # the step lines are for a guest's console; here the check lines say it
    if "$@"; then echo "  ok   $what"; else failures=$((failures + 1)); echo "  FAIL $what"; step_fail_message "$what"; fi
    _step_end  # a check's time is its own wait, not the faults injected before the next one
}

alive() { kill -0 "$KIOSK_PID" 2>/dev/null; }

# New log lines since the last mark (for "one log line says what happened").
LOG_MARK=0
mark_log() { LOG_MARK=$(wc -l <"$WORK/log.txt"); }
new_log() { tail -n +"$((LOG_MARK + 1))" "$WORK/log.txt" 2>/dev/null; }

finish() {
    echo "$checks checks, $failures failed"
    if [ "$failures" -ne 0 ]; then echo "--- kiosk log"; tail -n 40 "$WORK/log.txt"; fi
    [ "$failures" -eq 0 ]
}
