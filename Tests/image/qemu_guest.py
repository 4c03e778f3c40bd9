"""The kiosk image as a QEMU guest, for tests that drive it step by step (Tests/image/update_test.py).

Standard library only. One `Guest` is one power-on of a disk image: QEMU (TCG, OVMF, virtio disk
and GPU, an xHCI controller for USB sticks, the serial port to a file, QMP), `-no-reboot` so that a
reboot of the guest ends the QEMU process (the test then inspects the disk and powers it on again).
Every wait has a deadline (base seconds x the slowdown factor) and a step name: a wait that runs
out raises `StepTimeout`, whose message says the step, what was awaited, how long the step had,
the host's load and where the serial log is.

The disk is read offline between boots (`Disk`): the GPT with sfdisk, the FAT partitions with
mtools, the ext4 ones with debugfs; nothing is mounted, nothing needs loop devices.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

from qemu_boot import OVMF_CODE, OVMF_VARS, Frame, QMP, loadavg, qemu_command, read_ppm


class StepTimeout(Exception):
    """A wait that ran out of time; str() says the step, what was awaited and the serial log."""


class Guest:
    """One power-on of DISK in QEMU. `net_to` forwards the guest's http://10.0.2.100:80/ to
    127.0.0.1:net_to on the host (QEMU user-mode network, restricted: the guest reaches no
    other address)."""

    def __init__(self, disk, out, name, size='1280x720', slowdown=1.0, net_to=None, mem='1024'):
        self.disk, self.out, self.name, self.slowdown = disk, out, name, slowdown
        os.makedirs(out, exist_ok=True)
        self.base = os.path.join(out, name)
        self.serial = self.base + '-serial.log'
        self.qmp_path = self.base + '-qmp.sock'
        self.vars = self.base + '-OVMF_VARS.fd'
        for p in (self.serial, self.qmp_path):
            if os.path.exists(p):
                os.unlink(p)
        shutil.copyfile(OVMF_VARS, self.vars)
        xres, yres = size.split('x')
        cmd = qemu_command('amd64', OVMF_CODE, self.vars, disk, self.serial, self.qmp_path, xres, yres,
                           mem=mem, xhci=True)
        if net_to:
            # cmd: one socat per connection (a tcp: chardev would connect once, and a second
            # HTTP connection from the guest would stall on it).
            cmd += ['-netdev', f'user,id=n0,restrict=on,'
                    f'guestfwd=tcp:10.0.2.100:80-cmd:socat - TCP:127.0.0.1:{net_to}',
                    '-device', 'virtio-net-pci,netdev=n0']
        self.log = open(self.base + '-qemu.log', 'w')
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self.qmp = QMP(self.qmp_path, time.monotonic() + 30 * slowdown)
        self.sticks = 0

    def elapsed(self):
        return time.monotonic() - self.t0

    def running(self):
        return self.proc.poll() is None

    def serial_text(self):
        try:
            return open(self.serial, 'rb').read().decode(errors='replace')
        except OSError:
            return ''

    def timeout(self, step, what, seconds):
        raise StepTimeout(f'step "{step}" ran out of time after {seconds:.0f} s '
                          f'({self.elapsed():.0f} s since power-on): {what}. '
                          f'Load: {loadavg()}. Serial log: {self.serial}')

    def wait(self, step, base_seconds, what, predicate, every=1.0):
        """Polls predicate() until it returns something true (returned) or the deadline passes.
        QEMU ending during the wait is a failure of the step unless the predicate saw it coming."""
        seconds = base_seconds * self.slowdown
        end = time.monotonic() + seconds
        while True:
            r = predicate()
            if r:
                return r
            if not self.running():
                raise StepTimeout(f'step "{step}": QEMU ended (the guest powered off or rebooted) '
                                  f'while waiting for {what}. Serial log: {self.serial}')
            if time.monotonic() > end:
                self.timeout(step, what, seconds)
            time.sleep(every)

    def wait_exit(self, step, base_seconds, what):
        """Waits for the guest to reboot or power off (QEMU ends: -no-reboot)."""
        seconds = base_seconds * self.slowdown
        try:
            self.proc.wait(seconds)
        except subprocess.TimeoutExpired:
            self.timeout(step, what, seconds)
        self.close()
        return self.proc.returncode

    def frame(self):
        ppm = self.base + '-poll.ppm'
        self.qmp.cmd('screendump', filename=os.path.abspath(ppm))
        return Frame(*read_ppm(ppm))

    def png(self, label):
        path = f'{self.base}-{label}.png'
        self.qmp.cmd('screendump', filename=os.path.abspath(path), format='png')
        return path

    def wait_screen(self, step, base_seconds, what, predicate):
        """Waits until predicate(frame) holds for two screendumps in a row 1 s apart."""
        state = {'prev': False}

        def check():
            ok = bool(predicate(self.frame()))
            hit, state['prev'] = ok and state['prev'], ok
            return hit
        return self.wait(step, base_seconds, what, check)

    def wait_serial(self, step, base_seconds, text):
        return self.wait(step, base_seconds, f'"{text}" on the serial port',
                         lambda: text in self.serial_text(), every=0.5)

    def plug_stick(self, image):
        """Plugs IMAGE (a raw FAT image, read-only) in as a USB stick; returns its device id."""
        self.sticks += 1
        sid = f'stick{self.sticks}'
        self.qmp.cmd('blockdev-add', **{'driver': 'raw', 'node-name': 'node-' + sid, 'read-only': True,
                                        'file': {'driver': 'file', 'filename': os.path.abspath(image),
                                                 'read-only': True}})
        self.qmp.cmd('device_add', driver='usb-storage', id=sid, drive='node-' + sid,
                     removable=True, bus='xhci.0')
        return sid

    def pull_stick(self, sid):
        self.qmp.cmd('device_del', id=sid)

    def powerdown(self):
        """The ACPI power button: systemd shuts down cleanly and QEMU ends."""
        self.qmp.cmd('system_powerdown')

    def kill(self):
        """The power cut."""
        if self.running():
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.close()

    def close(self):
        if not self.log.closed:
            self.log.close()
        for p in (self.qmp_path, self.vars, self.base + '-poll.ppm'):
            if os.path.exists(p):
                os.unlink(p)


class Disk:
    """A kiosk image file read offline: partitions by their GPT name."""

    def __init__(self, path):
        self.path = path
        table = json.loads(subprocess.run(['sfdisk', '-J', path], check=True,
                                          capture_output=True, text=True).stdout)
        self.parts = {p.get('name', ''): (int(p['start']), int(p['size']))
                      for p in table['partitiontable']['partitions']}

    def offset(self, name):
        return self.parts[name][0] * 512

    def fat_list(self, part, folder):
        """File names in FOLDER of the FAT partition PART (mtools)."""
        r = subprocess.run(['mdir', '-b', '-i', f'{self.path}@@{self.offset(part)}', '::' + folder],
                           capture_output=True, text=True, env=dict(os.environ, MTOOLS_SKIP_CHECK='1'))
        if r.returncode != 0:
            return []
        return sorted(os.path.basename(l.rstrip('/')) for l in r.stdout.split('\n') if l.strip())

    def fat_read(self, part, path):
        r = subprocess.run(['mtype', '-i', f'{self.path}@@{self.offset(part)}', '::' + path],
                           capture_output=True, env=dict(os.environ, MTOOLS_SKIP_CHECK='1'))
        return r.stdout if r.returncode == 0 else None

    def fat_write(self, part, path, data):
        with tempfile.NamedTemporaryFile() as f:
            f.write(data)
            f.flush()
            subprocess.run(['mcopy', '-o', '-i', f'{self.path}@@{self.offset(part)}', f.name, '::' + path],
                           check=True, env=dict(os.environ, MTOOLS_SKIP_CHECK='1'))

    def extract(self, part, dest):
        start, size = self.parts[part]
        subprocess.run(['dd', f'if={self.path}', f'of={dest}', 'bs=512', f'skip={start}',
                        f'count={size}', 'status=none', 'conv=sparse'], check=True)
        return dest

    def ext4_read(self, part, path, scratch, live=False):
        """PATH from the ext4 partition PART, or None when it is not there (yet), read from a copy
        whose journal is replayed first (what the next mount does: the reads here follow a
        SIGKILL of QEMU; debugfs alone reads the metadata as if the journal were not there, and
        a boot.json written just before the cut read as unreadable, stop 39). live: a guest may
        be writing it — read a copy of the partition as it is on the disk this moment (what a
        power cut now would leave) after e2fsck has repaired it as the boot's fsck would."""
        fs = self.extract(part, os.path.join(scratch, part + ('-live' if live else '') + '.ext4'))
        try:
            subprocess.run(['e2fsck', '-fy', fs] if live else ['e2fsck', '-E', 'journal_only', '-y', fs],
                           capture_output=True)
            r = subprocess.run(['debugfs', '-R', f'cat {path}', fs], capture_output=True)
            if r.returncode != 0 or b'File not found' in r.stderr:
                return None
            return r.stdout
        finally:
            os.unlink(fs)

    def ext4_fsck(self, part, scratch):
        """(clean, output) of e2fsck -fn on PART after its journal is replayed (`-E journal_only`:
        what the next mount, or systemd-fsck, does first). Every check here follows a SIGKILL of
        QEMU, often while the kiosk was writing (a bundle's download, a resumed one's clean-up):
        without the replay, -fn reads metadata the journal has not yet put in place and reports
        a free-block count the next mount would never see (a cut during a download, stop 39)."""
        fs = self.extract(part, os.path.join(scratch, part + '.ext4'))
        try:
            subprocess.run(['e2fsck', '-E', 'journal_only', '-y', fs], capture_output=True)
            r = subprocess.run(['e2fsck', '-fn', fs], capture_output=True, text=True)
            return r.returncode == 0, r.stdout + r.stderr
        finally:
            os.unlink(fs)

    def part_sha256(self, part):
        import hashlib
        start, size = self.parts[part]
        h = hashlib.sha256()
        with open(self.path, 'rb') as f:
            f.seek(start * 512)
            left = size * 512
            while left:
                chunk = f.read(min(left, 1 << 22))
                if not chunk:
                    break
                h.update(chunk)
                left -= len(chunk)
        return h.hexdigest()
