#!/usr/bin/env python3
"""The figures of a hostile-stick run (docs/usb.md, "Hostile sticks"), from OUT/results-host.jsonl
(run-host.py) and OUT/results-vm.jsonl (usb-hostile-guest.sh), whichever exist.

usage: summarize.py OUT

Prints a Markdown table per run (sticks tried, refused with a located reason, taken whole,
bytes written outside the content folder, crashes and hangs, half-written generations left
current) and one line for every stick that broke a rule; writes the same to OUT/figures.md.
Exits 1 when any stick broke one:
  - a crash or a hang (an exit status other than 0 and 1, a signal, a run that did not end);
  - a byte or a file written outside the content folder;
  - `current` not whole: after `done` it must be the stick's copy file for file, otherwise what
    it was before;
  - a stick expected refused that was taken, or one expected taken that was not;
  - a refusal without a located reason (each problem names a file or the device, then what);
  - in the VM: a half copy (.incoming-*) or the stick's mount left behind.
"""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdict

out = sys.argv[1]
lines, broken = [], []


def settle(r):
    """A unit systemd unloaded before its exit status was read (inactive, and its device gone:
    nothing refers to it) reads as code 0: its status is then the import's own word, when the
    journal has the import's last line (the result) and status.json its end."""
    log = r.get('log', '')
    if str(r['exit']).startswith('code-0-') and r.get('state') in ('done', 'failed') \
            and ('New content from the USB stick' in log or 'shows what it showed before' in log):
        r['exit'], r['exit_read'] = (0 if r['state'] == 'done' else 1), 'from the journal (unit unloaded)'


def judge(r):
    """The rules stick `r` broke (empty: none)."""
    why = []
    if r['exit'] not in (0, 1):
        why.append('crash or hang (exit %s)' % r['exit'])
    if r.get('outside_bytes') or r.get('outside_files'):
        why.append('%d bytes written outside the content folder: %s' % (r.get('outside_bytes', 0), r.get('outside_files')))
    if r.get('current') != 'whole':
        why.append('current not whole: %s' % r.get('current'))
    if r.get('leftovers'):
        why.append('left behind: %s' % r['leftovers'])
    taken = r.get('state') == 'done'
    refused = r['exit'] == 1 and not taken
    if r['expect'] == 'refused' and not refused:
        why.append('expected refused, was %s' % (r.get('state') or 'not read'))
    if r['expect'] == 'taken' and not taken:
        why.append('expected taken, was %s: %s' % (r.get('state') or 'not read', r.get('problems') or r.get('log', '')[-300:]))
    if refused and not located(r):
        why.append('refused without a located reason: %s %s' % (r.get('problems'), r.get('log', '')[-300:]))
    return why


def located(r):
    if r.get('state') == 'failed':
        return verdict.located(r.get('problems', []))
    # Not read at all (no status): the unit's journal line names the device and why.
    return any(verdict.LOCATED.match(l.split(': ', 1)[-1]) or l.startswith('/dev/') for l in r.get('log', '').splitlines()
               if '/dev/' in l)


for name, title in (('results-host.jsonl', 'Host: `usb-import --folder` of each stick\'s tree'),
                    ('results-vm.jsonl', 'VM: each stick plugged, udev rule and unit, real kernel mount')):
    path = os.path.join(out, name)
    if not os.path.exists(path):
        continue
    runs = [json.loads(l) for l in open(path) if l.strip()]
    # What each stick is and what is expected of it: the manifest's word.
    facts = {(e['case'], e['fs']): e for e in json.load(open(os.path.join(out, 'manifest.json')))}
    for r in runs:
        e = facts.get((r['case'], r['fs'])) or next((e for e in facts.values() if e['case'] == r['case']), {})
        r.update(expect=e.get('expect', r['expect']), what=e.get('what', ''))
        settle(r)
    groups = []
    for r in runs:
        if r['group'] not in groups:
            groups.append(r['group'])
    lines += ['### ' + title, '',
              '| group | sticks | refused, located | taken whole | bytes outside | crashes, hangs | half generations current |',
              '| --- | ---: | ---: | ---: | ---: | ---: | ---: |']
    total = [0] * 6
    for g in groups + ['all']:
        rs = [r for r in runs if g == 'all' or r['group'] == g]
        row = [len(rs),
               sum(1 for r in rs if r['exit'] == 1 and r.get('state') != 'done' and located(r)),
               sum(1 for r in rs if r.get('state') == 'done' and r.get('current') == 'whole'),
               sum(r.get('outside_bytes', 0) for r in rs),
               sum(1 for r in rs if r['exit'] not in (0, 1)),
               sum(1 for r in rs if r.get('current') != 'whole')]
        lines.append('| %s | %s |' % ('**all**' if g == 'all' else g, ' | '.join(str(x) for x in row)))
    lines.append('')
    for r in runs:
        why = judge(r)
        if why:
            broken.append('%s %s (%s): %s' % (name.split('-')[1].split('.')[0], r['case'], r['fs'], '; '.join(why)))
lines += ['Broken rules: %d' % len(broken)] + ['- ' + b for b in broken]
text = '\n'.join(lines) + '\n'
print(text)
open(os.path.join(out, 'figures.md'), 'w').write(text)
sys.exit(1 if broken else 0)
