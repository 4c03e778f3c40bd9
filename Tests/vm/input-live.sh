#!/usr/bin/env bash
# input-live: runs the XCTest class InputTests.LiveDeviceTests inside kiosk-vm, where
# /dev/uinput and udevd exist: the knob's grab, suspend()/resume() of the libevdev knob and
# of libinput (touch cancelled on suspend, devices back on resume), a knob that appears after
# start, the path backend across unplug/replug and suspend/resume, descriptors that stay quiet
# when nothing happens. Needs `swift build --build-tests`.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
KIOSK_VM=${KIOSK_VM:-$top/../shared/vm/kiosk-vm}
BIN=$(realpath "${BIN:-$top/.build/debug/kiosk-carousel}")
bundle=$(dirname "$BIN")/KioskCarouselPackageTests.xctest
[ -x "$bundle" ] || { echo "input-live: $bundle not built (swift build --build-tests)"; exit 1; }
log=$(mktemp /tmp/kiosk-input-live.XXXXXX)
"$KIOSK_VM" --timeout 240 -- "$bundle" InputTests.LiveDeviceTests 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
# The class must really have run here (not skipped): five tests, no skips, no failures.
grep -q "Executed 5 tests, with 0 failures" "$log" && ! grep -q "skipped" "$log"
ok=$?
rm -f "$log"
[ "$rc" = 0 ] && [ "$ok" = 0 ]
