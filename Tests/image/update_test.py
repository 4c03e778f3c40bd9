#!/usr/bin/env python3
"""make update-test: updates of the kiosk image proven in QEMU from the image's own disk.

    update_test.py --image N.img --bundles DIR --out DIR [--quick] [--slowdown F]

DIR holds the bundles Tests/image/update-test.sh made from the same root as N.img:
  next.raucb        N+1 (by URL)   next2.raucb     N+2 (from a stick once N+1 runs)
  broken.raucb      N+1 whose kiosk exits at start
  wrong-arch.raucb  N+1 for another architecture      foreign-key.raucb  N+1 signed by a key the
  tampered.raucb    next.raucb with bytes changed                        kiosk does not trust
  older.raucb       a version older than N

Each step is a check of its own ("ok: …" / "FAIL: …"), and a step whose wait runs out says which
wait and how long it had. Standard library only (Tests/image/qemu_guest.py, bundle_server.py).

  1 updates       N boots from slot A; N+1 from a URL (a server on the host's loopback, reached
                  through QEMU's user-mode network) is installed in the background and the kiosk
                  reboots into it when idle; N+1 boots from slot B and is marked good; then N+2
                  from a USB stick is installed into slot A the same way. The KIOSK edits and the
                  data partition's files survived every switch.
  2 rollback      a broken N+1 (the kiosk exits at start): the guest reboots by itself until the
                  boot counter runs out and slot A's N boots again and says it rolled back; that
                  boot stays up past the update timer's first run (no reboot loop into the failed
                  version). With step 4 in the same run, its sticks are plugged into that boot.
  3 power cuts    QEMU killed at points spread over download, install, the slot switch and the
                  first boot of N+1; after each, the next boots reach a working carousel on N or
                  N+1 and the data partition is clean (--quick: 2 points, else 20). The phases
                  are those step 1 measured, when it ran first; else an uncut update times them.
  4 refusals      wrong architecture, foreign key, tampered, older: each refused with its reason,
                  slot B and the boot entries not written (in step 2's rolled-back boot when
                  both run, else a boot of its own).

When every step runs, they run side by side (run_in_lanes: updates, rollback and the power cuts
each in a guest of its own, a cut as soon as its phase has been measured); --lanes 1 runs them
one after the other. --self-test checks the cuts' numbering and the lanes' queue without a guest.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qemu_guest import Disk, Guest, StepTimeout  # noqa: E402
from bundle_server import BundleServer  # noqa: E402

# Base deadlines (seconds, TCG on a quiet 2-core machine x ~3), multiplied by --slowdown.
BOOT = 300          # power-on -> the boot report on the serial port (a boot took ~60-90 s)
INSTALL = 900       # stick plugged or URL due -> installed and rebooted (a bundle of ~250 MB)
COUNTED_BOOT = 420  # a boot of a broken slot: power-on -> the health gate gives up and reboots

passed = failed = 0
counted = threading.Lock()   # run_in_lanes' lanes count and print from their own threads


def ok(what):
    global passed
    with counted:
        passed += 1
        print(f'ok: {what}', flush=True)


def fail(what):
    global failed
    with counted:
        failed += 1
        print(f'FAIL: {what}', flush=True)


def sparse_copy(src, dest):
    """A copy of the disk SRC that keeps its holes (4 GiB, ~1 GiB of it written)."""
    subprocess.run(['cp', '--sparse=always', src, dest], check=True)


def check(what, cond, detail=''):
    (ok if cond else fail)(what + ('' if cond or not detail else f' — {detail}'))
    return cond


class Run:
    def __init__(self, a):
        self.a = a
        self.work = a.out
        self.lane = threading.local()
        self.scratches = []
        self.sticks = {}
        self.sticks_made = threading.Lock()
        self.cut_queue = None       # run_in_lanes' CutQueue
        self.phases = None          # (power-on -> report, report -> reboot, first boot) of the updates step
        self.pending_disk = None    # a disk with N+1 installed, not yet booted

    @property
    def scratch(self):
        """A folder for the disk's partitions copied out, one per lane (thread)."""
        if not getattr(self.lane, 'scratch', None):
            self.lane.scratch = tempfile.mkdtemp(dir=self.a.out, prefix='scratch-')
            self.scratches.append(self.lane.scratch)
        return self.lane.scratch

    # --- the disk, offline ------------------------------------------------------------------
    def fresh_disk(self, name):
        path = os.path.join(self.work, name + '.img')
        sparse_copy(self.a.image, path)
        return path

    def entries(self, disk):
        return [e for e in Disk(disk).fat_list('ESP', '/loader/entries') if e.endswith('.conf')]

    def slot_entry(self, disk, slot):
        """(name, tries_left or None when blessed) of SLOT's loader entry, or (None, None)."""
        for e in self.entries(disk):
            m = re.fullmatch(r'kiosk-(\d+)-([ab])(?:\+(\d+)(?:-(\d+))?)?\.conf', e)
            if m and m.group(2) == slot.lower():
                return e, (int(m.group(3)) if m.group(3) is not None else None)
        return None, None

    def data_json(self, disk, path):
        raw = Disk(disk).ext4_read('data', path, self.scratch)
        if raw is None:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return {'unreadable': raw[:200].decode(errors='replace')}

    def boot_json(self, disk):
        return self.data_json(disk, '/kiosk-carousel/update/boot.json') or {}

    def status_json(self, disk):
        return self.data_json(disk, '/kiosk-carousel/update/status.json') or {}

    def kiosk_config(self, disk):
        return Disk(disk).fat_read('KIOSK', '/config.toml').decode()

    def set_kiosk_config(self, disk, text):
        Disk(disk).fat_write('KIOSK', '/config.toml', text.encode())

    def take_sticks(self, disk):
        """`[usb] import = true` in the KIOSK config, as a kiosk builder sets it: without it the
        kiosk reads no stick, content or bundle (docs/usb.md)."""
        cfg = self.kiosk_config(disk)
        if not re.search(r'^\[usb\]', cfg, re.M):
            self.set_kiosk_config(disk, cfg + '\n[usb]\nimport = true\n')
        return self.kiosk_config(disk)

    def plant_marker(self, disk):
        """A file on the data partition, written offline, that every later check expects intact."""
        d = Disk(disk)
        fs = d.extract('data', os.path.join(self.scratch, 'data.ext4'))
        marker = os.path.join(self.scratch, 'marker')
        with open(marker, 'w') as f:
            f.write('written before the first boot by update_test.py\n')
        subprocess.run(['debugfs', '-w', '-R', f'write {marker} /update-test-marker', fs],
                       check=True, capture_output=True)
        start, size = d.parts['data']
        subprocess.run(['dd', f'if={fs}', f'of={disk}', 'bs=512', f'seek={start}', 'conv=notrunc,sparse',
                        'status=none'], check=True)
        os.unlink(fs)

    def data_intact(self, disk, when):
        clean, out = Disk(disk).ext4_fsck('data', self.scratch)
        check(f'{when}: the data partition is e2fsck-clean', clean, out[-300:])
        m = Disk(disk).ext4_read('data', '/update-test-marker', self.scratch)
        check(f'{when}: the data partition still holds the file written before the first boot',
              m is not None and m.startswith(b'written before'))

    # --- sticks -----------------------------------------------------------------------------
    def stick(self, bundle):
        """A FAT32 stick with kiosk-carousel/update/BUNDLE on it (made once per bundle)."""
        with self.sticks_made:
            return self._stick(bundle)

    def _stick(self, bundle):
        if bundle in self.sticks:
            return self.sticks[bundle]
        src = os.path.join(self.a.bundles, bundle)
        path = os.path.join(self.work, 'stick-' + bundle.replace('.raucb', '') + '.img')
        mib = os.path.getsize(src) // (1 << 20) + 48
        if os.path.exists(path):
            os.unlink(path)
        subprocess.run(['mkfs.vfat', '-C', '-F', '32', '-n', 'UPDATE', path, str(mib * 1024)],
                       check=True, capture_output=True)
        env = dict(os.environ, MTOOLS_SKIP_CHECK='1')
        subprocess.run(['mmd', '-i', path, '::/kiosk-carousel', '::/kiosk-carousel/update'], check=True, env=env)
        subprocess.run(['mcopy', '-i', path, src, f'::/kiosk-carousel/update/{bundle}'], check=True, env=env)
        self.sticks[bundle] = path
        return path

    # --- boots ------------------------------------------------------------------------------
    def power_on(self, disk, name, net_to=None):
        print(f'== {name}: power on (load {" ".join(open("/proc/loadavg").read().split()[:3])})', flush=True)
        return Guest(disk, self.work, name, slowdown=self.a.slowdown, net_to=net_to)

    def report(self, g):
        text = g.serial_text()
        m = re.search(r'KIOSK-BOOT-REPORT BEGIN(.*?)KIOSK-BOOT-REPORT END', text, re.S)
        return m.group(1).replace('\r', '') if m else ''

    def came_up(self, g):
        """True once this boot's report is on the serial port and says the kiosk runs and the
        health gate (on a counted boot) did not fail; None while neither that nor QEMU's end
        has come (a failed trial boot prints its report and then reboots by itself)."""
        if not g.running():
            return True
        r = self.report(g)
        if not r:
            return None
        return ('KioskActiveState=active' in r and 'health gate: failed' not in r) or None

    def booted_slot(self, g):
        m = re.search(r'rauc\.slot=([AB])', self.report(g))
        return m.group(1) if m else None

    def boot_to_report(self, disk, name, net_to=None):
        g = self.power_on(disk, name, net_to)
        g.wait_serial(f'{name}: boot', BOOT, 'KIOSK-BOOT-REPORT END')
        r = self.report(g)
        check(f'{name}: the kiosk is running (its unit active, no restart)',
              'KioskActiveState=active' in r and 'KioskNRestarts=0' in r,
              ' '.join(l for l in r.split('\n') if l.startswith('Kiosk')))
        return g

    def expect_slot(self, disk, name, slot, version, blessed=True):
        b = self.boot_json(disk)
        check(f'{name}: booted slot {slot} running {version} (boot.json)',
              b.get('slot') == slot and b.get('version') == version, json.dumps(b))
        if blessed:
            entry, tries = self.slot_entry(disk, slot)
            check(f'{name}: slot {slot}\'s boot entry is marked good (no boot counter left: {entry})',
                  entry is not None and tries is None, f'entries: {self.entries(disk)}')

    # --- 1 ------------------------------------------------------------------------------------
    def updates(self, versions):
        """N+1 from a URL first, then N+2 from a stick: the URL update's phases (power-on -> report,
        report -> the reboot) and N+1's first boot are then known early, and the power cuts of
        run_in_lanes can start while this step still runs."""
        n, n1, n2 = versions['N'], versions['N+1'], versions['N+2']
        disk = self.fresh_disk('updates')
        self.plant_marker(disk)
        # A laptop edit of the KIOSK partition before the first boot: it must survive the updates.
        cfg = self.take_sticks(disk)
        edited = cfg.replace('background = "#0B1626"', 'background = "#3B1010"')
        check('updates: the example config\'s background could be edited', edited != cfg)
        root_b = Disk(disk).part_sha256('root-b')

        server = BundleServer(self.a.bundles)
        try:
            # N+1 by URL, due as soon as the kiosk runs N.
            self.set_kiosk_config(disk, edited + '\n[update]\nurl = "http://10.0.2.100/next.raucb"\n'
                                  'check_every = "1m"\n')
            g = self.boot_to_report(disk, 'updates-boot1', net_to=server.port)
            t_report = g.elapsed()
            g.wait_exit('updates: N+1 from the URL installed, then the reboot when idle', INSTALL,
                        'the guest to reboot after installing N+1 from the URL')
            # The phases the update-phase power cuts are spread over: power-on -> report, report ->
            # the reboot (the check due, download, install, slot switch).
            t_update = g.elapsed() - t_report
            if self.cut_queue:      # the update-phase power cuts can start (run_in_lanes)
                self.cut_queue.publish(self.cut_points(self.cut_queue.count, update=(t_report, t_update)))
            sent = server.log.get('next.raucb', {})
            check('updates: the server sent next.raucb whole',
                  sent.get('bytes', 0) >= os.path.getsize(os.path.join(self.a.bundles, 'next.raucb')),
                  json.dumps(sent))
        finally:
            server.close()
        check('updates: slot B was written', Disk(disk).part_sha256('root-b') != root_b)
        entry, tries = self.slot_entry(disk, 'B')
        check('updates: slot B\'s new entry is on trial (boot counter set)', tries is not None and tries > 0,
              f'entries: {self.entries(disk)}')
        s = self.status_json(disk)
        check(f'updates: the updater\'s status says {n1} installed', s.get('version') == n1, json.dumps(s))

        # N+1 installed, not yet booted: where the power cuts during a first boot start from (the
        # URL taken out again: N+2 comes from a stick).
        self.set_kiosk_config(disk, edited)
        self.pending_disk = os.path.join(self.work, 'pending-n1.img')
        sparse_copy(disk, self.pending_disk)
        g = self.boot_to_report(disk, 'updates-boot2')
        t_first = g.elapsed()
        self.phases = (t_report, t_update, t_first)
        if self.cut_queue:          # and the first-boot ones
            self.cut_queue.publish(self.cut_points(self.cut_queue.count, first_boot=t_first))
        print(f'RESULT url_report_to_reboot_s={t_update:.0f} first_boot_to_report_s={t_first:.0f}', flush=True)
        # N+2 from a stick, installed while N+1's carousel runs, the reboot when idle.
        plugged = g.elapsed()
        g.plug_stick(self.stick('next2.raucb'))
        g.wait_exit('updates: N+2 from the stick installed, then the reboot when idle', INSTALL,
                    'the guest to reboot after installing N+2 from the stick')
        print(f'RESULT stick_plugged_to_reboot_s={g.elapsed() - plugged:.0f}', flush=True)
        self.expect_slot(disk, 'updates-boot2', 'B', n1)
        s = self.status_json(disk)
        check(f'updates: the updater\'s status says {n2} installed', s.get('version') == n2, json.dumps(s))
        g = self.boot_to_report(disk, 'updates-boot3')
        g.powerdown()
        g.wait_exit('updates: clean power-off after N+2 ran', BOOT, 'the guest to power off')
        self.expect_slot(disk, 'updates-boot3', 'A', n2)
        check('updates: the KIOSK partition\'s edited config.toml survived both updates',
              self.kiosk_config(disk).startswith(edited))
        self.data_intact(disk, 'updates')

    # --- 2 ------------------------------------------------------------------------------------
    def rollback(self, versions, tries, refusals=False):
        """The broken N+1 from a stick, rolled back from. The old slot's boot then stays up past the
        update timer's first run (the failed version is not rebooted into again); REFUSALS: the
        refused sticks are plugged into that boot (step 4 without a boot of its own)."""
        n = versions['N']
        disk = self.fresh_disk('rollback')
        self.plant_marker(disk)
        self.take_sticks(disk)
        g = self.boot_to_report(disk, 'rollback-boot1')
        g.plug_stick(self.stick('broken.raucb'))
        g.wait_exit('rollback: the broken N+1 installed, then the reboot', INSTALL,
                    'the guest to reboot after installing the broken N+1')
        t0 = time.monotonic()
        boots = 0
        while True:
            boots += 1
            g = self.power_on(disk, f'rollback-try{boots}')
            # Either the guest gives up on this boot and reboots, or the report of a boot that
            # came up (slot A again) appears.
            g.wait(f'rollback: boot {boots} after the broken install', COUNTED_BOOT,
                   'the guest to reboot by itself or to come up with the kiosk running', lambda: self.came_up(g))
            if g.running():
                print(f'rollback: boot {boots} came up on slot {self.booted_slot(g)}', flush=True)
                break
            g.close()
            if boots > tries + 1:
                fail(f'rollback: still rebooting after {boots} boots (the counter allows {tries})')
                return
        rolled = time.monotonic() - t0
        up_at = g.elapsed()
        if refusals:
            self.refuse_sticks(g, disk, 'rollback')
        # kiosk-carousel-update.timer: 2 min after the kernel starts (+ up to 30 s random delay),
        # the guest's clock is real time; then its run under TCG.
        settle = 180 + 30 * self.a.slowdown
        while g.running() and g.elapsed() < settle:
            time.sleep(1)
        check(f'rollback: the old slot\'s boot still runs {g.elapsed():.0f} s after power-on, past the update '
              f'timer\'s first run (no reboot into the version that failed)', g.running() and self.report(g) != '',
              f'up at {up_at:.0f} s')
        g.powerdown()
        g.wait_exit('rollback: clean power-off on the old slot', BOOT, 'the guest to power off')
        check(f'rollback: back on slot A after {boots - 1} failed boots of the broken slot '
              f'(the counter allows {tries}), {rolled:.0f} s from the first of them', boots - 1 <= tries)
        b = self.boot_json(disk)
        self.expect_slot(disk, 'rollback', 'A', n)
        check('rollback: boot.json says it rolled back from B', b.get('rolled_back') is True
              and b.get('rolled_back_from') == 'B', json.dumps(b))
        self.data_intact(disk, 'rollback')
        print(f'RESULT rollback_boots={boots - 1} rollback_s={rolled:.0f}', flush=True)

    # --- 3 ------------------------------------------------------------------------------------
    def cut_base(self):
        """The disk every update-phase cut starts from (N, the data partition's file planted) and
        the KIOSK config that points [update] url at N+1: self.base_disk, self.url_cfg."""
        self.base_disk = self.fresh_disk('cut-base')
        self.plant_marker(self.base_disk)
        self.url_cfg = (self.kiosk_config(self.base_disk)
                        + '\n[update]\nurl = "http://10.0.2.100/next.raucb"\ncheck_every = "1m"\n')

    @staticmethod
    def cut_points(count, update=None, first_boot=None):
        """{number: (phase, seconds after power-on)} of the COUNT power-cut points whose phase's
        length is given: two thirds (numbers 1..) spread over download + install + slot switch
        (UPDATE = (power-on -> report, report -> the reboot)), the rest over the first boot of N+1
        (FIRST_BOOT = its power-on -> report: boot loader, kernel, the kiosk's start, the health
        gate). The numbers do not depend on which phases are given."""
        k_update = max(1, round(count * 2 / 3))
        k_first = max(1, count - k_update)
        points = {}
        if update:
            t_report, t_update = update
            points.update({i + 1: ('update', t_report + t_update * (i + 0.5) / k_update) for i in range(k_update)})
        if first_boot:
            points.update({k_update + i + 1: ('first-boot', first_boot * (i + 0.5) / k_first) for i in range(k_first)})
        return points

    def measure_phases(self, server):
        """The phases' lengths from an uncut URL update of N+1 (when the updates step did not give
        them): (t_report, t_update, t_first), and a disk with N+1 installed, not yet booted, as
        self.pending_disk."""
        timing = os.path.join(self.work, 'cut-timing.img')
        sparse_copy(self.base_disk, timing)
        self.set_kiosk_config(timing, self.url_cfg)
        g = self.boot_to_report(timing, 'cut-timing-boot1', net_to=server.port)
        t_report = g.elapsed()
        g.wait_exit('power cuts: an uncut URL update, to time its phases', INSTALL,
                    'the guest to reboot after installing N+1 from the URL')
        t_update = g.elapsed() - t_report
        self.pending_disk = os.path.join(self.work, 'cut-pending.img')
        sparse_copy(timing, self.pending_disk)
        g = self.boot_to_report(timing, 'cut-timing-boot2')
        t_first = g.elapsed()
        g.kill()
        os.unlink(timing)
        return t_report, t_update, t_first

    def cut_plan(self, count, server):
        """All COUNT points, from the updates step's phases when it ran (it also left the disk with
        N+1 pending), else measured here."""
        self.cut_base()
        if self.phases and self.pending_disk:
            t_report, t_update, t_first = self.phases
            print(f'power cuts: the phases from the updates step: report {t_report:.0f} s, '
                  f'update {t_update:.0f} s, first boot {t_first:.0f} s', flush=True)
        else:
            t_report, t_update, t_first = self.measure_phases(server)
        print(f'RESULT cut_phase_update_s={t_update:.0f} cut_phase_first_boot_s={t_first:.0f}', flush=True)
        return self.cut_points(count, update=(t_report, t_update), first_boot=t_first)

    def power_cut(self, versions, tries, i, phase, at, server):
        """Power cut number I (from 1), in PHASE at AT s after power-on: QEMU killed there; then
        powered on again until a boot comes up by itself (within the boot counter's tries), on N
        or N+1, with the data partition clean and its file intact. True when it did. An update
        cut starts from self.base_disk with [update] url set, a first-boot cut from the disk with
        N+1 pending."""
        n, n1 = versions['N'], versions['N+1']
        name = f'cut{i:02d}-{phase}'
        disk = os.path.join(self.work, name + '.img')
        sparse_copy(self.base_disk if phase == 'update' else self.pending_disk, disk)
        if phase == 'update':
            self.set_kiosk_config(disk, self.url_cfg)
        g = self.power_on(disk, name, net_to=server.port)
        while g.running() and g.elapsed() < at:
            time.sleep(0.2)
        cut_at = g.elapsed()
        g.kill()
        print(f'{name}: power cut at {cut_at:.1f} s after power-on', flush=True)
        # Power on again until a boot comes up (a counted boot may reboot by itself).
        came_up = None
        for attempt in range(1, tries + 3):
            try:
                g = self.power_on(disk, f'{name}-after{attempt}', net_to=server.port)
                g.wait(f'{name}: boot {attempt} after the cut', COUNTED_BOOT,
                       'the guest to come up with the kiosk running or to reboot by itself',
                       lambda: self.came_up(g))
            except StepTimeout as e:
                fail(str(e))
                break
            if g.running():
                came_up = g
                break
            g.close()
        if came_up is None:
            return False
        r = self.report(came_up)
        came_up.kill()
        b = self.boot_json(disk)
        up = 'KioskActiveState=active' in r and b.get('version') in (n, n1)
        clean, out = Disk(disk).ext4_fsck('data', self.scratch)
        marker = Disk(disk).ext4_read('data', '/update-test-marker', self.scratch)
        good = check(f'{name}: after the cut the kiosk came back on {b.get("version")} (slot {b.get("slot")}),'
                     f' data partition clean and intact', up and clean and marker is not None,
                     f'report kiosk lines: {[l for l in r.split(chr(10)) if l.startswith("Kiosk")]}, '
                     f'boot.json {b}, fsck: {out[-200:]}')
        os.unlink(disk)
        return good

    def power_cuts(self, versions, tries, count, only=None):
        """COUNT power cuts spread over the phases of an update (cut_plan), one after the other;
        ONLY (first, last), numbered from 1: run those points of the COUNT and no others (a
        session that cannot fit all of them runs the rest later; the points do not move)."""
        server = BundleServer(self.a.bundles)
        try:
            points = self.cut_plan(count, server)
            wanted = [i for i in range(1, count + 1) if not only or only[0] <= i <= only[1]]
            if only:
                print(f'power cuts: points {only[0]}-{only[1]} of {count}', flush=True)
            good = sum(1 for i in wanted if self.power_cut(versions, tries, i, *points[i], server))
            print(f'RESULT power_cuts={len(wanted)} recovered={good}', flush=True)
        finally:
            server.close()

    # --- 4 ------------------------------------------------------------------------------------
    REFUSED = [('wrong-arch.raucb', r'architecture|compatible'),
               ('foreign-key.raucb', r'key|sign|trust'),
               ('tampered.raucb', r'tamper|signature|corrupt|damaged'),
               ('older.raucb', r'older|downgrade')]

    def refusals(self):
        """A boot of its own for the refused sticks (when the rollback step does not run)."""
        disk = self.fresh_disk('refusals')
        self.take_sticks(disk)
        g = self.boot_to_report(disk, 'refusals')
        self.refuse_sticks(g, disk, 'refusals')
        g.powerdown()
        g.wait_exit('refusals: clean power-off', BOOT, 'the guest to power off')

    def refuse_sticks(self, g, disk, where):
        """The refused sticks one after the other into the running guest G, each pulled once its
        refusal is on record; then neither slot B nor the boot entries changed."""
        root_b = Disk(disk).part_sha256('root-b')
        entries = sorted(self.entries(disk))
        for bundle, reason in self.REFUSED:
            name = f'{where}: refusal-' + bundle.replace('.raucb', '')
            plugged = time.time() - 5       # the guest's clock is the host's (QEMU's RTC)

            def refused():
                raw = Disk(disk).ext4_read('data', '/kiosk-carousel/update/status.json', self.scratch, live=True)
                try:
                    st = json.loads(raw) if raw else {}
                except ValueError:
                    return None
                return st if st.get('state') == 'failed' and st.get('time', 0) > plugged else None
            sid = g.plug_stick(self.stick(bundle))
            s = g.wait(f'{name}: the refusal', INSTALL, f'the updater\'s status.json to refuse {bundle}',
                       refused, every=5.0)
            check(f'{name}: refused, and the reason says why ({reason})',
                  re.search(reason, s.get('message', ''), re.I) is not None, json.dumps(s))
            g.pull_stick(sid)
            time.sleep(3 * self.a.slowdown)
        check(f'{where}: slot B not written by any refused bundle', Disk(disk).part_sha256('root-b') == root_b)
        check(f'{where}: no boot entry added or changed by a refused bundle', sorted(self.entries(disk)) == entries,
              f'before {entries}, after {sorted(self.entries(disk))}')

