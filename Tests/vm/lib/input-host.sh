# Host side of the input VM tests (Tests/vm/input-*.sh), sourced by them. Sets `lib` (this
# folder), `top` (the repository), KIOSK_VM and BIN (absolute) with their defaults.
lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$lib/../../.." && pwd)
KIOSK_VM=${KIOSK_VM:-$top/../shared/vm/kiosk-vm}
BIN=$(realpath "${BIN:-$top/.build/debug/kiosk-carousel}")

# work_folder NAME: a fresh folder for the run, shared with the guest, into `out`.
work_folder() {
    out=$(mktemp -d "/tmp/kiosk-$1.XXXXXX")
    echo "work folder: $out"
}

# guest_script: writes OUT/guest.sh: the guest helpers (lib/input-guest.sh with BIN, OUT, TOP
# set), then the commands read from stdin.
guest_script() {
    { printf 'set -u\nBIN=%q OUT=%q TOP=%q\nsource "$TOP/Tests/vm/lib/input-guest.sh"\n' "$BIN" "$out" "$top"; cat; } \
        > "$out/guest.sh"
}

# run_guest OUT KIOSK-VM-OPTIONS...: boots kiosk-vm (800x480 panel) running OUT/guest.sh with OUT
# shared read-write, prints what the guest left there (logs, uinput-play output, recordings and
# events), and exits the test when the guest failed.
run_guest() {
    local out=$1 f rc
    shift
    "$KIOSK_VM" --size 800x480 --rw "$out" "$@" -- bash "$out/guest.sh"
    rc=$?
    for f in "$out"/*.err "$out"/*.play.out "$out"/*.jsonl; do
        [ -e "$f" ] && { echo "--- $(basename "$f")"; sed 's/^/    /' "$f"; }
    done
    [ "$rc" = 0 ] || { echo "kiosk-vm failed (exit $rc)"; exit 1; }
}

# check_events OUT [ARG]: runs the Python checks read from stdin with lib/events.py's helpers
# imported, `d` = OUT and `arg` = ARG; exits with their status.
check_events() {
    python3 -c "import sys; sys.path.insert(0, sys.argv[1]); from events import *; d, arg = sys.argv[2], sys.argv[3]; exec(sys.stdin.read()); finish()" \
        "$lib" "$1" "${2:-}"
}
