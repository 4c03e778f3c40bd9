#!/usr/bin/env python3
"""Boots the kiosk image in QEMU (the machine of qemu_boot.py: TCG, OVMF, virtio disk and GPU,
serial to a file) and lets it reboot by itself, until the serial log has shown every --until
pattern in order, then cuts the power (SIGKILL). For tests of the updater (docs/updates.md,
"Testing"): a command given to the guest with Tests/image/guest-run.sh writes to the serial port,
and so do the image's boot report and health gate.

    qemu_run.py --disk DISK --out DIR --name NAME --until REGEX [--until REGEX ...]
                [--timeout SECONDS] [--arch amd64|arm64] [--slowdown F] [--extra-disk FILE]

--extra-disk: a second virtio disk, read-only (/dev/vdb in the guest): files too large for the
data partition, an update bundle say.

Prints "MATCH <n> <seconds since QEMU start> <line>" for each pattern found and a final
"RESULT seconds=<s>" and "PNG <path>" (a screenshot taken just before the power cut). Exit status
0 when every pattern was seen, 1 when --timeout (x --slowdown) ran out first (it says which
pattern it was waiting for), 2 when QEMU ended by itself.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qemu_boot import AAVMF_CODE, AAVMF_VARS, OVMF_CODE, OVMF_VARS, QMP, loadavg, qemu_command  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--disk', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--name', default='run')
    ap.add_argument('--until', action='append', required=True)
    ap.add_argument('--timeout', type=float, default=900)
    ap.add_argument('--arch', default='amd64', choices=('amd64', 'arm64'))
    ap.add_argument('--extra-disk')
    ap.add_argument('--slowdown', type=float, default=float(os.environ.get('KIOSK_VM_SLOWDOWN', '1')))
    a = ap.parse_args()
    code, vars_src = (OVMF_CODE, OVMF_VARS) if a.arch == 'amd64' else (AAVMF_CODE, AAVMF_VARS)
    os.makedirs(a.out, exist_ok=True)
    run = os.path.join(a.out, a.name)
    serial, qmp_path, vars_fd = run + '-serial.log', run + '-qmp.sock', run + '-VARS.fd'
    for p in (serial, qmp_path):
        if os.path.exists(p):
            os.unlink(p)
    shutil.copyfile(vars_src, vars_fd)
    qemu = qemu_command(a.arch, code, vars_fd, a.disk, serial, qmp_path, '1280', '720', reboot=True,
                        extra_disk=a.extra_disk)
    log = open(run + '-qemu.log', 'w')
    t0 = time.monotonic()
    proc = subprocess.Popen(qemu, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    patterns = [re.compile(p) for p in a.until]
    deadline = a.timeout * a.slowdown
    found, pos, rc = 0, 0, 1
    try:
        qmp = QMP(qmp_path, time.monotonic() + 30 * a.slowdown)
        while found < len(patterns):
            if proc.poll() is not None:
                print(f'QEMU ended ({proc.returncode}) while waiting for /{a.until[found]}/', flush=True)
                rc = 2
                break
            text = open(serial, 'rb').read().decode(errors='replace') if os.path.exists(serial) else ''
            while found < len(patterns):
                m = patterns[found].search(text, pos)
                if not m:
                    break
                start = text.rfind('\n', 0, m.start()) + 1
                end = text.find('\n', m.end())
                line = text[start:end if end >= 0 else len(text)].strip()
                print(f'MATCH {found + 1} {time.monotonic() - t0:.1f} {line}', flush=True)
                found, pos = found + 1, m.end()
            if found == len(patterns):
                rc = 0
                break
            if time.monotonic() - t0 > deadline:
                print(f'TIMEOUT after {time.monotonic() - t0:.0f} s waiting for /{a.until[found]}/ '
                      f'(pattern {found + 1} of {len(patterns)}); load {loadavg()}; serial log {serial}', flush=True)
                break
            time.sleep(1)
        if proc.poll() is None:
            shot = os.path.abspath(run + '-end.png')
            try:
                qmp.cmd('screendump', filename=shot, format='png')
                print(f'PNG {shot}', flush=True)
            except (OSError, RuntimeError, EOFError):
                pass
        print(f'RESULT seconds={time.monotonic() - t0:.1f}', flush=True)
        return rc
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()
        for p in (qmp_path, vars_fd):
            if os.path.exists(p):
                os.unlink(p)


if __name__ == '__main__':
    sys.exit(main())