def run_step(run, step, versions, a, steps):
    """STEP of the test, its failures counted (a wait that runs out says which), its time printed."""
    t0 = time.monotonic()
    print(f'=== step {step}', flush=True)
    try:
        if step == 'updates':
            run.updates(versions)
        elif step == 'rollback':
            run.rollback(versions, a.tries, refusals='refusals' in steps)
        elif step == 'power-cuts':
            only = tuple(int(x) for x in a.cuts.split('-')) if a.cuts else None
            run.power_cuts(versions, a.tries, 2 if a.quick else 20, only)
        elif step == 'refusals':
            run.refusals()
        else:
            fail(f'unknown step {step}')
    except StepTimeout as e:
        fail(str(e))
    except subprocess.CalledProcessError as e:
        fail(f'step {step}: {" ".join(map(str, e.cmd))} exited with {e.returncode}')
    print(f'RESULT step_{step}_s={time.monotonic() - t0:.0f}', flush=True)


class CutQueue:
    """The power cuts the lanes share (run_in_lanes): a point is handed out once the length of its
    phase is known (publish); take() waits for one, and says None when none is left or no more
    will come (close)."""

    def __init__(self, count, wanted):
        self.count = count
        self.todo = set(wanted)
        self.known = {}
        self.closed = False
        self.cv = threading.Condition()

    def publish(self, points):
        with self.cv:
            self.known.update(points)
            self.cv.notify_all()

    def all_known(self):
        with self.cv:
            return all(i in self.known for i in self.todo)

    def close(self):
        with self.cv:
            self.closed = True
            self.cv.notify_all()

    def take(self):
        with self.cv:
            while True:
                ready = sorted(i for i in self.todo if i in self.known)
                if ready:
                    self.todo.discard(ready[0])
                    return (ready[0],) + self.known[ready[0]]
                if not self.todo or self.closed:
                    return None
                self.cv.wait()

    def left(self):
        with self.cv:
            return sorted(self.todo)


