#!/usr/bin/env bash
# The example udev rules (systemd/udev/*.rules) do what their comments say, on a real kernel
# with the real udevd: uinput devices named like a rotary-encoder knob ("rotary@11"), a
# gpio-keys push button ("knob") and a touchscreen ("Example Touchscreen") get
#   /dev/input/kiosk-rotary and /dev/input/kiosk-knob-button, group input, mode 0640,
#   LIBINPUT_IGNORE_DEVICE=1 on the knob, LIBINPUT_CALIBRATION_MATRIX on the touchscreen,
# and an unrelated device gets none of it. Needs: $KIOSK_VM; python3-evdev in the guest.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${KIOSK_VM:?}"
tmp=$(mktemp -d /tmp/kiosk-udev.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/devices.py" <<'PY'
import os, sys, time
from evdev import AbsInfo, UInput, ecodes as e
go = sys.argv[1]
rotary = UInput({e.EV_REL: [e.REL_X]}, name="rotary@11", bustype=e.BUS_HOST)
button = UInput({e.EV_KEY: [e.KEY_ENTER]}, name="knob", bustype=e.BUS_HOST)
touch = UInput({e.EV_KEY: [e.BTN_TOUCH], e.EV_ABS: [
    (e.ABS_X, AbsInfo(0, 0, 799, 0, 0, 10)), (e.ABS_Y, AbsInfo(0, 0, 479, 0, 0, 10)),
    (e.ABS_MT_SLOT, AbsInfo(0, 0, 9, 0, 0, 0)), (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0)),
    (e.ABS_MT_POSITION_X, AbsInfo(0, 0, 799, 0, 0, 10)), (e.ABS_MT_POSITION_Y, AbsInfo(0, 0, 479, 0, 0, 10))]},
    name="Example Touchscreen", bustype=e.BUS_USB, input_props=[e.INPUT_PROP_DIRECT])
other = UInput({e.EV_REL: [e.REL_WHEEL]}, name="some other wheel", bustype=e.BUS_USB)
print(f"rotary={rotary.device.path} button={button.device.path} touch={touch.device.path} other={other.device.path}", flush=True)
while not os.path.exists(go):
    time.sleep(0.05)
PY
cat > "$tmp/guest.sh" <<'GUEST'
set -u
rules=$1; dir=$2
source "$3"
fail() { step_fail "$@"; }
step "rules installed, devices created"
cp "$rules"/*.rules /etc/udev/rules.d/
udevadm control --reload
/usr/bin/python3 "$dir/devices.py" "$dir/go" > "$dir/devices.txt" &
py=$!
wait_until 20 '[ -s "$dir/devices.txt" ]'
eval "$(cat "$dir/devices.txt")"
step "udev settles"
udevadm settle --timeout="$(scaled 30)" || fail "udevadm settle timed out"
step "properties and links"
prop() { udevadm info --query=property --name="$1" | sed -n "s/^$2=//p"; }
[ "$(readlink -f /dev/input/kiosk-rotary)" = "$rotary" ] || fail "/dev/input/kiosk-rotary -> $(readlink -f /dev/input/kiosk-rotary), expected $rotary"
[ "$(readlink -f /dev/input/kiosk-knob-button)" = "$button" ] || fail "/dev/input/kiosk-knob-button missing"
[ "$(stat -c '%G %a' "$rotary")" = "input 640" ] || fail "rotary is $(stat -c '%G %a' "$rotary"), expected input 640"
[ "$(prop "$rotary" LIBINPUT_IGNORE_DEVICE)" = 1 ] || fail "LIBINPUT_IGNORE_DEVICE not set on the knob"
[ "$(prop "$touch" ID_INPUT_TOUCHSCREEN)" = 1 ] || fail "the test touchscreen is not a touchscreen to udev"
[ "$(prop "$touch" LIBINPUT_CALIBRATION_MATRIX)" = "0 1 0 -1 0 1" ] || fail "calibration matrix: '$(prop "$touch" LIBINPUT_CALIBRATION_MATRIX)'"
[ -z "$(prop "$other" LIBINPUT_IGNORE_DEVICE)$(prop "$other" LIBINPUT_CALIBRATION_MATRIX)" ] || fail "an unrelated device matched"
touch "$dir/go"; wait "$py"
steps_done
echo "PASS: knob $rotary -> /dev/input/kiosk-rotary (input 640, ignored by libinput), button $button, touchscreen $touch calibrated"
GUEST
# Steps: devices 20 + settle 30 + checks ~10, and the boot.
"$KIOSK_VM" --timeout 90 -- bash "$tmp/guest.sh" "$here/../../systemd/udev" "$tmp" "$here/lib/steps.bash"
