#!/usr/bin/env python3
"""What a hostile stick's import did, judged the same way on the host (run-host.py) and in the
VM's guest (usb-hostile-guest.sh): is `current` whole, is a refusal located, which files were
written outside the content folder. Also a command for the guest:

  verdict.py want ROOT FILE           writes to FILE what an import of the stick mounted at ROOT
                                      must make current (the files usb-import copies, digests)
  verdict.py current CONTENT FILE|-   prints `whole` when CONTENT/current holds exactly FILE's
                                      files, byte for byte, else what differs; `-`: no current
  verdict.py record FILE STATUS LOG key=value...
                                      appends a VM run's JSON line to FILE (summarize.py)
  verdict.py outside MARK CONTENT EXCLUDE...
                                      JSON {bytes, files}: files changed since MARK's time where
                                      the unit can write (WRITABLE), outside CONTENT and the
                                      EXCLUDE prefixes (systemd's and udev's own state)
"""
import hashlib, json, os, re, stat, sys

# As ContentImporter's StickListing: regular files and folders, no hidden names, no names that
# are not UTF-8, not the top update/ folder, folders at most 16 deep.
MAX_DEPTH = 16


def copyable(tree):
    """{relative path: sha256} of what the import copies from TREE/kiosk-carousel/."""
    folder = os.path.join(os.fsencode(tree), b'kiosk-carousel')
    out = {}

    def walk(d, rel, depth):
        if depth >= MAX_DEPTH:
            return
        for name in sorted(os.listdir(d)):
            if name.startswith(b'.') or (depth == 0 and name == b'update'):
                continue
            try:
                name.decode('utf-8')
            except UnicodeDecodeError:     # no config can name it: not copied
                continue
            p = os.path.join(d, name)
            st = os.lstat(p)
            r = rel + b'/' + name if rel else name
            if stat.S_ISREG(st.st_mode):
                out[r] = digest(p)
            elif stat.S_ISDIR(st.st_mode):
                walk(p, r, depth + 1)
    walk(folder, b'', 0)
    return out


def digest(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            h.update(block)
    return h.hexdigest()


def current_tree(content):
    """{relative path: sha256} of CONTENT/current, None when there is no current; a file whose
    mode is more than rw-r--r-- is its mode instead (the copy of a setuid file must be 0644)."""
    link = os.path.join(content, 'current')
    if not os.path.islink(link):
        return None
    root = os.fsencode(os.path.realpath(link))
    out = {}
    for d, dirs, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            st = os.lstat(p)
            if not stat.S_ISREG(st.st_mode):
                out[os.path.relpath(p, root)] = 'not a file'
            elif st.st_mode & 0o7133:      # setuid, setgid, sticky or executable: never from a stick
                out[os.path.relpath(p, root)] = 'mode %o' % stat.S_IMODE(st.st_mode)
            else:
                out[os.path.relpath(p, root)] = digest(p)
    return out


def compare(have, want):
    """'' when equal, else a short description of the difference."""
    if have is None or want is None:
        return '' if have is want else ('no current' if have is None else 'current exists')
    missing = sorted(set(want) - set(have))
    extra = sorted(set(have) - set(want))
    changed = sorted(k for k in set(want) & set(have) if want[k] != have[k])
    if not (missing or extra or changed):
        return ''
    show = lambda ks: ', '.join(k.decode(errors='backslashreplace') for k in ks[:3])
    return 'missing %d (%s), extra %d (%s), changed %d (%s)' % (len(missing), show(missing), len(extra), show(extra),
                                                                len(changed), show(changed))


# `kiosk-carousel/pictures/a.jpg: …`, `kiosk-carousel/config.toml:7:9: …`, `/dev/sda: …`,
# `/var/lib/kiosk-carousel/usb: …`: a file or device, then what.
LOCATED = re.compile(r'^(kiosk-carousel/|/)[^\n]*?(:\d+:\d+)?: \S')


def located(problems):
    """Every problem names a file (or the device) and what is wrong with it."""
    return bool(problems) and all(LOCATED.match(p) for p in problems)


# Where the import's unit can write at all and something stays after it: ProtectSystem=strict
# makes the rest read-only in its mount namespace but its ReadWritePaths (/var/lib/kiosk-carousel),
# its RuntimeDirectory (/run/kiosk-carousel-usb) and /dev; its PrivateTmp /tmp and /var/tmp are
# removed by systemd when it stops; ProtectHome=yes hides /root and /home. Files other processes
# of the guest change meanwhile (udev, systemd, the test's own tools) are not the import's.
# (run-host.py sees every write of the import itself, unsandboxed, through strace.)
WRITABLE = ['/var/lib/kiosk-carousel', '/run/kiosk-carousel-usb', '/dev']


def outside(mark, content, excludes):
    """Regular files changed (mtime or ctime) since `mark` under `WRITABLE`, outside `content`
    and `excludes`, and their bytes."""
    since = os.stat(mark).st_mtime
    files, total = [], 0
    prefixes = [content.rstrip('/') + '/', content] + list(excludes) + [mark]
    for point in WRITABLE:
        for d, dirs, names in os.walk(point):
            dirs[:] = [x for x in dirs if not any(os.path.join(d, x) == e.rstrip('/') for e in prefixes)
                       and not os.path.join(d, x).startswith(('/dev/pts', '/run/kiosk-vm'))]
            for n in names:
                p = os.path.join(d, n)
                if any(p == x or p.startswith(x) for x in prefixes):
                    continue
                try:
                    st = os.lstat(p)
                except OSError:
                    continue
                # Regular files: the device nodes and links udev makes in /dev for the stick are not.
                if stat.S_ISREG(st.st_mode) and max(st.st_mtime, st.st_ctime) >= since:
                    files.append(p)
                    total += st.st_size
    return {'bytes': total, 'files': files[:20], 'count': len(files)}


if __name__ == '__main__':
    if sys.argv[1] == 'want':
        # What an import of the stick mounted at ROOT must make current, as JSON (hex names).
        json.dump({k.hex(): v for k, v in copyable(sys.argv[2]).items()}, open(sys.argv[3], 'w'))
    elif sys.argv[1] == 'current':
        want = None if sys.argv[3] == '-' else {bytes.fromhex(k): v for k, v in json.load(open(sys.argv[3])).items()}
        print(compare(current_tree(sys.argv[2]), want) or 'whole')
    elif sys.argv[1] == 'outside':
        print(json.dumps(outside(sys.argv[2], sys.argv[3], sys.argv[4:])))
    elif sys.argv[1] == 'record':
        # record FILE STATUS LOG key=value...: one JSON line of a VM run appended to FILE.
        r = dict(a.split('=', 1) for a in sys.argv[5:])
        for k in ('outside',):
            r.update(json.loads(r.pop(k)))
        r['outside_bytes'], r['outside_files'] = r.pop('bytes'), r.pop('files')
        r['exit'] = int(r['exit']) if r['exit'].isdigit() else r['exit']
        r['seconds'] = float(r['seconds'])
        try:
            st = json.load(open(sys.argv[3]))
        except (OSError, ValueError):
            st = {}
        r.update(state=st.get('state'), message=st.get('message', ''), problems=st.get('problems', []),
                 log=open(sys.argv[4], errors='backslashreplace').read()[-3000:])
        with open(sys.argv[2], 'a') as f:
            f.write(json.dumps(r) + '\n')
