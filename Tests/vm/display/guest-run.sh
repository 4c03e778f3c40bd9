# Runs in the guest: `kiosk-carousel run` on the DRM device with a still carousel. Waits until
# the screen shows the reference frame (the first frame can take seconds under TCG), lets it sit
# idle, then SIGTERM; screenshots of the console before and after.
set -u
BIN=$1 CONFIG=$2 REF=$3
here=$(dirname "$0")
kiosk-vm-shot console-before >/dev/null
"$BIN" run --config "$CONFIG" --backend drm >/tmp/run.out 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q "running:" /tmp/run.out && break; sleep 0.1; done
matched=no
for i in $(seq 20); do
    shot=$(kiosk-vm-shot "on-screen")
    if python3 "$here/compare.py" "$REF" "$shot" >/dev/null; then matched=yes; break; fi
    sleep 0.5
done
echo "on-screen frame matches the reference: $matched"
sleep 3  # idle: nothing may be drawn
kill -TERM "$pid"
wait "$pid"
rc=$?
cat /tmp/run.out
kiosk-vm-shot after-exit >/dev/null
exit $rc
