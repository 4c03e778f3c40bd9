#!/usr/bin/env bash
# The figures in docs/display.md: start-up to first frame, flips per second while scrolling,
# frames and CPU while idle, and the display path's own frame rate, on both virtual GPUs at
# 1024x768. Not part of `make test` (it measures; it does not check). Use a release build:
#     swift build -c release && BIN=.build/release/kiosk-carousel Tests/vm/display/figures.sh
source "$(dirname "$0")/lib.sh"
for display in bochs virtio; do
    say "== $display 1024x768 ($BIN)"
    vm "$display" 1024x768 bash "$here/guest-figures.sh" "$BIN" "$CONFIG" "$SCRIPT" | grep -v "^20[0-9][0-9]-"
done
