#!/usr/bin/env python3
"""plot.py OUT [--warmup MINUTES] [--png FILE]: the endurance run's figures as one PNG panel
(docs/reliability.md, "Endurance"): each series of endurance_analysis.SERIES against the run's
minutes, the warm-up shaded, the least-squares line over the rest (the one the verdict judges)
with its slope per hour and the threshold the verdict applied; under them what the kiosk was
doing (blanked, display connected, input devices). From OUT/samples.jsonl; writes
OUT/endurance.png unless --png names another file. Needs python3-matplotlib (the endurance
target installs it; make test does not need it)."""
import os
import sys

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from endurance_analysis import SERIES, fit, judge, run_arguments, threshold_factor  # noqa: E402


def main(argv):
    out, warmup, samples = run_arguments(argv, __doc__)
    png = argv[argv.index('--png') + 1] if '--png' in argv else os.path.join(out, 'endurance.png')
    minutes = [s['elapsed_s'] / 60 for s in samples]
    factor = threshold_factor(samples, warmup)       # the thresholds the verdict applied
    rows = len(SERIES) + 1
    fig, axes = plt.subplots(rows, 1, figsize=(9, 2.0 * rows), sharex=True)
    for ax, (column, label, unit, threshold, _) in zip(axes, SERIES):
        points = [(m, s.get(column)) for m, s in zip(minutes, samples) if s.get(column) is not None]
        ax.axvspan(0, warmup, color='0.92', lw=0)
        if points:
            ax.plot([p[0] for p in points], [p[1] for p in points], '.-', ms=3, lw=0.8, color='tab:blue')
        threshold = threshold and threshold * factor
        r = judge(column, [m / 60 for m in minutes], [s.get(column) for s in samples], threshold, warmup / 60)
        title = '%s (%s)' % (label, unit)
        if r['status'] != 'few':
            kept = [p for p in points if p[0] >= warmup]
            slope, _, intercept = fit([p[0] / 60 for p in kept], [p[1] for p in kept])
            xs = [kept[0][0], kept[-1][0]]
            ax.plot(xs, [intercept + slope * x / 60 for x in xs], '-', color='tab:red', lw=1.2)
            allowed = 'allowed %.3g/h' % threshold if threshold is not None else 'not judged'
            title += ': %+.3g %s/h (%s) — %s' % (slope, unit, allowed, r['status'])
        else:
            title += ': %s' % r['text']
        ax.set_title(title, fontsize=9, loc='left')
        ax.tick_params(labelsize=8)
        ax.grid(True, lw=0.3)
    ax = axes[-1]
    for column, label, offset in (('blanked', 'blanked', 0), ('display_connected', 'display connected (+2)', 2),
                                  ('input_devices', 'input devices (+4)', 4)):
        values = [(m, s.get(column)) for m, s in zip(minutes, samples) if s.get(column) is not None]
        ax.step([v[0] for v in values], [offset + v[1] for v in values], where='post', lw=0.9, label=label)
    ax.axvspan(0, warmup, color='0.92', lw=0)
    ax.set_title('what the kiosk was doing: blanked (0/1), display connected (2/3), input devices (4 + n)',
                 fontsize=9, loc='left')
    ax.legend(fontsize=7, loc='upper left', ncol=3)
    ax.tick_params(labelsize=8)
    ax.set_xlabel('minutes since the kiosk unit was active (grey: warm-up, left out of the fit)', fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=80)
    print('plot.py: wrote %s' % png)


if __name__ == '__main__':
    main(sys.argv[1:])
