#!/usr/bin/env bash
# make hostile-sticks: hostile USB sticks through the USB import (docs/usb.md, "Hostile sticks").
#   1. make-sticks.py builds the sticks (FAT32, exFAT, ext4 images and their trees) in OUT;
#   2. run-host.py runs `usb-import --folder` of every tree-level stick on this machine, under
#      strace (every file it changes is seen);
#   3. run-vm.sh plugs every image into kiosk-vm: udev rule, systemd unit, kernel mount;
#   4. summarize.py prints the figures (and writes OUT/figures.md); it fails on any stick that
#      broke a rule (a crash or hang, a byte outside the content folder, a half-written
#      generation current, a hostile stick taken, a refusal without a located reason).
# QUICK=1: the smaller set (no 100,000 files, fewer damaged images, one file system for the
# removals). OUT (default out/hostile-sticks), BIN (default .build/debug/kiosk-carousel),
# CASES (a regular expression: only the sticks whose CASE.FS matches), VM=0 (the host only).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/Tests/usb-hostile
out=${OUT:-$top/out/hostile-sticks}
export BIN=$(realpath "${BIN:-$top/.build/debug/kiosk-carousel}")
mkdir -p "$out"
start=$(date +%s)
python3 "$here/make-sticks.py" "$out" $([ "${QUICK:-}" = 1 ] && echo --quick) || exit 1
echo "hostile-sticks: sticks built in $(( $(date +%s) - start )) s"
python3 "$here/run-host.py" "$BIN" "$out" 300 || exit 1
echo "hostile-sticks: host runs done at $(( $(date +%s) - start )) s"
if [ "${VM:-1}" != 0 ]; then
    bash "$here/run-vm.sh" "$out" > "$out/vm.log" 2>&1
    rc=$?
    grep -E '^guest: |^FAIL|^== step' "$out/vm.log" | grep -v '^== step' || true
    [ "$rc" = 0 ] || { echo "hostile-sticks: the VM run failed (exit $rc); its log: $out/vm.log"; tail -n 30 "$out/vm.log"; }
    echo "hostile-sticks: VM runs done at $(( $(date +%s) - start )) s"
fi
python3 "$here/summarize.py" "$out" || exit 1
[ "${rc:-0}" = 0 ]
