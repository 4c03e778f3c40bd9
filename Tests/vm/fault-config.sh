#!/usr/bin/env bash
# Config-file faults against a running kiosk (headless backend; no VM needed): the file replaced
# by garbage, written half-way in place, deleted, re-created, swapped by an atomic rename,
# replaced by a binary file and by an oversized one, and SIGHUP while it is broken. Each time the
# kiosk must keep running (the old configuration when the new one is bad), say what happened in
# a log line, and record a `reloaded` event; SIGTERM at the end must exit 0.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/fault.bash"
cfg=$WORK/config.toml
write_config "$cfg" 3
start_kiosk "$cfg"
check "starts" wait_for_log 'running: 3 items'

reload_count() { local n; n=$(grep -c '"event":"reloaded"' "$WORK/events.jsonl" 2>/dev/null); echo "${n:-0}"; }
expect_rejected() { # DESCRIPTION
    local before=$1
    wait_for_log "kept the running configuration" 10 && [ "$(reload_count)" -gt "$before" ] &&
        grep -q '"ok":false' <(tail -n 1 "$WORK/events.jsonl") && alive
}
expect_applied() { # N-ITEMS
    wait_for_log "reloaded .*: $1 items" 10 && grep -q '"ok":true' <(grep reloaded "$WORK/events.jsonl" | tail -n 1) && alive
}

# 1. Garbage written in place.
mark_log; n=$(reload_count)
printf 'this is = = not [toml\n' >"$cfg"
check "garbage in place: rejected, old config kept, still running" expect_rejected "$n"
check "garbage in place: the problem is logged with FILE:LINE:COLUMN" grep -qE "config.toml:[0-9]+:[0-9]+: " <(new_log)

# 2. A valid file with 5 items by atomic rename (what editors and config tools should do).
mark_log
write_config "$WORK/new.toml" 5; mv "$WORK/new.toml" "$cfg"
check "atomic rename of a valid file: applied (5 items)" expect_applied 5

# 3. Written half-way in place: the writer dies in the middle of a string.
mark_log; n=$(reload_count)
write_config "$WORK/full.toml" 7
head -c "$(( $(wc -c <"$WORK/full.toml") * 2 / 3 ))" "$WORK/full.toml" | sed '$ s/"[^"]*$/"Ite/' >"$cfg"
check "half-written file (cut inside a string): rejected, still running" expect_rejected "$n"

# 4. Deleted.
mark_log; n=$(reload_count)
rm -f "$cfg"
check "config deleted: reload refused, old config kept, still running" expect_rejected "$n"
check "config deleted: the log names the file" grep -q "config.toml" <(new_log)

# 5. Re-created (valid, 2 items): picked up again although the file was gone in between.
mark_log
write_config "$cfg" 2
check "re-created: applied (2 items)" expect_applied 2
check "re-created in place: no empty configuration applied while it was being written" bash -c '! grep -q ": 0 items"' < <(new_log)

# 6. Binary garbage, then a file over the size limit.
mark_log; n=$(reload_count)
head -c 4096 /dev/urandom >"$WORK/bin.toml"; mv "$WORK/bin.toml" "$cfg"
check "binary file: rejected, still running" expect_rejected "$n"
mark_log; n=$(reload_count)
head -c $((17 << 20)) /dev/zero | tr '\0' '#' >"$WORK/big.toml"; mv "$WORK/big.toml" "$cfg"
check "17 MB file: refused, still running" expect_rejected "$n"

# 7. SIGHUP while the file is broken, then a good file and SIGHUP.
printf '[carousel\n' >"$cfg"; sleep 0.3
mark_log; n=$(reload_count)
kill -HUP "$KIOSK_PID"
check "SIGHUP with a broken file: rejected, still running" expect_rejected "$n"
mark_log
write_config "$WORK/ok.toml" 4; mv "$WORK/ok.toml" "$cfg"
check "valid again: applied (4 items)" expect_applied 4

# 8. SIGTERM: clean exit, one line saying so.
mark_log
kill -TERM "$KIOSK_PID"
wait_exit 10
check "SIGTERM: exit status 0 (was $EXIT_RC)" [ "$EXIT_RC" -eq 0 ]
check "SIGTERM: logged" grep -q "received SIGTERM" <(new_log)
finish
