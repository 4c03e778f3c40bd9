"""Reading and checking recorded input scripts (JSON lines) for the input VM tests."""
import json
import sys

failures = []


def load(path):
    events = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            try:
                events.append(json.loads(line))
            except ValueError as err:
                failures.append('%s:%d: not JSON: %s' % (path, n, err))
    return events


def check(cond, what):
    print(('  ok   ' if cond else '  FAIL ') + what)
    if not cond:
        failures.append(what)


def of(events, kind, **fields):
    return [e for e in events if e['type'] == kind and all(e.get(k) == v for k, v in fields.items())]


def near(e, x, y, tol=0.6):
    return abs(e['x'] - x) <= tol and abs(e['y'] - y) <= tol


def touch_sequence(events, x, y):
    """The events of the finger that went down near (x, y): [down, motion..., end]."""
    downs = [i for i, e in enumerate(events) if e['type'] == 'touch_down' and near(e, x, y)]
    if not downs:
        return []
    i = downs[0]
    slot = events[i]['slot']
    seq = [events[i]]
    for e in events[i + 1:]:
        if e.get('slot') == slot and e['type'].startswith('touch_'):
            seq.append(e)
            if e['type'] in ('touch_up', 'touch_cancel'):
                break
    return seq


def finish():
    if failures:
        print('%d check(s) failed' % len(failures))
        sys.exit(1)
    print('all checks passed')
