#!/usr/bin/env python3
"""A systemd-less stand-in for a Type=notify service with WatchdogSec=, for tests.

Runs COMMAND the way systemd runs a Type=notify unit: NOTIFY_SOCKET (a datagram socket this
stub binds), WATCHDOG_USEC and WATCHDOG_PID in its environment. Like systemd it
  - accepts notifications only from the main process (NotifyAccess=main, checked with
    SCM_CREDENTIALS),
  - waits at most --start-timeout seconds for READY=1,
  - after READY=1, expects WATCHDOG=1 at least every --watchdog-sec seconds; when one is
    missing it logs "watchdog timeout", sends SIGABRT (systemd's WatchdogSignal default),
    then SIGKILL after --kill-after seconds,
  - on SIGTERM to the stub, sends SIGTERM to the service and waits (like systemctl stop).
Every notification is printed as "stub: t=SECONDS PID: KEY=VALUE". Exit status: the service's
own (0 for a clean exit), 2 after a watchdog timeout, 3 when READY=1 never came.
"""
import argparse
import os
import select
import signal
import socket
import struct
import sys
import tempfile
import time


def log(start, text):
    print(f"stub: t={time.monotonic() - start:.3f} {text}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--watchdog-sec", type=float, required=True)
    ap.add_argument("--start-timeout", type=float, default=60)
    ap.add_argument("--kill-after", type=float, default=2)
    ap.add_argument("--pid-file", help="write the service's pid here once started")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("COMMAND missing")

    start = time.monotonic()
    rundir = tempfile.mkdtemp(prefix="watchdog-stub-")
    path = os.path.join(rundir, "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)

    pid = os.fork()
    if pid == 0:
        env = dict(os.environ)
        env.update(NOTIFY_SOCKET=path, WATCHDOG_USEC=str(int(args.watchdog_sec * 1e6)),
                   WATCHDOG_PID=str(os.getpid()))
        try:
            os.execvpe(command[0], command, env)
        finally:
            os._exit(127)
    if args.pid_file:
        with open(args.pid_file + ".tmp", "w") as f:
            f.write(f"{pid}\n")
        os.rename(args.pid_file + ".tmp", args.pid_file)
    log(start, f"started {pid}: {' '.join(command)}")

    stop_requested = False

    def on_term(signum, frame):
        nonlocal stop_requested
        stop_requested = True
    signal.signal(signal.SIGTERM, on_term)

    ready_at = None
    last_ping = None
    verdict = None          # None, "watchdog", "start-timeout"
    kill_at = None
    status = None
    ucred = struct.calcsize("3i")
    while status is None:
        now = time.monotonic()
        if stop_requested and kill_at is None:
            log(start, "stop requested: sending SIGTERM")
            os.kill(pid, signal.SIGTERM)
            kill_at = now + 10
        if verdict is None and kill_at is None:
            if ready_at is None and now - start > args.start_timeout:
                verdict = "start-timeout"
                log(start, f"start timeout: no READY=1 within {args.start_timeout} s; sending SIGABRT")
            elif ready_at is not None and now - (last_ping or ready_at) > args.watchdog_sec:
                verdict = "watchdog"
                log(start, f"watchdog timeout: no WATCHDOG=1 for {args.watchdog_sec} s; sending SIGABRT")
            if verdict:
                os.kill(pid, signal.SIGABRT)
                kill_at = now + args.kill_after
        if kill_at is not None and now >= kill_at:
            log(start, "sending SIGKILL")
            os.kill(pid, signal.SIGKILL)
            kill_at = float("inf")
        try:
            readable, _, _ = select.select([sock], [], [], 0.05)
        except InterruptedError:
            readable = []
        if readable:
            data, anc, _, _ = sock.recvmsg(4096, socket.CMSG_SPACE(ucred))
            sender = None
            for level, kind, payload in anc:
                if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                    sender = struct.unpack("3i", payload[:ucred])[0]
            text = data.decode(errors="replace")
            if sender != pid:
                log(start, f"ignored a notification from pid {sender} (not the main process): {text!r}")
            else:
                for line in text.split("\n"):
                    if not line:
                        continue
                    log(start, f"{pid}: {line}")
                    if line == "READY=1" and ready_at is None:
                        ready_at = time.monotonic()
                    elif line == "WATCHDOG=1":
                        last_ping = time.monotonic()
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            status = raw
    if os.WIFEXITED(status):
        log(start, f"service exited with status {os.WEXITSTATUS(status)}")
        code = os.WEXITSTATUS(status)
    else:
        log(start, f"service killed by signal {os.WTERMSIG(status)}")
        code = 128 + os.WTERMSIG(status)
    os.unlink(path)
    os.rmdir(rundir)
    if verdict == "watchdog":
        sys.exit(2)
    if verdict == "start-timeout":
        sys.exit(3)
    sys.exit(code)


if __name__ == "__main__":
    main()
