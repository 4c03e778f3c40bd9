#!/usr/bin/env python3
"""latency-summary.py — the table of scripts/measure-latency.sh from its work folder.

    python3 scripts/latency-summary.py [--accel TCG|KVM] [--display bochs] FOLDER

Reads FOLDER/trace-SIZE-bN.jsonl (`kiosk-carousel run --latency-trace`) and FOLDER/load-SIZE-bN.txt;
prints one Markdown row per trace: frames measured, median / p95 / max input-to-photon latency,
the refresh interval, median render time, median present (copy into the scan-out buffer and
queue the flip), what the frame waited beyond its own render and present (latency minus both:
the loop's and the display's share, independent of how slow the CPU is), median wait (newest input -> render start), median
submit -> shown, how many frames exceed two refresh intervals, how many frames between the first and the last
measured one showed no new input (drawn for the tick alone), the timing kinds and host load.
"""
import glob
import json
import os
import re
import sys


def pct(values, p):
    v = sorted(values)
    if not v:
        return float('nan')
    k = (len(v) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def main(argv):
    accel, display, folder = 'TCG', 'bochs', None
    i = 0
    while i < len(argv):
        if argv[i] == '--accel':
            accel, i = argv[i + 1], i + 2
        elif argv[i] == '--display':
            display, i = argv[i + 1], i + 2
        else:
            folder, i = argv[i], i + 1
    if not folder:
        print(__doc__, file=sys.stderr)
        return 2
    print('| size | buffers | frames | median ms | p95 ms | max ms | refresh ms | render ms (median) '
          '| present ms (median) | latency − render − present ms (median / p95 / max) | input→render start ms (median) | submit→shown ms (median) | frames > 2 refresh | frames without new input | timing | host load |')
    print('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
    traces = glob.glob(os.path.join(folder, 'trace-*-b*.jsonl'))
    key = lambda p: tuple(int(x) for x in re.findall(r'\d+', os.path.basename(p)))
    bad = 0
    for path in sorted(traces, key=key):
        m = re.match(r'trace-(\d+x\d+)-b(\d+)\.jsonl', os.path.basename(path))
        size, buffers = m.group(1), m.group(2)
        header, frames = None, []
        for line in open(path):
            if not line.strip():
                continue
            d = json.loads(line)
            if d['kind'] == 'display':
                header = d
            else:
                frames.append(d)
        if not frames or not header:
            print('| %s | %s | 0 |%s' % (size, buffers, ' – |' * 13))
            bad += 1
            continue
        lat = [f['latency_ms'] for f in frames]
        render = [(f['render_end'] - f['render_start']) * 1000 for f in frames]
        present = [(f['submitted'] - f['render_end']) * 1000 for f in frames]
        beyond = [f['latency_ms'] - (f['submitted'] - f['render_start']) * 1000 for f in frames]
        wait = [(f['render_start'] - f['input']) * 1000 for f in frames]
        flip = [(f['shown'] - f['submitted']) * 1000 for f in frames]
        period = 1000 / header['refresh_hz']
        timings = {}
        for f in frames:
            timings[f['timing']] = timings.get(f['timing'], 0) + 1
        load_path = os.path.join(folder, 'load-%s-b%s.txt' % (size, buffers))
        load = open(load_path).read().split('load average ')[-1].strip() if os.path.exists(load_path) else '?'
        print('| %s | %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f / %.1f / %.1f | %.1f | %.1f | %d | %d | %s | %s |' % (
            size, buffers, len(frames), pct(lat, 50), pct(lat, 95), max(lat), period, pct(render, 50), pct(present, 50),
            pct(beyond, 50), pct(beyond, 95), max(beyond),
            pct(wait, 50), pct(flip, 50), sum(1 for x in lat if x > 2 * period),
            frames[-1]['seq'] - frames[0]['seq'] + 1 - len(frames),
            ' '.join('%s %d' % kv for kv in sorted(timings.items())), load))
    print('\n%s, kiosk-vm --display %s, 2 guest CPUs.' % (accel, display))
    return 1 if bad or not traces else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
