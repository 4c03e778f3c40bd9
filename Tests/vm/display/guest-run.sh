# Runs in the guest: `kiosk-carousel run` on the DRM device with a still carousel. Waits for the
# backend's "first frame on screen" log line, takes a screenshot, lets it sit idle, then SIGTERM;
# screenshots of the console before and after.
set -u
BIN=$1 CONFIG=$2
kiosk-vm-shot console-before >/dev/null
"$BIN" run --config "$CONFIG" --backend drm >/tmp/run.out 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q "first frame on screen" /tmp/run.out && break; sleep 0.1; done
kiosk-vm-shot on-screen >/dev/null
sleep 3  # idle: nothing may be drawn
kill -TERM "$pid"
wait "$pid"
rc=$?
cat /tmp/run.out
kiosk-vm-shot after-exit >/dev/null
exit $rc
