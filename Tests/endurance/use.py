#!/usr/bin/python3
"""use.py OUT TOP SECONDS SEED: the endurance run's synthetic use of a kiosk under real systemd
(docs/reliability.md, "Endurance"). Runs in the kiosk-vm guest inside systemd's mount and PID
namespaces (Tests/vm/lib/systemd-ns.bash), as root, with Debian's python3-evdev.

A person at human rates, in bursts (40-80 s of use, then 25-60 s of nobody, long enough for
`[idle] home_after` to bring the clip back and, some of the time, for `blank_after` to blank;
the next touch wakes): touch drags and flicks on a uinput touchscreen, REL_DIAL knob turns a
detent at a time, taps and knob presses that select. Between them, on their own clocks:
  program   every 5 min: the program item scrolled to (control socket), selected with the
            knob's button (a notice on the screen is ended by a first press, as a visitor's
            would); the foreground program takes the screen for 5 s and gives it back
  hotplug   every 3 min: a second touchscreen plugged, swiped and pulled, or the knob itself
            pulled and plugged again (in turn)
  reload    every 4 min: the config file rewritten (every third time one the kiosk refuses,
            then the good one again), every other time also `systemctl reload`
  display   every 7 min: the connector forced off for 10 s through sysfs, then back (as
            Tests/vm/display/guest-hotplug.sh)
  usb       every 8 min: stick A or B (in turn) plugged over QMP (Tests/vm/lib/usb-host.py), its
            import waited for, pulled
The schedule's windows (every 2 min), pixel-shift steps (every 7 s) and the clip come from the
configuration itself (make-config.py). Devices are made and driven by scripts/uinput-play.py's
own commands (imported). Every action is one line of OUT/use.jsonl: its time, kind, whether
it went as expected, and what it saw. Ends after SECONDS or at SIGTERM, leaving the display
plugged and its devices removed.
"""
import importlib.util
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time

OUT, TOP, SECONDS, SEED = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
SLOWDOWN = max(1.0, float(os.environ.get('KIOSK_VM_SLOWDOWN') or 1))
SOCKET = '/run/kiosk-carousel/control.sock'
CONFIG = '/etc/kiosk-carousel/config.toml'
CONTENT = '/var/lib/kiosk-carousel/usb'
TOUCH, KNOB, EXTRA = 'endurance-touch', 'endurance-knob', 'endurance-hotplug'
MAX = 4095

spec = importlib.util.spec_from_file_location('uinput_play', os.path.join(TOP, 'scripts/uinput-play.py'))
play = importlib.util.module_from_spec(spec)
spec.loader.exec_module(play)

rng = random.Random(SEED)
start = time.monotonic()
stopping = False
log_file = open(os.path.join(OUT, 'use.jsonl'), 'a')


def on_term(signum, frame):
    global stopping
    stopping = True


signal.signal(signal.SIGTERM, on_term)


def log(kind, ok=True, **fields):
    fields.update(t=round(time.time(), 3), elapsed=round(time.monotonic() - start, 1), kind=kind, ok=ok)
    log_file.write(json.dumps(fields, sort_keys=True) + '\n')
    log_file.flush()


def uinput(*lines):
    """Runs uinput-play commands; False when one failed (uinput-play exits on a bad step)."""
    try:
        play.run(list(lines))
        return True
    except SystemExit as e:
        log('uinput', ok=False, lines=list(lines), status=str(e.code))
        return False


def control(command, timeout=20):
    """One command on the control socket; its reply as a dict, or None."""
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(timeout * SLOWDOWN)
        s.connect(SOCKET)
        s.sendall(json.dumps(command).encode() + b'\n')
        buf = b''
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return None
            buf += chunk
            while b'\n' in buf:
                line, buf = buf.split(b'\n', 1)
                if b'"reply"' in line:
                    s.close()
                    return json.loads(line)
    except (OSError, ValueError):
        return None


def wait(limit, condition, pause=0.5):
    """Until condition() is true (limit x the slowdown); returns whether it was."""
    end = time.monotonic() + limit * SLOWDOWN
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(pause)
    return condition()


def systemctl(*args):
    return subprocess.run(['systemctl'] + list(args), capture_output=True, text=True, timeout=30 * SLOWDOWN)


def x(fraction):
    return int(MAX * fraction)


# ---- a person ----

def drag():
    y = x(rng.uniform(0.35, 0.65))
    a, b = rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8)
    leg = rng.uniform(0.3, 0.8)
    ok = uinput('drag %s 0 %d %d %d %d %.2f 1 16' % (TOUCH, x(a), y, x(b), y, leg))
    log('drag', ok, dx=round(b - a, 2), seconds=round(leg, 2))


