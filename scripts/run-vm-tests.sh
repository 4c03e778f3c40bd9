#!/usr/bin/env bash
# Runs every Tests/vm/*.sh (each boots ../shared/vm/kiosk-vm one or more times and exits 0 on
# success) and prints one line per test, then "N passed, N failed".
# Needs a built binary: BIN (default .build/debug/kiosk-carousel).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export KIOSK_VM=${KIOSK_VM:-$top/../shared/vm/kiosk-vm}
export BIN=${BIN:-$top/.build/debug/kiosk-carousel}
if [ ! -x "$KIOSK_VM" ]; then
    echo "run-vm-tests: $KIOSK_VM not found (the VM harness lives in ../shared/vm)" >&2
    exit 1
fi
# Time limits follow the host (Tests/vm/lib/slowdown.bash): every step's limit is multiplied by
# KIOSK_VM_SLOWDOWN (Tests/vm/lib/steps.bash; docs/reliability.md, "Time limits of the VM tests").
source "$top/Tests/vm/lib/slowdown.bash"
vm_slowdown_setup
pass=0; fail=0; failed=()
logdir=${VM_LOG_DIR:-$top/out/vm-logs}
mkdir -p "$logdir"
for t in Tests/vm/*.sh; do
    [ -e "$t" ] || continue
    name=$(basename "$t" .sh)
    start=$(date +%s)
    if bash "$t" >"$logdir/$name.log" 2>&1; then
        pass=$((pass + 1)); echo "PASS $name ($(( $(date +%s) - start )) s)"
    else
        fail=$((fail + 1)); failed+=("$name"); echo "FAIL $name ($(( $(date +%s) - start )) s) — log: $logdir/$name.log"
        tail -n 30 "$logdir/$name.log" | sed 's/^/    /'
    fi
done
echo "vm: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
