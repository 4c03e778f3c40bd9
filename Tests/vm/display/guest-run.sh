# Runs in the guest: `kiosk-carousel run` on the DRM device with a still carousel. Waits for the
# backend's "first frame on screen" log line, takes screenshots while the cards arrive, then
# SIGTERM; screenshots of the console before and after.
set -u
BIN=$1 CONFIG=$2
source "$(dirname "$0")/../lib/steps.bash"
STEP_ON_FAIL='cat /tmp/run.out'
step "console screenshot"
kiosk-vm-shot console-before >/dev/null
step "first frame"
"$BIN" run --config "$CONFIG" --backend drm >/tmp/run.out 2>&1 &
pid=$!
wait_until 60 'grep -q "first frame on screen" /tmp/run.out'
step "screenshots while the cards arrive"
# Card faces are drawn off the loop and fade in: screenshots for a few seconds, the last one
# must show the settled carousel.
for i in 1 2 3 4 5 6; do sleep 1; kiosk-vm-shot "on-screen-$i" >/dev/null; done
cp "$KIOSK_VM_OUT/on-screen-6.png" "$KIOSK_VM_OUT/on-screen.png"
step "SIGTERM"
kill -TERM "$pid"
wait "$pid"
rc=$?
cat /tmp/run.out
kiosk-vm-shot after-exit >/dev/null
steps_done
exit $rc
