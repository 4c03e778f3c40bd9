#!/usr/bin/env bash
# The full soak (make soak): 1,000,000 random input events — multi-finger touch storms, knob
# spins, key mashing, pointer, control-style commands, reloads (good and broken configs) — over
# hours of virtual time through the real CarouselSession, checking after every step that the
# state is finite and in range, that every *_began has its *_ended, and that RSS stays flat after
# warm-up (Tests/ReliabilityTests/SoakDriver.swift). `make test` runs the same test with 10,000.
# Then the reload soak: a live kiosk (the example config, headless) reloaded RELOADS times by its
# control socket, its config file and its schedule in turn; the slopes of RSS and of the heap's
# bytes in use over the reloads must stay under 2 kB and 1 kB per reload
# (Tests/ReliabilityTests/ReloadSoakTests.swift). `make test` runs it with 300.
#
#   scripts/soak.sh [EVENTS] [SEED] [RELOADS]     defaults: 1000000, 20261121, 6000
#
# Runs the XCTest in the debug build (the one `make test` already built): no second build, and
# the debug build's extra checks (overflow, bounds) stay on for the whole run.
set -euo pipefail
cd "$(dirname "$0")/.."
export KIOSK_SOAK_EVENTS=${1:-1000000}
export KIOSK_SOAK_SEED=${2:-20261121}
export KIOSK_SOAK_RELOADS=${3:-6000}
swift build --build-tests >/dev/null
start=$(date +%s)
mkdir -p out
set +e
swift test --skip-build --filter ReliabilityTests.SoakTests >out/soak.log 2>&1
status=$?
swift test --skip-build --filter ReliabilityTests.ReloadSoakTests >out/reload-soak.log 2>&1
reload_status=$?
set -e
grep -E "soak seed|soak violation|error:|Executed .* tests?" out/soak.log | sort -u || true
grep -E "reload soak|error:|Executed .* tests?" out/reload-soak.log | sort -u || true
echo "soak: $KIOSK_SOAK_EVENTS events, seed $KIOSK_SOAK_SEED, $KIOSK_SOAK_RELOADS reloads, $(( $(date +%s) - start )) s wall, exit $status/$reload_status (logs: out/soak.log, out/reload-soak.log)"
[ "$status" -eq 0 ] && [ "$reload_status" -eq 0 ]
