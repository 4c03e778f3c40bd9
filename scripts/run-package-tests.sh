#!/usr/bin/env bash
# make package-test: the shipped artefacts installed and booted for real, one line per test,
# then "N passed, N failed".
#   deb-check      scripts/check-deb.sh: apt install of the .deb into a clean Debian 12 root
#   lifecycle      Tests/package/lifecycle.sh: its maintainer scripts under systemd in the VM
#   image          scripts/make-image.sh: the disk image with that package (docs/image.md)
#   image-boot     Tests/image/boot-test.sh: the image booted in QEMU from its own disk
# Needs out/kiosk-carousel_<version>_amd64.deb (make deb) and root (the image build). Time limits follow the host
# (Tests/vm/lib/slowdown.bash); logs in out/package-logs/.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export KIOSK_VM=${KIOSK_VM:-$top/../shared/vm/kiosk-vm}
[ -x "$KIOSK_VM" ] || { echo "run-package-tests: $KIOSK_VM not found (../shared/vm)" >&2; exit 1; }
source "$top/Tests/vm/lib/slowdown.bash"
vm_slowdown_setup
logdir=$top/out/package-logs
mkdir -p "$logdir"
pass=0; fail=0
run() {  # NAME COMMAND...
    local name=$1 start; shift; start=$(date +%s)
    if "$@" >"$logdir/$name.log" 2>&1; then
        pass=$((pass + 1)); echo "PASS $name ($(( $(date +%s) - start )) s)"
    else
        fail=$((fail + 1)); echo "FAIL $name ($(( $(date +%s) - start )) s) — log: $logdir/$name.log"
        tail -n 30 "$logdir/$name.log" | sed 's/^/    /'
        return 1
    fi
}
run deb-check scripts/check-deb.sh
run lifecycle Tests/package/lifecycle.sh
if run image env ARCH=amd64 scripts/make-image.sh; then
    run image-boot env ARCH=amd64 Tests/image/boot-test.sh
else
    fail=$((fail + 1)); echo "FAIL image-boot (not run: no image)"
fi
echo "package: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