def flick():
    y = x(0.5)
    a = rng.choice([0.25, 0.75])
    ok = uinput('swipe %s 0 %d %d %d %d 8' % (TOUCH, x(a), y, x(1 - a), y))
    log('flick', ok)


def turn():
    detents = rng.randint(1, 4)
    direction = rng.choice([-1, 1])
    ok = True
    for _ in range(detents):
        ok = uinput('turn %s %d' % (KNOB, direction)) and ok
        time.sleep(rng.uniform(0.2, 0.6))
    log('turn', ok, detents=detents * direction)


def tap():
    ok = uinput('down %s 0 %d %d' % (TOUCH, x(0.5), x(0.5)), 'sleep 0.08', 'up %s 0' % TOUCH)
    log('tap', ok)


def press():
    ok = uinput('press %s KEY_ENTER' % KNOB)
    log('press', ok)


HUMAN = [(drag, 45), (flick, 15), (turn, 30), (tap, 5), (press, 5)]


def human_action():
    r = rng.uniform(0, sum(w for _, w in HUMAN))
    for action, weight in HUMAN:
        r -= weight
        if r <= 0:
            return action()
    return HUMAN[0][0]()


# ---- on their own clocks ----

def state():
    return control({'cmd': 'state'}) or {}


def program():
    t0 = time.monotonic()
    notices = []
    for _ in range(3):
        control({'cmd': 'scroll_to', 'index': 0, 'duration': 0.5})
        at_program = wait(30, lambda: (lambda s: s.get('item_id') == 'program' and s.get('fps') == 0)(state()), 1)
        if state().get('blanked'):
            uinput('press %s KEY_ENTER' % KNOB)         # the waking press only wakes
            wait(10, lambda: not state().get('blanked'), 0.5)
        # A card shown instead of the carousel (a USB import's "Reading the USB stick…", kept until
        # the new content is loaded, or its result: the stick's clock runs beside this one) takes
        # a press: the press ends it and does nothing else (docs/usb.md), as a visitor's would. It
        # is ended first; then the program item is scrolled to again (the kiosk may have gone home
        # meanwhile). Pressed into such a card, the select was lost: 3 of 26 in stop 41's run.
        notice = state().get('card')
        if not notice:
            break
        notices.append(notice)
        uinput('press %s KEY_ENTER' % KNOB)
        wait(10, lambda: not state().get('card'), 0.5)
    uinput('press %s KEY_ENTER' % KNOB)
    took_screen = wait(20, lambda: state().get('foreground') is True, 0.3)
    gave_back = took_screen and wait(60, lambda: state().get('foreground') is False, 1)
    log('program', at_program and took_screen and gave_back, at_program=at_program, took_screen=took_screen,
        gave_back=gave_back, notices=notices, seconds=round(time.monotonic() - t0, 1))


hotplugs = [0]


def hotplug():
    hotplugs[0] += 1
    if hotplugs[0] % 2:
        ok = uinput('touchscreen %s %d %d' % (EXTRA, MAX, MAX), 'settle', 'sleep 2',
                    'swipe %s 0 %d %d %d %d 8' % (EXTRA, x(0.7), x(0.5), x(0.3), x(0.5)), 'sleep 2',
                    'destroy %s' % EXTRA, 'settle')
        log('hotplug', ok, device='touchscreen')
    else:
        ok = uinput('destroy %s' % KNOB, 'settle', 'sleep 3', 'knob %s REL_DIAL KEY_ENTER' % KNOB, 'settle', 'sleep 2',
                    'turn %s 1' % KNOB)
        log('hotplug', ok, device='knob')


reloads = [0]


def write_config(args):
    text = subprocess.run([sys.executable, os.path.join(TOP, 'Tests/endurance/make-config.py')] + args,
                          capture_output=True, text=True, check=True).stdout
    with open(CONFIG + '.new', 'w') as f:
        f.write(text)
    os.rename(CONFIG + '.new', CONFIG)


def generation():
    return state().get('config_generation')


def reload():
    reloads[0] += 1
    n = reloads[0]
    broken = n % 3 == 0
    before = state()
    write_config(['machine', '--reload', str(n)] + (['--broken'] if broken else []))
    if n % 2 == 0:
        systemctl('reload', 'kiosk-carousel')
    if broken:
        key, old = 'config_load_errors', before.get('config_load_errors', 0)
    else:
        key, old = 'config_generation', before.get('config_generation', 0)
    seen = wait(60, lambda: (state().get(key) or 0) > old, 1)
    log('reload', seen, number=n, broken=broken, by='file and SIGHUP' if n % 2 == 0 else 'file', **{key: state().get(key)})
    if broken:
        write_config(['machine', '--reload', str(n)])
        old = state().get('config_generation', 0)
        seen = wait(60, lambda: (state().get('config_generation') or 0) > old, 1)
        log('reload', seen, number=n, broken=False, by='file (the good one again)', config_generation=state().get('config_generation'))


