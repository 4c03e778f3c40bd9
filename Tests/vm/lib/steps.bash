# Sourced by the VM tests' guest scripts (and host scripts that wait): named steps with their
# own deadlines, scaled for a slow or busy host, and a failure that says where it was.
#
#   step NAME                 begins a step (the previous one ends): prints "== step NAME (at T s)"
#                             on stdout (in order with the test's own lines), which
#                             Tests/vm/lib/kiosk-vm-scaled reads on the host to
#                             name the step the guest was in when its --timeout ran out
#   wait_until SECONDS COND   runs the shell text COND every 0.2 s (0.5 s once slower than 1 s
#                             per try) until it succeeds; fails the step after SECONDS x
#                             $KIOSK_VM_SLOWDOWN ("COND: not true within N s"); one that took
#                             more than half its limit prints "== close wait: COND: true after
#                             N s of its M s (step S, …)"; a try that never returns (a command
#                             blocked in the kernel, which no `timeout` can kill) is reported
#                             30 s (x the slowdown) past the limit: "== hang: wait_until COND:
#                             still running …" with every process's state and kernel wait
#                             channel, and the kernel stacks of the tasks in D state
#   step_fail MESSAGE         "FAIL in step X after N s: MESSAGE; earlier steps: a 3 s, b 12 s",
#                             runs $STEP_ON_FAIL (a command: a dump of the unit, a log tail),
#                             exits 1
#   step_fail_message MSG     the same line only (for helpers that return 1 to their caller)
#   scaled SECONDS            SECONDS x $KIOSK_VM_SLOWDOWN, rounded up (for sleeps that measure
#                             a duration must NOT use it; for limits only)
#   steps_done                ends the last step; prints "steps: a 3 s, b 12 s, ... (total N s)"
#
# KIOSK_VM_SLOWDOWN (a factor >= 1, Tests/vm/lib/slowdown.bash) reaches the guest with the rest
# of the host environment (kiosk-vm passes it through); unset means 1. A limit is what the step
# needs on a quiet machine: the factor stretches it as it stretches the VM's boot.

# Times come from $EPOCHREALTIME (bash 5): no process is started to take them.
_steps_us() { REPLY=${EPOCHREALTIME/./}; }
_steps_us; _steps_t0=$REPLY
_step_name=
_step_start=
_steps_done=()

# _steps_secs FROM_US TO_US: seconds with one decimal, into REPLY.
_steps_secs() { local d=$((($2 - $1) / 100000)); REPLY="$((d / 10)).$((d % 10))"; }

scaled() {
    awk -v t="$1" -v f="${KIOSK_VM_SLOWDOWN:-1}" 'BEGIN { if (f < 1) f = 1; v = t * f; i = int(v); if (i < v) i++; print i }'
}

_step_end() {
    [ -n "$_step_name" ] || return 0
    _steps_us; _steps_secs "$_step_start" "$REPLY"
    _steps_done+=("$_step_name $REPLY s")
    _step_name=
}

step() {
    _step_end
    _step_name=$1
    _steps_us; _step_start=$REPLY
    _steps_secs "$_steps_t0" "$_step_start"
    echo "== step $1 (at $REPLY s)"
}

_steps_list() {
    local out= s
    for s in "${_steps_done[@]}"; do out+="${out:+, }$s"; done
    echo "${out:-(none)}"
}

step_fail_message() {
    local took=0
    if [ -n "$_step_name" ]; then _steps_us; _steps_secs "$_step_start" "$REPLY"; took=$REPLY; fi
    echo "FAIL in step ${_step_name:-(none)} after $took s: $*; earlier steps: $(_steps_list)" \
        "(KIOSK_VM_SLOWDOWN=${KIOSK_VM_SLOWDOWN:-1})"
}

step_fail() {
    step_fail_message "$@"
    [ -n "${STEP_ON_FAIL:-}" ] && eval "$STEP_ON_FAIL"
    exit 1
}

# _wait_margin START_US LIMIT COND: a wait that succeeded after more than half its limit says so
# ("== close wait: …"), so a run that passed still shows which limits a busier host would break;
# scripts/run-vm-tests.sh gathers these lines into its summary.
_wait_margin() {
    _steps_us
    local used=$(( (REPLY - $1) / 100000 ))
    [ $((used * 2)) -gt $(($2 * 10)) ] || return 0
    echo "== close wait: $3: true after $((used / 10)).$((used % 10)) s of its $2 s (step ${_step_name:-(none)}, KIOSK_VM_SLOWDOWN=${KIOSK_VM_SLOWDOWN:-1})"
}

# _hang_report WHAT: "== hang: WHAT" and what every process of the guest is doing: its state
# and kernel wait channel, and for each task blocked in the kernel (state D) its kernel stack.
_hang_report() {
    local t st
    echo "== hang: $1 (step ${_step_name:-(none)}); the guest's processes but kernel threads (STAT D: blocked in the kernel):"
    ps -eo pid,ppid,stat,etimes,wchan:32,args --sort=pid 2>&1 | awk '$1 != 2 && $2 != 2' | cut -c1-220 | sed 's/^/    /'
    for t in /proc/[0-9]*/task/[0-9]*; do
        st=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "$t/status" 2>/dev/null)
        [ "$st" = D ] || continue
        echo "    -- task ${t##*/} of $(tr '\0' ' ' < "${t%/task/*}/cmdline" 2>/dev/null | cut -c1-160), kernel stack:"
        sed 's/^/         /' "$t/stack" 2>/dev/null
    done
}

# _hang_guard_start SECONDS WHAT: a watcher that runs _hang_report "WHAT: still running after
# SECONDS s" unless _hang_guard_stop ends it first.
_hang_guard=
_hang_guard_start() {
    local after=$1 what=$2
    (
        s=
        trap '[ -n "$s" ] && kill "$s" 2>/dev/null; exit 0' TERM
        sleep "$after" & s=$!
        wait "$s"
        _hang_report "$what: still running after $after s"
    ) &
    _hang_guard=$!
}
_hang_guard_stop() {
    [ -n "$_hang_guard" ] || return 0
    kill "$_hang_guard" 2>/dev/null
    wait "$_hang_guard" 2>/dev/null
    _hang_guard=
}

wait_until() {
    local limit start try_start pause=0.2
    limit=$(scaled "$1"); shift
    _steps_us; start=$REPLY
    _hang_guard_start $((limit + $(scaled 30))) "wait_until $1"
    while true; do
        _steps_us; try_start=$REPLY
        if eval "$1"; then _hang_guard_stop; _wait_margin "$start" "$limit" "$1"; return 0; fi
        _steps_us
        [ $((REPLY - start)) -ge $((limit * 1000000)) ] && { _hang_guard_stop; step_fail "$1: not true within $limit s"; }
        [ $((REPLY - try_start)) -ge 1000000 ] && pause=0.5
        sleep "$pause"
    done
}

steps_done() {
    _step_end
    _steps_us; _steps_secs "$_steps_t0" "$REPLY"
    echo "steps: $(_steps_list) (total $REPLY s)"
}
