#!/usr/bin/python3
"""sample.py OUT TOP EVERY_SECONDS: the endurance run's sampler (docs/reliability.md,
"Endurance"). Runs in the kiosk-vm guest inside systemd's mount and PID namespaces
(Tests/vm/lib/systemd-ns.bash), as root.

Every EVERY_SECONDS (on a fixed schedule: a slow sample does not shift the later ones) it reads
- from systemd: the unit's MainPID, NRestarts, ActiveState;
- from /proc/MAINPID: resident memory (VmRSS, and its two parts: RssAnon — heap, stacks,
  buffers — and RssFile — the binary's and libraries' pages, which the kernel drops and reads
  again at will), open descriptors (/proc/PID/fd), threads;
- from the kiosk's metrics file (/run/kiosk-carousel/metrics.prom, `[metrics]`): the frame-time
  histogram (median and 99th percentile of the frames since the previous sample), page flips
  missed per minute since the previous sample, the card cache's bytes, and a few facts that say what the
  kiosk was doing (input devices, config generation, blanked, display connected, selections of
  the program item), malloc's bytes in use and those it holds free in its arenas
  (`kiosk_carousel_heap_bytes`, `kiosk_carousel_heap_free_bytes`, as of the file's last write:
  `metrics_age_s` says how old);
and appends one line to OUT/samples.jsonl and OUT/samples.csv (and every SMAPS_EVERY seconds of
the run, 1800, and at its last sample, a copy of /proc/MAINPID/smaps in OUT/smaps/SECONDS.txt: which mappings the
resident memory is in, for smaps_diff.py), and the kiosk's new event lines
(its --events file in the unit's RuntimeDirectory) to OUT/events.jsonl, flushed and fsynced at
once: the data stay on the host (OUT is shared) even if the run is stopped. Ends when OUT/sampler.stop
appears (after one last sample) or at SIGTERM.
"""
import json
import os
import signal
import subprocess
import sys
import time

OUT, TOP, EVERY = sys.argv[1], sys.argv[2], float(sys.argv[3])
sys.path.insert(0, os.path.join(TOP, 'Tests/endurance'))
from endurance_analysis import frame_buckets, histogram_quantile, parse_prometheus  # noqa: E402

SMAPS_EVERY = 1800
METRICS = '/run/kiosk-carousel/metrics.prom'
EVENTS = '/run/kiosk-carousel/events.jsonl'
COLUMNS = ['t', 'elapsed_s', 'pid', 'nrestarts', 'active', 'rss_kib', 'fds', 'threads', 'frames',
           'frame_ms_median', 'frame_ms_p99', 'flips_missed_per_min', 'card_cache_kib', 'input_devices',
           'config_generation', 'config_load_errors', 'blanked', 'display_connected', 'program_selections',
           'metrics_age_s', 'heap_kib', 'rss_anon_kib', 'rss_file_kib', 'heap_free_kib']
stopping = False


def on_term(signum, frame):
    global stopping
    stopping = True


signal.signal(signal.SIGTERM, on_term)


def unit():
    try:
        text = subprocess.run(['systemctl', 'show', 'kiosk-carousel', '-p', 'MainPID', '-p', 'NRestarts', '-p',
                               'ActiveState'], capture_output=True, text=True, timeout=60).stdout
    except subprocess.SubprocessError:
        return {}
    return dict(line.split('=', 1) for line in text.splitlines() if '=' in line)


def proc(pid):
    out = {}
    try:
        for line in open('/proc/%d/status' % pid):
            if line.startswith('VmRSS:'):
                out['rss_kib'] = int(line.split()[1])
            elif line.startswith('RssAnon:'):
                out['rss_anon_kib'] = int(line.split()[1])
            elif line.startswith('RssFile:'):
                out['rss_file_kib'] = int(line.split()[1])
            elif line.startswith('Threads:'):
                out['threads'] = int(line.split()[1])
        out['fds'] = len(os.listdir('/proc/%d/fd' % pid))
    except (OSError, ValueError):
        pass
    return out


def keep_smaps(pid, elapsed):
    """Copies /proc/PID/smaps to OUT/smaps/ELAPSED.txt (a process gone: nothing)."""
    try:
        text = open('/proc/%d/smaps' % pid).read()
    except OSError:
        return
    folder = os.path.join(OUT, 'smaps')
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, '%d.txt' % elapsed), 'w') as f:
        f.write(text)


def fsync_append(path, text):
    with open(path, 'a') as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


