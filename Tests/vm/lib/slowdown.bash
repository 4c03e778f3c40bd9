# Sourced by the test runners (scripts/run-vm-tests.sh, scripts/run-package-tests.sh): time
# limits follow the host. `vm_slowdown_setup` measures a boot of `kiosk-vm -- true` against a
# quiet machine's (4.5 s, ../shared/vm/README.md) unless KIOSK_VM_SLOWDOWN is set, then exports
#   KIOSK_VM_SLOWDOWN  the factor (>= 1) every VM test multiplies its waits by;
#   KIOSK_VM_REAL      the real kiosk-vm;
#   KIOSK_VM           Tests/vm/lib/kiosk-vm-scaled, which scales each --timeout by the factor.
# VM_SLOWDOWN_BOOTS=N (default 1): N boots at once, the slowest counted — for a runner that will
# run N guests at a time (run-vm-tests.sh's VM_JOBS), so the factor is the load they will see.
# Needs KIOSK_VM (the real one) set before.
vm_slowdown_setup() {
    local here t0 boot n i pids=()
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    if [ -z "${KIOSK_VM_SLOWDOWN:-}" ]; then
        n=${VM_SLOWDOWN_BOOTS:-1}
        t0=$(date +%s.%N)
        for ((i = 0; i < n; i++)); do "$KIOSK_VM" --timeout 120 -- true >/dev/null 2>&1 & pids+=($!); done
        wait "${pids[@]}"
        boot=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
        KIOSK_VM_SLOWDOWN=$(awk -v b="$boot" 'BEGIN { f = b / 4.5; printf "%.1f", f < 1 ? 1 : f }')
        echo "$( [ "$n" -gt 1 ] && echo "$n VM boots at once took" || echo "a VM boot took") $boot s here: time limits x $KIOSK_VM_SLOWDOWN (KIOSK_VM_SLOWDOWN)"
    fi
    export KIOSK_VM_SLOWDOWN KIOSK_VM_REAL=$KIOSK_VM
    export KIOSK_VM=$here/kiosk-vm-scaled
}
