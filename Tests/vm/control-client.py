#!/usr/bin/env python3
"""control-client.py SOCKET JSON: sends one command line to the kiosk's control socket and
prints the reply line (events that arrive before it are skipped). Waits up to 60 s for the
socket to appear and 30 s for the reply (in all, however many events come first), both x $KIOSK_VM_SLOWDOWN (Tests/vm/lib/slowdown.bash).
Exit status 0 when the reply says "ok": true, 1 otherwise."""
import json
import os
import socket
import sys
import time

path, line = sys.argv[1], sys.argv[2]
slowdown = max(1.0, float(os.environ.get("KIOSK_VM_SLOWDOWN") or 1))
end = time.time() + 60 * slowdown
while True:
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        break
    except OSError:
        if time.time() > end:
            sys.exit("control socket never appeared (%.0f s)" % (60 * slowdown))
        time.sleep(0.2)
reply_by = time.time() + 30 * slowdown
s.settimeout(30 * slowdown)
s.sendall(line.encode() + b"\n")
buf = b""
while True:
    left = reply_by - time.time()
    if left <= 0:
        sys.exit("no reply within %.0f s" % (30 * slowdown))
    s.settimeout(left)
    try:
        chunk = s.recv(4096)
    except socket.timeout:
        sys.exit("no reply within %.0f s" % (30 * slowdown))
    if not chunk:
        sys.exit("connection closed without a reply")
    buf += chunk
    while b"\n" in buf:
        reply, buf = buf.split(b"\n", 1)
        if b'"reply"' in reply:
            print(reply.decode())
            sys.exit(0 if json.loads(reply).get("ok") else 1)
