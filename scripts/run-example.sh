#!/usr/bin/env bash
# make run: shows config/example.toml on the screen when a DRM device can be opened, otherwise
# simulates a few seconds headless (the carousel turning on its own) and writes PNGs to out/.
set -euo pipefail
bin=$1; config=$2
usable_drm() {
    for c in /dev/dri/card*; do
        [ -r "$c" ] && [ -w "$c" ] && return 0
    done
    return 1
}
if usable_drm; then
    exec "$bin" run --config "$config"
fi
echo "make run: no usable DRM device here; simulating 6 s headless into out/"
mkdir -p out
shots=()
for t in 0 1 2 3 4 5 6; do shots+=(--shot "$t=out/frame-$t.png"); done
"$bin" simulate --config "$config" --size 1280x720 --until 6 --demo "${shots[@]}" --events out/events.jsonl
echo "make run: events in out/events.jsonl"
