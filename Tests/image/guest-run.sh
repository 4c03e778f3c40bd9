#!/usr/bin/env bash
# Test only (docs/updates.md, "Testing"): makes the next boot of a copy of the image run a
# command as root. The image has no shell and no login; this is how a test gets in:
#
#   Tests/image/guest-run.sh DISK SCRIPT [FILE ...]
#
# SCRIPT and the FILEs go to the data partition's test/ folder (/data/test/ in the guest;
# debugfs, no mount), and every loader entry on the ESP gets systemd's `systemd.run=` (mtools):
# systemd-run-generator starts it as kernel-command-line.service on the next boot, whichever slot
# boots. systemd.run= makes kernel-command-line.target the default target (systemd-run-generator),
# so the wrapper first starts multi-user.target (the kiosk, D-Bus, the boot report: the boot goes
# on as a normal one). It renames /data/test/run.sh before running it, so it runs once (a later
# boot of the same entry waits 60 s for a run.sh that is not there and ends). Entries that RAUC
# writes later do not have it. SCRIPT's output should go to the serial port (exec >/dev/ttyS0 2>&1);
# then Tests/image/qemu_run.py boots the disk and waits for what it prints.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 DISK SCRIPT [FILE ...]" >&2; exit 2; }
disk=$1 script=$2
shift 2
die() { echo "guest-run: $*" >&2; exit 1; }
part() { sfdisk -J "$1" | python3 -c "import json,sys; p=json.load(sys.stdin)['partitiontable']['partitions'][$2-1]; print(p['start'], p['size'])"; }
read -r esp_start _ < <(part "$disk" 1)
read -r data_start data_size < <(part "$disk" 5)
export MTOOLS_SKIP_CHECK=1
esp="$disk@@$((esp_start * 512))"
work=$(mktemp -d "${TMPDIR:-/var/tmp}/guest-run.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The data partition: out, written with debugfs, back (a 256 MiB copy; no loop device).
dd if="$disk" of="$work/data.ext4" bs=512 skip="$data_start" count="$data_size" status=none
e2fsck -E journal_only -y "$work/data.ext4" >/dev/null 2>&1 || true
{
    echo "mkdir /test"
    echo "rm /test/run.sh"
    echo "write $script /test/run.sh"
    for f in "$@"; do
        echo "rm /test/${f##*/}"
        echo "write $f /test/${f##*/}"
    done
} >"$work/cmds"
debugfs -w -f "$work/cmds" "$work/data.ext4" >"$work/debugfs.log" 2>&1 || { cat "$work/debugfs.log" >&2; die "debugfs failed"; }
debugfs -R "stat /test/run.sh" "$work/data.ext4" 2>/dev/null | grep -q "Size: $(stat -c %s "$script")" \
    || die "the script did not land on the data partition"
dd if="$work/data.ext4" of="$disk" bs=512 seek="$data_start" conv=notrunc status=none

# Every loader entry: systemd.run= (the kernel command line is one line of the entry's options).
run='systemd.run="/bin/sh -c '"'"'systemctl start --no-block multi-user.target; for i in $(seq 60); do test -f /data/test/run.sh && break; sleep 1; done; test -f /data/test/run.sh || exit 0; mv /data/test/run.sh /data/test/run.sh.started; exec /bin/sh /data/test/run.sh.started'"'"'" systemd.run_success_action=none systemd.run_failure_action=none'
n=0
for entry in $(mdir -b -i "$esp" ::/loader/entries 2>/dev/null | sed 's|.*/||' | grep '\.conf$'); do
    mcopy -n -i "$esp" "::/loader/entries/$entry" "$work/$entry"
    grep -q 'systemd.run=' "$work/$entry" \
        || RUN=$run awk '/^options / { $0 = $0 " " ENVIRON["RUN"] } { print }' "$work/$entry" >"$work/$entry.new"
    [ ! -f "$work/$entry.new" ] || mv "$work/$entry.new" "$work/$entry"
    mcopy -o -i "$esp" "$work/$entry" "::/loader/entries/$entry"
    n=$((n + 1))
done
[ "$n" -gt 0 ] || die "no loader entries on the ESP of $disk"
echo "guest-run: $script (+ $# files) in /data/test/; systemd.run= in $n loader entries"
