# Helpers for Tests/vm/kiosk-start-under-udev-churn.sh, sourced INSIDE kiosk-vm after
# lib/input-guest.sh. Needs: BIN, OUT, TOP.

exec {NAP_FD}<> <(:)
# nap SECONDS: sleep without starting a process (a fork costs tens of ms under TCG, and the
# start-up being timed shares the guest's CPUs with this loop).
nap() { read -t "$1" -u "$NAP_FD" || true; }
# now_ms: milliseconds of wall time, into REPLY (no fork).
now_ms() { local t=${EPOCHREALTIME/./}; REPLY=$((t / 1000)); }

# thread_stacks PID: every thread's name, state and kernel stack, into $OUT/hang.txt.
thread_stacks() {
    local t text="kiosk-carousel $1, per thread: id, name, state, kernel wait channel, kernel stack"
    for t in /proc/"$1"/task/*; do
        text+=$'\n'"  ${t##*/} $(<"$t/comm") $(cut -d' ' -f3 "$t/stat") $(<"$t/wchan")"$'\n'"$(sed 's/^/      /' "$t/stack")"
    done
    echo "$text" >> "$OUT/hang.txt"
}

# start_kiosk N CONFIG BOUND: starts `kiosk-carousel run`, waits at most BOUND seconds for its
# first frame and appends `start N CONFIG ok|crashed|hung MS` to $OUT/starts.txt. A start that
# hangs gets its threads' kernel stacks written, then SIGABRT: the Swift runtime's backtracer
# prints every thread's user stack into the log (SWIFT_BACKTRACE below). Leaves the kiosk running
# (PID in KIOSK) when it showed a frame.
start_kiosk() {
    local n=$1 cfg=$2 bound_ms=$(($3 * 1000)) log="$OUT/run-$1.err" t0 el lines
    : > "$log"
    now_ms; t0=$REPLY
    SWIFT_BACKTRACE=enable=yes,interactive=no,threads=all,registers=none,images=none,sanitize=no,preset=full \
        "$BIN" run --config "$cfg" > "$log" 2>&1 &
    KIOSK=$!
    while :; do
        now_ms; el=$((REPLY - t0))
        lines=$(<"$log")
        if [[ $lines == *"first frame on screen"* ]]; then
            echo "start $n ${cfg##*/} ok $el" >> "$OUT/starts.txt"
            return 0
        fi
        if [ ! -d /proc/$KIOSK ] || [[ $lines == *"Program crashed"* ]]; then
            wait $KIOSK
            echo "start $n ${cfg##*/} crashed $el" >> "$OUT/starts.txt"
            return 1
        fi
        if ((el > bound_ms)); then
            thread_stacks $KIOSK
            kill -ABRT $KIOSK
            wait $KIOSK
            echo "start $n ${cfg##*/} hung $el" >> "$OUT/starts.txt"
            return 1
        fi
        nap 0.05
    done
}

# stop_kiosk N: SIGTERM; `stop N RC` into $OUT/starts.txt.
stop_kiosk_run() {
    kill -TERM $KIOSK
    wait $KIOSK
    echo "stop $1 $?" >> "$OUT/starts.txt"
}