def copy_events(offset):
    """Appends the kiosk's event lines after `offset` to OUT/events.jsonl; the new offset (0
    again when the file is new: a restarted kiosk begins it again)."""
    try:
        with open(EVENTS, 'rb') as f:
            if os.fstat(f.fileno()).st_size < offset:
                offset = 0
            f.seek(offset)
            data = f.read()
    except OSError:
        return offset
    whole = data[:data.rfind(b'\n') + 1]
    if whole:
        fsync_append(os.path.join(OUT, 'events.jsonl'), whole.decode(errors='replace'))
    return offset + len(whole)


def main():
    start = time.monotonic()
    events_offset = 0
    previous = {'buckets': [], 'flips': None, 'pid': None, 'elapsed': None}
    csv_path = os.path.join(OUT, 'samples.csv')
    if not os.path.exists(csv_path):
        fsync_append(csv_path, ','.join(COLUMNS) + '\n')
    n = 0
    next_smaps = 0.0
    while True:
        row = {'t': round(time.time(), 1), 'elapsed_s': round(time.monotonic() - start, 1)}
        u = unit()
        pid = int(u.get('MainPID') or 0)
        row.update(pid=pid, nrestarts=int(u.get('NRestarts') or 0), active=u.get('ActiveState'))
        if pid:
            row.update(proc(pid))
            if row['elapsed_s'] >= next_smaps:
                keep_smaps(pid, row['elapsed_s'])
                next_smaps += SMAPS_EVERY
        try:
            text = open(METRICS).read()
            row['metrics_age_s'] = round(time.time() - os.stat(METRICS).st_mtime, 1)
        except OSError:
            text = ''
        m = parse_prometheus(text)
        buckets = frame_buckets(m)
        if pid != previous['pid']:          # a new process: its counters start again
            previous.update(buckets=[], flips=0)
        same_process = pid == previous['pid']
        for name, q in (('frame_ms_median', 0.5), ('frame_ms_p99', 0.99)):
            v = histogram_quantile(q, previous['buckets'], buckets)
            row[name] = round(v * 1000, 3) if v is not None else None
        row['frames'] = int(buckets[-1][1] - (previous['buckets'][-1][1] if previous['buckets'] else 0)) if buckets else None
        flips = m.get('kiosk_carousel_flips_missed_total')
        # Per minute since the previous sample of the same process (none for its first sample:
        # since when its counter ran is not known here).
        if flips is not None and previous['elapsed'] is not None and same_process:
            since = max(1e-3, row['elapsed_s'] - previous['elapsed']) / 60
            row['flips_missed_per_min'] = round((flips - (previous['flips'] or 0)) / since, 3)
        else:
            row['flips_missed_per_min'] = None
        cache = m.get('kiosk_carousel_card_cache_bytes')
        row['card_cache_kib'] = round(cache / 1024, 1) if cache is not None else None
        heap = m.get('kiosk_carousel_heap_bytes')
        row['heap_kib'] = round(heap / 1024, 1) if heap is not None else None
        free = m.get('kiosk_carousel_heap_free_bytes')
        row['heap_free_kib'] = round(free / 1024, 1) if free is not None else None
        for column, key in (('input_devices', 'kiosk_carousel_input_devices'),
                            ('config_generation', 'kiosk_carousel_config_generation'),
                            ('config_load_errors', 'kiosk_carousel_config_load_errors_total'),
                            ('blanked', 'kiosk_carousel_blanked'),
                            ('display_connected', 'kiosk_carousel_display_connected'),
                            ('program_selections', 'kiosk_carousel_selections_total{id="program"}')):
            row[column] = int(m[key]) if key in m else None
        previous.update(buckets=buckets or previous['buckets'], flips=flips if flips is not None else previous['flips'],
                        pid=pid, elapsed=row['elapsed_s'])
        events_offset = copy_events(events_offset)
        fsync_append(os.path.join(OUT, 'samples.jsonl'), json.dumps(row, sort_keys=True) + '\n')
        fsync_append(csv_path, ','.join('' if row.get(c) is None else str(row.get(c)) for c in COLUMNS) + '\n')
        n += 1
        if stopping or os.path.exists(os.path.join(OUT, 'sampler.stop')):
            if pid:
                keep_smaps(pid, row['elapsed_s'])     # and one at the end
            return
        next_at = start + n * EVERY
        while not stopping and time.monotonic() < next_at:
            if os.path.exists(os.path.join(OUT, 'sampler.stop')):
                break
            time.sleep(min(1.0, max(0.0, next_at - time.monotonic())))


main()
