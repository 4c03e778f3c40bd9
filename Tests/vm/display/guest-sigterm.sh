# Runs in the guest: screenshot of the console, the carousel started, a screenshot while it
# runs, SIGTERM, and a screenshot of what the backend restored (taken while display-test still
# holds its probe file open, so the kernel has not restored anything by itself).
set -u
BIN=$1 CONFIG=$2 SCRIPT=$3
source "$(dirname "$0")/../lib/steps.bash"
STEP_ON_FAIL='cat /tmp/display-test.out'
step "console screenshot"
kiosk-vm-shot console-before >/dev/null
step "first frame"
KIOSK_DISPLAY_TEST_SHOT_AFTER_CLOSE=restored "$BIN" display-test --config "$CONFIG" --input "$SCRIPT" \
    --seconds "$(scaled 60)" --verify-restore >/tmp/display-test.out 2>&1 &
pid=$!
wait_until 30 'grep -q "first frame presented" /tmp/display-test.out'
kiosk-vm-shot running >/dev/null
step "SIGTERM"
kill -TERM "$pid"
wait "$pid"
rc=$?
cat /tmp/display-test.out
kiosk-vm-shot after-exit >/dev/null
echo "display-test exit status $rc"
steps_done
exit $rc
