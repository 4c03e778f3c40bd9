#!/usr/bin/env python3
"""make boot-time: where the image's boot goes, phase by phase, over N boots (docs/start-up.md).

    scripts/boot-time.py [--boots 10] [--img out/kiosk-carousel-<v>-amd64.img [--img OTHER.img …]]
                         [--dropin FILE …] [--cmdline WORDS …] [--label NAME] [--out out/boot-time]
                         [--disk-kind virtio|ssd]

Each boot is a fresh copy of the image booted as `make image-test` boots it (Tests/image/
qemu_boot.py: QEMU TCG, OVMF, virtio disk (--disk-kind ssd: a SCSI disk that does not rotate) and
GPU 1280x720, screendumps twice a second until
the kiosk's background is on screen, then until it matches `simulate`'s start frame, then the
guest's boot report on the serial port, then SIGKILL). One boot at a time, so that the figures
are comparable; the host's load average is noted with each boot. Two images or more (--img given
again) boot in turn, A, B, A, B …: an A/B comparison whose host load drifts alike for both, each
image's logs and summary in OUT/LABEL/<image name>/.

Phases, from the guest's boot report (image/rootfs/usr/lib/kiosk-image/boot-report) and the host:
  firmware, loader      LoaderTimeInitUSec, LoaderTimeExecUSec - LoaderTimeInitUSec (systemd-boot's
                        EFI variables) when the loader set them; else from the host: QEMU start ->
                        the firmware's "BdsDxe: starting" line on the serial port (polled every
                        0.5 s), and from there to the kernel's start (the next row)
  power-on -> kernel    host: QEMU start -> first frame (screendump), minus the guest's monotonic
                        time of the kiosk's `first frame on screen` line (firmware + loader +
                        reading the kernel and initrd; +0..0.5 s of screendump interval)
  kernel                kernel start -> `Run /init as init process` (kernel log)
  initrd                -> systemd starts in the real root (UserspaceTimestampMonotonic)
  userspace before exec -> kiosk-carousel.service's ExecMainStartTimestampMonotonic
  exec -> first frame   -> the kiosk's `first frame on screen` log line
  first frame -> keyboard  -> the kiosk's `input: device added: … keyboard` line: the kiosk starts
                        before udev's coldplug has announced the input devices, and until then a
                        key or a touch is lost (not part of power-on -> first frame)
  power-on -> first frame (host)
--dropin FILE (again for more): each image boots in turn as it is and with FILE, a drop-in for the
kiosk's unit, written into each boot's copy (root-a's /etc/systemd/system/kiosk-carousel.service.d/,
with debugfs): a setting's cost in a boot, A/B, without building another image. --cmdline WORDS
(again for more): likewise, with WORDS added to the kernel's command line of each boot's copy.
--summarize: no boots, the summary again from OUT/LABEL's logs of an earlier run.
--serial FILE (again for more): no boots, the split of boots whose serial logs hold a boot report
(the Raspberry Pi image's in qemu -M raspi4b: Tests/image/rpi-boot-test.sh): the phases above the
guest has, and for a kiosk without a screen exec -> its `running:` line and exec -> READY=1
(ActiveEnterTimestampMonotonic of the kiosk's Type=notify unit).
Writes OUT/LABEL/boots.tsv (one row per boot), OUT/LABEL/summary.md (medians, min, max, loads),
each boot's serial log and `systemd-analyze critical-chain kiosk-carousel.service`, and prints
the summary. Exit status 1 when a boot did not reach its report.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QEMU_BOOT = os.path.join(TOP, 'Tests', 'image', 'qemu_boot.py')
sys.path.insert(0, os.path.dirname(QEMU_BOOT))
from qemu_boot import DISK_KINDS, keyboard_added_at  # noqa: E402  (the line qemu_boot.py waits for; its disks)
SIZE = '1280x720'
PHASES = [
    ('firmware', 'firmware (power-on -> systemd-boot)'),
    ('loader', 'loader (systemd-boot, reading kernel + initrd)'),
    ('to_kernel', 'power-on -> kernel start (host - guest; firmware + loader)'),
    ('kernel', 'kernel (-> Run /init)'),
    ('initrd', 'initrd (-> systemd in the real root)'),
    ('userspace', 'userspace before our exec'),
    ('exec_to_frame', 'exec -> first frame (its log line)'),
    ('frame_to_keyboard', 'first frame -> the keyboard added (its log line)'),
    ('first_frame', 'power-on -> first frame (host)'),
]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def partition_table(img):
    """The disk image's partition table as sfdisk's JSON gives it (its `partitiontable`)."""
    return json.loads(run(['sfdisk', '-J', img], capture_output=True, text=True).stdout)['partitiontable']


def partitions(img):
    return [(p['start'], p['size']) for p in partition_table(img)['partitions']]


def references(img, work):
    """The image's own binary and KIOSK config -> simulate's start frame (qemu_boot.py's
    --ref-start: the kiosk's background corners, then the settled frame)."""
    parts = partitions(img)
    root_start, root_size = parts[1]
    kiosk_start, _ = parts[3]
    env = dict(os.environ, MTOOLS_SKIP_CHECK='1')
    kiosk = os.path.join(work, 'kiosk')
    shutil.rmtree(kiosk, ignore_errors=True)
    os.makedirs(kiosk)
    run(['mcopy', '-s', '-n', '-i', f'{img}@@{kiosk_start * 512}', '::/config.toml', '::/media', kiosk + '/'],
        env=env, capture_output=True)
    rootfs = os.path.join(work, 'root.ext4')
    run(['dd', f'if={img}', f'of={rootfs}', 'bs=512', f'skip={root_start}', f'count={root_size}', 'status=none'])
    binary = os.path.join(work, 'kiosk-carousel')
    run(['debugfs', '-R', f'dump /usr/bin/kiosk-carousel {binary}', rootfs], capture_output=True)
    os.unlink(rootfs)
    os.chmod(binary, 0o755)
    ref = os.path.join(work, 'ref-start.png')
    run([binary, 'simulate', '--config', os.path.join(kiosk, 'config.toml'), '--size', SIZE, '--until', '1',
         '--shot', f'0.9={ref}'], capture_output=True)
    return ref


# --trace-pid1: the kernel's own trace of every exec, of every mount(2) and of every module loaded
# (by name), from the kernel's start (its trace_event= boot parameter), which the image's boot
# report prints when the command line asks for it: it splits systemd's own set-up in the real
# root, which systemd timestamps only as a whole ("generators started").
TRACE_EVENTS = 'sched:sched_process_exec,syscalls:sys_enter_mount,syscalls:sys_exit_mount,module:module_load'


def trace_cmdline(more=''):
    """The kernel command line's words for a traced boot: TRACE_EVENTS and `more` (system:event,
    comma-separated, as /sys/kernel/tracing/available_events names them) from the kernel's start."""
    return f'trace_event={TRACE_EVENTS}{"," + more if more else ""} trace_buf_size=16M'


def add_to_cmdline(disk, words):
    """Appends `words` to the options of every loader entry on the ESP of the disk image `disk`
    (a copy about to boot)."""
    esp = f'{disk}@@{partitions(disk)[0][0] * 512}'
    env = dict(os.environ, MTOOLS_SKIP_CHECK='1')
    listing = run(['mdir', '-b', '-i', esp, '::/loader/entries'], capture_output=True, text=True, env=env).stdout
    for entry in (line.strip() for line in listing.splitlines() if line.strip().endswith('.conf')):
        text = run(['mtype', '-i', esp, entry], capture_output=True, text=True, env=env).stdout
        text = re.sub(r'^(options .*)$', lambda m: m.group(1) + ' ' + words, text, flags=re.M)
        with tempfile.NamedTemporaryFile('w', suffix='.conf', delete=False) as f:
            f.write(text)
        run(['mcopy', '-o', '-i', esp, f.name, entry], env=env)
        os.unlink(f.name)


def pid1_steps(body):
    """systemd's set-up in the real root from the report's `--- trace` (a --trace-pid1 boot), s:
    PID 1's exec of /sbin/init -> its first mount (the loader, its libraries and main's first
    steps: before systemd's own Userspace timestamp), -> /dev/shm's mount (mount_setup(), after
    kmod_setup() loaded the modules systemd wants early), -> the first generator's exec; and the
    kernel's module loads (modprobe execs) in between. {} without a trace."""
    if '--- trace' not in body:
        return {}
    events = []
    for line in body.split('--- trace', 1)[1].splitlines():
        m = re.search(r'^\s*(\S+)-(\d+)\s+\[\d+\].*?\s(\d+\.\d+): (sched_process_exec: filename=(\S+)|sys_mount\((.*)\))', line)
        if m:
            events.append((float(m.group(3)), int(m.group(2)), m.group(5), m.group(6)))
    init = next((t for t, pid, exe, _ in events if pid == 1 and exe == '/sbin/init'), None)
    if init is None:
        return {}
    mounts = [(t, args) for t, pid, exe, args in events if pid == 1 and args is not None and t > init]
    shm = next((t for t, args in mounts if 'flags: 1000006' in args), None)   # /dev/shm: nosuid,nodev,strictatime
    generator = next((t for t, _, exe, _ in events if exe and '/system-generators/' in exe and t > init), None)
    if not mounts or shm is None or generator is None:
        return {}
    return {'exec of /sbin/init -> its first mount': mounts[0][0] - init,
            "its first mount -> /dev/shm's (kmod_setup() between)": shm - mounts[0][0],
            'mount_setup() -> the first generator': generator - shm,
            'exec of /sbin/init -> the first generator': generator - init,
            'modules the kernel loaded meanwhile (modprobe execs)': float(sum(
                1 for t, _, exe, _ in events if exe == '/sbin/modprobe' and init < t < generator))}


def timespan(text):
    """systemd's format_timespan() text ("609ms", "1.002s", "95us", "1min 2.5s") in s; None for
    anything else."""
    units = {'us': 1e-6, 'ms': 1e-3, 's': 1.0, 'min': 60.0}
    parts = re.findall(r'([0-9.]+)(us|ms|min|s)\b', text)
    if not parts or ''.join(n + u for n, u in parts) != text.replace(' ', ''):
        return None
    return sum(float(n) * units[u] for n, u in parts)


def sandbox_costs(body):
    """The report's `--- sandbox cost` (a --sandbox-cost boot: /usr/lib/kiosk-image/sandbox-cost,
    five runs of /usr/bin/true per variant of the kiosk unit's sandbox) as {'<variant>: start ->
    exit': s, '<variant>: CPU': s}, the medians of the boot's runs; {} without it."""
    runs = {}
    for line in body.splitlines():
        m = re.match(r'^SANDBOX (\S+) (.+?) (\S+)$', line)
        figures = m and (timespan(m.group(2)), timespan(m.group(3)))
        if figures and None not in figures:
            runs.setdefault(m.group(1), []).append(figures)
    costs = {}
    for variant, xs in runs.items():
        costs[f'{variant}: start -> exit'] = statistics.median(x for x, _ in xs)
        costs[f'{variant}: CPU'] = statistics.median(c for _, c in xs)
    return costs


def self_test():
    """pid1_steps on lines of a real trace (stop 59's boot, trimmed): the figures it must give,
    and none for a report without a trace or without PID 1's /dev/shm mount; sandbox_costs on the
    report's lines. 0 when they hold."""
    trace = """--- trace
         systemd-1       [001] .....    16.740778: sched_process_exec: filename=/bin/run-init pid=1 old_pid=1
         systemd-1       [001] ...1.    16.841501: sys_mount(dev_name: 40216e, dir_name: 4020f7, type: 0, flags: 2000, data: 0)
         systemd-1       [001] .....    16.933697: sched_process_exec: filename=/sbin/init pid=1 old_pid=1
         systemd-1       [001] ...1.    17.570540: sys_mount(dev_name: 7f26a6873e64, dir_name: 7ffcc12d9960, type: 7f26a6873e64, flags: e, data: 0)
         systemd-1       [001] ...1.    17.571214: sys_mount -> 0x0
         systemd-1       [000] ...1.    18.872303: sys_mount(dev_name: 7f26a6873e4d, dir_name: 7ffcc12d9890, type: 7f26a6873e4d, flags: 1000006, data: 7f26a6873)
        modprobe-228     [000] .....    18.938321: sched_process_exec: filename=/sbin/modprobe pid=228 old_pid=228
  systemd-fstab-g-234     [000] .....    19.983628: sched_process_exec: filename=/usr/lib/systemd/system-generators/systemd-fstab-generator pid=234 old_pid=234
        modprobe-301     [000] .....    25.000000: sched_process_exec: filename=/sbin/modprobe pid=301 old_pid=301
"""
    want = {'exec of /sbin/init -> its first mount': 0.636843,
            "its first mount -> /dev/shm's (kmod_setup() between)": 1.301763,
            'mount_setup() -> the first generator': 1.111325,
            'exec of /sbin/init -> the first generator': 3.049931,
            'modules the kernel loaded meanwhile (modprobe execs)': 1.0}
    got = pid1_steps('--- systemd-analyze\n' + trace)
    failures = [f'{k}: {got.get(k)} instead of {v}' for k, v in want.items() if abs((got.get(k) or -1) - v) > 1e-6]
    if pid1_steps('--- systemd-analyze\n') != {}:
        failures.append('a report without a trace gave figures')
    if pid1_steps(trace.replace('flags: 1000006', 'flags: 6')) != {}:
        failures.append('a trace without /dev/shm\'s mount gave figures')
    # The kernel's random numbers ready after the kiosk's fork, 0 before it; no figure without the
    # line or for a restarted kiosk.
    crng = {'KioskExecMainStartTimestampMonotonic': '8353047', 'KernelCrngReady': '[    8.886831] kiosk kernel: random: crng init done'}
    for name, v, w in [('after the fork', crng, 0.533784), ('before the fork', dict(crng, KioskExecMainStartTimestampMonotonic='9353047'), 0.0),
                       ('without the line', dict(crng, KernelCrngReady=''), None), ('restarted', dict(crng, KioskNRestarts='1'), None)]:
        got = crng_after_fork(v)
        if (got is None) != (w is None) or (w is not None and abs(got - w) > 1e-6):
            failures.append(f'crng_after_fork {name}: {got} instead of {w}')
    # The sandbox's costs: the median of each variant's runs; an error line and a figure systemd
    # did not write are no runs.
    sandbox = """--- sandbox cost
SANDBOX none 95ms 82ms
SANDBOX none 40ms 40ms
SANDBOX none 57ms 45ms
SANDBOX all 609ms 591ms
SANDBOX all 1.002s 639ms
SANDBOX-ERROR all: Job for sandbox-cost-all-3.service failed
SANDBOX without-IPAddressDeny 1min 2.5s 329ms
SANDBOX without-IPAddressDeny 3.5 parsecs 1ms
"""
    want = {'none: start -> exit': 0.057, 'none: CPU': 0.045, 'all: start -> exit': 0.8055, 'all: CPU': 0.615,
            'without-IPAddressDeny: start -> exit': 62.5, 'without-IPAddressDeny: CPU': 0.329}
    got = sandbox_costs(sandbox)
    failures += [f'{k}: {got.get(k)} instead of {v}' for k, v in want.items() if abs((got.get(k) or -1) - v) > 1e-6]
    failures += [f'{k}: a figure from no run' for k in got if k not in want]
    # A boot without a screen (--serial, the Pi's): exec -> `running:` from the journal's line,
    # exec -> READY=1 from the unit's timestamps.
    body = """UserspaceTimestampMonotonic=40000000
KioskExecMainStartTimestampMonotonic=95500000
KioskActiveEnterTimestampMonotonic=120300000
KernelRunInit [    2.250000] kiosk kernel: Run /init as init process
--- kiosk-carousel journal (monotonic)
[  117.900000] kiosk kiosk-carousel[421]: kiosk-carousel: no display device (no DRM device in /dev/dri)
[  118.700000] kiosk kiosk-carousel[421]: kiosk-carousel: running: 14 items, 1280x720
"""
    values = {k: v for k, v in (l.split('=', 1) for l in body.splitlines() if '=' in l and ' ' not in l.split('=', 1)[0])}
    values['KernelRunInit'] = body.splitlines()[3].split(' ', 1)[1]
    want = {'kernel': 2.25, 'initrd': 37.75, 'userspace': 55.5, 'exec_to_running': 23.2, 'exec_to_ready': 24.8}
    # The kernel's clock ahead of the monotonic one (raspi4b): kernel and initrd as one phase;
    # a restarted kiosk: no exec -> … phases.
    ahead = dict(values, KernelRunInit='[   50.000000] kiosk kernel: Run /init as init process')
    restarted = dict(values, KioskNRestarts='1')
    for name, v, w in [('', values, want),
                       (' (kernel clock ahead)', ahead, {'kernel_initrd': 40.0, 'userspace': 55.5, 'exec_to_running': 23.2,
                                                          'exec_to_ready': 24.8}),
                       (' (restarted)', restarted, {'kernel': 2.25, 'initrd': 37.75})]:
        got = guest_split(v, body)
        failures += [f'guest_split{name} {k}: {got.get(k)} instead of {x}' for k, x in w.items() if abs((got.get(k) or -1) - x) > 1e-6]
        failures += [f'guest_split{name} {k}: a figure it should not give' for k in got if k not in w]
    failures += dropin_self_test()
    for f in failures:
        print(f'boot-time.py --self-test: {f}', file=sys.stderr)
    print(f'boot-time.py --self-test: {"FAILED" if failures else "ok"} (pid1_steps, crng_after_fork, sandbox_costs, guest_split, write_dropin, dropin_in_effect)')
    return 1 if failures else 0


def dropin_self_test():
    """write_dropin on a small disk image made here (GPT: an ESP and an ext4 root-a, as the
    image's; sfdisk, mkfs.ext4 at the partition's offset): the drop-in in the root as written,
    root's, mode 0644, the folder made; written again, replaced; a disk without root-a refused.
    The failures, as words."""
    failures = []
    with tempfile.TemporaryDirectory() as work:
        disk, dropin = os.path.join(work, 'disk.img'), os.path.join(work, 'zz-test.conf')
        with open(disk, 'wb') as f:
            f.truncate(12 << 20)
        run(['sfdisk', '-q', disk], input='label: gpt\nstart=2048, size=2048, name=ESP\n'
            'start=4096, size=16384, name=root-a\n', text=True, capture_output=True)
        run(['mkfs.ext4', '-q', '-F', '-E', f'offset={4096 * 512}', disk, '8M'], capture_output=True)
        fs, dest = f'{disk}?offset={4096 * 512}', f'{DROPIN_DIR}/zz-test.conf'
        for text in ('[Service]\nProtectSystem=no\n', '[Service]\nProtectHome=no\n'):
            open(dropin, 'w').write(text)
            try:
                write_dropin(disk, dropin)
            except (RuntimeError, subprocess.CalledProcessError) as e:
                failures.append(f'write_dropin: {e}')
                continue
            back = subprocess.run(['debugfs', '-R', f'cat {dest}', fs], capture_output=True, text=True).stdout
            if back != text:
                failures.append(f'write_dropin: {dest} reads {back!r}, not {text!r}')
            stat = subprocess.run(['debugfs', '-R', f'stat {dest}', fs], capture_output=True, text=True).stdout
            if not re.search(r'Mode:\s+0644', stat) or not re.search(r'User:\s+0\s+Group:\s+0', stat):
                failures.append(f'write_dropin: {dest} is not root\'s with mode 0644: {stat.splitlines()[:2]}')
        run(['sfdisk', '-q', '--part-label', disk, '2', 'root-b'], capture_output=True)
        try:
            write_dropin(disk, dropin)
            failures.append('write_dropin: a disk without root-a was written')
        except RuntimeError:
            pass
    # The report's line of the unit's drop-ins, with and without the one written.
    line = f'kiosk drop-ins: {DROPIN_DIR}/image.conf {DROPIN_DIR}/zz-test.conf\n'
    for serial, want in [(line, True), (line.replace('zz-test.conf', 'other.conf'), False),
                         ('kiosk after: local-fs.target\n', None)]:
        if dropin_in_effect(serial, '/some/where/zz-test.conf') is not want:
            failures.append(f'dropin_in_effect: not {want} for {serial.strip()!r}')
    return failures


def monotonic_of(line):
    m = re.search(r'\[\s*([0-9]+\.[0-9]+)\]', line or '')
    return float(m.group(1)) if m else None


# What the boots need, as Tests/image/boot-test.sh checks it: (a file that must exist, its package).
PREREQUISITES = [('/usr/bin/qemu-system-x86_64', 'qemu-system-x86'), ('/usr/share/OVMF/OVMF_CODE_4M.fd', 'ovmf'),
                 ('/usr/bin/mcopy', 'mtools')]


def prerequisites():
    """Installs the Debian packages the boots need when they are missing and we are root; says which
    are missing otherwise (False)."""
    need = sorted({package for path, package in PREREQUISITES if not os.path.exists(path)})
    if not need:
        return True
    if os.geteuid() != 0:
        print(f'boot-time: missing: apt-get install {" ".join(need)}', file=sys.stderr)
        return False
    print(f'boot-time: installing {" ".join(need)}', flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
    ok = subprocess.run(['apt-get', 'update', '-q'], stdout=subprocess.DEVNULL, env=env).returncode == 0 and \
        subprocess.run(['apt-get', 'install', '-y', '-q', '--no-install-recommends'] + need,
                       stdout=subprocess.DEVNULL, env=env).returncode == 0
    if not ok:
        print(f'boot-time: apt-get install {" ".join(need)} failed', file=sys.stderr)
    return ok


def report_body(serial):
    """The boot report's lines in a serial log (between its BEGIN and END lines); None when the
    log is missing (QEMU never started: qemu_boot.py says why) or has no report."""
    if not os.path.exists(serial):
        return None
    text = open(serial, 'rb').read().decode('utf-8', 'replace').replace('\r', '')
    m = re.search(r'KIOSK-BOOT-REPORT BEGIN\n(.*?)KIOSK-BOOT-REPORT END', text, re.S)
    return m.group(1) if m else None


def parse_report(serial):
    body = report_body(serial)
    return (None, None) if body is None else parse_body(body)


def parse_body(body):
    """A boot report's values, and its kiosk unit's critical chain (else the whole body)."""
    values = {}
    for line in body.splitlines():
        if '=' in line and ' ' not in line.split('=', 1)[0]:
            k, v = line.split('=', 1)
            values.setdefault(k, v)
        elif line.startswith(('KernelRunInit ', 'KioskFirstFrame ', 'KernelCrngReady ')):
            k, v = line.split(' ', 1)
            values[k] = v
        elif line.startswith('Unit ') and len(line.split()) == 3:
            _, unit, v = line.split()
            values['Unit ' + unit] = v
    values['KioskKeyboardAt'] = keyboard_added_at(body)
    values['KioskStartupSteps'] = startup_steps(body)
    crng = crng_after_fork(values)
    if crng is not None and values['KioskStartupSteps']:
        values['KioskStartupSteps'][CRNG_STEP] = crng
    values['Pid1Steps'] = pid1_steps(body)
    values['SandboxCosts'] = sandbox_costs(body)
    chain = re.search(r'--- systemd-analyze critical-chain kiosk-carousel.service\n(.*?)\n---', body, re.S)
    return values, body if chain is None else chain.group(1)


CRNG_STEP = "the kernel's random numbers ready, after the fork (0: before it)"


def crng_after_fork(values):
    """How long after the kiosk's fork the kernel's random number generator became ready (its
    `crng init done` line, the report's KernelCrngReady from stop 67), 0 when it was ready before:
    the Swift runtime waits for it before main. None without the line, without the fork's time, or
    when the kiosk was restarted before the report (the fork is then the last process's)."""
    ready = monotonic_of(values.get('KernelCrngReady'))
    fork = int(values.get('KioskExecMainStartTimestampMonotonic') or 0) / 1e6
    if ready is None or not fork or int(values.get('KioskNRestarts') or 0) > 0:
        return None
    return max(0.0, ready - fork)


def thread_counts(name, text):
    """A thread's counts as ThreadAccounting.describe words them ("0.41 s on a CPU, 0.30 s waiting
    for one, 0.34 s blocked (212 page reads, 850 other faults)"), keyed "NAME: on a CPU",
    "NAME: waiting for a CPU", "NAME: page reads (count)" and the like."""
    counts = {}
    for value, what in re.findall(r'([0-9.]+) s (on a CPU|waiting for one|blocked|off it)', text):
        counts[f'{name}: {what.replace("waiting for one", "waiting for a CPU")}'] = float(value)
    for value, what in re.findall(r'([0-9]+) (page reads?|other faults?)', text):
        counts[f'{name}: {what.rstrip("s")}s (count)'] = float(value)
    return counts


def startup_steps(body):
    """The kiosk's own start, step by step, from its `start-up: first frame on screen …` journal
    line (StartupTimeline): {'whole (fork -> first frame handed over)': 2.31, 'before main': 0.70,
    'arguments': 0.15, 'config': 0.31, …, 'first frame': 0.52}, in order ('before run' for both first steps in stop 45's line);
    {} when the line is not in the report (an image from before stop 45). From stop 49 the line
    goes on, after `; `, with where the main thread's time went (ThreadAccounting): those are
    added as 'before main: on a CPU', 'main -> first frame: blocked', 'before main: page reads
    (count)', 'all threads: on a CPU' and the like."""
    m = re.search(r'start-up: first frame on screen ([0-9.]+) s after the process began: (.*)$', body, re.M)
    if not m:
        return {}
    step_text, _, accounting = m.group(2).partition('; ')
    # The whole, on the kiosk's own clock (the fork to the frame handed to the display). The
    # journal's time of the line, which *exec -> first frame* above uses, is when journald read
    # it: under load journald reads it late (1.4 s in one boot of stop 51).
    steps = {'whole (fork -> first frame handed over)': float(m.group(1))}
    for part in step_text.split(', '):
        s = re.match(r'([0-9.]+) s (before (?:run|main))\b|(.+?) ([0-9.]+) s\b', part)
        if s and s.group(1):
            steps[s.group(2)] = float(s.group(1))
        elif s:
            steps[s.group(3)] = float(s.group(4))
    for part in accounting.split('; '):
        t = re.match(r'(main thread before main|from main to the first frame): (.*)$', part)
        if t:
            name = 'before main' if t.group(1).startswith('main thread') else 'main -> first frame'
            steps.update(thread_counts(name, t.group(2)))
        a = re.match(r'all threads ([0-9.]+) s on a CPU', part)
        if a:
            steps['all threads: on a CPU'] = float(a.group(1))
        # From stop 54, a helper thread (StartupThreadRecord): "fonts' thread from 0.01 s after
        # main: fontconfig 0.31 s, …, done 0.37 s after main (0.25 s on a CPU, …)".
        h = re.match(r"(.+?) from ([0-9.]+) s after main(?:: (.*?))?(?:, done ([0-9.]+) s after main \((.*)\)|, still at work)$", part)
        if h:
            thread = h.group(1)
            steps[f'{thread}: began (after main)'] = float(h.group(2))
            for step in (h.group(3) or '').split(', '):
                st = re.match(r'(.+?) ([0-9.]+) s$', step)
                if st:
                    steps[f'{thread}: {st.group(1)}'] = float(st.group(2))
            if h.group(4):
                steps[f'{thread}: done (after main)'] = float(h.group(4))
                steps.update(thread_counts(thread, h.group(5)))
    # From stop 56 the first frame may go without its title and badge (drawn on the fonts'
    # thread): a second line says when they came, "in the first frame" counting as 0.
    t = re.search(r"start-up: the first frame's text (?:on screen ([0-9.]+) s after the first frame|in the first frame)", body)
    if t:
        steps["the first frame's text, after the first frame"] = float(t.group(1) or 0)
    return steps


# Userspace before our exec, split by systemd's own timestamps (the boot report's manager
# properties and units, from stop 57): each the time since systemd started in the real root.
SYSTEMD_STEPS = [('GeneratorsStartTimestampMonotonic', 'generators started (systemd\'s own set-up before them)'),
                 ('GeneratorsFinishTimestampMonotonic', 'generators done'),
                 ('UnitsLoadFinishTimestampMonotonic', 'units loaded (the first jobs start)'),
                 ('Unit srv-kiosk.mount', 'KIOSK partition checked and mounted'),
                 ('Unit data.mount', 'data partition checked and mounted'),
                 ('KioskExecMainStartTimestampMonotonic', 'our exec')]


def systemd_steps(values):
    """{'generators done': 1.70, …} for the report's timestamps that are set, in SYSTEMD_STEPS'
    order; {} for a report from before stop 57 (or a boot where systemd gave none)."""
    userspace = int(values.get('UserspaceTimestampMonotonic') or 0)
    steps = {}
    for key, title in SYSTEMD_STEPS:
        v = int(values.get(key) or 0)
        if userspace and v > userspace and (key != 'KioskExecMainStartTimestampMonotonic' or steps):
            steps[title] = (v - userspace) / 1e6
    return steps


def phases(values, host_first_frame, host_loader_start):
    us = lambda k: int(values.get(k) or 0) / 1e6
    init_usec, exec_usec = values.get('LoaderTimeInitUSec'), values.get('LoaderTimeExecUSec')
    userspace, exec_start = us('UserspaceTimestampMonotonic'), us('KioskExecMainStartTimestampMonotonic')
    run_init = monotonic_of(values.get('KernelRunInit'))
    first = monotonic_of(values.get('KioskFirstFrame'))
    p = {k: None for k, _ in PHASES}
    if init_usec and exec_usec:
        p['firmware'] = int(init_usec) / 1e6
        p['loader'] = (int(exec_usec) - int(init_usec)) / 1e6
    if first is not None and host_first_frame is not None:
        p['to_kernel'] = host_first_frame - first
        if p['firmware'] is None and host_loader_start is not None:
            p['firmware'] = host_loader_start
            p['loader'] = p['to_kernel'] - host_loader_start
    if run_init is not None:
        p['kernel'] = run_init
        p['initrd'] = userspace - run_init
    if userspace and exec_start:
        p['userspace'] = exec_start - userspace
    if first is not None and exec_start:
        p['exec_to_frame'] = first - exec_start
    keyboard = values.get('KioskKeyboardAt')
    if first is not None and keyboard is not None:
        p['frame_to_keyboard'] = keyboard - first
    p['first_frame'] = host_first_frame
    return p


def fmt(x):
    return '-' if x is None else f'{x:.2f}'


# --dropin: where a drop-in for the kiosk's unit goes in the image's root (slot A, which it boots).
DROPIN_DIR = '/etc/systemd/system/kiosk-carousel.service.d'


def write_dropin(disk, dropin):
    """Writes the file `dropin` into the root file system (the partition named root-a) of the
    disk image `disk` (a copy about to boot) as DROPIN_DIR/<its name>, root's, mode 0644, with
    debugfs at the partition's offset (no loop device, no mount), and reads it back: an exception
    when it is not there as written."""
    table = partition_table(disk)
    roots = [p for p in table['partitions'] if p.get('name') == 'root-a']
    if not roots:
        raise RuntimeError(f'{disk}: no partition named root-a')
    fs = f'{disk}?offset={roots[0]["start"] * table.get("sectorsize", 512)}'
    dest = f'{DROPIN_DIR}/{os.path.basename(dropin)}'
    parts = DROPIN_DIR.strip('/').split('/')
    commands = [f'mkdir /{"/".join(parts[:i])}' for i in range(1, len(parts) + 1)]
    commands += [f'rm {dest}', f'write {os.path.abspath(dropin)} {dest}', f'sif {dest} mode 0100644',
                 f'sif {dest} uid 0', f'sif {dest} gid 0']
    with tempfile.NamedTemporaryFile('w', suffix='.debugfs', delete=False) as f:
        f.write('\n'.join(commands) + '\n')
    try:
        run(['debugfs', '-w', '-f', f.name, fs], capture_output=True)
    finally:
        os.unlink(f.name)
    back = subprocess.run(['debugfs', '-R', f'cat {dest}', fs], capture_output=True).stdout
    if back != open(dropin, 'rb').read():
        raise RuntimeError(f'{disk}: {dest} did not read back as {dropin} after debugfs wrote it')


def dropin_in_effect(serial, dropin):
    """Whether the boot report in the serial log `serial` (its text) names the drop-in `dropin`
    among the kiosk unit's (its `kiosk drop-ins:` line); None when the report has no such line
    (images before stop 66)."""
    seen = re.search(r'^kiosk drop-ins: (.*)$', serial, re.M)
    if not seen:
        return None
    return f'{DROPIN_DIR}/{os.path.basename(dropin)}' in seen.group(1).split()


def boot_once(series, n, a):
    """Boot `n` of one image's series (or, with --summarize, its logs read back): its row, or
    None when it did not reach its report (said on standard output)."""
    out, name = series['out'], f'boot{n}'
    if a.summarize:
        if not os.path.exists(os.path.join(out, f'{name}.out')):
            return 'missing'
        stdout, returncode = open(os.path.join(out, f'{name}.out')).read(), 0
    else:
        disk = os.path.join(out, 'disk.img')
        run(['cp', '--sparse=always', series['img'], disk])
        if series.get('dropin'):
            write_dropin(disk, series['dropin'])
        if series.get('cmdline'):
            add_to_cmdline(disk, series['cmdline'])
        if a.trace_pid1:
            add_to_cmdline(disk, trace_cmdline(a.trace_events))
        if a.sandbox_cost:
            add_to_cmdline(disk, 'kiosk.sandbox-cost')
        if a.start_floor:
            add_to_cmdline(disk, 'kiosk.start-floor')
        r = subprocess.run(['nice', sys.executable, QEMU_BOOT, '--disk', disk, '--out', out, '--name', name,
                            '--size', SIZE, '--ref-start', series['ref'], '--disk-kind', a.disk_kind],
                           capture_output=True, text=True)
        open(os.path.join(out, f'{name}.out'), 'w').write(r.stdout + r.stderr)
        stdout, returncode = r.stdout, r.returncode
    results = dict(re.findall(r'^RESULT (\w+)=(.*)$', stdout, re.M))
    host_first = float(results['first_frame_s']) if 'first_frame_s' in results else None
    host_loader = float(results['loader_start_s']) if 'loader_start_s' in results else None
    load = results.get('load_at_first_frame', '').strip('"')
    values, chain = parse_report(os.path.join(out, f'{name}-serial.log'))
    prefix = f'{series["label"]} ' if a.interleaved else ''
    if returncode != 0 or values is None:
        last = (stdout.strip().splitlines() or ['no output'])[-1]
        print(f'{prefix}boot {n}: FAILED (qemu_boot.py exit {returncode}): {last}', flush=True)
        return None
    if series.get('dropin'):
        # The unit's drop-ins as the booted kiosk had them (the report's line; images before stop
        # 66 do not print it): a drop-in that was not in effect makes the boot no measurement.
        serial = open(os.path.join(out, f'{name}-serial.log'), errors='replace').read()
        if dropin_in_effect(serial, series['dropin']) is False:
            print(f'{prefix}boot {n}: FAILED: the kiosk ran without {series["dropin"]} (the report\'s '
                  f'"kiosk drop-ins:" line does not name it)', flush=True)
            return None
    open(os.path.join(out, f'{name}-critical-chain.txt'), 'w').write(chain + '\n')
    p = phases(values, host_first, host_loader)
    p['load'], p['boot'], p['chain'] = load, n, chain
    p['steps'] = values.get('KioskStartupSteps') or {}
    p['systemd'] = systemd_steps(values)
    p['pid1'] = values.get('Pid1Steps') or {}
    p['sandbox'] = values.get('SandboxCosts') or {}
    print(f'{prefix}boot {n}: ' + ', '.join(f'{k} {fmt(p[k])}' for k, _ in PHASES) + f' (load {load})', flush=True)
    return p


def step_table(rows, field, title, order=None):
    """The lines of a table of each step's median, min and max over the boots' `field` ({step: s}),
    in `order`, else in the order the steps came; none when no boot has one."""
    if order is None:
        order = []
        for p in rows:
            order += [k for k in p.get(field, {}) if k not in order]
    names = [k for k in order if any(k in p.get(field, {}) for p in rows)]
    if not names:
        return []
    lines = ['', title, '', '| step (s) | median | min | max | boots |', '| --- | --- | --- | --- | --- |']
    for k in names:
        xs = [p[field][k] for p in rows if k in p.get(field, {})]
        lines.append(f'| {k} | {statistics.median(xs):.2f} | {min(xs):.2f} | {max(xs):.2f} | {len(xs)} |')
    return lines


def summarize(series, disk_kind):
    """OUT/LABEL/boots.tsv and summary.md of one image's boots; the summary's text."""
    out, img, rows = series['out'], series['img'], series['rows']
    with open(os.path.join(out, 'boots.tsv'), 'w') as f:
        f.write('\t'.join(['boot'] + [k for k, _ in PHASES] + ['load_at_first_frame']) + '\n')
        for p in rows:
            f.write('\t'.join([str(p['boot'])] + [fmt(p[k]) for k, _ in PHASES] + [p['load']]) + '\n')
    loads = [float(p['load'].split()[0]) for p in rows if p['load']]
    lines = [f'{len(rows)} boots of {os.path.basename(img)} ({series["label"]}, {disk_kind} disk); host 1-minute load at the first frame: '
             + (f'median {statistics.median(loads):.2f}, {min(loads):.2f}-{max(loads):.2f}' if loads else '-'),
             '', '| phase (s) | median | min | max | boots |', '| --- | --- | --- | --- | --- |']
    for k, title in PHASES:
        xs = [p[k] for p in rows if p[k] is not None]
        if xs:
            lines.append(f'| {title} | {statistics.median(xs):.2f} | {min(xs):.2f} | {max(xs):.2f} | {len(xs)} |')
        else:
            lines.append(f'| {title} | - | - | - | 0 |')
    # exec -> first frame, step by step (the kiosk's start-up line), in the order the steps came;
    # systemd's timestamps; systemd's set-up from a trace.
    lines += step_table(rows, 'steps', "exec -> first frame, step by step (the kiosk's `start-up:` line):")
    lines += step_table(rows, 'systemd', "userspace before our exec, step by step (systemd's timestamps, s after "
                        "systemd started in the real root):", order=[t for _, t in SYSTEMD_STEPS])
    lines += step_table(rows, 'pid1', "systemd's own set-up, step by step (the kernel's trace of a --trace-pid1 boot, s):")
    lines += step_table(rows, 'sandbox', "the kiosk unit's sandbox at start, setting by setting (a --sandbox-cost boot: "
                        "/usr/bin/true started with the unit's settings, less those named; program-*: a --start-floor boot's "
                        "starts of the program itself; each boot's median of its runs, s):")
    if rows:
        lines += ['', f'systemd-analyze critical-chain kiosk-carousel.service (boot {rows[0]["boot"]}):', '```',
                  rows[0]['chain'].rstrip(), '```']
    summary = '\n'.join(lines) + '\n'
    open(os.path.join(out, 'summary.md'), 'w').write(summary)
    return summary


# The split of a boot that has no screen the host can read (--serial): what the guest's report
# says, on its monotonic clock.
GUEST_PHASES = [('kernel', 'kernel (-> Run /init)'), ('initrd', 'initrd (-> systemd in the real root)'),
                ('kernel_initrd', "kernel + initrd (-> systemd in the real root), where the kernel's clock is not the monotonic one"),
                ('userspace', 'userspace before our exec'), ('exec_to_running', "exec -> the kiosk's `running:` line"),
                ('exec_to_ready', 'exec -> READY=1 (the unit active)'), ('exec_to_frame', 'exec -> first frame (its log line)')]


def guest_split(values, body):
    """{phase: s} of GUEST_PHASES from a boot report (parse_body's values and the body); a phase the
    report cannot give is left out. The kernel's lines are stamped on the kernel's clock, systemd's
    on the monotonic one; where they differ (an arm64 board under QEMU: the kernel's runs ahead,
    `Run /init` came "after" systemd's start in the real root) kernel and initrd are one phase,
    systemd's start on the monotonic clock. A kiosk restarted before the report (NRestarts): our
    exec and the phases from it are left out (systemd's exec is the last process's, the journal's
    first lines an earlier one's)."""
    p = {k: v for k, v in phases(values, None, None).items() if v is not None}
    if p.get('initrd') is not None and p['initrd'] < 0:
        del p['kernel'], p['initrd']
        p['kernel_initrd'] = int(values.get('UserspaceTimestampMonotonic') or 0) / 1e6
    if int(values.get('KioskNRestarts') or 0) > 0:
        return {k: p[k] for k, _ in GUEST_PHASES if k in p and not k.startswith('exec_') and k != 'userspace'}
    exec_start = int(values.get('KioskExecMainStartTimestampMonotonic') or 0) / 1e6
    ready = int(values.get('KioskActiveEnterTimestampMonotonic') or 0) / 1e6
    running = re.search(r'^\[\s*([0-9]+\.[0-9]+)\] \S+ kiosk-carousel\[[0-9]+\]: (?:kiosk-carousel: )?running: ', body, re.M)
    if exec_start and running:
        p['exec_to_running'] = float(running.group(1)) - exec_start
    if exec_start and ready > exec_start:
        p['exec_to_ready'] = ready - exec_start
    return {k: p[k] for k, _ in GUEST_PHASES if k in p}


def serial_split(paths):
    """--serial: the split of each boot whose serial log is given, its median when there are
    several; 1 when a log has no report."""
    rows, missing = [], 0
    for path in paths:
        body = report_body(path)
        if body is None:
            print(f'boot-time: {path}: no boot report in it', file=sys.stderr)
            missing += 1
            continue
        values, _ = parse_body(body)
        restarts = int(values.get('KioskNRestarts') or 0)
        if restarts:
            print(f'boot-time: {path}: the kiosk was restarted {restarts} time(s) before the report: our exec and the '
                  'phases from it not given (the serial log says why: systemd\'s lines about kiosk-carousel.service)')
        systemd = systemd_steps(values)
        if restarts:
            systemd.pop('our exec', None)
        rows.append({'split': guest_split(values, body), 'systemd': systemd,
                     'steps': {} if restarts else values['KioskStartupSteps']})
    if rows:
        lines = step_table([{'split': {t: r['split'][k] for k, t in GUEST_PHASES if k in r['split']}} for r in rows], 'split',
                           f"the boot's split from {len(rows)} serial log(s) (the guest's boot report, its monotonic "
                           "clock):", order=[t for _, t in GUEST_PHASES])
        lines += step_table(rows, 'systemd', "userspace before our exec, step by step (systemd's timestamps, s after "
                            "systemd started in the real root):", order=[t for _, t in SYSTEMD_STEPS])
        lines += step_table(rows, 'steps', "the kiosk's own start, step by step (its `start-up:` line):")
        print('\n'.join(lines[1:]))
    return 1 if missing or not rows else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--boots', type=int, default=10)
    ap.add_argument('--img', action='append',
                    help='the image (default: the newest out/kiosk-carousel-*-amd64.img); given more than once, the images '
                         'boot in turn (A, B, A, B …: the host\'s load drifts alike for each), each in OUT/LABEL/<image name>')
    ap.add_argument('--label', default=time.strftime('%Y%m%d-%H%M%S'))
    ap.add_argument('--out', default=os.path.join(TOP, 'out', 'boot-time'))
    ap.add_argument('--disk-kind', default='virtio', choices=DISK_KINDS,
                    help="the image's disk (qemu_boot.py): virtio (default, as make image-test boots it) or ssd (a SCSI disk that does not rotate, like a kiosk's SD card or SSD)")
    ap.add_argument('--trace-pid1', action='store_true',
                    help="each copy boots with the kernel tracing every exec, mount(2) and module load (%s); the summary splits "
                         "systemd's own set-up in the real root (the trace costs the boot some time: compare with boots "
                         "traced alike)" % trace_cmdline().replace('%', '%%'))
    ap.add_argument('--trace-events', default='',
                    help="with --trace-pid1: more of the kernel's trace events besides those four (system:event, "
                         "comma-separated, e.g. sched:sched_process_fork,syscalls:sys_enter_bpf); each boot's serial "
                         "log holds every line the trace took")
    ap.add_argument('--start-floor', action='store_true',
                    help="each copy boots with kiosk.start-floor on its command line: after the boot the report "
                         "stops the kiosk and starts the program five times each as `kiosk-carousel --help` without "
                         "the unit's sandbox and as `run --backend headless --exit-after 0` with the unit's config, "
                         "without the sandbox and with it (sandbox-cost --program); the summary gets their medians")
    ap.add_argument('--sandbox-cost', action='store_true',
                    help="each copy boots with kiosk.sandbox-cost on its command line: after the boot the report "
                         "starts /usr/bin/true five times with the kiosk unit's sandbox settings, with none, and "
                         "without each in turn (/usr/lib/kiosk-image/sandbox-cost); the summary gets their medians")
    ap.add_argument('--dropin', action='append', metavar='FILE',
                    help="a drop-in for the kiosk's unit: each image boots in turn as it is and with FILE written into "
                         "each boot's copy as %s/<FILE's name> (given again: one more variant per FILE), each variant in "
                         "OUT/LABEL/<image name>+<FILE's name>" % DROPIN_DIR)
    ap.add_argument('--cmdline', action='append', metavar='WORDS',
                    help="words for the kernel's command line: each image boots in turn as it is and with WORDS added "
                         "to its loader entries in each boot's copy (given again: one more variant), each variant in "
                         "OUT/LABEL/<image name>+<WORDS>")
    ap.add_argument('--summarize', action='store_true', help='no boots: summarize an earlier run of LABEL again')
    ap.add_argument('--serial', action='append', metavar='FILE',
                    help="no boots: the split of the boot whose serial log FILE holds a boot report (again for more "
                         "boots: their medians), e.g. the Raspberry Pi image's from Tests/image/rpi-boot-test.sh")
    ap.add_argument('--self-test', action='store_true',
                    help="no boots: check the reading of the trace, of the sandbox's costs and of a boot's split "
                         "from its serial log (make test runs it)")
    a = ap.parse_args()
    if a.trace_events and not a.trace_pid1:
        ap.error('--trace-events adds to --trace-pid1\'s events: give both')
    if a.self_test:
        return self_test()
    if a.serial:
        return serial_split(a.serial)
    if not a.summarize and not prerequisites():
        return 2
    images = a.img
    if not images:
        found = sorted((os.path.join(TOP, 'out', f) for f in os.listdir(os.path.join(TOP, 'out'))
                        if f.startswith('kiosk-carousel-') and f.endswith('-amd64.img')), key=os.path.getmtime)
        if not found:
            print('boot-time: no out/kiosk-carousel-*-amd64.img: run make image first (or give --img)', file=sys.stderr)
            return 2
        images = found[-1:]
    for dropin in a.dropin or []:
        if not os.path.isfile(dropin) or re.search(r'\s', os.path.abspath(dropin)):
            print(f'boot-time: --dropin {dropin}: no such file (or a path with spaces, which debugfs cannot take)',
                  file=sys.stderr)
            return 2
    # Each image as it is, then with each drop-in, then with each command line's words.
    changes = [{}] + [{'dropin': d} for d in a.dropin or []] + [{'cmdline': w} for w in a.cmdline or []]
    variants = [(img, change) for img in images for change in changes]
    a.interleaved = len(variants) > 1
    top_out = os.path.join(a.out, a.label)
    serieses = []
    for img, change in variants:
        # A folder name QEMU's options take (its QMP socket is in it): no '=' or ','.
        what = re.sub(r'[^\w.-]+', '_', os.path.basename(change['dropin']) if 'dropin' in change else change.get('cmdline', ''))
        name = re.sub(r'\.img$', '', os.path.basename(img)) + (f'+{what}' if what else '')
        out = os.path.join(top_out, name) if a.interleaved else top_out
        os.makedirs(out, exist_ok=True)
        serieses.append(dict(change, img=img, out=out, label=name if a.interleaved else a.label))
        said = f' with {change["dropin"]}' if 'dropin' in change else f' with "{change["cmdline"]}" on the kernel\'s command line' if change else ''
        print(f'boot-time: {a.boots} boots of {img}{said} -> {out}', flush=True)
    # The disk the boots had (a summary of an earlier run reads it back; older runs: virtio).
    kind_file = os.path.join(top_out, 'disk-kind')
    if a.summarize:
        disk_kind = open(kind_file).read().strip() if os.path.exists(kind_file) else 'virtio'
    else:
        disk_kind = a.disk_kind
        open(kind_file, 'w').write(disk_kind + '\n')
    for series in serieses:
        series['ref'] = None if a.summarize else references(series['img'], series['out'])
        series['rows'], series['failures'] = [], 0
    for n in range(1, a.boots + 1):
        for series in serieses:
            p = boot_once(series, n, a)
            if p == 'missing':
                continue
            if p is None:
                series['failures'] += 1
            else:
                series['rows'].append(p)
    failures = 0
    for series in serieses:
        disk = os.path.join(series['out'], 'disk.img')
        if os.path.exists(disk):
            os.unlink(disk)
        print(summarize(series, disk_kind))
        if series['failures']:
            print(f'boot-time: {series["failures"]} of {a.boots} boots of {series["img"]} did not finish '
                  f'(their .out and serial logs are in {series["out"]})')
        failures += series['failures']
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
