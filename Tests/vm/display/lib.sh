# Shared by Tests/vm/display-*.sh: the VM tests of the display backends.
# Environment (scripts/run-vm-tests.sh sets both): KIOSK_VM (the kiosk-vm script), BIN (kiosk-carousel).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$top"
# The harness lives in ../shared/vm next to the main checkout (one level further up from a worktree).
if [ -z "${KIOSK_VM:-}" ]; then
    KIOSK_VM=$top/../shared/vm/kiosk-vm
    [ -x "$KIOSK_VM" ] || KIOSK_VM=$top/../../shared/vm/kiosk-vm
fi
BIN=${BIN:-$top/.build/debug/kiosk-carousel}
here=Tests/vm/display
CONFIG=$here/carousel.toml
SCRIPT=$here/scroll.jsonl
OUT=$(mktemp -d /tmp/display-vm.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
failures=0

say() { printf '%s\n' "$*"; }
fail() { say "FAIL: $*"; failures=$((failures + 1)); }
check() { local what=$1; shift; if "$@"; then say "ok: $what"; else fail "$what"; fi; }

# vm DISPLAY SIZE COMMAND...: runs COMMAND in a guest, screenshots into $OUT, log into $OUT/vm.log.
vm() {
    local display=$1 size=$2; shift 2
    # Screenshots of an earlier run must not stand in for missing ones.
    find "$OUT" -maxdepth 1 -name '*.png' ! -name 'ref*.png' -delete
    "$KIOSK_VM" --display "$display" --size "$size" --out "$OUT" --timeout "${VM_TIMEOUT:-110}" -- "$@" >"$OUT/vm.log" 2>&1
    local rc=$?
    cat "$OUT/vm.log"
    return $rc
}

# simulate SIZE T=FILE...: reference frames drawn by `simulate` (same config and script).
simulate() {
    local size=$1; shift
    local args=()
    for s in "$@"; do args+=(--shot "$s"); done
    "$BIN" simulate --config "$CONFIG" --input "$SCRIPT" --until 4 --size "$size" "${args[@]}" >/dev/null
}

# same REF SHOT [compare.py options]: the screenshot matches the reference closely.
same() { python3 "$here/compare.py" "$@"; }
# different A B: the two pictures clearly differ (the comparison can fail).
different() { python3 "$here/compare.py" "$1" "$2" --expect-different; }
# stat NAME: a value from display-test's "stats" line in the last VM log.
stat() { grep -o "^stats .*" "$OUT/vm.log" | tr ' ' '\n' | sed -n "s/^$1=//p" | tail -1; }

finish() {
    if [ "$failures" -eq 0 ]; then say "all checks passed"; exit 0; fi
    say "$failures check(s) failed"; exit 1
}
