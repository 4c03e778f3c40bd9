#!/usr/bin/env python3
"""verdict.py OUT [--warmup MINUTES]: the endurance run's verdict (docs/reliability.md,
"Endurance") from OUT/samples.jsonl: per series of endurance_analysis.SERIES the least-squares
slope after the warm-up, its 99.9 % lower bound, the last half's slope, the projection over 30
days and the threshold; then what the run exercised (OUT/use.jsonl: the actions and how many
went as expected; OUT/events.jsonl: the kiosk's own events). Writes OUT/verdict.json; prints a
table. Exit status 0 when nothing grew, the kiosk never restarted and every kind of action was
done at least once as expected; 1 otherwise, naming what failed."""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from endurance_analysis import SHORT_WINDOW_MINUTES, read_jsonl, run_arguments, threshold_factor, verdict  # noqa: E402

# The actions use.py does on their own clocks: each must have gone as expected at least once.
SCHEDULED = ('program', 'hotplug', 'reload', 'display', 'usb')
# The kiosk's events that show the configuration's own churn (each must have happened).
EXPECTED_EVENTS = ('screen_blanked', 'screen_woke', 'schedule_opened', 'schedule_closed', 'video_started',
                   'action_started', 'action_exited', 'reloaded', 'usb_import', 'selected')


def number(v, unit=''):
    if v is None:
        return '-'
    return ('%.4g' % v) + unit


def main(argv):
    out, warmup, samples = run_arguments(argv, __doc__)
    passed, results, problems = verdict(samples, warmup)
    span = samples[-1]['elapsed_s'] / 60
    print('endurance verdict over %.1f min (%d samples, warm-up %g min left out of the fit):' % (span, len(samples), warmup))
    factor = threshold_factor(samples, warmup)
    if factor != 1:
        print('the CI form: under %d min after the warm-up, every threshold x %d (gross leaks only)' % (SHORT_WINDOW_MINUTES, factor))
    print('%-36s %12s %12s %12s %12s %12s %14s %10s  %s' % ('series', 'first', 'last', 'slope/h', 'lower/h',
                                                            'last half/h', '30 days', 'allowed/h', 'status'))
    for r in results:
        print('%-36s %12s %12s %12s %12s %12s %14s %10s  %s' % (
            '%s (%s)' % (r['label'], r['unit']), number(r.get('first')), number(r.get('last')),
            number(r.get('slope_per_hour')), number(r.get('lower_bound_per_hour')),
            number(r.get('last_half_slope_per_hour')), number(r.get('projected_30_days')),
            number(r['threshold_per_hour']) if r['threshold_per_hour'] is not None else '-', r['status']))
    use = read_jsonl(os.path.join(out, 'use.jsonl'))
    kinds = collections.OrderedDict()
    for row in use:
        if row.get('kind') in ('start', 'end'):
            continue
        k = kinds.setdefault(row['kind'], [0, 0])
        k[0 if row.get('ok') else 1] += 1
    print('use (as expected / not): ' + ', '.join('%s %d/%d' % (k, v[0], v[1]) for k, v in kinds.items()))
    for kind in SCHEDULED:
        if kinds.get(kind, [0, 0])[0] == 0:
            problems.append('%s: never done as expected (%d tries)' % (kind, sum(kinds.get(kind, [0, 0]))))
    failed_use = [row for row in use if not row.get('ok') and row.get('kind') in SCHEDULED]
    for row in failed_use[:10]:
        print('  not as expected at %.0f s: %s' % (row.get('elapsed', 0), json.dumps(row, sort_keys=True)))
    events = collections.Counter(e.get('event') for e in read_jsonl(os.path.join(out, 'events.jsonl')))
    print('kiosk events: ' + ', '.join('%s %d' % kv for kv in sorted(events.items())))
    if not any(s.get('input_devices') for s in samples):
        problems.append('the kiosk never counted an input device (kiosk_carousel_input_devices stayed 0)')
    missing = [e for e in EXPECTED_EVENTS if not events.get(e)]
    if missing:
        problems.append('events never seen: %s' % ', '.join(missing))
    passed = not problems
    with open(os.path.join(out, 'verdict.json'), 'w') as f:
        json.dump({'passed': passed, 'minutes': span, 'samples': len(samples), 'warmup_minutes': warmup,
                   'series': results, 'use': kinds, 'events': events, 'problems': problems}, f, indent=1, sort_keys=True)
    if passed:
        print('endurance verdict: PASS')
        return 0
    for p in problems:
        print('endurance verdict: FAIL: ' + p)
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
