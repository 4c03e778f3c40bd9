#!/usr/bin/env bash
# input-record: `kiosk-carousel record` on a real kernel (kiosk-vm, 800x480 panel) with
# uinput devices: a multitouch touchscreen (type B, INPUT_PROP_DIRECT, 0..4095 on both axes),
# a REL_DIAL knob with a KEY_ENTER button, a keyboard. Checks the recorded script:
#  1. rotation 0: a swipe mapped to the panel size, a resting second finger with its own slot,
#     three detents, the knob's press (once: the grab keeps libinput from doubling it), mapped
#     keys only, a mouse (motion clamped to the screen, left button, wheel), a palm cancelling its touch, the touchscreen unplugged mid-touch → touch_cancel;
#  2. from a config file: [display] rotation 90, [input] calibration (libinput's matrix), an
#     inverted REL_X knob ([input.rotary]), [input.keymap] KEY_A = "left";
#  3. rotation 270 + udev's LIBINPUT_CALIBRATION_MATRIX (from a udev rule), and an ABS_X knob
#     that wraps around its 24 positions, with KEY_SELECT as its select key.
set -u
source "$(dirname "$0")/lib/input-host.sh"
work_folder input-record

cat > "$out/p1.play" <<'PLAY'
touchscreen kt-touch 4095 4095
knob kt-knob REL_DIAL KEY_ENTER
keyboard kt-keys KEY_LEFT KEY_RIGHT KEY_ENTER KEY_ESC KEY_HOME KEY_A
mouse kt-mouse
settle
say ready
wait GO
# a finger rests at (3500, 500) while finger 0 swipes from x 3072 to 1024 at y 2048
down kt-touch 1 3500 500
swipe kt-touch 0 3072 2048 1024 2048 8
up kt-touch 1
turn kt-knob 1 3
press kt-knob KEY_ENTER
press kt-keys KEY_RIGHT
press kt-keys KEY_HOME
press kt-keys KEY_A
# the mouse: far right (clamped to the screen), far up-left (clamped), a click, two wheel clicks
rel kt-mouse 5000 0
rel kt-mouse -20000 -20000
press kt-mouse BTN_LEFT
press kt-mouse BTN_RIGHT
wheel kt-mouse -1
wheel kt-mouse 1
# a palm: libinput cancels the touch
down kt-touch 0 1000 1000
move kt-touch 0 1100 1000
palm kt-touch 0
up kt-touch 0
# unplugged mid-touch
down kt-touch 2 2048 1024
move kt-touch 2 2148 1024
sleep 0.3
destroy kt-touch
sleep 0.5
say done
PLAY

cat > "$out/p2.play" <<'PLAY'
touchscreen kt-touch2 4095 4095
knob kt-knob2 REL_X
keyboard kt-keys2 KEY_A KEY_B
settle
say ready
wait GO
down kt-touch2 0 3072 2048
up kt-touch2 0
turn kt-knob2 1 2
press kt-keys2 KEY_A
press kt-keys2 KEY_B
sleep 0.3
say done
PLAY

# Phase 2 takes everything from a config file, as the kiosk does.
cat > "$out/p2.toml" <<'TOML'
[display]
rotation = 90

[input]
calibration = [-1, 0, 1, 0, 1, 0]

[input.rotary]
name = "kt-knob2"
axis = "REL_X"
invert = true

[input.keymap]
KEY_A = "left"
TOML

cat > "$out/p3.play" <<'PLAY'
touchscreen kt-touch3 4095 4095
absknob kt-absknob 24 KEY_SELECT
settle
say ready
wait GO
down kt-touch3 0 1024 3072
up kt-touch3 0
# from 0: +1 +1 -1 -1, then 0 -> 23 (-1 across the wrap), 23 -> 0 (+1 across the wrap)
abs kt-absknob 1
abs kt-absknob 2
abs kt-absknob 1
abs kt-absknob 0
abs kt-absknob 23
abs kt-absknob 0
press kt-absknob KEY_SELECT
sleep 0.3
say done
PLAY

guest_script <<GUEST
phase() {  # phase N RECORD-ARGS...
    local n=\$1; shift
    step "phase \$n: devices made"
    play p\$n
    wait_for "\$OUT/p\$n.play.out" ready 30 || return 1
    step "phase \$n: record starts"
    record r\$n "\$@" || return 1
    step "phase \$n: played"
    touch "\$OUT/GO"
    wait_for "\$OUT/p\$n.play.out" done 30 || return 1
    stop_record r\$n
    wait \$PLAY_PID
    rm -f "\$OUT/GO"
}
phase 1 --rotary-name kt-knob || exit 1
phase 2 --config "\$OUT/p2.toml" || exit 1
cat > /etc/udev/rules.d/99-kiosk-test.rules <<'RULE'
ENV{ID_INPUT_TOUCHSCREEN}=="1", ATTRS{name}=="kt-touch3", ENV{LIBINPUT_CALIBRATION_MATRIX}="0 1 0 1 0 0"
RULE
udevadm control --reload
phase 3 --rotary-name kt-absknob --rotary-axis ABS_X --rotary-select-key KEY_SELECT --rotation 270 || exit 1
steps_done
GUEST

