"""The endurance run's figures and verdict (docs/reliability.md, "Endurance"), shared by the
sampler in the guest (sample.py), the verdict (verdict.py) and the plots (plot.py).

- `parse_prometheus`: the kiosk's metrics file (Sources/Kiosk/Metrics/PrometheusText.swift) as
  {name or name{labels}: value};
- `histogram_quantile`: a quantile of the frames between two samples of the
  `kiosk_carousel_frame_duration_seconds` histogram (from the differences of the cumulative
  bucket counts, interpolated inside the bucket as PromQL's histogram_quantile does);
- `fit`: the least-squares line through a series (value against hours) with the slope's
  standard error;
- `judge`: per series, after the warm-up, whether it grew: the slope's one-sided 99.9 % lower
  bound above the series' threshold **and** the slope over the last half of the window above
  it too. So noise that tilts a short run's line does not fail it (the bound is wide: a
  10-minute run fails only on a gross leak; over 4 hours the bound is within a few percent of
  the slope, so it costs the long run nothing), a
  leak does (it tilts every part of the window), and a step — a cache filled, new content
  adopted — that then stays flat is reported as a step, not a leak (the last half is flat).
"""
import json
import math
import os
import sys

# (column, label, unit, threshold per hour, why that threshold)
SERIES = [
    ('rss_anon_kib', 'resident memory, anonymous', 'KiB', 512.0,
     '512 KiB/h is 360 MiB in 30 days: a third of a 1 GiB board'),
    ('heap_kib', 'malloc heap in use', 'KiB', 512.0,
     'as resident memory; freed pages the arenas keep do not move it, so a leak shows plainly'),
    ('heap_free_kib', 'malloc heap held free', 'KiB', None,
     "recorded, not judged: freed memory the arenas keep (with the heap in use, the stacks and "
     "the program's own mappings, what the anonymous resident memory is made of)"),
    ('rss_kib', 'resident memory, all', 'KiB', None,
     'recorded, not judged: its file-backed part (the next series) is not a leak'),
    ('rss_file_kib', 'resident memory, file pages', 'KiB', None,
     "the binary's and libraries' pages the kernel has read in: they come as new code runs and "
     'go under memory pressure, bounded by the files (a debug build: ~65 MiB of a ~95 MiB RSS)'),
    ('fds', 'open descriptors', 'fds', 1.0,
     '1/h is 720 in 30 days: past the 1024 soft limit with what a kiosk holds'),
    ('threads', 'threads', 'threads', 0.5,
     '0.5/h is 360 threads in 30 days (each with its stack)'),
    ('frame_ms_median', 'frame time, median', 'ms', 0.25,
     '0.25 ms/h is 180 ms in 30 days: ten 60 Hz frames'),
    ('frame_ms_p99', 'frame time, 99th percentile', 'ms', 1.0,
     '1 ms/h is 720 ms in 30 days: the slowest frames stutter'),
    ('flips_missed_per_min', 'flips missed', 'per min', 0.5,
     '0.5/min more each hour is a display falling further behind'),
    ('card_cache_kib', 'card cache', 'KiB', 512.0,
     '512 KiB/h is 360 MiB in 30 days (the cache has a budget; growth past it is a leak)'),
]
# Series that must have enough samples to judge (the others may lack frames, e.g. a blanked hour).
REQUIRED = ('rss_anon_kib', 'heap_kib', 'fds', 'threads')
MIN_POINTS = 8
# A window (after the warm-up) shorter than this is the CI form's: the kiosk is still meeting each
# kind of use for the first or second time (a decoder, a USB generation, a program's hand-over),
# so its thresholds are SHORT_FACTOR times the long run's. It catches gross leaks (1 MiB a minute
# of memory, a descriptor per action), not slow ones.
SHORT_WINDOW_MINUTES = 60
SHORT_FACTOR = 64
# The one-sided confidence of the lower bound: 99.9 % (the normal's quantile).
Z_LOWER = 3.0902323


def parse_prometheus(text):
    """{name: value} for unlabelled samples and {name{labels}: value} for labelled ones."""
    values = {}
    for line in text.splitlines():
        if not line or line.startswith('#'):
            continue
        name, _, value = line.rpartition(' ')
        try:
            values[name] = float(value)
        except ValueError:
            continue
    return values


def frame_buckets(metrics):
    """[(upper bound in seconds, cumulative count)] of the frame histogram, +Inf last
    (math.inf); [] when the file has none."""
    prefix = 'kiosk_carousel_frame_duration_seconds_bucket{le="'
    out = []
    for key, value in metrics.items():
        if key.startswith(prefix):
            bound = key[len(prefix):-2]
            out.append((math.inf if bound == '+Inf' else float(bound), value))
    return sorted(out)


def histogram_quantile(q, before, after):
    """The q-quantile (0..1) in seconds of the frames counted between two samples of the
    cumulative buckets `before` and `after` (as frame_buckets gives them; before may be [] for
    "from the start"); None when no frame was counted in between. A quantile in the +Inf bucket
    is the last finite bound (PromQL's rule)."""
    if not after:
        return None
    old = dict(before)
    counts = [(bound, count - old.get(bound, 0)) for bound, count in after]
    total = counts[-1][1]
    if total <= 0:
        return None
    rank = q * total
    lower, below = 0.0, 0.0
    for bound, cumulative in counts:
        if cumulative >= rank:
            if math.isinf(bound):
                return lower
            inside = cumulative - below
            return lower + (bound - lower) * ((rank - below) / inside if inside > 0 else 1)
        lower, below = bound, cumulative
    return lower


