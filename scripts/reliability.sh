#!/usr/bin/env bash
# make reliability: the long versions of every reliability check (docs/reliability.md).
#   1. fuzzing: 1,000,000 runs per harness (scripts/fuzz.sh)
#   2. soak: 1,000,000 random events (scripts/soak.sh)
#   3. faults: config-file faults 20 times, signals at 200 random moments (Tests/vm/fault-*.sh)
# Prints one line per part and "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
export BIN=${BIN:-.build/debug/kiosk-carousel}
pass=0; fail=0
part() { # NAME COMMAND...
    local name=$1; shift
    local t0=$(date +%s)
    if "$@"; then pass=$((pass + 1)); echo "PASS $name ($(( $(date +%s) - t0 )) s)"
    else fail=$((fail + 1)); echo "FAIL $name ($(( $(date +%s) - t0 )) s)"; fi
}
config_faults() { for i in $(seq 1 20); do bash Tests/vm/fault-config.sh >/dev/null || { bash Tests/vm/fault-config.sh; return 1; }; done; echo "fault-config: 20 rounds passed"; }
part fuzz scripts/fuzz.sh
part soak scripts/soak.sh
part fault-config config_faults
part fault-signals env FAULT_SIGNAL_ROUNDS=200 bash Tests/vm/fault-signals.sh
echo "reliability: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
