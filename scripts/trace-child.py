#!/usr/bin/env python3
"""Where systemd's child for the kiosk spends its time between its fork and the kiosk's exec,
from a boot with scripts/boot-time-dropins/trace-child.conf (docs/start-up.md, "What the
sandbox's time is", stop 69):

    scripts/trace-child.py SERIAL.log [SERIAL.log …]

For each serial log: the child's span (its first traced event -> its exec), the time in system
calls and between them (its own code), the time off a CPU, the system calls by count and time,
its readings of the mount table (a run of 1024-byte reads ended by one that returns 0: libmount
parsing /proc/self/mountinfo), and the span split into steps at the first unshare(2) (the mount
namespace), the first mount_setattr(2) (systemd 252's nosuid pass) and the first seccomp(2) (the
filters), plus the lines of PID 1's and the kiosk's mount tables. --self-test: checks the reading
of a few lines made here."""
import re
import sys
from collections import defaultdict

# x86-64 system call numbers of the calls the child makes.
NAMES = {0: 'read', 1: 'write', 3: 'close', 8: 'lseek', 9: 'mmap', 16: 'ioctl', 21: 'access', 41: 'socket',
         42: 'connect', 59: 'execve', 89: 'readlink', 157: 'prctl', 161: 'chroot', 165: 'mount', 166: 'umount2',
         257: 'openat', 258: 'mkdirat', 262: 'newfstatat', 272: 'unshare', 302: 'prlimit64', 317: 'seccomp',
         332: 'statx', 442: 'mount_setattr'}
EVENT = re.compile(r'^KT\s+.+?-(\d+)\s+\[\d+\]\s+\S+\s+([\d.]+): (\w+): (.*)$')


def child_events(lines):
    """The events of the child up to and with its exec: the pid of the first exec of
    /usr/bin/kiosk-carousel (the trace's filter lets that task in from its rename to "(carousel)"
    on)."""
    events = [(int(m.group(1)), float(m.group(2)), m.group(3), m.group(4))
              for m in (EVENT.match(l.rstrip('\r\n')) for l in lines) if m]
    pid = next((p for p, _, kind, rest in events
                if kind == 'sched_process_exec' and rest.startswith('filename=/usr/bin/kiosk-carousel ')), None)
    if pid is None:
        return None, []
    mine = []
    for e in events:
        if e[0] == pid:
            mine.append(e)
            if e[2] == 'sched_process_exec':
                break
    return pid, mine


def summary(events):
    """The figures of one child's events (see the module's doc)."""
    t0 = events[0][1]
    calls = []  # (number, enter, exit, return value)
    entered = None
    off_since = None
    off_cpu = 0.0
    exec_at = None
    for _, t, kind, rest in events:
        if off_since is not None and kind != 'sched_switch':
            off_cpu += t - off_since
            off_since = None
        if kind == 'sys_enter':
            entered = (int(rest.split()[1]), t)
        elif kind == 'sys_exit':
            number = int(rest.split()[1])
            if entered and entered[0] == number:
                calls.append((number, entered[1], t, int(rest.split('= ')[-1])))
            entered = None
        elif kind == 'sched_switch':
            off_since = t
        elif kind == 'sched_process_exec':
            exec_at = t
    end = exec_at if exec_at is not None else events[-1][1]
    in_calls = sum(c[2] - c[1] for c in calls)
    count, spent = defaultdict(int), defaultdict(float)
    for c in calls:
        count[c[0]] += 1
        spent[c[0]] += c[2] - c[1]
    # Mount-table readings: reads of 1024 bytes (procfs's block size, stdio's buffer) ended by
    # a read that returns 0.
    readings, run = 0, 0
    for c in calls:
        if c[0] == 0 and c[3] > 0:
            run += 1
        elif c[0] == 0 and c[3] == 0:
            readings += run >= 2
            run = 0
    firsts = {}
    for c in calls:
        firsts.setdefault(NAMES.get(c[0], c[0]), c[1])
    marks = [('before the namespace', t0)] + [(step, firsts[call]) for step, call in
             (('mount namespace', 'unshare'), ('nosuid pass', 'mount_setattr'), ('filters and exec', 'seccomp'))
             if call in firsts] + [('end', end)]
    steps = [(marks[i][0], marks[i + 1][1] - marks[i][1]) for i in range(len(marks) - 1)]
    return dict(span=end - t0, exec=exec_at is not None, in_calls=in_calls, between=end - t0 - in_calls,
                off_cpu=off_cpu, readings=readings, steps=steps,
                calls=sorted(((NAMES.get(n, str(n)), count[n], spent[n]) for n in count), key=lambda x: -x[2]))