def fit(xs, ys):
    """Least squares y = a + b x: (b, its standard error, a). Needs 3 points or more with two
    different x."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if n < 3 or sxx == 0:
        raise ValueError('a fit needs 3 points or more at different times')
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    residual = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    se = math.sqrt(residual / (n - 2) / sxx)
    return b, se, a


def t_quantile(df, z=Z_LOWER):
    """The quantile of Student's t with df degrees of freedom at the normal's quantile z
    (Cornish-Fisher, four terms: within 1 % of the tables at 95 % from df = 3, within 5 % at
    99.9 % from df = 6)."""
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def judge(name, hours, values, threshold, warmup_hours):
    """The verdict on one series: a dict with `status` ('pass', 'fail', 'step' — rose, then
    flat: passes —, or 'few' — too few samples after the warm-up), the slope per hour and its
    lower bound, the last half's slope, the projection over 30 days, and `text`."""
    points = [(h, v) for h, v in zip(hours, values) if v is not None and h >= warmup_hours]
    result = {'series': name, 'threshold_per_hour': threshold, 'points': len(points)}
    if len(points) < MIN_POINTS or points[-1][0] - points[0][0] <= 0:
        result.update(status='few', text='%d samples after the warm-up: too few to judge' % len(points))
        return result
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    slope, se, _ = fit(xs, ys)
    lower = slope - t_quantile(len(points) - 2) * se
    half = [p for p in points if p[0] >= (xs[0] + xs[-1]) / 2]
    half_slope = fit([p[0] for p in half], [p[1] for p in half])[0] if len(half) >= 3 and half[-1][0] > half[0][0] else slope
    result.update(slope_per_hour=slope, lower_bound_per_hour=lower, last_half_slope_per_hour=half_slope,
                  projected_30_days=slope * 24 * 30, first=ys[0], last=ys[-1], min=min(ys), max=max(ys))
    if threshold is None:
        status = 'info'
        text = '%.3g/h (99.9 %% lower bound %.3g/h): recorded, not judged' % (slope, lower)
    elif lower > threshold and half_slope > threshold:
        status = 'fail'
        text = 'grows %.3g/h (at least %.3g/h; last half %.3g/h): %.3g in 30 days, over the %.3g/h allowed' % (
            slope, lower, half_slope, slope * 720, threshold)
    elif lower > threshold:
        status = 'step'
        text = 'rose (%.3g/h over the window) but the last half is flat (%.3g/h): a step, not growth' % (slope, half_slope)
    else:
        status = 'pass'
        text = '%.3g/h (99.9 %% lower bound %.3g/h), under the %.3g/h allowed' % (slope, lower, threshold)
    result.update(status=status, text=text)
    return result


def threshold_factor(samples, warmup_minutes):
    """1 for a long run; SHORT_FACTOR when the window after the warm-up is shorter than
    SHORT_WINDOW_MINUTES (the CI form)."""
    window = (samples[-1]['elapsed_s'] / 60 if samples else 0) - warmup_minutes
    return 1 if window >= SHORT_WINDOW_MINUTES else SHORT_FACTOR


def verdict(samples, warmup_minutes):
    """Every series of SERIES judged over the samples (dicts with `elapsed_s` and the columns;
    thresholds times threshold_factor); plus the kiosk's restarts. Returns (passed, [results],
    [problems])."""
    hours = [s['elapsed_s'] / 3600 for s in samples]
    factor = threshold_factor(samples, warmup_minutes)
    results, problems = [], []
    for column, label, unit, threshold, _ in SERIES:
        r = judge(column, hours, [s.get(column) for s in samples], threshold and threshold * factor,
                  warmup_minutes / 60)
        r.update(label=label, unit=unit)
        results.append(r)
        if r['status'] == 'fail':
            problems.append('%s (%s) %s' % (label, unit, r['text']))
        if r['status'] == 'few' and column in REQUIRED:
            problems.append('%s: %s' % (label, r['text']))
    pids = sorted({s.get('pid') for s in samples if s.get('pid')})
    restarts = max((s.get('nrestarts') or 0 for s in samples), default=0)
    if len(pids) > 1 or restarts:
        problems.append('the kiosk restarted: main pids %s, NRestarts %d' % (pids, restarts))
    # `reloading`: systemd between ExecReload (SIGHUP) and the kiosk's READY=1 — the run reloads.
    inactive = [s['elapsed_s'] for s in samples if s.get('active') not in (None, 'active', 'reloading')]
    if inactive:
        problems.append('the unit was not active at %d samples (first at %.0f s)' % (len(inactive), inactive[0]))
    return not problems, results, problems


def read_jsonl(path):
    """The JSON lines of a file as dicts; a line cut by a stop is left out, a missing file is []."""
    rows = []
    try:
        for line in open(path, errors='replace'):
            try:
                rows.append(json.loads(line))
            except ValueError:
                pass
    except OSError:
        pass
    return rows


def run_arguments(argv, usage):
    """OUT [--warmup MINUTES] of verdict.py and plot.py: (OUT, warm-up minutes, OUT's samples);
    exits with the usage, or when OUT has no samples."""
    if not argv:
        sys.exit(usage)
    out, warmup = argv[0], 30.0
    if '--warmup' in argv:
        warmup = float(argv[argv.index('--warmup') + 1])
    samples = read_jsonl(os.path.join(out, 'samples.jsonl'))
    if not samples:
        sys.exit('endurance: no samples in %s/samples.jsonl' % out)
    return out, warmup, samples