def run_in_lanes(run, versions, a):
    """Three guests at once (--lanes 3, the default, when every step runs): lane 1 the updates
    step, lane 2 rollback with the refusals, lane 3 the power cuts; lanes 1 and 2 take power cuts
    too once their step is done. A cut is run once the updates step has measured its phase (a
    first-boot cut once N+1's first boot has reported, an update cut once N+2's URL update has
    rebooted); when that step could not, lane 1 measures them on an uncut update. A guest mostly
    waits once booted (the health gate's steady time, the update timer, the quiet moment: ~5 % of
    a core), and boots are staggered, so the lanes share the host's CPUs; every wait is as long
    as in one lane (the deadlines allow a boot ~3x as slow as a quiet one's)."""
    count = 2 if a.quick else 20
    only = tuple(int(x) for x in a.cuts.split('-')) if a.cuts else (1, count)
    queue = CutQueue(count, range(only[0], only[1] + 1))
    results = []
    server = BundleServer(a.bundles)
    print('=== step power-cuts (beside the other steps)', flush=True)
    run.cut_base()
    run.cut_queue = queue

    def cuts(lane):
        while (point := queue.take()) is not None:
            i, phase, at = point
            try:
                results.append(run.power_cut(versions, a.tries, i, phase, at, server))
            except Exception as e:     # a lane's failure is a check that failed, never a hang
                fail(f'power cut {i} (lane {lane}): {type(e).__name__}: {e}')
                results.append(False)

    def lane1():
        try:
            run_step(run, 'updates', versions, a, ['updates'])
            if not queue.all_known():
                print('power cuts: the updates step gave no phases: measured on an uncut update', flush=True)
                t_report, t_update, t_first = run.phases = run.measure_phases(server)
                queue.publish(run.cut_points(count, update=(t_report, t_update), first_boot=t_first))
        except Exception as e:
            fail(f'lane 1 (updates, the cuts\' phases): {type(e).__name__}: {e}')
        finally:
            queue.close()       # the other lanes stop waiting for phases that will not come
        cuts(1)

    def lane2():
        try:
            run_step(run, 'rollback', versions, a, ['rollback', 'refusals'])
        except Exception as e:
            fail(f'lane 2 (rollback, refusals): {type(e).__name__}: {e}')
        cuts(2)

    t0 = time.monotonic()
    lanes = [threading.Thread(target=f, name=f.__name__) for f in (lane1, lane2, lambda: cuts(3))]
    for t in lanes:
        t.start()
    for t in lanes:
        t.join()
    server.close()
    for i in queue.left():
        fail(f'power cut {i}: not run (its phase was never measured)')
    if run.phases:
        print(f'RESULT cut_phase_update_s={run.phases[1]:.0f} cut_phase_first_boot_s={run.phases[2]:.0f}', flush=True)
    print(f'RESULT power_cuts={len(results)} recovered={sum(results)}', flush=True)
    print(f'RESULT lanes_s={time.monotonic() - t0:.0f}', flush=True)


