#!/usr/bin/env bash
# fault-disk-full: a screenshot requested over the control socket into a full disk (a 64 KiB
# tmpfs filled up to the last block) and into a folder that does not exist. The
# kiosk must answer with an error naming the problem, leave no partial file, log one line, keep
# running and take the next screenshot where there is room. Needs root (mount).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib/fault.bash"
[ "$(id -u)" -eq 0 ] || { echo "fault-disk-full: needs root to mount a tmpfs" >&2; exit 1; }
full=$WORK/full
mkdir -p "$full"
mount -t tmpfs -o size=64k tmpfs "$full" || { echo "fault-disk-full: cannot mount a tmpfs" >&2; exit 1; }
trap 'umount "$full" 2>/dev/null; fault_cleanup' EXIT
dd if=/dev/zero of="$full/filler" bs=4k 2>/dev/null   # until ENOSPC
sock=$WORK/control.sock
cfg=$WORK/config.toml
write_config "$cfg" 4
printf '\n[control]\nsocket = "%s"\n' "$sock" >>"$cfg"
start_kiosk "$cfg"
check "starts" wait_for_log 'running: 4 items'
shot() { /usr/bin/python3 "$here/control-client.py" "$sock" "{\"cmd\":\"screenshot\",\"path\":\"$1\"}" 2>&1; }

mark_log
reply=$(shot "$full/shot.png"); rc=$?
check "disk full: the reply is an error (exit $rc): $reply" [ "$rc" -ne 0 ]
check "disk full: the reply says why" grep -qiE 'space|ENOSPC|full|write' <<<"$reply"
check "disk full: one log line says so" wait_for_log "No space left on device" 5
check "disk full: no partial file left" bash -c "! ls -A '$full' | grep -v '^filler\$' | grep -q ."
check "disk full: still running" alive

reply=$(shot "$WORK/no/such/folder/shot.png"); rc=$?
check "missing folder: the reply is an error (exit $rc)" [ "$rc" -ne 0 ]
check "missing folder: still running" alive

reply=$(shot "$WORK/shot.png"); rc=$?
check "with room again: the screenshot is written ($reply)" [ "$rc" -eq 0 ] && [ -s "$WORK/shot.png" ]

kill -TERM "$KIOSK_PID"
wait_exit 20
check "SIGTERM: exit status 0 (was $EXIT_RC)" [ "$EXIT_RC" -eq 0 ]
finish