unplugged = [None]


def connector():
    names = sorted(n for n in os.listdir('/sys/class/drm') if n.startswith('card0-'))
    return '/sys/class/drm/%s/status' % names[0]


def plug(state_word):
    with open(connector(), 'w') as f:
        f.write(state_word)
    subprocess.run(['udevadm', 'trigger', '--action=change', '--subsystem-match=drm'], timeout=30 * SLOWDOWN)


def display():
    plug('off')
    unplugged[0] = time.monotonic()
    gone = wait(30, lambda: state().get('display_connected') is False, 0.5)
    time.sleep(10)
    plug('detect')
    unplugged[0] = None
    back = wait(60, lambda: state().get('display_connected') is True, 0.5)
    log('display', gone and back, noticed_unplug=gone, noticed_replug=back, mode=state().get('display_mode'))


sticks = [0]


def usb_request(name, line):
    req = os.path.join(OUT, 'usb-req')
    os.makedirs(req, exist_ok=True)
    with open(os.path.join(req, name + '.tmp'), 'w') as f:
        f.write(line + '\n')
    os.rename(os.path.join(req, name + '.tmp'), os.path.join(req, name + '.req'))
    done, err = os.path.join(req, name + '.done'), os.path.join(req, name + '.err')
    wait(30, lambda: os.path.exists(done) or os.path.exists(err), 0.2)
    if os.path.exists(err):
        return open(err).read().strip()
    if os.path.exists(done):
        os.unlink(done)
        return None
    return 'usb-host.py did not answer'


def import_status():
    try:
        return json.load(open(os.path.join(CONTENT, 'status.json')))
    except (OSError, ValueError):
        return {}


def usb():
    sticks[0] += 1
    letter = 'ab'[(sticks[0] - 1) % 2]
    name = 'stick%d%s' % (sticks[0], letter)       # a new QEMU node per plug
    plugged_at = time.time()
    problem = usb_request(name, 'plug %s/stick-%s.img' % (OUT, letter))
    imported = False
    if problem is None:
        wait(30, lambda: os.path.exists('/dev/sda'), 0.5)
        imported = wait(180, lambda: import_status().get('state') in ('done', 'failed')
                        and import_status().get('time', 0) >= plugged_at - 1, 1)
        problem = usb_request(name, 'pull')
        wait(30, lambda: not os.path.exists('/dev/sda'), 0.5)
    status = import_status()
    log('usb', problem is None and imported and status.get('state') == 'done', stick=letter, qmp_problem=problem,
        import_state=status.get('state'), items=status.get('items'), message=status.get('message'))


CLOCKS = [(program, 300, 120), (hotplug, 180, 60), (reload, 240, 90), (display, 420, 150), (usb, 480, 180)]


def main():
    if not uinput('touchscreen %s %d %d' % (TOUCH, MAX, MAX), 'knob %s REL_DIAL KEY_ENTER' % KNOB, 'settle'):
        sys.exit('use.py: could not make the devices')
    log('start', seconds=SECONDS, seed=SEED, slowdown=SLOWDOWN)
    due = {f.__name__: first for f, _, first in CLOCKS}
    burst_end = time.monotonic() + rng.uniform(40, 80)
    end = start + SECONDS
    while not stopping and time.monotonic() < end:
        now = time.monotonic() - start
        for f, every, _ in CLOCKS:
            if now >= due[f.__name__] and not stopping:
                try:
                    f()
                except Exception as e:      # one action's failure is logged; the run goes on
                    log(f.__name__, ok=False, exception=repr(e))
                due[f.__name__] = (time.monotonic() - start) + every
        if time.monotonic() < burst_end:
            human_action()
            time.sleep(rng.uniform(1.5, 5))
        else:
            pause = rng.uniform(25, 60)
            log('pause', seconds=round(pause, 1))
            deadline = min(time.monotonic() + pause, end)
            while not stopping and time.monotonic() < deadline:
                if any(time.monotonic() - start >= due[f.__name__] for f, _, _ in CLOCKS):
                    break
                time.sleep(0.5)
            burst_end = time.monotonic() + rng.uniform(40, 80)
    if unplugged[0] is not None:
        plug('detect')
    for dev in list(play.devices.values()):
        dev.close()
    log('end')


main()
