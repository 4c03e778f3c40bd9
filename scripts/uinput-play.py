#!/usr/bin/python3
"""uinput-play.py — create virtual input devices through /dev/uinput and play a script on them.

Used by the VM tests (Tests/vm/input-*.sh) to drive the kiosk's real input path on a real
kernel. Needs Debian's python3-evdev: run it with /usr/bin/python3 (not a pyenv/venv python).

    /usr/bin/python3 scripts/uinput-play.py SCRIPT|-

One command per line (# starts a comment). DEV is the name given when the device was made.

  touchscreen DEV MAXX MAXY     multitouch type B, 10 slots, INPUT_PROP_DIRECT,
                                ABS_MT_POSITION_X/Y and ABS_X/Y in 0..MAXX / 0..MAXY,
                                ABS_MT_TOOL_TYPE (for palms), BTN_TOUCH
  knob DEV AXIS [KEY]           rotary encoder: EV_REL AXIS (REL_DIAL, REL_WHEEL, REL_HWHEEL,
                                REL_X) and an optional push button KEY (KEY_ENTER, …)
  absknob DEV STEPS [KEY]       rotary encoder reporting ABS_X in 0..STEPS-1 (wraps)
  keyboard DEV KEY...           a keyboard with these keys
  mouse DEV                     a mouse: REL_X, REL_Y, REL_WHEEL, BTN_LEFT, BTN_RIGHT
  jack DEV                      a headphone jack: EV_SW SW_HEADPHONE_INSERT (a sound card's)
  switch DEV 1|0                the jack's switch: headphones plugged in (1) or pulled out (0)
  down DEV SLOT X Y             finger SLOT touches (new tracking id)
  move DEV SLOT X Y             finger SLOT moves
  up DEV SLOT                   finger SLOT lifts
  palm DEV SLOT                 finger SLOT becomes a palm (ABS_MT_TOOL_TYPE = MT_TOOL_PALM)
  swipe DEV SLOT X0 Y0 X1 Y1 N  down, N moves 20 ms apart, up
  drag DEV SLOT X0 Y0 X1 Y1 LEG_SECONDS LEGS [INTERVAL_MS] [HOLD_MS]
                                down at X0 Y0, then LEGS legs at a steady speed to X1 Y1 and
                                back (each LEG_SECONDS of motion), a move every INTERVAL_MS
                                (default 8) on a fixed schedule (late moves do not shift later
                                ones), up (scripts/measure-latency.sh). HOLD_MS: after every
                                100 ms of motion the finger rests that long (no events)
  turn DEV DELTA [COUNT]        COUNT frames of DELTA on the knob's axis (20 ms apart)
  abs DEV VALUE                 ABS_X = VALUE on an absknob
  rel DEV DX DY                 mouse motion
  wheel DEV CLICKS              mouse wheel (REL_WHEEL; negative: towards the user)
  key DEV KEY 1|0               key press (1) or release (0)
  press DEV KEY                 press and release
  destroy DEV                   remove the device (mid-touch is allowed: that is a test)
  settle                        udevadm settle (udev has processed every device)
  sleep SECONDS
  wait FILE [SECONDS]           until FILE exists (SECONDS, default 60, at most; then exit 3);
                                a relative FILE is in the script's folder
  waitlog FILE COUNT TEXT       until FILE (relative: in the script's folder) holds TEXT at
                                least COUNT times (60 s at most, then exit 3): e.g. until the
                                program under test logged that it opened a device
  say TEXT                      print TEXT to stdout (flushed)

The limits of `wait`, `waitlog` and `settle` are multiplied by $KIOSK_VM_SLOWDOWN (a factor >= 1
set by Tests/vm/lib/slowdown.bash for a slow or busy host); `sleep` is a duration, not scaled.

Each command that touches a device ends with SYN_REPORT. Prints "created DEV /dev/input/eventN"
for each device made. Exits 2 on a bad line, naming it.
"""
import os
import subprocess
import sys
import time

from evdev import AbsInfo, UInput, ecodes as e

SLOWDOWN = max(1.0, float(os.environ.get('KIOSK_VM_SLOWDOWN') or 1))

MT_TOOL_FINGER, MT_TOOL_PALM = 0, 2
devices = {}
base_dir = '.'
tracking = [1000]


def code(name):
    value = getattr(e, name, None)
    if not isinstance(value, int):
        raise ValueError('unknown event code %s' % name)
    return value


def syn(dev, pause=0.02):
    dev.syn()
    time.sleep(pause)