def self_test():
    """--self-test: the power cuts' numbering and the lanes' queue, without a guest."""
    quick = Run.cut_points(3, update=(60, 120), first_boot=100)
    check('self-test: 3 points: 1-2 in the update (at 90 and 150 s), 3 in the first boot (at 50 s)',
          quick == {1: ('update', 90.0), 2: ('update', 150.0), 3: ('first-boot', 50.0)}, str(quick))
    full = Run.cut_points(20, update=(60, 130), first_boot=70)
    check('self-test: 20 points: 1-13 in the update, 14-20 in the first boot, each inside its phase',
          sorted(full) == list(range(1, 21)) and all(full[i][0] == 'update' and 60 < full[i][1] < 190 for i in range(1, 14))
          and all(full[i][0] == 'first-boot' and 0 < full[i][1] < 70 for i in range(14, 21)), str(full))
    check('self-test: one phase given, only its points (numbered as with both)',
          sorted(Run.cut_points(20, first_boot=70)) == list(range(14, 21)) and sorted(Run.cut_points(3, update=(1, 2))) == [1, 2])
    q = CutQueue(3, [1, 2, 3])
    got = []
    t = threading.Thread(target=lambda: got.append(q.take()))
    t.start()
    t.join(0.3)
    waited = t.is_alive()
    q.publish(Run.cut_points(3, first_boot=100))
    t.join(5)
    check('self-test: take() waits until a point\'s phase is known, then hands it out',
          waited and got == [(3, 'first-boot', 50.0)], str(got))
    q.publish(Run.cut_points(3, update=(60, 120)))
    check('self-test: the rest in order, then None', [q.take(), q.take(), q.take()] ==
          [(1, 'update', 90.0), (2, 'update', 150.0), None])
    q = CutQueue(3, [1, 2])
    q.close()
    check('self-test: closed with nothing known: None, and the points are left', q.take() is None and q.left() == [1, 2])


