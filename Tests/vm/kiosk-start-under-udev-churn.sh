#!/usr/bin/env bash
# kiosk-start-under-udev-churn: `kiosk-carousel run` reaches its first frame quickly and without
# crashing while udev is adding and removing input devices, as on a kiosk that boots while its
# touchscreen and knob are still being set up. In one guest (bochs DRM, udevd running):
#   - scripts/uinput-churn.py plugs and unplugs a uinput touchscreen and a rotary knob in a
#     tight loop (a new pair every ~0.3 s) for the whole test;
#   - the kiosk is started KIOSK_CHURN_STARTS times (default 6), alternately with the libinput
#     seat only and with `[input.rotary] name` set to the churning knob (so both the libinput
#     udev backend and the knob's udev monitor see the devices come and go), and stopped with
#     SIGTERM after its first frame (exit 0);
#   - a start fails the test when the kiosk crashes, or when its first frame takes longer than
#     KIOSK_CHURN_BOUND seconds (default 30 x $KIOSK_VM_SLOWDOWN; normal under TCG: 2-12 s). Each
#     start is a step (Tests/vm/lib/steps.bash), so a VM time-out names it. A hung start leaves the
#     kernel stack of every thread (hang.txt) and, after SIGABRT, the Swift backtrace of every
#     thread (run-N.err) in the work folder, which is kept.
# Needs: $KIOSK_VM, $BIN (debug kiosk-carousel).
set -u
source "$(dirname "$0")/lib/input-host.sh"
source "$lib/steps.bash"
starts=${KIOSK_CHURN_STARTS:-6}
bound=${KIOSK_CHURN_BOUND:-$(scaled 30)}
work_folder kiosk-start-under-udev-churn

# write_config FILE ROTARY(0|1): the kind of config Tests/vm/kiosk-*.sh use (five cards with
# titles, DRM, idle blanking far away), with or without the churning knob as rotary encoder.
write_config() {
    {
        echo '[carousel]'
        echo 'type = "linear"'
        echo 'item_size = [240, 180]'
        echo '[display]'
        echo 'backend = "drm"'
        echo '[idle]'
        echo 'blank_after = 600'
        [ "$2" = 1 ] && printf '[input.rotary]\nname = "churn-knob"\naxis = "REL_DIAL"\nselect_key = "KEY_ENTER"\n'
        for i in 0 1 2 3 4; do
            printf '\n[[item]]\nid = "item%d"\ntitle = "Item %d"\naction = { emit = "picked-%d" }\n' "$i" "$i" "$i"
        done
    } > "$1"
}
write_config "$out/seat.toml" 0
write_config "$out/knob.toml" 1

guest_script <<GUEST
source "\$TOP/Tests/vm/lib/churn-guest.sh"
step "devices churning"
/usr/bin/python3 "\$TOP/scripts/uinput-churn.py" "\$OUT/STOP" > "\$OUT/churn.out" 2>&1 &
CHURN=\$!
wait_for "\$OUT/churn.out" "cycle 2" 60 || exit 1
status=0
for n in \$(seq 1 $starts); do
    cfg=\$OUT/seat.toml; [ \$((n % 2)) = 0 ] && cfg=\$OUT/knob.toml
    step "start \$n (\${cfg##*/})"
    if start_kiosk \$n "\$cfg" $bound; then stop_kiosk_run \$n; else status=1; break; fi
    nap 0.\$((RANDOM % 10))
done
step "churn stops"
touch "\$OUT/STOP"
wait \$CHURN
steps_done
exit \$status
GUEST

start=$SECONDS
# The bound is already scaled; kiosk-vm-scaled scales --timeout once more, a backstop only.
"$KIOSK_VM" --size 800x480 --display bochs --rw "$out" --timeout $((60 + starts * (bound + 5))) -- bash "$out/guest.sh"
rc=$?
echo "kiosk-start-under-udev-churn: guest exit $rc after $((SECONDS - start)) s"
[ -e "$out/starts.txt" ] && sed 's/^/    /' "$out/starts.txt"
check_events "$out" "$starts" <<'PY'
import os
rows = [l.split() for l in open(d + '/starts.txt')] if os.path.exists(d + '/starts.txt') else []
started = [r for r in rows if r[0] == 'start']
ms = sorted(int(r[4]) for r in started if r[3] == 'ok')
churn = open(d + '/churn.out').read() if os.path.exists(d + '/churn.out') else ''
check('stopped after' in churn, 'the devices churned during the whole test: %s' % (churn.strip().splitlines()[-1:] or ['nothing']))
for r in started:
    if r[3] != 'ok':
        log = open('%s/run-%s.err' % (d, r[1]), errors='replace').read()
        print('--- run-%s.err (%s)' % (r[1], r[3]))
        print(log[-6000:])
        if os.path.exists(d + '/hang.txt'):
            print('--- hang.txt'); print(open(d + '/hang.txt').read())
check(len(started) == int(arg) and len(ms) == int(arg),
      'every start showed its first frame without crashing or hanging: %s' % [' '.join(r[2:]) for r in started])
stops = [r for r in rows if r[0] == 'stop']
check(all(r[2] == '0' for r in stops), 'every kiosk exited 0 on SIGTERM: %s' % [r[2] for r in stops])
if ms:
    print('first frame after start (ms): min %d, median %d, max %d over %d starts' % (ms[0], ms[len(ms) // 2], ms[-1], len(ms)))
PY
status=$?
[ $status = 0 ] && [ $rc = 0 ] && rm -rf "$out"
[ $rc = 0 ] || status=1
exit $status
