#!/usr/bin/env python3
"""make update-test: updates of the kiosk image proven in QEMU from the image's own disk.

    update_test.py --image N.img --bundles DIR --out DIR [--quick] [--slowdown F]

DIR holds the bundles Tests/image/update-test.sh made from the same root as N.img:
  next.raucb        N+1            next2.raucb     N+2 (served by URL after N+1 runs)
  broken.raucb      N+1 whose kiosk exits at start
  wrong-arch.raucb  N+1 for another architecture      foreign-key.raucb  N+1 signed by a key the
  tampered.raucb    next.raucb with bytes changed                        kiosk does not trust
  older.raucb       a version older than N

Each step is a check of its own ("ok: …" / "FAIL: …"), and a step whose wait runs out says which
wait and how long it had. Standard library only (Tests/image/qemu_guest.py, bundle_server.py).

  1 updates       N boots from slot A; N+1 from a USB stick is installed in the background and the
                  kiosk reboots into it when idle; N+1 boots from slot B and is marked good; then
                  N+2 from a URL (a server on the host's loopback, reached through QEMU's user-mode
                  network) is installed into slot A the same way. The KIOSK edits and the data
                  partition's files survived every switch.
  2 rollback      a broken N+1 (the kiosk exits at start): the guest reboots by itself until the
                  boot counter runs out and slot A's N boots again and says it rolled back; that
                  boot stays up past the update timer's first run (no reboot loop into the failed
                  version). With step 4 in the same run, its sticks are plugged into that boot.
  3 power cuts    QEMU killed at points spread over download, install, the slot switch and the
                  first boot of N+1; after each, the next boots reach a working carousel on N or
                  N+1 and the data partition is clean (--quick: 3 points, else 20). The phases
                  are those step 1 measured, when it ran first; else an uncut update times them.
  4 refusals      wrong architecture, foreign key, tampered, older: each refused with its reason,
                  slot B and the boot entries not written (in step 2's rolled-back boot when
                  both run, else a boot of its own).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qemu_guest import Disk, Guest, StepTimeout  # noqa: E402
from bundle_server import BundleServer  # noqa: E402

# Base deadlines (seconds, TCG on a quiet 2-core machine x ~3), multiplied by --slowdown.
BOOT = 300          # power-on -> the boot report on the serial port (a boot took ~60-90 s)
INSTALL = 900       # stick plugged or URL due -> installed and rebooted (a bundle of ~250 MB)
COUNTED_BOOT = 420  # a boot of a broken slot: power-on -> the health gate gives up and reboots

passed = failed = 0


def ok(what):
    global passed
    passed += 1
    print(f'ok: {what}', flush=True)


def fail(what):
    global failed
    failed += 1
    print(f'FAIL: {what}', flush=True)


def check(what, cond, detail=''):
    (ok if cond else fail)(what + ('' if cond or not detail else f' — {detail}'))
    return cond


class Run:
    def __init__(self, a):
        self.a = a
        self.work = a.out
        self.scratch = tempfile.mkdtemp(dir=a.out, prefix='scratch-')
        self.sticks = {}

    # --- the disk, offline ------------------------------------------------------------------
    def fresh_disk(self, name):
        path = os.path.join(self.work, name + '.img')
        subprocess.run(['cp', '--sparse=always', self.a.image, path], check=True)
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
        n, n1, n2 = versions['N'], versions['N+1'], versions['N+2']
        disk = self.fresh_disk('updates')
        self.plant_marker(disk)
        # A laptop edit of the KIOSK partition before the first boot: it must survive the updates.
        cfg = self.take_sticks(disk)
        edited = cfg.replace('background = "#0B1626"', 'background = "#3B1010"')
        check('updates: the example config\'s background could be edited', edited != cfg)
        self.set_kiosk_config(disk, edited)
        root_b = Disk(disk).part_sha256('root-b')

        g = self.boot_to_report(disk, 'updates-boot1')
        plugged = g.elapsed()
        g.plug_stick(self.stick('next.raucb'))
        g.wait_exit('updates: N+1 from the stick installed, then the reboot when idle', INSTALL,
                    'the guest to reboot after installing N+1 from the stick')
        print(f'RESULT stick_plugged_to_reboot_s={g.elapsed() - plugged:.0f}', flush=True)
        # N+1 installed, not yet booted: where the power cuts during a first boot start from.
        self.pending_disk = os.path.join(self.work, 'pending-n1.img')
        subprocess.run(['cp', '--sparse=always', disk, self.pending_disk], check=True)
        check('updates: slot B was written', Disk(disk).part_sha256('root-b') != root_b)
        entry, tries = self.slot_entry(disk, 'B')
        check('updates: slot B\'s new entry is on trial (boot counter set)', tries is not None and tries > 0,
              f'entries: {self.entries(disk)}')
        s = self.status_json(disk)
        check(f'updates: the updater\'s status says {n1} installed', s.get('version') == n1, json.dumps(s))

        # N+2 by URL, due as soon as the kiosk runs N+1.
        server = BundleServer(self.a.bundles)
        try:
            self.set_kiosk_config(disk, edited + '\n[update]\nurl = "http://10.0.2.100/next2.raucb"\n'
                                  'check_every = "1m"\n')
            g = self.boot_to_report(disk, 'updates-boot2', net_to=server.port)
            t_report = t_first = g.elapsed()
            g.wait_exit('updates: N+2 from the URL installed, then the reboot when idle', INSTALL,
                        'the guest to reboot after installing N+2 from the URL')
            # The phases the power cuts are spread over: power-on -> report, report -> the reboot
            # (the check due, download, install, slot switch), and a first boot (N+1's, here).
            self.phases = (t_report, g.elapsed() - t_report, t_first)
            print(f'RESULT url_report_to_reboot_s={self.phases[1]:.0f} first_boot_to_report_s={t_first:.0f}', flush=True)
            self.expect_slot(disk, 'updates-boot2', 'B', n1)
            sent = server.log.get('next2.raucb', {})
            check('updates: the server sent next2.raucb whole',
                  sent.get('bytes', 0) >= os.path.getsize(os.path.join(self.a.bundles, 'next2.raucb')),
                  json.dumps(sent))
            g = self.boot_to_report(disk, 'updates-boot3', net_to=server.port)
            g.powerdown()
            g.wait_exit('updates: clean power-off after N+2 ran', BOOT, 'the guest to power off')
            self.expect_slot(disk, 'updates-boot3', 'A', n2)
        finally:
            server.close()
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
    def power_cuts(self, versions, tries, count, only=None):
        """COUNT power cuts spread over the phases of an update; after each, the guest must come
        back to a working carousel on N or N+1 by itself (within the boot counter's tries) with
        the data partition clean. The phases' lengths are measured once on an uncut update.
        ONLY (first, last), numbered from 1: run those points of the COUNT and no others (a
        session that cannot fit all of them runs the rest later; the points do not move)."""
        n, n1 = versions['N'], versions['N+1']
        base = self.fresh_disk('cut-base')
        self.plant_marker(base)
        cfg = self.kiosk_config(base)
        url_cfg = cfg + '\n[update]\nurl = "http://10.0.2.100/next.raucb"\ncheck_every = "1m"\n'
        server = BundleServer(self.a.bundles)
        try:
            if getattr(self, 'phases', None) and getattr(self, 'pending_disk', None):
                # The updates step measured them on the same kind of update (N+1 -> N+2 by URL,
                # N+1's first boot) and left a disk with N+1 installed and not yet booted.
                t_report, t_update, t_first = self.phases
                pending = self.pending_disk
                print(f'power cuts: the phases from the updates step: report {t_report:.0f} s, '
                      f'update {t_update:.0f} s, first boot {t_first:.0f} s', flush=True)
            else:
                # The lengths of the phases: URL due -> reboot (download + install + the wait for
                # idle), and the first boot of N+1 (power-on -> report).
                timing = self.fresh_disk('cut-timing')
                shutil.copyfile(base, timing)
                self.set_kiosk_config(timing, url_cfg)
                g = self.boot_to_report(timing, 'cut-timing-boot1', net_to=server.port)
                t_report = g.elapsed()
                g.wait_exit('power cuts: an uncut URL update, to time its phases', INSTALL,
                            'the guest to reboot after installing N+1 from the URL')
                t_update = g.elapsed() - t_report
                pending = os.path.join(self.work, 'cut-pending.img')
                shutil.copyfile(timing, pending)
                g = self.boot_to_report(timing, 'cut-timing-boot2')
                t_first = g.elapsed()
                g.kill()
            print(f'RESULT cut_phase_update_s={t_update:.0f} cut_phase_first_boot_s={t_first:.0f}', flush=True)
            # COUNT points: two thirds over download+install+slot switch, the rest over the first
            # boot of N+1 (its boot loader, kernel, the kiosk's start and the health gate).
            k_update = max(1, round(count * 2 / 3))
            points = [('update', t_report + t_update * (i + 0.5) / k_update) for i in range(k_update)]
            k_first = max(1, count - k_update)
            points += [('first-boot', t_first * (i + 0.5) / k_first) for i in range(k_first)]
            good = ran = 0
            if only:
                print(f'power cuts: points {only[0]}-{only[1]} of {len(points)}', flush=True)
            for i, (phase, at) in enumerate(points, 1):
                if only and not only[0] <= i <= only[1]:
                    continue
                ran += 1
                name = f'cut{i:02d}-{phase}'
                disk = os.path.join(self.work, name + '.img')
                shutil.copyfile(base if phase == 'update' else pending, disk)
                if phase == 'update':
                    self.set_kiosk_config(disk, url_cfg)
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
                    continue
                r = self.report(came_up)
                came_up.kill()
                b = self.boot_json(disk)
                up = 'KioskActiveState=active' in r and b.get('version') in (n, n1)
                clean, out = Disk(disk).ext4_fsck('data', self.scratch)
                marker = Disk(disk).ext4_read('data', '/update-test-marker', self.scratch)
                if check(f'{name}: after the cut the kiosk came back on {b.get("version")} (slot {b.get("slot")}),'
                         f' data partition clean and intact', up and clean and marker is not None,
                         f'report kiosk lines: {[l for l in r.split(chr(10)) if l.startswith("Kiosk")]}, '
                         f'boot.json {b}, fsck: {out[-200:]}'):
                    good += 1
                os.unlink(disk)
            print(f'RESULT power_cuts={ran} recovered={good}', flush=True)
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

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--image', required=True)
    ap.add_argument('--bundles', required=True)
    ap.add_argument('--versions', required=True, help='N,N+1,N+2,older')
    ap.add_argument('--out', required=True)
    ap.add_argument('--tries', type=int, default=3)
    ap.add_argument('--quick', action='store_true')
    ap.add_argument('--steps', default='updates,rollback,refusals,power-cuts')
    ap.add_argument('--cuts', help='FIRST-LAST: run only those power cuts of the 20 (or 3), numbered from 1')
    ap.add_argument('--slowdown', type=float, default=float(os.environ.get('KIOSK_VM_SLOWDOWN', '1')))
    a = ap.parse_args()
    v = a.versions.split(',')
    versions = {'N': v[0], 'N+1': v[1], 'N+2': v[2], 'older': v[3]}
    os.makedirs(a.out, exist_ok=True)
    run = Run(a)
    steps = a.steps.split(',')
    for step in steps:
        if step == 'refusals' and 'rollback' in steps:
            continue    # plugged into the rolled-back boot
        t0 = time.monotonic()
        print(f'=== step {step}', flush=True)
        try:
            if step == 'updates':
                run.updates(versions)
            elif step == 'rollback':
                run.rollback(versions, a.tries, refusals='refusals' in steps)
            elif step == 'power-cuts':
                only = tuple(int(x) for x in a.cuts.split('-')) if a.cuts else None
                run.power_cuts(versions, a.tries, 3 if a.quick else 20, only)
            elif step == 'refusals':
                run.refusals()
            else:
                fail(f'unknown step {step}')
        except StepTimeout as e:
            fail(str(e))
        except subprocess.CalledProcessError as e:
            fail(f'step {step}: {" ".join(map(str, e.cmd))} exited with {e.returncode}')
        print(f'RESULT step_{step}_s={time.monotonic() - t0:.0f}', flush=True)
    shutil.rmtree(run.scratch, ignore_errors=True)
    print(f'{passed} passed, {failed} failed')
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == '__main__':
    sys.exit(main())
