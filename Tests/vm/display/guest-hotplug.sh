# Runs in the guest: unplug and replug the connector while the carousel shows. The kernel lets
# root force a connector's state through sysfs; a real plug makes the kernel send a udev "change"
# event itself, here `udevadm trigger` sends it.
set -u
BIN=$1 CONFIG=$2
source "$(dirname "$0")/../lib/steps.bash"
STEP_ON_FAIL='cat /tmp/display-test.out'
step "first frame"
"$BIN" display-test --config "$CONFIG" --seconds "$(scaled 40)" >/tmp/display-test.out 2>&1 &
pid=$!
wait_until 30 'grep -q "first frame presented" /tmp/display-test.out' 
status=$(ls -d /sys/class/drm/card0-*/ | head -1)status
plug() {
    step "connector $1"
    echo "$1" >"$status"
    udevadm trigger --action=change --subsystem-match=drm
    wait_until 10 "grep -q '$2' /tmp/display-test.out"
}
plug off "running without a screen"
kiosk-vm-shot unplugged >/dev/null
plug detect "frame presented after the display changed"
kiosk-vm-shot replugged >/dev/null
step "SIGTERM"
kill -TERM "$pid"
wait "$pid"
rc=$?
cat /tmp/display-test.out
steps_done
exit $rc
