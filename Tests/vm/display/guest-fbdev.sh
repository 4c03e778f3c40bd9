# Runs in the guest: the carousel through /dev/fb0 (the DRM driver's fbdev emulation, usable
# while no program is DRM master), with screenshots of the console before and after.
set -u
BIN=$1 CONFIG=$2 SCRIPT=$3
kiosk-vm-shot console-before >/dev/null
"$BIN" display-test --backend fbdev --config "$CONFIG" --input "$SCRIPT" --seconds 4.5 --shot 1.25=mid --shot 3.5=rest
rc=$?
sleep 0.2  # the emulation copies its shadow buffer out every 50 ms
kiosk-vm-shot console-after >/dev/null
exit $rc
