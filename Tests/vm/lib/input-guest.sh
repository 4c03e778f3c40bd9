# Helpers for the input VM tests, sourced INSIDE kiosk-vm by the guest side of
# Tests/vm/input-*.sh. Needs: BIN (kiosk-carousel), OUT (a --rw folder), TOP (the repo).
# Devices are made and played by scripts/uinput-play.py (python3-evdev, /usr/bin/python3).
# Waits are per step (lib/steps.bash: `step NAME`, limits x $KIOSK_VM_SLOWDOWN).
source "$TOP/Tests/vm/lib/steps.bash"

PLAY_PID= REC_PID=

# play NAME: runs $OUT/NAME.play in the background; its output goes to $OUT/NAME.play.out.
play() {
    /usr/bin/python3 "$TOP/scripts/uinput-play.py" "$OUT/$1.play" > "$OUT/$1.play.out" 2>&1 &
    PLAY_PID=$!
}

# wait_for FILE TEXT [SECONDS]: until FILE contains TEXT (SECONDS, default 20, x the slowdown);
# on time-out says which step it was in and returns 1.
wait_for() {
    local limit deadline
    limit=$(scaled "${3:-20}")
    deadline=$((SECONDS + limit))
    while ((SECONDS < deadline)); do
        grep -q -- "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    step_fail_message "'$2' not in $1 within $limit s"
    echo "guest: timed out waiting for '$2' in $1" >&2
    cat "$1" >&2
    return 1
}

# record NAME ARGS...: starts `kiosk-carousel record --out $OUT/NAME.jsonl ARGS...` and waits
# until it has opened the devices (it says so on stderr).
record() {
    local name=$1; shift
    "$BIN" record --out "$OUT/$name.jsonl" --seconds "$(scaled 60)" "$@" > "$OUT/$name.err" 2>&1 &
    REC_PID=$!
    local t0=$SECONDS
    wait_for "$OUT/$name.err" "record: writing" 60 || return 1
    echo "guest: record $name ready after $((SECONDS - t0)) s"
}

# stop_record NAME: SIGINT, then the exit status into $OUT/NAME.rc.
stop_record() {
    sleep 0.3
    kill -INT "$REC_PID"
    wait "$REC_PID"
    echo $? > "$OUT/$1.rc"
}
