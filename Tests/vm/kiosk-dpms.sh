#!/usr/bin/env bash
# kiosk-dpms: `[idle] blank_after` switches the screen off with DPMS through the DRM connector
# property, on a real kernel, with each KMS driver kiosk-vm offers (bochs, virtio-gpu):
#   1. the kiosk shows the carousel; a second file of the card (Tests/vm/dpms-state, built here,
#      never DRM master) reads the connector's DPMS: On;
#   2. a uinput touchscreen taps the centre card while awake: `selected` (so the check in 4 can
#      fail);
#   3. the config file is changed to a short blank_after (reloaded; the time counts from then, so
#      a slow start-up under TCG does not matter); it elapses: `screen_blanked`, the log says
#      `screen blanked (dpms)`, DPMS reads Off;
#   4. the same tap wakes it: `screen_woke`, `screen woke (dpms)`, DPMS On, the screendump equals
#      the `simulate` frame of the carousel at rest (compared on the host), no new `selected`;
#   5. a reload with blank_after = 1 blanks it again (DPMS Off) and SIGTERM arrives while
#      blanked: the kiosk exits 0 and DPMS reads On afterwards (with the device kept open across
#      the exit, so the kernel's own console restore on the last close cannot stand in for the
#      kiosk's).
#   6. on bochs, then `[display] backend = "fbdev"`: the blank uses FBIOBLANK (`screen blanked
#      (fbblank)`), which the kernel's fbdev helper turns into DPMS Off; On again after exit.
# Needs: $KIOSK_VM, $BIN (debug kiosk-carousel). KIOSK_DPMS_DRIVERS="bochs virtio" by default,
# run in parallel (two VMs; KIOSK_DPMS_SERIAL=1 runs one after the other).
set -u
source "$(dirname "$0")/lib/input-host.sh"
here=$(cd "$(dirname "$0")" && pwd)
drivers=${KIOSK_DPMS_DRIVERS:-bochs virtio}
# Long enough for waking and the `after` shot under TCG before it blanks again (checked: a shot
# taken after a second blank fails the test with a message saying so): 10 s on a quiet host,
# times KIOSK_VM_SLOWDOWN (the idle warning comes 5 s before the blank, and at load 10 the shot
# came after it once).
blank_after=${KIOSK_DPMS_BLANK_AFTER:-$(awk -v f="${KIOSK_VM_SLOWDOWN:-1}" 'BEGIN { if (f < 1) f = 1; v = 10 * f; i = int(v); if (i < v) i++; print i }')}
status=0

# write_config BACKEND FILE: five cards, blank_after = 600 (the guest shortens it by rewriting
# the file once the kiosk is up).
write_config() {
    {
        echo '[carousel]'
        echo 'type = "linear"'
        echo 'item_size = [240, 180]'
        echo '[display]'
        echo "backend = \"$1\""
        echo '[idle]'
        echo 'blank_after = 600'
        for i in 0 1 2 3 4; do
            printf '\n[[item]]\nid = "item%d"\ntitle = "Item %d"\naction = { emit = "picked-%d" }\n' "$i" "$i" "$i"
        done
    } > "$2"
}

# Python for the host-side checks (run by check_events with `d` = the work folder, `arg` = the
# case): what the guest read with dpms-state, the kiosk's log and events.
py_helpers=$(cat <<'PY'
import json, os, subprocess
top = os.environ['TOP']
def dpms(name):
    try:
        return open('%s/dpms-%s.txt' % (d, name)).read().strip()
    except OSError:
        return 'missing'
def has(name, level):
    text = dpms(name)
    return ('dpms=%s ' % level) in text and text.count('\n') == 0
log = open(d + '/run.err').read()
ev = [json.loads(l) for l in open(d + '/events.jsonl') if l.strip()]
names = [e['event'] for e in ev]
PY
)

# build_dpms_state: the DPMS reader, into $out.
build_dpms_state() {
    cc -O2 -Wall -o "$out/dpms-state" "$here/dpms-state.c" $(pkg-config --cflags --libs libdrm)
}

