# Helpers for Tests/vm/kiosk-dpms.sh, sourced INSIDE kiosk-vm after lib/input-guest.sh.
# Needs: OUT (the shared work folder, holding dpms-state, kiosk.toml and events.jsonl).

T0=$(date +%s.%N)

# note TEXT: TEXT with the seconds since the guest script started.
note() { echo "guest: $(echo "$(date +%s.%N) - $T0" | bc | cut -c1-5) s: $*"; }

# dpms NAME: the connectors' DPMS read from a second file of the card into $OUT/dpms-NAME.txt.
dpms() { "$OUT/dpms-state" > "$OUT/dpms-$1.txt" 2>&1; note "dpms $1: $(cat "$OUT/dpms-$1.txt")"; }

# events NAME: how many NAME events the kiosk wrote so far (0 before it has made the file).
events() { local n; n=$(grep -c "\"$1\"" "$OUT/events.jsonl" 2>/dev/null); echo "${n:-0}"; }

# wait_event NAME COUNT SECONDS: until there are COUNT NAME events (SECONDS x the slowdown).
wait_event() {
    local limit deadline
    limit=$(scaled "$3"); deadline=$((SECONDS + limit))
    while ((SECONDS < deadline)); do [ "$(events "$1")" -ge "$2" ] && return 0; sleep 0.1; done
    step_fail_message "no event $1 #$2 within $limit s"
    return 1
}

# blanked_since_reload N: true once a screen_blanked event follows the Nth reloaded event.
blanked_since_reload() {
    awk -v want="$1" '/"reloaded"/ { n++ } n >= want && /"screen_blanked"/ { b++ } END { exit !b }' "$OUT/events.jsonl"
}

# wait_blank_after_reload N SECONDS (x the slowdown)
wait_blank_after_reload() {
    local limit deadline
    limit=$(scaled "$2"); deadline=$((SECONDS + limit))
    while ((SECONDS < deadline)); do blanked_since_reload "$1" && return 0; sleep 0.1; done
    step_fail_message "no screen_blanked after reload #$1 within $limit s"
    return 1
}

# set_blank_after SECONDS: rewrites the config file; the kiosk reloads it (inotify), which
# counts as activity, so the new blank_after runs from then.
set_blank_after() { sed -i "s/^blank_after = .*/blank_after = $1/" "$OUT/kiosk.toml"; }

# stop_kiosk PID: SIGTERM, the exit status into $OUT/run.rc.
stop_kiosk() {
    kill -TERM "$1"
    wait "$1"
    echo $? > "$OUT/run.rc"
}

# kiosk_state PID: the kiosk's threads with their state and kernel wait channel (when it hangs).
kiosk_state() {
    echo "guest: kiosk-carousel $1, per thread: name, state, kernel wait channel" >&2
    for t in /proc/"$1"/task/*; do
        echo "    $(cat "$t/comm") $(cut -d' ' -f3 "$t/stat") $(cat "$t/wchan" 2>/dev/null)" >&2
        sed 's/^/        /' "$t/stack" >&2 2>/dev/null
    done
}