run_guest "$out" --timeout 300

check_events "$out" <<'PY'
for n in (1, 2, 3):
    check(open('%s/r%d.rc' % (d, n)).read().strip() == '0', 'record %d exited 0' % n)

print('phase 1: rotation 0, panel 800x480')
ev = load(d + '/r1.jsonl')
swipe = touch_sequence(ev, 600, 240)
check(len(swipe) >= 3 and swipe[0]['type'] == 'touch_down', 'swipe starts with touch_down at (600, 240) (3072/4096*800, 2048/4096*480)')
check(swipe and swipe[-1]['type'] == 'touch_up', 'swipe ends with touch_up')
moves = [e for e in swipe if e['type'] == 'touch_motion']
check(moves and near(moves[-1], 200, 240), 'swipe motion ends at (200, 240)')
check(all(moves[i]['x'] > moves[i + 1]['x'] for i in range(len(moves) - 1)), 'swipe motion x decreases steadily')
rest = touch_sequence(ev, 3500 / 4096 * 800, 500 / 4096 * 480)
check(rest and rest[-1]['type'] == 'touch_up' and rest[0]['slot'] != swipe[0]['slot'],
      'the resting second finger is reported with its own slot')
check([e['delta'] for e in of(ev, 'rotary')] == [1, 1, 1], 'three rotary detents of +1')
check(len(of(ev, 'key_down', key='enter')) == 1 and len(of(ev, 'key_up', key='enter')) == 1,
      'the knob press: one key_down/key_up enter (grabbed: libinput does not repeat it)')
check([e['key'] for e in of(ev, 'key_down')] == ['enter', 'right', 'home'], 'keys: enter (knob), right, home; KEY_A unmapped')
check([e['delta'] for e in of(ev, 'pointer_axis')] == [1, -1],
      'wheel: one notch down, one up; nothing from the knob (it is not also read by libinput)')
motion = of(ev, 'pointer_motion')
check(len(motion) == 2 and motion[0]['x'] == 799 and motion[0]['y'] == 240 and motion[1]['x'] == 0 and motion[1]['y'] == 0,
      'the pointer starts at the centre and is clamped to the screen: %s' % [(m['x'], m['y']) for m in motion])
check([e['pressed'] for e in of(ev, 'pointer_button')] == [True, False], 'left button down and up; the right one ignored')
palm = touch_sequence(ev, 1000 / 4096 * 800, 1000 / 4096 * 480)
check(palm and palm[-1]['type'] == 'touch_cancel', 'a palm cancels its touch (touch_cancel)')
gone = touch_sequence(ev, 400, 120)
check(gone and gone[-1]['type'] == 'touch_cancel', 'touchscreen unplugged mid-touch: touch_cancel')
downs = len(of(ev, 'touch_down')); ends = len(of(ev, 'touch_up')) + len(of(ev, 'touch_cancel'))
check(downs == ends == 4, 'every touch_down has its end (4 and %d/%d)' % (downs, ends))
check(all(ev[i]['t'] <= ev[i + 1]['t'] for i in range(len(ev) - 1)), 'times never go back')

print('phase 2, from a config file: rotation 90, calibration [-1 0 1 0 1 0], REL_X knob inverted, KEY_A = "left"')
ev = load(d + '/r2.jsonl')
tap = touch_sequence(ev, 240, 600)
check(len(tap) >= 2 and tap[-1]['type'] == 'touch_up',
      'tap at raw (3072, 2048) → calibrated (0.25, 0.5) → panel (200, 240) → rotated 90° (240, 600)')
check([e['delta'] for e in of(ev, 'rotary')] == [-1, -1], 'inverted REL_X: two detents of -1')
check([e['key'] for e in of(ev, 'key_down')] == ['left'], '[input.keymap] KEY_A = "left"; KEY_B unmapped')

print('phase 3: rotation 270, udev LIBINPUT_CALIBRATION_MATRIX "0 1 0 1 0 0", ABS_X knob')
ev = load(d + '/r3.jsonl')
tap = touch_sequence(ev, 360, 600)
check(len(tap) >= 2 and tap[-1]['type'] == 'touch_up',
      'tap at raw (1024, 3072) → udev-calibrated (0.75, 0.25) → panel (600, 120) → rotated 270° (360, 600)')
check([e['delta'] for e in of(ev, 'rotary')] == [1, 1, -1, -1, -1, 1], 'ABS_X wraps: +1 +1 -1 -1 -1 +1')
check(len(of(ev, 'key_down', key='enter')) == 1, '--rotary-select-key KEY_SELECT: the knob press is key_down enter')
PY
status=$?
[ $status = 0 ] && rm -rf "$out"
exit $status
