#!/usr/bin/env python3
"""The program's own start, natively (docs/start-up.md, "Our own start"): for each binary given,
exec -> exit of `--help` (RUNS times) and exec -> the `running:` line of `run --backend headless`
with CONFIG (RUNS // 3 times, at least 5), the binaries interleaved so that the host's load falls
on each alike. Prints the medians, minimums and maximums and the host's load.

    scripts/measure-start.py [--runs N] [--config CONFIG] BINARY [BINARY ...]
"""
import argparse
import os
import signal
import statistics
import subprocess
import time


def help_ms(binary):
    t = time.perf_counter()
    subprocess.run([binary, "--help"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - t) * 1000


def running_ms(binary, config, limit=60):
    t = time.perf_counter()
    p = subprocess.Popen([binary, "run", "--config", config, "--backend", "headless"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in p.stdout:
            if "running:" in line:
                return (time.perf_counter() - t) * 1000
            if time.perf_counter() - t > limit:
                break
        raise SystemExit("%s: no 'running:' line within %d s" % (binary, limit))
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait()


def line(name, values):
    v = sorted(values)
    return "%s: median %.1f ms, min %.1f, max %.1f (%d runs)" % (name, statistics.median(v), v[0], v[-1], len(v))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--config", default=os.path.join(os.path.dirname(__file__), "..", "config", "example.toml"))
    ap.add_argument("binaries", nargs="+")
    a = ap.parse_args()
    helps = {b: [] for b in a.binaries}
    runs = {b: [] for b in a.binaries}
    for _ in range(a.runs):
        for b in a.binaries:
            helps[b].append(help_ms(b))
    for _ in range(max(5, a.runs // 3)):
        for b in a.binaries:
            runs[b].append(running_ms(b, a.config))
    for b in a.binaries:
        print(line("%s: exec -> exit of --help" % b, helps[b]))
        print(line("%s: exec -> 'running:' (%s)" % (b, os.path.basename(a.config)), runs[b]))
    print("host load (1, 5, 15 min):", " ".join(open("/proc/loadavg").read().split()[:3]))


if __name__ == "__main__":
    main()
