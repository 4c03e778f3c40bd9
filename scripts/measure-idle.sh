#!/usr/bin/env bash
# What a still carousel costs: runs the kiosk for SECONDS (default 60) with no input and prints
# the CPU time used, the peak memory and the frames presented (the first full frame included).
# Usage: scripts/measure-idle.sh [SECONDS] [BIN] [CONFIG] [BACKEND]
set -euo pipefail
secs=${1:-60}
bin=${2:-.build/debug/kiosk-carousel}
config=${3:-config/example.toml}
backend=${4:-headless}
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package 'time')" >&2; exit 1; }
/usr/bin/time -f "idle ${secs} s: cpu user %U s, system %S s (%P of one core), max RSS %M KiB" \
    "$bin" run --config "$config" --backend "$backend" --exit-after "$secs" 2>&1 |
    grep -E "idle |frames presented" | sed 's/.*\] //'
