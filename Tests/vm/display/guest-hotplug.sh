# Runs in the guest: unplug and replug the connector while the carousel shows. The kernel lets
# root force a connector's state through sysfs; a real plug makes the kernel send a udev "change"
# event itself, here `udevadm trigger` sends it.
set -u
BIN=$1 CONFIG=$2
"$BIN" display-test --config "$CONFIG" --seconds 40 >/tmp/display-test.out 2>&1 &
pid=$!
for _ in $(seq 300); do grep -q "first frame presented" /tmp/display-test.out && break; sleep 0.1; done
status=$(ls -d /sys/class/drm/card0-*/ | head -1)status
plug() {
    echo "$1" >"$status"
    udevadm trigger --action=change --subsystem-match=drm
    for _ in $(seq 100); do grep -q "$2" /tmp/display-test.out && break; sleep 0.1; done
}
plug off "running without a screen"
kiosk-vm-shot unplugged >/dev/null
plug detect "frame presented after the display changed"
kiosk-vm-shot replugged >/dev/null
kill -TERM "$pid"
wait "$pid"
rc=$?
cat /tmp/display-test.out
exit $rc