def make_touchscreen(name, maxx, maxy):
    ax = AbsInfo(0, 0, maxx, 0, 0, 10)
    ay = AbsInfo(0, 0, maxy, 0, 0, 10)
    caps = {e.EV_KEY: [e.BTN_TOUCH],
            e.EV_ABS: [(e.ABS_X, ax), (e.ABS_Y, ay),
                       (e.ABS_MT_SLOT, AbsInfo(0, 0, 9, 0, 0, 0)),
                       (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0)),
                       (e.ABS_MT_POSITION_X, ax), (e.ABS_MT_POSITION_Y, ay),
                       (e.ABS_MT_TOOL_TYPE, AbsInfo(0, 0, 2, 0, 0, 0))]}
    dev = UInput(caps, name=name, vendor=0x1234, product=0x7001, version=1, bustype=e.BUS_USB,
                 input_props=[e.INPUT_PROP_DIRECT])
    dev.kiosk_slots = {}
    return dev


def touching(dev):
    return [s for s, on in dev.kiosk_slots.items() if on]


def single_touch(dev, x=None, y=None):
    """Keeps the legacy single-touch axes in step with the first finger, as drivers do."""
    active = touching(dev)
    if x is not None:
        dev.write(e.EV_ABS, e.ABS_X, x)
        dev.write(e.EV_ABS, e.ABS_Y, y)
    dev.write(e.EV_KEY, e.BTN_TOUCH, 1 if active else 0)