run_driver() {
    local display=$1
    work_folder "kiosk-dpms-$display"
    build_dpms_state || return 1
    mkdir -p "$out/shots"
    write_config drm "$out/kiosk.toml"
    # What the screen must show after waking: the carousel at rest, as `simulate` draws it.
    "$BIN" simulate --config "$out/kiosk.toml" --until 0.1 --size 800x480 --shot "0=$out/ref.png" > /dev/null || return 1

    # A tap at the centre of the 800x480 screen, where the current card is.
    cat > "$out/play.play" <<'PLAY'
touchscreen dpms-touch 4095 4095
settle
say ready
wait TAP0
down dpms-touch 0 2048 2048
up dpms-touch 0
say tapped-0
wait TAP1
down dpms-touch 0 2048 2048
up dpms-touch 0
say tapped-1
# Keep the device until the kiosk has read the tap (its removal could drop unread events).
wait DONE
PLAY

    guest_script <<GUEST
source "\$TOP/Tests/vm/lib/dpms-guest.sh"
step "first frame"
"\$BIN" run --config "\$OUT/kiosk.toml" --events "\$OUT/events.jsonl" > "\$OUT/run.err" 2>&1 &
RUN=\$!
wait_for "\$OUT/run.err" "first frame on screen" 60 || { kiosk_state \$RUN; exit 1; }
note "first frame"
dpms awake-before
# The touchscreen is plugged in now (the kiosk picks it up through udev hotplug).
step "touchscreen hotplugged, a tap selects"
play play
# While awake, a tap on the centre card selects it (so the check that the waking tap does not
# can fail). The shorter blank_after runs from the later of the reload and that tap.
wait_for "\$OUT/run.err" "device added: dpms-touch" 60 || exit 1
touch "\$OUT/TAP0"
set_blank_after $blank_after
wait_event selected 1 30
events selected > "\$OUT/selected-awake"
step "blank after blank_after"
wait_blank_after_reload 1 \$(( $blank_after + 30 )) || exit 1
sleep 0.3
dpms blanked
step "the waking tap"
touch "\$OUT/TAP1"
wait_for "\$OUT/play.play.out" tapped-1 30 || exit 1
wait_event screen_woke 1 30 || { touch "\$OUT/DONE"; exit 1; }
note "woke"
dpms woken
# The wake redraws the whole carousel at once (the card faces are kept; no fade-in).
sleep 1.5
kiosk-vm-shot after > /dev/null || exit 1
note "shot after"
[ "\$(events screen_blanked)" = 1 ] || { echo "guest: blanked again before the shot after waking: raise KIOSK_DPMS_BLANK_AFTER" >&2; exit 1; }
sleep 0.5
events selected > "\$OUT/selected-after-wake"
touch "\$OUT/DONE"
wait \$PLAY_PID
# Blank again, sooner, and stop the kiosk while blanked; the device stays open here across its
# exit, so the kernel does not restore the console by itself on the last close.
step "blank again, stop while blanked"
set_blank_after 1
wait_blank_after_reload 2 30 || exit 1
sleep 0.3
dpms blanked-again
exec 7<>/dev/dri/card0
stop_kiosk \$RUN
dpms after-exit
exec 7>&-
steps_done
GUEST

    # On bochs, then the fbdev backend on /dev/fb0 (bochs' fbdev emulation, usable once nobody
    # is DRM master): FBIOBLANK powerdown reaches the connector's DPMS through the kernel's
    # fbdev helper, unblank on exit. (The card cannot be held open across this exit: that file
    # would become DRM master and the fbdev helper would ignore the ioctls.) Its files are in fb/.
    if [ "$display" = bochs ]; then
        mkdir -p "$out/fb"
        cp "$out/dpms-state" "$out/fb/"
        write_config fbdev "$out/fb/kiosk.toml"
        cat >> "$out/guest.sh" <<'GUEST'
OUT=$OUT/fb
step "fbdev: first frame"
"$BIN" run --config "$OUT/kiosk.toml" --events "$OUT/events.jsonl" > "$OUT/run.err" 2>&1 &
RUN=$!
wait_for "$OUT/run.err" "first frame on screen" 60 || { kiosk_state $RUN; exit 1; }
note "fbdev: first frame"
dpms awake-before
step "fbdev: blank, stop"
set_blank_after 1
wait_blank_after_reload 1 30 || exit 1
sleep 0.3
dpms blanked
stop_kiosk $RUN
sleep 0.3
dpms after-exit
steps_done
GUEST
    fi
    run_guest "$out" --display "$display" --out "$out/shots" --timeout 150 || return 1
    { echo "$py_helpers"; cat <<'PY'; } | TOP=$top check_events "$out" "$display"
check(has('awake-before', 'On'), '%s: DPMS reads On while the carousel shows: %s' % (arg, dpms('awake-before')))
check('screen_blanked' in names, '%s: screen_blanked after blank_after' % arg)
check('screen blanked (dpms)' in log, '%s: the log says the screen was blanked with DPMS' % arg)
check(has('blanked', 'Off'), '%s: DPMS reads Off when blanked: %s' % (arg, dpms('blanked')))
check('screen_woke' in names, '%s: the touch woke the screen' % arg)
check('screen woke (dpms)' in log, '%s: the log says the screen woke with DPMS' % arg)
check(has('woken', 'On'), '%s: DPMS reads On after the touch: %s' % (arg, dpms('woken')))
awake = open(d + '/selected-awake').read().strip()
check(awake == '1', '%s: while awake, a tap on the centre card selects it (selected events: %s)' % (arg, awake))
n = open(d + '/selected-after-wake').read().strip()
check(n == awake, '%s: the waking tap on the same card selected nothing (selected events: %s)' % (arg, n))
r = subprocess.run(['python3', top + '/Tests/vm/display/compare.py', d + '/ref.png', d + '/shots/after.png'],
                   capture_output=True, text=True)
check(r.returncode == 0, '%s: the carousel is back after waking (the screen equals the simulate frame): %s'
      % (arg, r.stdout.strip() or r.stderr.strip()))
check(has('blanked-again', 'Off'), '%s: DPMS Off again at the second blank: %s' % (arg, dpms('blanked-again')))
check(open(d + '/run.rc').read().strip() == '0', '%s: SIGTERM while blanked: exit 0' % arg)
check(has('after-exit', 'On'), '%s: DPMS On after the kiosk exited: %s' % (arg, dpms('after-exit')))
PY
    local rc=$?
    if [ "$display" = bochs ]; then
        { echo "$py_helpers"; cat <<'PY'; } | TOP=$top check_events "$out/fb" fbdev || rc=1
check('fbdev /dev/fb0' in log, 'fbdev: the kiosk drew through /dev/fb0')
check(has('awake-before', 'On'), 'fbdev: DPMS reads On while the carousel shows: %s' % dpms('awake-before'))
check('screen blanked (fbblank)' in log, 'fbdev: the log says the screen was blanked with FBIOBLANK')
check(has('blanked', 'Off'), 'fbdev: FBIOBLANK turned the connector DPMS Off: %s' % dpms('blanked'))
check(open(d + '/run.rc').read().strip() == '0', 'fbdev: SIGTERM while blanked: exit 0')
check(has('after-exit', 'On'), 'fbdev: DPMS On after the kiosk exited: %s' % dpms('after-exit'))
PY
    fi
    [ $rc = 0 ] && rm -rf "$out"
    return $rc
}

logs=$(mktemp -d /tmp/kiosk-dpms-logs.XXXXXX)
trap 'rm -rf "$logs"' EXIT
pids=()
for display in $drivers; do
    if [ -n "${KIOSK_DPMS_SERIAL:-}" ]; then
        ( start=$SECONDS; run_driver "$display"; rc=$?; echo "kiosk-dpms $display: $((SECONDS - start)) s"; exit $rc ) || status=1
    else
        ( start=$SECONDS; run_driver "$display"; rc=$?; echo "kiosk-dpms $display: $((SECONDS - start)) s"; exit $rc ) \
            > "$logs/$display.log" 2>&1 &
        pids+=("$display:$!")
    fi
done
for p in "${pids[@]}"; do
    wait "${p#*:}" || status=1
    echo "=== ${p%%:*}"
    cat "$logs/${p%%:*}.log"
done
[ $status = 0 ] && echo "kiosk-dpms: all drivers passed" || echo "kiosk-dpms: FAILED"
exit $status
