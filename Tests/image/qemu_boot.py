#!/usr/bin/env python3
"""One boot of the kiosk image in QEMU (TCG, OVMF, virtio disk and GPU), driven over QMP.

    qemu_boot.py --disk DISK --out DIR --size WxH --ref-start PNG [--ref-after PNG]
                 [--slowdown F] [--name NAME] [--no-report] [--arch amd64|arm64]

--arch arm64: qemu-system-aarch64 -M virt -cpu cortex-a72, AAVMF firmware, a USB keyboard (virt
has no PS/2); the guest is much slower under TCG, so the deadlines are x3 on top of --slowdown.

Standard library only. Steps, each with its own deadline (base seconds x --slowdown):
  first-frame    QEMU start -> the first screendump that shows the kiosk's background in all four
                 corners (the colours of --ref-start's corners): power-on -> first frame
  settled        the screen matches --ref-start and two screendumps 1 s apart are identical
                 (the card faces have arrived and faded in)
  keyboard       (with --ref-after) the kiosk has the guest's keyboard: its "input: device added:
                 … keyboard (/dev/input/eventN; keyboard)" journal line on the serial port (the
                 image's boot-report copies those lines there live as "KIOSK-INPUT …"). The kiosk
                 starts before udev's coldplug has announced the input devices (libinput adds
                 them as they come: docs/start-up.md), so a key pressed before that line is
                 lost, as it would be on the real machine; the key is pressed after it
  turned         (with --ref-after) QMP input-send-event: key "right" down and up; the screen
                 matches --ref-after and stops changing
  report         the guest's kiosk-boot-report on the serial port (KIOSK-BOOT-REPORT END)
  keys           (with --hostile-keys) after the report, while the carousel runs: what a stranger
                 at the kiosk's keyboard might press to leave it, over QMP send-key: Ctrl-Alt-Del
                 8 times within 2 s (more than systemd's burst of 7, whose default action is a
                 forced reboot), then Alt-SysRq-B (the kernel's immediate reboot). On an
                 unprotected guest either one resets the machine, which -no-reboot turns into
                 QEMU's end (a SHUTDOWN event, reason guest-reset) and the firmware's banner
                 would show again on a reset without it; sysrq-B acts inside the key's interrupt,
                 Ctrl-Alt-Del through PID 1. Passed when the screen is steady and unchanged, and
                 (checked again before the power cut, after the steps below have given the guest
                 time) QEMU still runs, no reset or shutdown event came, and the serial port holds
                 one firmware banner and one boot report: the same boot.
  usb-card       (with --usb-stick) after the report: the FAT image plugged in as a USB
                 mass-storage device on QEMU's xHCI controller (QMP blockdev-add + device_add):
                 the screen changes away from the settled frame (the "Reading the USB stick…"
                 card, or the result card) and is saved as NAME-usb-card.png
  usb-import     the import's own end: the image's usb-report line on the serial port
                 (KIOSK-USB-IMPORT END, written by kiosk-carousel-usb@.service's ExecStopPost);
                 failed unless systemd says success and status.json says "done". Waited for on
                 the serial port, not guessed from the screen: an attract-mode frame once passed
                 for the result card while a slow (mtools) copy was still running, and the power
                 cut came mid-copy.
  usb-result     then the screen settles, unlike that card and the start frame: the result card
                 ("New content from the USB stick — N items…"), saved as NAME-usb-result.png
                 (the content itself: boot-test.sh's next boot)
then SIGKILL of QEMU while the kiosk runs (the power cut). Screenshots (PNG) land in --out as
NAME-start.png and NAME-after.png; the serial log as NAME-serial.log. Prints one
"RESULT key=value" line per figure and "STEP name seconds" per step; exit status 0 when every
step finished in time, 1 when one timed out (the message says which, and how long the earlier
steps took), 2 on a usage or QEMU error.
"""
import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

OVMF_CODE = '/usr/share/OVMF/OVMF_CODE_4M.fd'
OVMF_VARS = '/usr/share/OVMF/OVMF_VARS_4M.fd'
AAVMF_CODE = '/usr/share/AAVMF/AAVMF_CODE.fd'
AAVMF_VARS = '/usr/share/AAVMF/AAVMF_VARS.fd'

# Base deadlines in seconds (TCG on this 2-core machine, quiet: the whole boot to the first
# frame took ~45 s; x3 for a busy machine), multiplied by --slowdown.
DEADLINE = {'first-frame': 240, 'settled': 90, 'keyboard': 60, 'turned': 60, 'report': 180,
            'keys': 60, 'usb-card': 120, 'usb-import': 300, 'usb-result': 120}

