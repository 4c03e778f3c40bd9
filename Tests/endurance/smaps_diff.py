#!/usr/bin/env python3
"""smaps_diff.py BEFORE AFTER [N]: where a process's resident memory went between two copies of
/proc/PID/smaps (the endurance sampler keeps them in OUT/smaps/, docs/reliability.md).

Each mapping is put in a group — `[heap]` (malloc's main arena), `arena` (an anonymous mapping
inside a 64 MiB-aligned reservation: another malloc arena), `stack` (`[stack]`, or an anonymous
mapping of 8 MiB + a guard page: a thread's), `anon` (any other anonymous mapping: malloc's
mmapped blocks, the program's own), a file's name (its pages, and its private copies written:
`Anonymous` inside a file mapping, e.g. a library's relocated data), `shmem` (DRM buffers) — and
the Rss and the Anonymous kB of each group in BEFORE and AFTER are printed, largest change
first (the first N, default 25).
"""
import collections
import re
import sys

HEADER = re.compile(r'^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$')
ARENA = 64 << 20


def groups(path):
    """{group: [rss kB, anonymous kB]} of one smaps copy."""
    out = collections.defaultdict(lambda: [0, 0])
    group = None
    for line in open(path, errors='replace'):
        m = HEADER.match(line)
        if m:
            start, end, name = int(m.group(1), 16), int(m.group(2), 16), m.group(5).strip()
            size = end - start
            if name == '[heap]':
                group = '[heap]'
            elif name in ('[stack]',) or (not name and size in (8 << 20, (8 << 20) + 4096)):
                group = 'stack'
            elif not name and start % ARENA == 0 and size <= ARENA:
                group = 'arena'
            elif not name:
                group = 'anon'
            elif name.startswith('/dev/dri') or name.startswith('/memfd') or '(deleted)' in name:
                group = 'shmem ' + name
            else:
                group = name
            continue
        if group is None:
            continue
        key, _, value = line.partition(':')
        if key in ('Rss', 'Anonymous'):
            out[group][0 if key == 'Rss' else 1] += int(value.split()[0])
    return out


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    before, after = groups(argv[0]), groups(argv[1])
    limit = int(argv[2]) if len(argv) > 2 else 25
    rows = []
    for g in set(before) | set(after):
        b, a = before.get(g, [0, 0]), after.get(g, [0, 0])
        rows.append((a[0] - b[0], a[1] - b[1], g, b, a))
    rows.sort(key=lambda r: (-abs(r[0]), -abs(r[1]), r[2]))
    total = [sum(v[i] for v in before.values()) for i in (0, 1)], [sum(v[i] for v in after.values()) for i in (0, 1)]
    print('%10s %10s %10s %10s  %s' % ('rss before', 'rss after', 'anon bef.', 'anon aft.', 'group'))
    print('%10d %10d %10d %10d  (all)' % (total[0][0], total[1][0], total[0][1], total[1][1]))
    for d_rss, d_anon, g, b, a in rows[:limit]:
        print('%10d %10d %10d %10d  %s (%+d kB rss, %+d kB anonymous)' % (b[0], a[0], b[1], a[1], g, d_rss, d_anon))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
