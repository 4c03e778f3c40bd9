#!/usr/bin/env bash
# Runs every Tests/vm/*.sh (each boots ../shared/vm/kiosk-vm one or more times and exits 0 on
# success) and prints one line per test as it ends, then "N passed, N failed".
# Needs a built binary: BIN (default .build/debug/kiosk-carousel). VM_TESTS="a b": only those.
#
# VM_JOBS (default 1): tests run that many at a time. Each test has its own kiosk-vm (its own
# run folder, QMP socket and shared folder) and its own mktemp folder, so they do not meet; the
# time limits follow: the slowdown factor is measured with VM_JOBS boots at once
# (Tests/vm/lib/slowdown.bash), the load the tests will see. Measured (stop 50): six tests on a quiet host 302 s one at a time, 244 s two at a
# time; but the whole suite in CI's make test took as long two at a time (~1,240 s) as one at a
# time — each test ran ~2x as long, its scaled waits (a factor of 3.5 instead of 1.6) with it —
# so make test runs them one at a time, and a guest's idle share goes to CI's background builds.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export KIOSK_VM=${KIOSK_VM:-$top/../shared/vm/kiosk-vm}
export BIN=${BIN:-$top/.build/debug/kiosk-carousel}
jobs=${VM_JOBS:-1}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run-vm-tests: VM_JOBS=$jobs: a number >= 1" >&2; exit 2; }
if [ ! -x "$KIOSK_VM" ]; then
    echo "run-vm-tests: $KIOSK_VM not found (the VM harness lives in ../shared/vm)" >&2
    exit 1
fi
# Time limits follow the host (Tests/vm/lib/slowdown.bash): every step's limit is multiplied by
# KIOSK_VM_SLOWDOWN (Tests/vm/lib/steps.bash; docs/reliability.md, "Time limits of the VM tests").
source "$top/Tests/vm/lib/slowdown.bash"
VM_SLOWDOWN_BOOTS=$jobs vm_slowdown_setup
logdir=${VM_LOG_DIR:-$top/out/vm-logs}
mkdir -p "$logdir"
results=$(mktemp -d "${TMPDIR:-/tmp}/kiosk-vm-tests.XXXXXX")
trap 'rm -rf "$results"' EXIT

tests=()
for t in Tests/vm/*.sh; do [ -e "$t" ] && tests+=("$(basename "$t" .sh)"); done
# VM_TESTS="name name…": only those (the names of Tests/vm/*.sh without .sh).
if [ -n "${VM_TESTS:-}" ]; then
    for name in $VM_TESTS; do
        [ -e "Tests/vm/$name.sh" ] || { echo "run-vm-tests: VM_TESTS names $name: no Tests/vm/$name.sh" >&2; exit 2; }
    done
    read -r -a tests <<< "$VM_TESTS"
fi

# run_one NAME: the test, its log in $logdir, its line and status in $results.
run_one() {
    local name=$1 start status took
    start=$(date +%s)
    bash "Tests/vm/$name.sh" >"$logdir/$name.log" 2>&1
    status=$?
    took=$(( $(date +%s) - start ))
    if [ "$status" -eq 0 ]; then
        echo "PASS $name ($took s)" > "$results/$name.line"
    else
        { echo "FAIL $name ($took s) — log: $logdir/$name.log"
          tail -n 30 "$logdir/$name.log" | sed 's/^/    /'; } > "$results/$name.line"
    fi
    echo "$status" > "$results/$name.status"
}

# A pool of $jobs: start a test whenever fewer than $jobs run; print each as it ends.
running=()
print_ended() {
    local still=() name
    for name in "${running[@]}"; do
        if [ -e "$results/$name.status" ]; then cat "$results/$name.line"; else still+=("$name"); fi
    done
    running=("${still[@]}")
}
for name in "${tests[@]}"; do
    while [ "${#running[@]}" -ge "$jobs" ]; do
        wait -n 2>/dev/null || true
        print_ended
    done
    run_one "$name" &
    running+=("$name")
done
wait
print_ended

pass=0; fail=0
for name in "${tests[@]}"; do
    if [ "$(cat "$results/$name.status" 2>/dev/null)" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
# Again at the end, where a log that keeps only the last lines (CI's) still shows them: the waits
# that took more than half their limit (Tests/vm/lib/steps.bash), then each failed test with the
# line that says where it failed.
for name in "${tests[@]}"; do
    grep -h -m 5 '^== close wait: ' "$logdir/$name.log" 2>/dev/null | sed "s/^== /$name: /"
done
for name in "${tests[@]}"; do
    [ "$(cat "$results/$name.status" 2>/dev/null)" = 0 ] && continue
    where=$(grep -h -E 'FAIL in step|^ *FAIL |FAIL:|kiosk-vm-scaled: the guest|not true within|^kiosk-vm: (error:|missing prereq|the guest)' "$logdir/$name.log" 2>/dev/null | tail -n 2 | cut -c1-400 | paste -sd ';' -)
    echo "failed: $name — ${where:-see $logdir/$name.log}"
done
echo "vm: $pass passed, $fail failed ($jobs at a time, KIOSK_VM_SLOWDOWN=$KIOSK_VM_SLOWDOWN)"
[ "$fail" -eq 0 ]
