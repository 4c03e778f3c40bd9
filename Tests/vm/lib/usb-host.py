#!/usr/bin/env python3
"""Host side of Tests/vm/usb-stick.sh: plugs and pulls virtual USB sticks in a running kiosk-vm
guest through QEMU's QMP socket, when the guest asks.

usage: usb-host.py OUT DEADLINE_SECONDS

The guest writes OUT/usb-req/NAME.req (a temporary file renamed into place) holding one line:
  plug IMAGE [BYTES_PER_SECOND]   attach IMAGE (read-only) as a USB mass-storage device NAME on
                                  the xHCI controller (reads throttled to BYTES_PER_SECOND)
  pull                            remove device NAME (as a stick pulled out)
and waits for OUT/usb-req/NAME.done (or .err with the reason). The guest's qemu is found by its
command line, which shares OUT (--rw) and names the QMP socket. Ends when OUT/usb-req/STOP
appears or at the deadline.
"""
import json, os, socket, sys, time

out, deadline = sys.argv[1], time.time() + float(sys.argv[2])
req = os.path.join(out, 'usb-req')
os.makedirs(req, exist_ok=True)


def find_qmp():
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            argv = open('/proc/%s/cmdline' % pid, 'rb').read().split(b'\0')
        except OSError:
            continue
        args = [a.decode(errors='replace') for a in argv]
        if not args or not args[0].endswith('qemu-system-x86_64'):
            continue
        if not any(('path=' + out) in a for a in args):
            continue
        for i, a in enumerate(args):
            if a == '-qmp' and i + 1 < len(args) and args[i + 1].startswith('unix:'):
                return args[i + 1][5:].split(',')[0]
    return None


def qmp(sock_path, commands):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(20)
    s.connect(sock_path)
    f = s.makefile('rwb')
    f.readline()  # greeting
    replies = []
    for c in [{'execute': 'qmp_capabilities'}] + commands:
        f.write((json.dumps(c) + '\n').encode()); f.flush()
        while True:
            line = f.readline()
            if not line:
                raise RuntimeError('QMP closed')
            r = json.loads(line)
            if 'event' in r:
                continue
            if 'error' in r:
                raise RuntimeError('%s: %s' % (c['execute'], r['error'].get('desc')))
            replies.append(r)
            break
    s.close()
    return replies


def handle(name, line):
    sock = find_qmp()
    if sock is None:
        raise RuntimeError('no qemu with %s on its command line' % out)
    words = line.split()
    if words[0] == 'plug':
        image = words[1]
        raw = {'driver': 'raw', 'node-name': 'raw-' + name, 'read-only': True,
               'file': {'driver': 'file', 'filename': image, 'read-only': True}}
        cmds = []
        if len(words) > 2:
            cmds.append({'execute': 'object-add', 'arguments': {
                'qom-type': 'throttle-group', 'id': 'tg-' + name, 'limits': {'bps-read': int(words[2])}}})
            node = {'driver': 'throttle', 'node-name': 'node-' + name, 'throttle-group': 'tg-' + name,
                    'read-only': True, 'file': raw}
        else:
            node = dict(raw, **{'node-name': 'node-' + name})
        cmds.append({'execute': 'blockdev-add', 'arguments': node})
        cmds.append({'execute': 'device_add', 'arguments': {
            'driver': 'usb-storage', 'id': 'stick-' + name, 'drive': 'node-' + name, 'removable': True}})
        qmp(sock, cmds)
    elif words[0] == 'pull':
        qmp(sock, [{'execute': 'device_del', 'arguments': {'id': 'stick-' + name}}])
    else:
        raise RuntimeError('unknown request: ' + line)


while time.time() < deadline and not os.path.exists(os.path.join(req, 'STOP')):
    for f in sorted(os.listdir(req)):
        if not f.endswith('.req'):
            continue
        name = f[:-4]
        path = os.path.join(req, f)
        line = open(path).read().strip()
        os.unlink(path)
        try:
            handle(name, line)
            result, text = '.done', 'ok\n'
        except Exception as e:  # the guest reads the reason and fails its step with it
            result, text = '.err', '%s\n' % e
        print('usb-host: %s: %s -> %s' % (name, line, text.strip()), flush=True)
        tmp = os.path.join(req, name + '.tmp')
        open(tmp, 'w').write(text)
        os.rename(tmp, os.path.join(req, name + result))
    time.sleep(0.05)