def main():
    if sys.argv[1:] == ['--self-test']:
        self_test()
        print(f'{passed} passed, {failed} failed')
        return 0 if failed == 0 else 1
    ap = argparse.ArgumentParser()
    ap.add_argument('--image', required=True)
    ap.add_argument('--bundles', required=True)
    ap.add_argument('--versions', required=True, help='N,N+1,N+2,older')
    ap.add_argument('--out', required=True)
    ap.add_argument('--tries', type=int, default=3)
    ap.add_argument('--quick', action='store_true')
    ap.add_argument('--steps', default='updates,rollback,refusals,power-cuts')
    ap.add_argument('--cuts', help='FIRST-LAST: run only those power cuts of the 20 (or 3), numbered from 1')
    ap.add_argument('--lanes', type=int, choices=(1, 3), default=3,
                    help='3 (default): the steps side by side when every step runs (run_in_lanes); 1: one after the other')
    ap.add_argument('--slowdown', type=float, default=float(os.environ.get('KIOSK_VM_SLOWDOWN', '1')))
    a = ap.parse_args()
    v = a.versions.split(',')
    versions = {'N': v[0], 'N+1': v[1], 'N+2': v[2], 'older': v[3]}
    os.makedirs(a.out, exist_ok=True)
    run = Run(a)
    steps = a.steps.split(',')
    if a.lanes == 3 and set(steps) == {'updates', 'rollback', 'refusals', 'power-cuts'}:
        run_in_lanes(run, versions, a)
    else:
        for step in steps:
            if step == 'refusals' and 'rollback' in steps:
                continue    # plugged into the rolled-back boot
            run_step(run, step, versions, a, steps)
    for d in run.scratches:
        shutil.rmtree(d, ignore_errors=True)
    print(f'{passed} passed, {failed} failed')
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == '__main__':
    sys.exit(main())