def report(path):
    lines = open(path, errors='replace').read().splitlines()
    pid, events = child_events(lines)
    if not events:
        return f'{path}: no traced child (no "KT" line of the kiosk\'s exec)'
    s = summary(events)
    out = [f'{path}: child {pid}, {s["span"]:.3f} s from its first traced event to '
           f'{"its exec" if s["exec"] else "its last event (no exec traced)"}: {s["in_calls"]:.3f} s in system '
           f'calls, {s["between"]:.3f} s between them, ~{s["off_cpu"]:.3f} s of it off a CPU; '
           f'{s["readings"]} readings of the mount table',
           '  steps: ' + ', '.join(f'{name} {t:.3f} s' for name, t in s['steps']),
           '  calls: ' + ', '.join(f'{name} {n}× {t:.3f} s' for name, n, t in s['calls'][:10])]
    for tag, what in (('KMI1', "PID 1's"), ('KMIK', "the kiosk's")):
        n = sum(1 for l in lines if l.startswith(tag + ' '))
        if n:
            out.append(f'  {what} mount table: {n} lines')
    return '\n'.join(out)


def self_test():
    lines = ['KT   kiosk-carousel-7     [001] d..2.    1.000000: sched_switch: prev_comm=(carousel) prev_pid=7 '
             'prev_prio=120 prev_state=R ==> next_comm=x next_pid=9 next_prio=120',
             'KT   kiosk-carousel-7     [000] .....    1.010000: sys_enter: NR 272 (20000, 1, 0, 0, 0, 0)',
             'KT   kiosk-carousel-7     [000] .....    1.011000: sys_exit: NR 272 = 0']
    for i in range(3):
        t = 1.02 + i * 0.01
        lines += [f'KT   kiosk-carousel-7     [000] .....    {t:.6f}: sys_enter: NR 0 (3, 0, 400, 0, 0, 0)',
                  f'KT   kiosk-carousel-7     [000] .....    {t + 0.001:.6f}: sys_exit: NR 0 = {1024 if i < 2 else 0}']
    lines += ['KT   kiosk-carousel-8     [000] .....    1.060000: sys_enter: NR 0 (3, 0, 400, 0, 0, 0)',
              'KT   kiosk-carousel-7     [000] .....    1.100000: sched_process_exec: filename=/usr/bin/kiosk-carousel '
              'pid=7 old_pid=7',
              'KT   kiosk-carousel-7     [000] .....    1.200000: sys_enter: NR 0 (3, 0, 400, 0, 0, 0)']
    pid, events = child_events(lines)
    s = summary(events)
    failures = []
    if pid != 7 or len(events) != 10:
        failures.append(f'child_events: pid {pid}, {len(events)} events (want 7, 10)')
    if abs(s['span'] - 0.1) > 1e-9 or not s['exec']:
        failures.append(f'span {s["span"]} (want 0.1, to the exec)')
    if abs(s['in_calls'] - 0.004) > 1e-9:
        failures.append(f'in system calls {s["in_calls"]} (want 0.004)')
    if s['readings'] != 1:
        failures.append(f'readings {s["readings"]} (want 1)')
    if [name for name, _ in s['steps']] != ['before the namespace', 'mount namespace']:
        failures.append(f'steps {s["steps"]}')
    if abs(s['off_cpu'] - 0.01) > 1e-9:
        failures.append(f'off a CPU {s["off_cpu"]} (want 0.01)')
    if child_events([l for l in lines if 'sched_process_exec' not in l])[0] is not None:
        failures.append('a trace without the kiosk\'s exec gave a child')
    print(f'trace-child.py --self-test: {"FAILED: " + "; ".join(failures) if failures else "ok"}')
    return 1 if failures else 0


if __name__ == '__main__':
    if sys.argv[1:] == ['--self-test']:
        sys.exit(self_test())
    if not sys.argv[1:]:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        print(report(p))