# The kiosk's line for a keyboard libinput has added (Sources/Input/LibInputSource.swift): the
# PS/2 "AT Translated Set 2 keyboard" on amd64, "QEMU QEMU USB Keyboard" on arm64's virt; not the
# power button, which libinput also counts as a keyboard. Also read by boot-test.sh's breakdown
# and scripts/boot-time.py (keyboard_added_at).
KEYBOARD_ADDED = re.compile(rb'input: device added: [^\n]*[Kk]eyboard \(/dev/input/event[0-9]+; [^)\n]*keyboard')


def keyboard_added_at(text):
    """The guest's monotonic time ("[   21.54]") of the first journal line in TEXT (a serial log
    or the boot report, str) that says the kiosk added a keyboard; None when there is none."""
    for line in text.splitlines():
        if KEYBOARD_ADDED.search(line.encode('utf-8', 'replace')):
            m = re.search(r'\[\s*([0-9]+\.[0-9]+)\]', line)
            if m:
                return float(m.group(1))
    return None


def read_ppm(path):
    data = open(path, 'rb').read()
    # P6\n<w> <h>\n255\n<rgb...>
    parts, pos = [], 0
    while len(parts) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        parts.append(data[pos:end])
        pos = end
    pos += 1
    if parts[0] != b'P6' or parts[3] != b'255':
        raise ValueError(f'{path}: not a binary 8-bit PPM')
    w, h = int(parts[1]), int(parts[2])
    return w, h, data[pos:pos + w * h * 3]


