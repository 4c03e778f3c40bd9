#!/usr/bin/python3
"""uinput-churn.py STOPFILE [SEED] — plugs and unplugs virtual input devices in a tight loop
until STOPFILE exists, the way udev is still adding and removing input devices while a kiosk
boots: a multitouch touchscreen (type B, INPUT_PROP_DIRECT) and a rotary knob (REL_DIAL,
KEY_ENTER), each created through /dev/uinput, given a few events, and destroyed again after a
random short time (0-300 ms), overlapping each other.

Used by Tests/vm/kiosk-start-under-udev-churn.sh. Needs Debian's python3-evdev: run it with
/usr/bin/python3. Prints one line per cycle: `cycle N` (flushed), and `stopped after N cycles`.
"""
import os
import random
import sys
import time

from evdev import AbsInfo, UInput, ecodes as e


def touchscreen(name):
    ax = AbsInfo(0, 0, 4095, 0, 0, 10)
    caps = {e.EV_KEY: [e.BTN_TOUCH],
            e.EV_ABS: [(e.ABS_X, ax), (e.ABS_Y, ax),
                       (e.ABS_MT_SLOT, AbsInfo(0, 0, 9, 0, 0, 0)),
                       (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0)),
                       (e.ABS_MT_POSITION_X, ax), (e.ABS_MT_POSITION_Y, ax)]}
    return UInput(caps, name=name, vendor=0x1234, product=0x7101, version=1, bustype=e.BUS_USB,
                  input_props=[e.INPUT_PROP_DIRECT])


def knob(name):
    return UInput({e.EV_REL: [e.REL_DIAL], e.EV_KEY: [e.KEY_ENTER]}, name=name, vendor=0x1234,
                  product=0x7102, version=1, bustype=e.BUS_HOST)


def main():
    stop = sys.argv[1]
    random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    cycles = 0
    while not os.path.exists(stop):
        cycles += 1
        touch = touchscreen('churn-touch')
        time.sleep(random.uniform(0, 0.1))
        dial = knob('churn-knob')
        dial.write(e.EV_REL, e.REL_DIAL, 1)
        dial.syn()
        time.sleep(random.uniform(0, 0.3))
        touch.close()
        time.sleep(random.uniform(0, 0.1))
        dial.close()
        print('cycle %d' % cycles, flush=True)
    print('stopped after %d cycles' % cycles, flush=True)


if __name__ == '__main__':
    main()
