#!/usr/bin/env bash
# The full soak (make soak): 1,000,000 random input events — multi-finger touch storms, knob
# spins, key mashing, pointer, control-style commands, reloads (good and broken configs) — over
# hours of virtual time through the real CarouselSession, checking after every step that the
# state is finite and in range, that every *_began has its *_ended, and that RSS stays flat after
# warm-up (Tests/ReliabilityTests/SoakDriver.swift). `make test` runs the same test with 10,000.
#
#   scripts/soak.sh [EVENTS] [SEED]       defaults: 1000000, 20261121
#
# Runs the XCTest in the debug build (the one `make test` already built): no second build, and
# the debug build's extra checks (overflow, bounds) stay on for the whole run.
set -euo pipefail
cd "$(dirname "$0")/.."
export KIOSK_SOAK_EVENTS=${1:-1000000}
export KIOSK_SOAK_SEED=${2:-20261121}
swift build --build-tests >/dev/null
start=$(date +%s)
mkdir -p out
set +e
swift test --skip-build --filter ReliabilityTests.SoakTests >out/soak.log 2>&1
status=$?
set -e
grep -E "soak seed|soak violation|error:|Executed .* tests?" out/soak.log | sort -u || true
echo "soak: $KIOSK_SOAK_EVENTS events, seed $KIOSK_SOAK_SEED, $(( $(date +%s) - start )) s wall, exit $status (log: out/soak.log)"
exit "$status"
