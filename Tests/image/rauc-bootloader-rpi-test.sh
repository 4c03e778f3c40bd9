#!/bin/sh
# image/rpi/rauc-bootloader-rpi (the Pi image's RAUC backend) against an autoboot.txt in a scratch
# folder: the primary slot read from [all] boot_partition, the other slot's switch refused with
# the reason, a broken autoboot.txt named. Part of make rpi-image-test; no root needed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
backend=$top/image/rpi/rauc-bootloader-rpi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'ESP=%s\n' "$work" >"$work/slots"
export KIOSK_IMAGE_SLOTS=$work/slots
passed=0 failed=0
expect() {   # expect WHAT EXIT_STATUS OUTPUT_PATTERN -- ARGS (pattern "-": no output)
    what=$1 status=$2 pattern=$3; shift 4
    out=$("$backend" "$@" 2>&1); got=$?
    if [ "$pattern" = - ]; then matched=$([ -z "$out" ] && echo y); else matched=$(printf '%s' "$out" | grep -qE "$pattern" && echo y); fi
    if [ "$got" -eq "$status" ] && [ "$matched" = y ]; then
        echo "ok: $what"; passed=$((passed + 1))
    else
        echo "FAIL: $what (exit $got, want $status; said: $out)"; failed=$((failed + 1))
    fi
}
cp "$top/image/rpi/autoboot.txt" "$work/autoboot.txt"
expect "get-primary: A (the image's autoboot.txt: boot_partition=2)" 0 '^A$' -- get-primary
expect "get-state A: good" 0 '^good$' -- get-state A
expect "get-state B: bad" 0 '^bad$' -- get-state B
expect "set-state A good: the primary, nothing to do" 0 - -- set-state A good
expect "set-primary A: already" 0 - -- set-primary A
expect "set-state B bad (RAUC, before it writes slot B): refused with the reason" 1 'tryboot flag, which Debian' -- set-state B bad
expect "set-primary B: refused" 1 'does not switch slots' -- set-primary B
sed 's/^boot_partition=2$/boot_partition=3/' "$top/image/rpi/autoboot.txt" >"$work/autoboot.txt"
expect "get-primary after a switch to partition 3: B" 0 '^B$' -- get-primary
printf '[all]\nboot_partition=7\n' >"$work/autoboot.txt"
expect "boot_partition=7: named as wrong" 1 "boot_partition is '7'" -- get-primary
rm "$work/autoboot.txt"
expect "no autoboot.txt: named" 1 'no .*autoboot.txt' -- get-primary
expect "an unknown command: usage" 1 'usage' -- frobnicate
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