def read_png_rgb(path):
    """A PNG written by QEMU or by kiosk-carousel simulate, as (w, h, RGB bytes)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'vm', 'display'))
    import compare  # the display tests' reader (Tests/vm/display/compare.py)
    w, h, px = compare.read_png(path)
    return w, h, bytes(c for row in px for p in row for c in p)


DISK_KINDS = ('virtio', 'ssd')


def disk_options(disk, kind):
    """The image's disk on QEMU's command line. `virtio`: a virtio-blk disk, which Linux takes
    for a rotating one (virtio has no way to say otherwise). `ssd`: a SCSI disk on virtio-scsi that
    says it does not rotate (`rotation_rate=1`, QEMU's way), as the SD card, eMMC or SSD of a real
    kiosk does: fsck, for one, checks two partitions of a rotating disk one after the other
    (docs/start-up.md)."""
    if kind == 'virtio':
        return ['-drive', f'file={disk},format=raw,if=virtio']
    if kind == 'ssd':
        return ['-device', 'virtio-scsi-pci,id=scsi0',
                '-drive', f'file={disk},format=raw,if=none,id=kioskdisk',
                '-device', 'scsi-hd,drive=kioskdisk,bus=scsi0.0,rotation_rate=1']
    raise ValueError(f'disk kind {kind!r} is not one of {DISK_KINDS}')


def qemu_command(arch, code, vars_fd, disk, serial, qmp_path, xres, yres, mem='1024', smp='2',
                 xhci=False, reboot=False, extra_disk=None, disk_kind='virtio'):
    """The QEMU command line of the image's machine (also Tests/image/qemu_run.py's)."""
    if arch == 'amd64':
        qemu = ['qemu-system-x86_64', '-machine', 'q35']
    else:
        qemu = ['qemu-system-aarch64', '-machine', 'virt', '-cpu', 'cortex-a72']
    qemu += ['-accel', 'tcg', '-m', mem, '-smp', smp, '-nodefaults', '-display', 'none',
             '-drive', f'if=pflash,format=raw,readonly=on,file={code}',
             '-drive', f'if=pflash,format=raw,file={vars_fd}',
             *disk_options(disk, disk_kind),
             '-device', f'virtio-gpu-pci,xres={xres},yres={yres}',
             '-serial', f'file:{serial}',
             '-qmp', f'unix:{qmp_path},server=on,wait=off']
    if extra_disk:
        qemu += ['-drive', f'file={extra_disk},format=raw,if=virtio,readonly=on']
    if not reboot:
        qemu += ['-no-reboot']
    if arch == 'arm64' or xhci:
        qemu += ['-device', 'qemu-xhci,id=xhci']
    if arch == 'arm64':
        qemu += ['-device', 'usb-kbd']
    return qemu


class Frame:
    def __init__(self, w, h, rgb):
        self.w, self.h, self.rgb = w, h, rgb

    def at(self, x, y):
        i = (y * self.w + x) * 3
        return tuple(self.rgb[i:i + 3])

    def corners(self):
        m = 6
        return [self.at(x, y) for x in (m, self.w - 1 - m) for y in (m, self.h - 1 - m)]

    def sampled_mean_diff(self, other, step=7):
        """Mean |difference| per channel over every step-th pixel (a quick look while polling;
        the verdict is compare.py's on the full PNGs)."""
        if (self.w, self.h) != (other.w, other.h):
            return 255.0
        a, b = self.rgb, other.rgb
        total = n = 0
        for i in range(0, len(a) - 2, 3 * step):
            total += abs(a[i] - b[i]) + abs(a[i + 1] - b[i + 1]) + abs(a[i + 2] - b[i + 2])
            n += 3
        return total / n


class QMP:
    def __init__(self, path, deadline):
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.f = self.sock.makefile('rw')
        self.events = []   # QMP events (SHUTDOWN, RESET, …) read while waiting for replies
        json.loads(self.f.readline())  # greeting
        self.cmd('qmp_capabilities')

    def cmd(self, name, **args):
        msg = {'execute': name}
        if args:
            msg['arguments'] = args
        self.f.write(json.dumps(msg) + '\n')
        self.f.flush()
        while True:
            line = self.f.readline()
            if not line:
                raise EOFError('QMP connection closed')
            r = json.loads(line)
            if 'event' in r:
                self.events.append(r)
            if 'error' in r:
                raise RuntimeError(f'QMP {name}: {r["error"]}')
            if 'return' in r:
                return r['return']

    def key(self, qcode):
        for down in (True, False):
            self.cmd('input-send-event', events=[
                {'type': 'key', 'data': {'down': down, 'key': {'type': 'qcode', 'data': qcode}}}])
            time.sleep(0.05)

    def send_keys(self, *qcodes, hold_ms=100):
        """QMP send-key: QCODES pressed in order, held HOLD_MS, released in reverse (a chord)."""
        self.cmd('send-key', keys=[{'type': 'qcode', 'data': q} for q in qcodes], **{'hold-time': hold_ms})


def same_boot(proc, qmp, serial):
    """None when the guest is still in its first boot: QEMU runs (-no-reboot ends it on a reset),
    no SHUTDOWN or RESET event came, the serial port holds one firmware banner and one boot
    report; else what shows that it is not."""
    if proc.poll() is not None:
        return f'QEMU ended (exit status {proc.returncode}): the guest reset or powered off'
    status = qmp.cmd('query-status')
    if status.get('status') != 'running':
        return f'QEMU status {status.get("status")}, not running'
    ends = [e for e in qmp.events if e['event'] in ('SHUTDOWN', 'RESET', 'POWERDOWN')]
    if ends:
        return 'QMP events ' + ', '.join(f'{e["event"]} {e.get("data", {})}' for e in ends)
    text = open(serial, 'rb').read()
    banners, reports = text.count(b'BdsDxe: starting'), text.count(b'KIOSK-BOOT-REPORT END')
    if banners != 1 or reports != 1:
        return f'the serial port shows {banners} firmware banners and {reports} boot reports, not 1 and 1'
    return None


def usb_import_end(serial):
    """The image's KIOSK-USB-IMPORT END line (usr/lib/kiosk-image/usb-report) on the serial
    port, without its marker; None while there is none."""
    text = open(serial, 'rb').read().decode('utf-8', 'replace').replace('\r', '')
    for line in text.splitlines():
        if line.startswith('KIOSK-USB-IMPORT END '):
            return line[len('KIOSK-USB-IMPORT END '):]
    return None


def usb_import_problem(end):
    """None when the line says the import succeeded (systemd's result success, status.json's
    state done); else what it says instead."""
    fields = dict(f.split('=', 1) for f in end.split(' status=', 1)[0].split() if '=' in f)
    if fields.get('result') != 'success':
        return f'the unit ended with result {fields.get("result")} (exit {fields.get("exit")})'
    try:
        status = json.loads(end.split(' status=', 1)[1])
    except (IndexError, ValueError):
        return 'status.json is not whole JSON'
    if status.get('state') != 'done':
        return f'status.json says {status.get("state")}: {status.get("message")} {status.get("problems", [])}'
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--disk', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--size', default='1280x720')
    ap.add_argument('--ref-start', required=True)
    ap.add_argument('--ref-after')
    ap.add_argument('--slowdown', type=float, default=float(os.environ.get('KIOSK_VM_SLOWDOWN', '1')))
    ap.add_argument('--name', default='boot')
    ap.add_argument('--mem', default='1024')
    ap.add_argument('--smp', default='2')
    ap.add_argument('--arch', default='amd64', choices=('amd64', 'arm64'))
    ap.add_argument('--disk-kind', default='virtio', choices=DISK_KINDS,
                    help='virtio (default): virtio-blk, rotating to Linux; ssd: a SCSI disk that does not rotate')
    ap.add_argument('--usb-stick', help='a FAT image plugged in as a USB stick after the report')
    ap.add_argument('--hostile-keys', action='store_true',
                    help='after the report: Ctrl-Alt-Del x8 and Alt-SysRq-B; the guest must not reset')
    a = ap.parse_args()
    code, vars_src = (OVMF_CODE, OVMF_VARS) if a.arch == 'amd64' else (AAVMF_CODE, AAVMF_VARS)
    if a.arch == 'arm64':
        a.slowdown *= 3
    xres, yres = a.size.split('x')
    os.makedirs(a.out, exist_ok=True)
    run = os.path.join(a.out, a.name)
    serial = run + '-serial.log'
    qmp_path = run + '-qmp.sock'
    vars_fd = run + '-OVMF_VARS.fd'
    for p in (serial, qmp_path):
        if os.path.exists(p):
            os.unlink(p)
    with open(vars_src, 'rb') as src, open(vars_fd, 'wb') as dst:
        dst.write(src.read())

    ref_start = Frame(*read_png_rgb(a.ref_start))
    ref_after = Frame(*read_png_rgb(a.ref_after)) if a.ref_after else None
    if (ref_start.w, ref_start.h) != (int(xres), int(yres)):
        print(f'qemu_boot: --ref-start is {ref_start.w}x{ref_start.h}, not {a.size}', file=sys.stderr)
        return 2
    want_corners = ref_start.corners()

    qemu = qemu_command(a.arch, code, vars_fd, a.disk, serial, qmp_path, xres, yres, a.mem, a.smp,
                        xhci=bool(a.usb_stick), disk_kind=a.disk_kind)
    log = open(run + '-qemu.log', 'w')
    t0 = time.monotonic()
    proc = subprocess.Popen(qemu, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    steps = []          # (name, seconds since QEMU start when it finished)

    def elapsed():
        return time.monotonic() - t0

    def kill():
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()

    def timeout(step, what):
        done = ', '.join(f'{n} at {t:.1f} s' for n, t in steps) or 'none'
        print(f'TIMEOUT in step {step} after {elapsed():.1f} s since QEMU start '
              f'(deadline {DEADLINE[step] * a.slowdown:.0f} s for the step): {what}. '
              f'Earlier steps: {done}. Load: {loadavg()}. Serial log: {serial}', flush=True)
        kill()
        return 1

    def step_done(name):
        steps.append((name, elapsed()))
        print(f'STEP {name} {elapsed():.2f}', flush=True)

    try:
        qmp = QMP(qmp_path, time.monotonic() + 30 * a.slowdown)
        shot_ppm = run + '-poll.ppm'

        def grab():
            t_req = elapsed()
            qmp.cmd('screendump', filename=os.path.abspath(shot_ppm))
            return t_req, Frame(*read_ppm(shot_ppm))

        def png(name):
            path = f'{run}-{name}.png'
            qmp.cmd('screendump', filename=os.path.abspath(path), format='png')
            return path

        # 1. first frame: the kiosk's background in the four corners (the console and the
        #    firmware are black there).
        step_start, deadline = elapsed(), DEADLINE['first-frame'] * a.slowdown
        polls, t_prev = 0, 0.0
        loader_start = None
        while True:
            if proc.poll() is not None:
                print(f'QEMU exited with {proc.returncode} during first-frame', flush=True)
                return 2
            # The firmware's end: OVMF/AAVMF say on the serial port which boot option they start
            # (the boot loader); the guest has no clock of its own for that moment.
            if loader_start is None and b'BdsDxe: starting' in open(serial, 'rb').read():
                loader_start = elapsed()
                print(f'RESULT loader_start_s={loader_start:.2f}', flush=True)
            t_req, fr = grab()
            polls += 1
            if all(max(abs(c - d) for c, d in zip(got, want)) <= 8
                   for got, want in zip(fr.corners(), want_corners)):
                break
            if elapsed() - step_start > deadline:
                return timeout('first-frame', 'the screen never showed the kiosk background '
                                              f'(corners {fr.corners()}, want {want_corners})')
            t_prev = t_req
            # Every screendump costs QEMU's main thread (and the guest) time: twice a second.
            time.sleep(0.5)
        step_done('first-frame')
        print(f'RESULT first_frame_s={t_req:.2f}', flush=True)
        print(f'RESULT first_frame_after_s={t_prev:.2f}', flush=True)
        print(f'RESULT load_at_first_frame="{loadavg()}"', flush=True)
        print(f'RESULT first_frame_polls={polls}', flush=True)

        # 2. settled: the start frame with the card faces, and no longer changing (faces are
        #    drawn off the loop and fade in).
        step_start, deadline = elapsed(), DEADLINE['settled'] * a.slowdown
        prev = None
        while True:
            t_req, fr = grab()
            diff = fr.sampled_mean_diff(ref_start)
            if diff <= 1.0 and prev is not None and fr.rgb == prev.rgb:
                break
            if elapsed() - step_start > deadline:
                return timeout('settled', f'the screen never matched the simulate start frame '
                                          f'and stopped changing (sampled mean difference {diff:.2f})')
            prev = fr
            time.sleep(1.0)
        step_done('settled')
        print(f'RESULT settled_s={t_req:.2f}', flush=True)
        print(f'SHOT start {png("start")}', flush=True)

        # 3. the Right arrow: one item further, once the kiosk has the keyboard.
        if ref_after:
            step_start, deadline = elapsed(), DEADLINE['keyboard'] * a.slowdown
            while not KEYBOARD_ADDED.search(open(serial, 'rb').read()):
                if elapsed() - step_start > deadline:
                    return timeout('keyboard', 'the kiosk never said it added a keyboard (no "input: '
                                               'device added: … keyboard" line on the serial port)')
                time.sleep(0.3)
            step_done('keyboard')
            print(f'RESULT keyboard_s={elapsed():.2f}', flush=True)
            step_start, deadline = elapsed(), DEADLINE['turned'] * a.slowdown
            qmp.key('right')
            t_key = elapsed()
            t_match, prev = None, None
            while True:
                t_req, fr = grab()
                diff = fr.sampled_mean_diff(ref_after)
                if diff <= 1.0:
                    t_match = t_match or t_req
                    if prev is not None and fr.rgb == prev.rgb:
                        break
                if elapsed() - step_start > deadline:
                    png('after-timeout')
                    return timeout('turned', f'after the Right key the screen never matched the '
                                             f'simulate frame and stopped changing (sampled mean '
                                             f'difference {diff:.2f})')
                prev = fr
                time.sleep(0.3 if t_match is None else 1.0)
            t_req = t_match
            step_done('turned')
            print(f'RESULT key_to_match_s={t_req - t_key:.2f}', flush=True)
            print(f'SHOT after {png("after")}', flush=True)

        # 4. the guest's report on the serial port.
        step_start, deadline = elapsed(), DEADLINE['report'] * a.slowdown
        while b'KIOSK-BOOT-REPORT END' not in open(serial, 'rb').read():
            if elapsed() - step_start > deadline:
                return timeout('report', 'no KIOSK-BOOT-REPORT END on the serial port')
            time.sleep(0.5)
        step_done('report')

        def left_the_boot(when):
            """After the keys: True (said, QEMU ended) when the guest is no longer in this boot."""
            problem = same_boot(proc, qmp, serial)
            if problem:
                print(f'FAILED {when}: after Ctrl-Alt-Del x8 and Alt-SysRq-B: {problem}. '
                      f'Serial log: {serial}', flush=True)
                kill()
            return problem is not None

        # 5. the keys a stranger presses to leave the kiosk (docs/security.md, section 1).
        if a.hostile_keys:
            step_start, deadline = elapsed(), DEADLINE['keys'] * a.slowdown
            _, before = grab()
            for _ in range(8):          # systemd's burst: more than 7 within 2 s
                qmp.send_keys('ctrl', 'alt', 'delete', hold_ms=50)
                time.sleep(0.1)
            qmp.send_keys('alt', 'sysrq', 'b')
            print(f'RESULT hostile_keys_sent_s={elapsed():.2f}', flush=True)
            prev = None
            while True:
                if left_the_boot('in step keys'):
                    return 1
                t_req, fr = grab()
                diff = fr.sampled_mean_diff(before)
                if diff <= 1.0 and prev is not None and fr.rgb == prev.rgb:
                    break
                if elapsed() - step_start > deadline:
                    png('keys-timeout')
                    return timeout('keys', 'after Ctrl-Alt-Del and Alt-SysRq-B the screen never came back '
                                           f'to the carousel as before the keys (sampled mean difference {diff:.2f})')
                prev = fr
                time.sleep(1.0)
            step_done('keys')
            print(f'SHOT keys {png("keys")}', flush=True)

        # 6. a USB stick plugged in at run time: the card, then the stick's content.
        if a.usb_stick:
            _, settled = grab()
            step_start, deadline = elapsed(), DEADLINE['usb-card'] * a.slowdown
            qmp.cmd('blockdev-add', **{'driver': 'raw', 'node-name': 'stick', 'read-only': True,
                                       'file': {'driver': 'file', 'filename': os.path.abspath(a.usb_stick),
                                                'read-only': True}})
            qmp.cmd('device_add', driver='usb-storage', id='stick', drive='stick', bus='xhci.0',
                    removable=True)
            t_plug = elapsed()
            while True:
                if proc.poll() is not None:
                    print(f'QEMU exited with {proc.returncode} during usb-card', flush=True)
                    return 1
                t_req, fr = grab()
                diff = fr.sampled_mean_diff(settled)
                if diff > 3.0:
                    break
                if elapsed() - step_start > deadline:
                    png('usb-timeout')
                    return timeout('usb-card', 'after the stick was plugged in the screen never changed '
                                               f'(sampled mean difference to the settled frame {diff:.2f})')
                time.sleep(0.5)
            step_done('usb-card')
            print(f'RESULT usb_plug_to_card_s={t_req - t_plug:.2f}', flush=True)
            print(f'SHOT usb-card {png("usb-card")}', flush=True)
            card = fr
            step_start, deadline = elapsed(), DEADLINE['usb-import'] * a.slowdown
            while True:
                if proc.poll() is not None:
                    print(f'QEMU exited with {proc.returncode} during usb-import', flush=True)
                    return 1
                end = usb_import_end(serial)
                if end:
                    break
                if elapsed() - step_start > deadline:
                    png('usb-import-timeout')
                    return timeout('usb-import', 'no KIOSK-USB-IMPORT END line on the serial port: the import '
                                                 f'did not end (serial log {serial})')
                time.sleep(0.5)
            step_done('usb-import')
            print(f'RESULT usb_plug_to_import_end_s={elapsed() - t_plug:.2f}', flush=True)
            print(f'USB-IMPORT {end}', flush=True)
            problem = usb_import_problem(end)
            if problem:
                png('usb-import-failed')
                print(f'FAILED usb-import: {problem}: {end}', flush=True)
                return 1
            step_start, deadline = elapsed(), DEADLINE['usb-result'] * a.slowdown
            prev = None
            while True:
                if proc.poll() is not None:
                    print(f'QEMU exited with {proc.returncode} during usb-result', flush=True)
                    return 1
                t_req, fr = grab()
                d_card, d_start = fr.sampled_mean_diff(card), fr.sampled_mean_diff(ref_start)
                if d_card > 3.0 and d_start > 3.0 and prev is not None and fr.rgb == prev.rgb:
                    break
                if elapsed() - step_start > deadline:
                    png('usb-result-timeout')
                    return timeout('usb-result', 'the card never gave way to a steady screen unlike the '
                                                  f'start frame (difference to the card {d_card:.2f}, '
                                                  f'to the start frame {d_start:.2f})')
                prev = fr
                time.sleep(1.0)
            step_done('usb-result')
            print(f'RESULT usb_plug_to_result_s={t_req - t_plug:.2f}', flush=True)
            print(f'SHOT usb-result {png("usb-result")}', flush=True)

        # 7. the power cut, while the kiosk runs; first, after the keys, whether this is still
        #    the boot they were pressed in (the stick's import, a unit systemd started, came
        #    between: a shutdown under way would have refused it).
        if a.hostile_keys:
            if left_the_boot('before the power cut'):
                return 1
            print(f'RESULT hostile_keys_same_boot_until_s={elapsed():.2f}', flush=True)
        print(f'SHOT before-kill {png("before-kill")}', flush=True)
        kill()
        step_done('power-cut')
        return 0
    finally:
        kill()
        log.close()
        for p in (qmp_path, vars_fd, run + '-poll.ppm'):
            if os.path.exists(p):
                os.unlink(p)


def loadavg():
    return ' '.join(open('/proc/loadavg').read().split()[:3])


if __name__ == '__main__':
    sys.exit(main())
