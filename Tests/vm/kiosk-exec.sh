#!/usr/bin/env bash
# A foreground exec action hands the screen over and gets it back, on a real kernel:
#   1. the kiosk shows the carousel (screendump exec-before);
#   2. `select` over the control socket starts Tests/vm/fill-screen (built here), which
#      becomes DRM master, sets its own mode and fills the screen orange (screendump
#      exec-child, taken by the program itself while it holds the screen);
#   3. it exits; the kiosk takes DRM master back and redraws (screendump exec-after equals
#      exec-before at the sampled points, and is not orange);
#   4. action_started / action_exited (status 0) are in the events file;
#   5. SIGTERM: the kiosk exits 0.
# Needs: $KIOSK_VM, $BIN with `run` wired to the DRM backend, ActionRunner and ControlServer.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${KIOSK_VM:?}" "${BIN:?}"
tmp=$(mktemp -d /tmp/kiosk-exec.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -Wall -o "$tmp/fill-screen" "$here/fill-screen.c" $(pkg-config --cflags --libs libdrm)
cat > "$tmp/config.toml" <<TOML
[display]
backend = "drm"

[control]
socket = "$tmp/run/control.sock"

[[item]]
id = "orange"
title = "Orange program"
action = { exec = ["$tmp/fill-screen", "ff8000", "2", "exec-child", "0"], mode = "foreground", timeout = 60 }

[[item]]
id = "two"
title = "Two"

[[item]]
id = "three"
title = "Three"
TOML
cat > "$tmp/guest.sh" <<'GUEST'
set -u
bin=$1; dir=$2; pngcheck=$3; ctl=$4
fail() { echo "FAIL: $*"; echo "--- kiosk log"; cat "$dir/kiosk.log"; echo "--- events"; cat "$dir/events.jsonl"; exit 1; }
# The colours at three points (one PNG decode: pngcheck.py is pure Python, slow under TCG).
points="20,20 320,240 600,400"
colours() { python3 "$pngcheck" "$1" $(for p in $points; do echo "$p=000000"; done) | sed -n 's/.*) = \([0-9a-f]*\).*/\1/p' | tr '\n' ' '; }
"$bin" run --config "$dir/config.toml" --events "$dir/events.jsonl" > "$dir/kiosk.log" 2>&1 &
kiosk=$!
state=$(python3 "$ctl" "$dir/run/control.sock" '{"cmd":"state"}') || fail "no state reply"
echo "state: $state"
# Card faces are drawn off the loop and fade in: wait until the screen is still (no frame in
# the last second, as `state` reports) before taking the reference picture.
for _ in $(seq 1 60); do
    sleep 0.5
    python3 "$ctl" "$dir/run/control.sock" '{"cmd":"state"}' | grep -q '"fps":0[,}]' && break
done
before=$(kiosk-vm-shot exec-before)
python3 "$ctl" "$dir/run/control.sock" '{"cmd":"select","index":0}' || fail "select refused"
for _ in $(seq 1 600); do grep -q '"action_exited"' "$dir/events.jsonl" && break; sleep 0.1; done
grep -q '"action_exited"' "$dir/events.jsonl" || fail "no action_exited event"
grep '"action_exited"' "$dir/events.jsonl" | grep -q '"status":0' || fail "the program did not exit 0"
grep -q '"action_started"' "$dir/events.jsonl" || fail "no action_started event"
sleep 2
after=$(kiosk-vm-shot exec-after)
child=$KIOSK_VM_OUT/exec-child.png
[ -f "$child" ] || fail "the program's own screenshot is missing"
c=$(colours "$child"); b=$(colours "$before"); a=$(colours "$after")
echo "program: $c  before: $b  after: $a"
[ "$c" = "ff8000 ff8000 ff8000 " ] || fail "the program's screen is '$c', not orange"
case "$a" in *ff8000*) fail "still orange after the program exited: $a" ;; esac
[ "$a" = "$b" ] || fail "carousel not back: before '$b', after '$a'"
kill -TERM "$kiosk"
wait "$kiosk"; rc=$?
[ "$rc" -eq 0 ] || fail "exit status $rc after SIGTERM"
echo "events:"; cat "$dir/events.jsonl" | grep -E 'action|selected'
echo "PASS: screen handed over (orange), carousel back, clean exit"
GUEST
"$KIOSK_VM" --size 640x480 --timeout 110 --out "$tmp/out" -- bash "$tmp/guest.sh" "$BIN" "$tmp" "$(dirname "${KIOSK_VM_REAL:-$KIOSK_VM}")/examples/pngcheck.py" "$here/control-client.py"
