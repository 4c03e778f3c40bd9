#!/usr/bin/env bash
# Launched programs that misbehave, against a running kiosk (headless backend, control socket;
# no VM needed — the DRM hand-over itself is proven by Tests/vm/kiosk-exec.sh): a program that
# crashes (SIGSEGV), one that hangs past its timeout and ignores SIGTERM, a foreground program
# that exits but leaves a child holding on (it "never releases the screen"), and one that does
# not exist any more (deleted after the config was checked). Each time the kiosk must stay up, log one line saying what happened, record the
# action event, and take selections again afterwards.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/fault.bash"
sock=$WORK/control.sock
cfg=$WORK/config.toml
printf '#!/bin/sh\nexit 0\n' >"$WORK/program"; chmod +x "$WORK/program"
cat >"$cfg" <<TOML
[display]
backend = "headless"

[control]
socket = "$sock"

[[item]]
id = "crash"
title = "Crashes"
action = { exec = ["/bin/sh", "-c", "kill -SEGV \$\$"], mode = "background" }

[[item]]
id = "hang"
title = "Hangs, ignores SIGTERM"
action = { exec = ["/bin/sh", "-c", "trap '' TERM; sleep 60"], mode = "foreground", timeout = 1 }

[[item]]
id = "holdout"
title = "Exits, leaves a child"
action = { exec = ["/bin/sh", "-c", "(trap '' TERM; sleep 60) & exit 0"], mode = "foreground" }

[[item]]
id = "missing"
title = "Deleted after start"
action = { exec = ["$WORK/program"], mode = "foreground" }
TOML
start_kiosk "$cfg"
check "starts" wait_for_log 'running: 4 items'
select_item() { /usr/bin/python3 "$here/control-client.py" "$sock" "{\"cmd\":\"select\",\"index\":$1}" >/dev/null; }
# Until the kiosk says (control `state`) that no foreground program holds the screen any more.
foreground_done() { # [SECONDS] (x the slowdown)
    local deadline=$(( $(date +%s) + $(scaled "${1:-20}") ))
    until /usr/bin/python3 "$here/control-client.py" "$sock" '{"cmd":"state"}' 2>/dev/null | grep -q '"foreground":false'; do
        [ "$(date +%s)" -ge "$deadline" ] && return 1
        sleep 0.2
    done
}
event_seen() { grep -q "$1" "$WORK/events.jsonl"; }
wait_event() { # REGEX [SECONDS] (x the slowdown)
    local deadline=$(( $(date +%s) + $(scaled "${2:-20}") ))
    until event_seen "$1"; do [ "$(date +%s)" -ge "$deadline" ] && return 1; sleep 0.1; done
}

mark_log; select_item 0
check "crash: exit by SIGSEGV recorded" wait_event '"action_exited".*SIGSEGV\|"action_exited".*"signal":11'
check "crash: one log line names the item" wait_for_log "item 0 'crash'" 10
check "crash: still running" alive

mark_log; select_item 1
check "hang: SIGTERM at the timeout" wait_event '"action_timeout"' 10
check "hang: SIGKILL after the grace period, exit recorded" wait_event '"action_exited".*"timed_out":true' 20
check "hang: logged" wait_for_log "item 1 'hang'.*timed out" 5
check "hang: still running" alive
# Whatever the shell left in the group (its `sleep`, TERM ignored) gets TERM, then KILL after 5 s.
check "hang: the screen is given back (no foreground program left)" foreground_done 20

# Count before selecting: the program exits at once, so its event may be written before
# select_item returns.
leftovers() { grep -c '"action_leftovers"' "$WORK/events.jsonl"; }
before=$(leftovers)
mark_log; select_item 2
check "holdout: leftovers recorded" bash -c "for i in \$(seq $(scaled 200)); do [ \$(grep -c '\"action_leftovers\"' '$WORK/events.jsonl') -gt $before ] && exit 0; sleep 0.1; done; exit 1"
check "holdout: logged" wait_for_log "item 2 'holdout'.*left processes running" 10
check "holdout: leftovers gone, screen taken back (leftovers gone logged)" wait_for_log "leftovers (are gone|.*sent SIGKILL)" 20
check "holdout: still running" alive
check "holdout: the screen is given back once the leftovers are gone" foreground_done 20

rm -f "$WORK/program"
mark_log; select_item 3
check "missing program: action_failed" wait_event '"action_failed"' 10
check "missing program: still running" alive

mark_log; select_item 0
check "selections work again afterwards" wait_event '"selected".*"index":0' 5

mark_log
kill -TERM "$KIOSK_PID"
wait_exit 20
check "SIGTERM: exit status 0 (was $EXIT_RC)" [ "$EXIT_RC" -eq 0 ]
finish
