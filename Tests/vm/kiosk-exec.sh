#!/usr/bin/env bash
# A foreground exec action hands the screen over and gets it back, on a real kernel:
#   1. the kiosk shows the carousel (screendump exec-before);
#   2. `select` over the control socket starts Tests/vm/fill-screen (built here), which
#      becomes DRM master, sets its own mode and fills the screen orange (screendump
#      exec-child, taken by the program itself while it holds the screen);
#   3. it exits; the kiosk takes DRM master back and redraws (screendump exec-after equals
#      exec-before at the sampled points, and is not orange);
#   4. action_started / action_exited (status 0) are in the events file;
#   5. the way out by key (EN 301 549 5.1.6.2, `[actions] leave_hold`): a second program holds
#      the screen blue for 120 s; a uinput keyboard's Home pressed briefly leaves it running,
#      Home held 3.6 s ends it (action_left, then action_exited by SIGTERM) and the carousel is
#      back (not blue);
#   6. SIGTERM: the kiosk exits 0.
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
id = "blue"
title = "Blue program (held)"
action = { exec = ["$tmp/fill-screen", "0000ff", "120", "exec-held", "0"], mode = "foreground", timeout = 200 }

[[item]]
id = "three"
title = "Three"
TOML
cat > "$tmp/keys.play" <<'PLAY'
keyboard leave-keys KEY_HOME
settle
say ready
wait GO-SHORT
press leave-keys KEY_HOME
say pressed
wait GO-HOLD
key leave-keys KEY_HOME 1
sleep 3.6
key leave-keys KEY_HOME 0
say released
PLAY
cat > "$tmp/guest.sh" <<'GUEST'
set -u
bin=$1; dir=$2; pngcheck=$3; ctl=$4
source "$5"
play=$6
STEP_ON_FAIL='echo "--- kiosk log"; cat "$dir/kiosk.log"; echo "--- events"; cat "$dir/events.jsonl"'
fail() { step_fail "$@"; }
# The colours at three points (one PNG decode: pngcheck.py is pure Python, slow under TCG).
points="20,20 320,240 600,400"
colours() { python3 "$pngcheck" "$1" $(for p in $points; do echo "$p=000000"; done) | sed -n 's/.*) = \([0-9a-f]*\).*/\1/p' | tr '\n' ' '; }
step "start (state answered)"
"$bin" run --config "$dir/config.toml" --events "$dir/events.jsonl" > "$dir/kiosk.log" 2>&1 &
kiosk=$!
state=$(python3 "$ctl" "$dir/run/control.sock" '{"cmd":"state"}') || fail "no state reply"
echo "state: $state"
# Card faces are drawn off the loop and fade in: wait until the screen is still (no frame in
# the last second, as `state` reports) before taking the reference picture.
step "settle (fps 0)"
still() { python3 "$ctl" "$dir/run/control.sock" '{"cmd":"state"}' | grep -q '"fps":0[,}]'; }
wait_until 30 still
step "screenshot before"
before=$(kiosk-vm-shot exec-before)
step "select: the foreground program runs and exits"
python3 "$ctl" "$dir/run/control.sock" '{"cmd":"select","index":0}' || fail "select refused"
exited() { grep -q '"action_exited"' "$dir/events.jsonl"; }
wait_until 60 exited
grep '"action_exited"' "$dir/events.jsonl" | grep -q '"status":0' || fail "the program did not exit 0"
grep -q '"action_started"' "$dir/events.jsonl" || fail "no action_started event"
step "redrawn after the program"
sleep 2   # the carousel is redrawn and settles (a duration, not a limit)
after=$(kiosk-vm-shot exec-after)
child=$KIOSK_VM_OUT/exec-child.png
[ -f "$child" ] || fail "the program's own screenshot is missing"
c=$(colours "$child"); b=$(colours "$before"); a=$(colours "$after")
echo "program: $c  before: $b  after: $a"
[ "$c" = "ff8000 ff8000 ff8000 " ] || fail "the program's screen is '$c', not orange"
case "$a" in *ff8000*) fail "still orange after the program exited: $a" ;; esac
[ "$a" = "$b" ] || fail "carousel not back: before '$b', after '$a'"
step "a uinput keyboard with Home"
/usr/bin/python3 "$play" "$dir/keys.play" > "$dir/keys.out" 2>&1 &
wait_until 60 "grep -q ready '$dir/keys.out'"
step "the held program runs"
python3 "$ctl" "$dir/run/control.sock" '{"cmd":"select","index":1}' || fail "select refused"
watching() { grep -q "to end the program" "$dir/kiosk.log"; }
wait_until 60 watching
grep "to end the program" "$dir/kiosk.log"
step "Home pressed briefly: the program goes on"
touch "$dir/GO-SHORT"
wait_until 30 "grep -q pressed '$dir/keys.out'"
sleep 4   # longer than leave_hold (3 s): a press is not a hold (a duration, not a limit)
grep -q '"action_left"' "$dir/events.jsonl" && fail "a brief press ended the program"
[ "$(grep -c '"action_exited"' "$dir/events.jsonl")" -eq 1 ] || fail "the held program exited by itself"
step "Home held 3.6 s: the program is ended"
touch "$dir/GO-HOLD"
left() { grep -q '"action_left"' "$dir/events.jsonl"; }
wait_until 30 left
ended() { [ "$(grep -c '"action_exited"' "$dir/events.jsonl")" -eq 2 ]; }
wait_until 30 ended
grep '"action_exited"' "$dir/events.jsonl" | tail -n 1 | grep -q '"signal":"SIGTERM"' || fail "not ended by SIGTERM"
step "the carousel is back after the held program"
sleep 2   # redrawn and settled (a duration, not a limit)
back=$(kiosk-vm-shot exec-left)
l=$(colours "$back")
echo "after leaving: $l"
case "$l" in *0000ff*) fail "still blue after the leave key: $l" ;; esac
step "SIGTERM"
kill -TERM "$kiosk"
wait "$kiosk"; rc=$?
[ "$rc" -eq 0 ] || fail "exit status $rc after SIGTERM"
echo "events:"; cat "$dir/events.jsonl" | grep -E 'action|selected'
steps_done
echo "PASS: screen handed over (orange), carousel back, held Home ended a program, clean exit"
GUEST
# Steps: start (the control client waits up to 60 s) + settle 30 + select 60 + keyboard 60 +
# held program 60 + press 30 + hold 60 + the rest ~30, and the boot.
"$KIOSK_VM" --size 640x480 --timeout 420 --out "$tmp/out" -- bash "$tmp/guest.sh" "$BIN" "$tmp" "$(dirname "${KIOSK_VM_REAL:-$KIOSK_VM}")/examples/pngcheck.py" "$here/control-client.py" \
    "$here/lib/steps.bash" "$here/../../scripts/uinput-play.py"