def run(lines):
    for number, raw in enumerate(lines, 1):
        line = raw.split('#', 1)[0].strip()
        if not line:
            continue
        w = line.split()
        op, args = w[0], w[1:]
        try:
            if op == 'touchscreen':
                devices[args[0]] = make_touchscreen(args[0], int(args[1]), int(args[2]))
                print('created %s %s' % (args[0], devices[args[0]].device.path), flush=True)
            elif op == 'knob':
                caps = {e.EV_REL: [code(args[1])]}
                if len(args) > 2:
                    caps[e.EV_KEY] = [code(args[2])]
                dev = UInput(caps, name=args[0], vendor=0x1234, product=0x7002, version=1, bustype=e.BUS_HOST)
                dev.kiosk_axis = (e.EV_REL, code(args[1]))
                devices[args[0]] = dev
                print('created %s %s' % (args[0], dev.device.path), flush=True)
            elif op == 'absknob':
                caps = {e.EV_ABS: [(e.ABS_X, AbsInfo(0, 0, int(args[1]) - 1, 0, 0, 0))]}
                if len(args) > 2:
                    caps[e.EV_KEY] = [code(args[2])]
                dev = UInput(caps, name=args[0], vendor=0x1234, product=0x7003, version=1, bustype=e.BUS_HOST)
                dev.kiosk_axis = (e.EV_ABS, e.ABS_X)
                devices[args[0]] = dev
                print('created %s %s' % (args[0], dev.device.path), flush=True)
            elif op == 'keyboard':
                dev = UInput({e.EV_KEY: [code(k) for k in args[1:]]}, name=args[0], vendor=0x1234,
                             product=0x7004, version=1, bustype=e.BUS_USB)
                devices[args[0]] = dev
                print('created %s %s' % (args[0], dev.device.path), flush=True)
            elif op == 'mouse':
                dev = UInput({e.EV_REL: [e.REL_X, e.REL_Y, e.REL_WHEEL], e.EV_KEY: [e.BTN_LEFT, e.BTN_RIGHT]},
                             name=args[0], vendor=0x1234, product=0x7005, version=1, bustype=e.BUS_USB)
                devices[args[0]] = dev
                print('created %s %s' % (args[0], dev.device.path), flush=True)
            elif op == 'jack':
                dev = UInput({e.EV_SW: [e.SW_HEADPHONE_INSERT]}, name=args[0], vendor=0x1234,
                             product=0x7006, version=1, bustype=e.BUS_HOST)
                devices[args[0]] = dev
                print('created %s %s' % (args[0], dev.device.path), flush=True)
            elif op == 'switch':
                dev = devices[args[0]]
                dev.write(e.EV_SW, e.SW_HEADPHONE_INSERT, int(args[1]))
                syn(dev)
            elif op == 'rel':
                dev = devices[args[0]]
                dev.write(e.EV_REL, e.REL_X, int(args[1]))
                dev.write(e.EV_REL, e.REL_Y, int(args[2]))
                syn(dev)
            elif op == 'wheel':
                dev = devices[args[0]]
                dev.write(e.EV_REL, e.REL_WHEEL, int(args[1]))
                syn(dev)
            elif op in ('down', 'move'):
                dev, slot, x, y = devices[args[0]], int(args[1]), int(args[2]), int(args[3])
                dev.write(e.EV_ABS, e.ABS_MT_SLOT, slot)
                if op == 'down':
                    dev.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, tracking[0])
                    tracking[0] += 1
                    dev.write(e.EV_ABS, e.ABS_MT_TOOL_TYPE, MT_TOOL_FINGER)
                    dev.kiosk_slots[slot] = True
                dev.write(e.EV_ABS, e.ABS_MT_POSITION_X, x)
                dev.write(e.EV_ABS, e.ABS_MT_POSITION_Y, y)
                single_touch(dev, x, y)
                syn(dev)
            elif op == 'up':
                dev, slot = devices[args[0]], int(args[1])
                dev.write(e.EV_ABS, e.ABS_MT_SLOT, slot)
                dev.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, -1)
                dev.kiosk_slots[slot] = False
                single_touch(dev)
                syn(dev)
            elif op == 'palm':
                dev, slot = devices[args[0]], int(args[1])
                dev.write(e.EV_ABS, e.ABS_MT_SLOT, slot)
                dev.write(e.EV_ABS, e.ABS_MT_TOOL_TYPE, MT_TOOL_PALM)
                syn(dev)
            elif op == 'swipe':
                dev, slot = devices[args[0]], int(args[1])
                x0, y0, x1, y1, n = (int(a) for a in args[2:7])
                run(['down %s %d %d %d' % (args[0], slot, x0, y0)])
                for i in range(1, n + 1):
                    run(['move %s %d %d %d' % (args[0], slot, x0 + (x1 - x0) * i // n, y0 + (y1 - y0) * i // n)])
                run(['up %s %d' % (args[0], slot)])
            elif op == 'drag':
                dev, slot = devices[args[0]], int(args[1])
                x0, y0, x1, y1 = (int(a) for a in args[2:6])
                leg, legs = float(args[6]), int(args[7])
                interval = (float(args[8]) if len(args) > 8 else 8) / 1000
                hold = (float(args[9]) if len(args) > 9 else 0) / 1000
                run(['down %s %d %d %d' % (args[0], slot, x0, y0)])
                start = time.monotonic()
                steps = int(round(leg * legs / interval))
                for i in range(1, steps + 1):
                    due = start + i * interval + int(i * interval / 0.1 + 1e-9) * hold
                    delay = due - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                    f = (i * interval / leg) % 2          # 0..2: out and back
                    f = f if f <= 1 else 2 - f
                    dev.write(e.EV_ABS, e.ABS_MT_SLOT, slot)
                    x, y = int(round(x0 + (x1 - x0) * f)), int(round(y0 + (y1 - y0) * f))
                    dev.write(e.EV_ABS, e.ABS_MT_POSITION_X, x)
                    dev.write(e.EV_ABS, e.ABS_MT_POSITION_Y, y)
                    single_touch(dev, x, y)
                    dev.syn()
                run(['up %s %d' % (args[0], slot)])
            elif op == 'turn':
                dev, delta = devices[args[0]], int(args[1])
                for _ in range(int(args[2]) if len(args) > 2 else 1):
                    dev.write(dev.kiosk_axis[0], dev.kiosk_axis[1], delta)
                    syn(dev)
            elif op == 'abs':
                dev = devices[args[0]]
                dev.write(e.EV_ABS, e.ABS_X, int(args[1]))
                syn(dev)
            elif op == 'key':
                dev = devices[args[0]]
                dev.write(e.EV_KEY, code(args[1]), int(args[2]))
                syn(dev)
            elif op == 'press':
                run(['key %s %s 1' % (args[0], args[1]), 'key %s %s 0' % (args[0], args[1])])
            elif op == 'destroy':
                devices.pop(args[0]).close()
                print('destroyed %s' % args[0], flush=True)
            elif op == 'settle':
                subprocess.run(['udevadm', 'settle', '--timeout=%d' % round(10 * SLOWDOWN)], check=False)
            elif op == 'sleep':
                time.sleep(float(args[0]))
            elif op == 'wait':
                limit = (float(args[1]) if len(args) > 1 else 60) * SLOWDOWN
                end = time.time() + limit
                path = os.path.join(base_dir, args[0])
                while not os.path.exists(path):
                    if time.time() > end:
                        print('uinput-play: %s did not appear in %g s' % (args[0], limit), file=sys.stderr)
                        sys.exit(3)
                    time.sleep(0.02)
            elif op == 'waitlog':
                limit = 60 * SLOWDOWN
                end = time.time() + limit
                path, count, text = os.path.join(base_dir, args[0]), int(args[1]), ' '.join(args[2:])
                while True:
                    try:
                        with open(path, errors='replace') as f:
                            if f.read().count(text) >= count:
                                break
                    except OSError:
                        pass
                    if time.time() > end:
                        print('uinput-play: %r did not appear %d times in %s in %g s' % (text, count, path, limit),
                              file=sys.stderr)
                        sys.exit(3)
                    time.sleep(0.05)
            elif op == 'say':
                print(' '.join(args), flush=True)
            else:
                raise ValueError('unknown command %r' % op)
        except (IndexError, KeyError, ValueError) as err:
            print('uinput-play: line %d: %s: %s' % (number, line, err), file=sys.stderr)
            sys.exit(2)


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    if sys.argv[1] != '-':
        base_dir = os.path.dirname(os.path.abspath(sys.argv[1]))
    text = sys.stdin.read() if sys.argv[1] == '-' else open(sys.argv[1]).read()
    run(text.splitlines())
    for d in list(devices.values()):
        d.close()
