#!/usr/bin/env bash
# make reliability: the long versions of every reliability check (docs/reliability.md).
#   1. fuzzing: 1,000,000 runs per harness (scripts/fuzz.sh)
#   2. soak: 1,000,000 random events (scripts/soak.sh)
#   3. faults: config-file faults 20 times, media-folder faults 5 times, signals at 200 random
#      moments, the display connector unplugged/replugged 10 times on virtio-gpu and on bochs
#      (Tests/vm/fault-*.sh; the display one boots kiosk-vm: KIOSK_VM as for scripts/run-vm-tests.sh)
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
# rounds NAME N: Tests/vm/NAME.sh N times; the output of the first failing round is shown.
rounds() {
    local i
    for i in $(seq 1 "$2"); do
        bash "Tests/vm/$1.sh" >"out/$1.log" 2>&1 || { cat "out/$1.log"; echo "$1: round $i failed"; return 1; }
    done
    echo "$1: $2 rounds passed"
}
mkdir -p out
part fuzz scripts/fuzz.sh
part soak scripts/soak.sh
part fault-config rounds fault-config 20
part fault-media rounds fault-media 5
part fault-signals env FAULT_SIGNAL_ROUNDS=200 bash Tests/vm/fault-signals.sh
part fault-display env FAULT_DISPLAYS="virtio:800x480 bochs:640x480" FAULT_HOTPLUG_CYCLES=10 bash Tests/vm/fault-display.sh
echo "reliability: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
