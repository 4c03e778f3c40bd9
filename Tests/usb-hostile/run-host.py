#!/usr/bin/env python3
"""The folder check on the host: `usb-import --folder TREE` of every stick tree of the manifest
that has `host` (make-sticks.py), one after another into one content folder, each under strace
so that every file the import creates, opens for writing, renames, links or removes is seen.

usage: run-host.py BIN OUT [TIMEOUT_SECONDS]

Writes OUT/results-host.jsonl, one line per stick (summarize.py reads it): exit status, the
status's state, message and problems, the files written outside the content folder and their
bytes, whether `current` is whole (the stick's copy after `done`, the one before otherwise), and
the seconds taken. A run that outlasts TIMEOUT_SECONDS (default 300) is stopped: a hang.
"""
import json, os, re, shutil, signal, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdict

bin_, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
limit = float(sys.argv[3]) if len(sys.argv) > 3 else 300
work = os.path.join(out, 'host')
shutil.rmtree(work, ignore_errors=True)
content = os.path.join(work, 'content')
os.makedirs(work)
config = os.path.join(work, 'kiosk.toml')
with open(config, 'w') as f:
    f.write('[usb]\nimport = true\ncontent = "%s"\n\n[[item]]\nid = "machine"\ntitle = "The machine\'s own item"\n' % content)

# The calls that change a file system, and which of their path arguments they change.
CHANGES = {'mkdir', 'mkdirat', 'unlink', 'unlinkat', 'rmdir', 'rename', 'renameat', 'renameat2', 'symlink',
           'symlinkat', 'link', 'linkat', 'chmod', 'fchmodat', 'truncate', 'chown', 'fchownat', 'lchown',
           'mknod', 'mknodat', 'utimensat', 'setxattr', 'lsetxattr', 'removexattr', 'lremovexattr'}
SOURCE_ONLY = {'symlink': 0, 'symlinkat': 0, 'link': 0, 'linkat': 0}   # the argument that is only read
WRITE_FLAGS = re.compile(r'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC')
CALL = re.compile(r'^\d+ (\w+)\((.*)\) = ')
ARG = re.compile(r'(?:(?:AT_FDCWD|-?\d+)<((?:\\x[0-9a-f]{2})*)>, )?"((?:\\x[0-9a-f]{2})*)"')


def unhex(s):
    return bytes.fromhex(s.replace('\\x', ''))


def written(log, cwd):
    """The paths (bytes, absolute) the traced process changed, from strace -y -xx output."""
    paths = set()
    for line in open(log, errors='replace'):
        m = CALL.match(line)
        if not m:
            continue
        call, args = m.group(1), m.group(2)
        found = [(unhex(d) if d else None, unhex(p)) for d, p in ARG.findall(args)]
        if call in ('open', 'openat', 'creat'):
            if call != 'creat' and not WRITE_FLAGS.search(args):
                continue
            found = found[:1]
        elif call in CHANGES:
            skip = SOURCE_ONLY.get(call)
            found = [a for n, a in enumerate(found) if n != skip]
        else:
            continue
        for d, p in found:
            paths.add(os.path.normpath(os.path.join(d or cwd.encode(), p)))
    return paths


results = []
previous = None          # what current must hold when a stick is not taken
only = re.compile(os.environ.get('CASES', '.'))
sticks = [e for e in json.load(open(os.path.join(out, 'manifest.json'))) if e.get('host') and only.search(e['case'])]
for n, e in enumerate(sticks):
    log = os.path.join(work, 'strace-%d.log' % n)
    os.makedirs(content, exist_ok=True)
    status = os.path.join(content, 'status.json')
    if os.path.exists(status):
        os.unlink(status)
    argv = ['strace', '-f', '-qq', '-y', '-xx', '-o', log, '-e', 'status=successful',
            '-e', 'trace=%file,creat', bin_, 'usb-import', '--config', config,
            '--state-dir', os.path.join(work, 'update'), '--folder', e['tree']]
    started = time.monotonic()
    proc = subprocess.Popen(argv, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        output = proc.communicate(timeout=limit)[0]
        code = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output = proc.communicate()[0]
        code = 'hang'
    seconds = time.monotonic() - started
    try:
        st = json.load(open(status))
    except (OSError, ValueError):
        st = {}
    inside = os.fsencode(os.path.realpath(content)) + b'/'
    outside = sorted(p for p in written(log, work) if not (p + b'/').startswith(inside) and p != b'/dev/null')
    bytes_out = sum(os.lstat(p).st_size for p in outside if os.path.isfile(p))
    want = verdict.copyable(e['tree']) if st.get('state') == 'done' else previous
    current = verdict.compare(verdict.current_tree(content), want) or 'whole'
    if st.get('state') == 'done':
        previous = want
    r = {'case': e['case'], 'fs': 'host', 'group': e['group'], 'what': e['what'], 'expect': e['expect'],
         'exit': code, 'state': st.get('state'), 'message': st.get('message', ''), 'problems': st.get('problems', []),
         'log': output.decode(errors='backslashreplace')[-2000:], 'outside_bytes': bytes_out,
         'outside_files': [p.decode(errors='backslashreplace') for p in outside][:20], 'current': current,
         'seconds': round(seconds, 1)}
    results.append(r)
    print('run-host: %-22s exit %-4s %-7s %5.1f s  %s' % (e['case'], code, st.get('state'), seconds,
                                                       (st.get('problems') or [st.get('message', '')])[0][:110]), flush=True)
    os.unlink(log)
with open(os.path.join(out, 'results-host.jsonl'), 'w') as f:
    for r in results:
        f.write(json.dumps(r) + '\n')
