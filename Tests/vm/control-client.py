#!/usr/bin/env python3
"""control-client.py SOCKET JSON: sends one command line to the kiosk's control socket and
prints the reply line (events that arrive before it are skipped). Waits up to 60 s for the
socket to appear. Exit status 0 when the reply says "ok": true, 1 otherwise."""
import json
import socket
import sys
import time

path, line = sys.argv[1], sys.argv[2]
end = time.time() + 60
while True:
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        break
    except OSError:
        if time.time() > end:
            sys.exit("control socket never appeared")
        time.sleep(0.2)
s.settimeout(30)
s.sendall(line.encode() + b"\n")
buf = b""
while True:
    chunk = s.recv(4096)
    if not chunk:
        sys.exit("connection closed without a reply")
    buf += chunk
    while b"\n" in buf:
        reply, buf = buf.split(b"\n", 1)
        if b'"reply"' in reply:
            print(reply.decode())
            sys.exit(0 if json.loads(reply).get("ok") else 1)
