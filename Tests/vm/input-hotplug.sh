#!/usr/bin/env bash
# input-hotplug: devices that appear after start, go away and come back, on a real kernel
# (kiosk-vm). `kiosk-carousel record` starts with no touchscreen and no knob:
#  A. udev backend: a touchscreen and a REL_DIAL knob are plugged in later and work; the knob
#     is unplugged and plugged back and works again (found by name each time);
#  B. path backend (--device /dev/input/kt-ptouch, a udev symlink that does not exist yet) and a
#     REL_WHEEL knob by path (--rotary-device, also a later symlink): both are added when they
#     appear, unplugged mid-touch (touch_cancel), plugged
#     back and works again.
set -u
source "$(dirname "$0")/lib/input-host.sh"
work_folder input-hotplug

cat > "$out/pa.play" <<'PLAY'
wait GO
touchscreen kt-touch 4095 4095
knob kt-knob REL_DIAL KEY_ENTER
waitlog ra.err 1 device added: kt-touch
waitlog ra.err 1 rotary encoder opened: kt-knob
swipe kt-touch 0 2048 2048 2048 1024 4
turn kt-knob 1 2
destroy kt-knob
waitlog ra.err 1 rotary encoder /dev/input/event
knob kt-knob REL_DIAL KEY_ENTER
waitlog ra.err 2 rotary encoder opened: kt-knob
turn kt-knob -1 1
press kt-knob KEY_ENTER
sleep 0.3
say done
PLAY

cat > "$out/pb.play" <<'PLAY'
wait GO
touchscreen kt-ptouch 4095 4095
knob kt-pknob REL_WHEEL
waitlog rb.err 1 device added: kt-ptouch
waitlog rb.err 1 rotary encoder opened: kt-pknob
turn kt-pknob -1 2
down kt-ptouch 0 1024 1024
up kt-ptouch 0
down kt-ptouch 0 3072 3072
move kt-ptouch 0 3000 3072
sleep 0.2
destroy kt-ptouch
waitlog rb.err 1 device removed: kt-ptouch
touchscreen kt-ptouch 4095 4095
waitlog rb.err 2 device added: kt-ptouch
down kt-ptouch 0 2048 2048
up kt-ptouch 0
sleep 0.3
say done
PLAY

guest_script <<GUEST
ls /dev/input/ > "\$OUT/devices-at-start.txt"
phase() {  # phase NAME RECORD-ARGS...  (record first, then the devices appear)
    local n=\$1; shift
    step "phase \$n: record starts"
    record r\$n "\$@" || return 1
    step "phase \$n: devices played"
    play p\$n
    touch "\$OUT/GO"
    wait_for "\$OUT/p\$n.play.out" done 60 || return 1
    stop_record r\$n
    wait \$PLAY_PID
    rm -f "\$OUT/GO"
}
phase a --rotary-name kt-knob || exit 1
cat > /etc/udev/rules.d/99-kiosk-test.rules <<'RULE'
SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="kt-ptouch", SYMLINK+="input/kt-ptouch"
SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="kt-pknob", SYMLINK+="input/kt-pknob"
RULE
udevadm control --reload
phase b --device /dev/input/kt-ptouch --rotary-device /dev/input/kt-pknob --rotary-axis REL_WHEEL || exit 1
steps_done
GUEST

run_guest "$out" --timeout 300

check_events "$out" <<'PY'
start = open(d + '/devices-at-start.txt').read()
check('kt' not in start, 'no test device exists when record starts')
for n in 'ab':
    check(open('%s/r%s.rc' % (d, n)).read().strip() == '0', 'record %s exited 0' % n)

print('A: udev backend, devices plugged after start')
ev = load(d + '/ra.jsonl')
swipe = touch_sequence(ev, 400, 240)
check(len(swipe) >= 3 and swipe[-1]['type'] == 'touch_up' and near(swipe[-2], 400, 120),
      'touchscreen plugged in later: swipe from (400, 240) up to (400, 120)')
check([e['delta'] for e in of(ev, 'rotary')] == [1, 1, -1], 'knob plugged in later: +1 +1; unplugged, back: -1')
check(len(of(ev, 'key_down', key='enter')) == 1, 'the re-added knob\'s press selects')
err = open(d + '/ra.err').read()
check(err.count('rotary encoder opened') == 2, 'the knob was opened twice (plugged, re-plugged)')

print('B: path backend, --device /dev/input/kt-ptouch and --rotary-device /dev/input/kt-pknob (udev symlinks made later)')
ev = load(d + '/rb.jsonl')
check([e['delta'] for e in of(ev, 'rotary')] == [-1, -1], 'the knob found by a symlink that appears later: REL_WHEEL -1 -1')
check(touch_sequence(ev, 200, 120)[-1:] and touch_sequence(ev, 200, 120)[-1]['type'] == 'touch_up',
      'the listed device appears after start and works: tap at (200, 120)')
gone = touch_sequence(ev, 600, 360)
check(gone and gone[-1]['type'] == 'touch_cancel', 'unplugged mid-touch: touch_cancel')
back = touch_sequence(ev, 400, 240)
check(back and back[-1]['type'] == 'touch_up', 'plugged back: tap at (400, 240)')
PY
status=$?
[ $status = 0 ] && rm -rf "$out"
exit $status
