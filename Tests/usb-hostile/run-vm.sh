#!/usr/bin/env bash
# run-vm.sh OUT: every stick of OUT/manifest.json (make-sticks.py) through the whole import path in
# kiosk-vm, one after another: the image plugged as a USB mass-storage device into QEMU's xHCI
# controller through QMP (Tests/vm/lib/usb-host.py), the guest's usb-storage and sd drivers,
# udevd with the shipped rule, Debian 12's systemd (PID 1 of a namespace) with the shipped
# unit, which mounts it with the kernel's vfat, exfat or ext4 driver. A stick udev does not
# start the unit for (a damaged one whose file system blkid does not recognise) gets the unit
# started by hand (`systemctl start kiosk-carousel-usb@sda.service`: the same command line).
# Removal sticks are pulled at their moment (`pull`: mounting, checking, copying@N MiB; a FAT
# stick, read by mtools: reading@N MiB, staged) with their reads throttled.
#
# For each stick the guest records (OUT/results-vm.jsonl, read by summarize.py): the unit's exit
# status (or `hang` after 300 s, or the signal), the status.json, the unit's journal lines,
# every file changed outside the content folder where the unit can write since the plug
# (Tests/usb-hostile/verdict.py outside: /var/lib/kiosk-carousel, /run/kiosk-carousel-usb,
# /dev; ProtectSystem=strict makes the rest read-only to it), whether
# `current` is whole (what the stick held, read afterwards through a loop mount, after `done`;
# the previous one otherwise), and any half copy or mount left behind.
# Needs: $KIOSK_VM, $BIN (kiosk-carousel, debug or release).
set -u
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../vm/lib/input-host.sh"
out=$(cd "$1" && pwd)
rm -f "$out/results-vm.jsonl"; rm -rf "$out/usb-req"
python3 - "$out" > "$out/sticks.tsv" <<'PY' || exit 1
import json, os, re, sys
only = re.compile(os.environ.get('CASES', '.'))
for n, e in enumerate(json.load(open(sys.argv[1] + '/manifest.json'))):
    if not e.get('image') or not e.get('vm', True) or not only.search('%s.%s' % (e['case'], e['fs'])):
        continue
    damage = ' '.join(str(x) for x in e.get('damage', [])) or '-'
    print('\t'.join(str(x) for x in (n, e['case'], e['fs'], e['image'], e.get('fill') or '-', damage,
                                      e.get('pull') or '-', e.get('bps') or '-', e['group'], e['expect'])))
PY
cat > "$out/kiosk.toml" <<TOML
[usb]
import = true
fat_without_mount = true
content = "/var/lib/kiosk-carousel/usb"

[[item]]
id = "machine"
title = "The machine's own item"
TOML
"$BIN" check-config "$out/kiosk.toml" > /dev/null || exit 1

{ printf 'set -u\nBIN=%q OUT=%q TOP=%q HERE=%q\n' "$BIN" "$out" "$top" "$here"; cat <<'GUEST'; } > "$out/guest.sh"
source "$TOP/Tests/vm/lib/steps.bash"
source "$TOP/Tests/vm/lib/systemd-ns.bash"
CONTENT=/var/lib/kiosk-carousel/usb
UNIT=kiosk-carousel-usb@sda.service
LOG=/run/usb-unit.log
# usb NAME LINE: asks the host to plug or pull stick NAME; waits for its answer.
usb() {
    mkdir -p "$OUT/usb-req"
    echo "$2" > "$OUT/usb-req/$1.tmp" && mv "$OUT/usb-req/$1.tmp" "$OUT/usb-req/$1.req"
    wait_until 30 "[ -e '$OUT/usb-req/$1.done' ] || [ -e '$OUT/usb-req/$1.err' ]"
    [ -e "$OUT/usb-req/$1.err" ] && step_fail "usb-host: $(cat "$OUT/usb-req/$1.err")"
    rm -f "$OUT/usb-req/$1.done"
}
status_is() { grep -q "\"state\":\"$1\"" $CONTENT/status.json 2>/dev/null; }
copied_mib() { local b; b=$(grep -o '"bytes":[0-9]*' $CONTENT/status.json 2>/dev/null); b=${b#*:}; echo $(( ${b:-0} >> 20 )); }
# prop NAME: a property of the unit, asked again when systemctl gave nothing (its 10 s limit on a busy host).
prop() { local v n; for n in 1 2 3 4 5; do v=$(unit_prop $UNIT "$1"); [ -n "$v" ] && break; sleep 1; done; echo "$v"; }
started_since() { local t; t=$(unit_prop $UNIT ExecMainStartTimestampMonotonic); [ -n "$t" ] && [ "$t" != 0 ] && [ "$t" != "$1" ]; }
# wait_moment MOMENT: until the import is at MOMENT (mounting: started; checking; copying@N: N MiB
# copied; a FAT stick read by mtools: reading@N: N MiB read off the stick, staged: its read copy
# being checked or copied). Returns 1 when the import ended first (or after 120 s x slowdown).
wait_moment() {
    local cond mib n=0 seen_reading= deadline
    case $1 in
        mounting) return 0 ;;
        checking) cond='status_is checking' ;;
        staged) cond='[ -n "$seen_reading" ] && { status_is checking || status_is copying; }' ;;
        reading@*|copying@*) mib=${1#*@}; mib=${mib%MiB}
                   cond="status_is ${1%@*} && [ \$(copied_mib) -ge $mib ]" ;;
        *) step_fail "unknown moment $1" ;;
    esac
    deadline=$(( $(date +%s) + $(scaled 120) ))
    while [ "$(date +%s)" -lt $deadline ]; do
        status_is reading && seen_reading=yes
        eval "$cond" && return 0
        # The import's end, looked at once a second (a systemctl call costs most of one under TCG).
        if [ $((n % 5)) = 4 ] && [ "$(unit_prop $UNIT ActiveState)" != activating ]; then return 1; fi
        n=$((n + 1)); sleep 0.2
    done
    return 1
}

step "drivers, udev rule, systemd with the shipped unit"
modprobe -a xhci_pci usb_storage sd_mod vfat exfat ext4 loop nls_cp437 nls_iso8859_1 nls_utf8 || step_fail "modprobe"
mkdir -p /etc/udev/rules.d
cp "$TOP/systemd/udev/72-kiosk-carousel-usb.rules" /etc/udev/rules.d/
udevadm control --reload
install -D -m 0755 "$BIN" /usr/bin/kiosk-carousel
install -D -m 0644 "$OUT/kiosk.toml" /etc/kiosk-carousel/config.toml
mkdir -p /etc/systemd/system/kiosk-carousel-usb@.service.d $CONTENT /run/hostile
sed -e 's|^\[Unit\]$|[Unit]\nDefaultDependencies=no|' "$TOP/systemd/kiosk-carousel-usb@.service" > /etc/systemd/system/kiosk-carousel-usb@.service
# The import's exit as systemd saw it, kept after the unit is gone: a unit that ends with success
# is collected at once and its ExecMain* properties read as 0 then. `+`: outside the sandbox.
printf '[Service]\nStandardOutput=append:%s\nStandardError=append:%s\nExecStopPost=+/bin/sh -c %s\n' $LOG $LOG \
    "'echo \"\$EXIT_CODE \$EXIT_STATUS\" > /run/hostile/exit'" \
    > /etc/systemd/system/kiosk-carousel-usb@.service.d/test-output.conf
printf '[Unit]\nDefaultDependencies=no\n' > /etc/systemd/system/kiosk-test-idle.target
# The group FAT sticks are read in (the package's sysusers makes it; without it every FAT stick
# ends at "no group kiosk-carousel-stick", as it did on a fresh machine).
getent group kiosk-carousel-stick >/dev/null || groupadd --system kiosk-carousel-stick || step_fail "groupadd"
start_systemd kiosk-test-idle.target || step_fail "systemd did not start"
touch $LOG
PREVIOUS=-
while IFS=$'\t' read -r n case fs image fill damage pull bps group expect; do
    step "$case ($fs)"
    name=s$n
    # exFAT images are filled here (the host kernel has no exfat driver), then damaged if asked.
    if [ "$fill" != - ]; then
        mkdir -p /run/hostile/fill
        mount -o loop "$image" /run/hostile/fill || step_fail "cannot mount $image to fill it"
        cp -a "$fill/." /run/hostile/fill/ 2> /run/hostile/fill.err || { cat /run/hostile/fill.err; step_fail "cannot fill $image"; }
        umount /run/hostile/fill
        [ "$damage" != - ] && { python3 "$HERE/make-sticks.py" --damage "$image" "$fs" $damage || step_fail "damage"; }
    fi
    rm -f $CONTENT/status.json /run/hostile/exit
    touch /run/hostile/mark; sleep 0.01
    logstart=$(stat -c %s $LOG)
    before=$(unit_prop $UNIT ExecMainStartTimestampMonotonic)
    t0=$(date +%s.%N)
    usb $name "plug $image $([ "$bps" != - ] && echo "$bps")"
    wait_until 30 '[ -b /dev/sda ]'
    started=udev
    for _ in $(seq 1 100); do started_since "$before" && break; sleep 0.1; done
    if ! started_since "$before"; then
        started=hand
        sc start --no-block $UNIT || step_fail "systemctl start $UNIT"
        wait_until 20 "started_since '$before'"
    fi
    pulled=no
    if [ "$pull" != - ]; then
        if wait_moment "$pull"; then at=at; else at="after the moment passed, at"; fi
        state="$(grep -o '"state":"[a-z]*"' $CONTENT/status.json 2>/dev/null | cut -d'"' -f4) $(copied_mib) MiB"
        usb $name pull; pulled="$at $state"
    fi
    exit=
    for _ in $(seq 1 1500); do [ "$(unit_prop $UNIT ActiveState)" != activating ] && break; sleep 0.2; done
    if [ "$(unit_prop $UNIT ActiveState)" = activating ]; then
        exit=hang
        sc kill --signal=KILL $UNIT
        wait_until 30 '[ "$(unit_prop $UNIT ActiveState)" != activating ]'
    fi
    seconds=$(echo "$(date +%s.%N) - $t0" | bc)
    if [ -z "$exit" ]; then
        # ExecStopPost's line (exited STATUS, killed SIGNAL, dumped SIGNAL); systemd's
        # properties only when it never came.
        for _ in $(seq 1 150); do [ -s /run/hostile/exit ] && break; sleep 0.2; done
        read -r ecode estatus < /run/hostile/exit 2>/dev/null
        case $ecode in
            exited) exit=$estatus ;;
            killed|dumped) exit="$ecode-$estatus" ;;
            *) code=$(prop ExecMainCode)
               [ "$code" = 1 ] && exit=$(prop ExecMainStatus) || exit="code-$code-status-$(prop ExecMainStatus)" ;;
        esac
    fi
    [ "$pulled" = no ] && usb $name pull
    wait_until 30 '[ ! -b /dev/sda ]'
    tail -c +$((logstart + 1)) $LOG > /run/hostile/log-$n.txt
    leftovers=$(ls -a $CONTENT | grep '^\.incoming' | tr '\n' ' ')
    grep -q kiosk-carousel-usb /proc/mounts && leftovers="$leftovers mount-left"
    inside grep -q kiosk-carousel-usb /proc/mounts && leftovers="$leftovers mount-left-in-systemd"
    outside=$(python3 "$HERE/verdict.py" outside /run/hostile/mark $CONTENT)
    if status_is done; then
        # What the stick holds, read through a loop mount of its image: what `current` must be.
        PREVIOUS=unknown
        mkdir -p /run/hostile/look
        if mount -o ro,loop,nodev,nosuid,noexec "$image" /run/hostile/look 2>/dev/null; then
            python3 "$HERE/verdict.py" want /run/hostile/look /run/hostile/previous.json 2>/dev/null && PREVIOUS=/run/hostile/previous.json
            umount /run/hostile/look
        fi
    fi
    if [ "$PREVIOUS" = unknown ]; then current=unverified; else current=$(python3 "$HERE/verdict.py" current $CONTENT $PREVIOUS); fi
    python3 "$HERE/verdict.py" record "$OUT/results-vm.jsonl" $CONTENT/status.json /run/hostile/log-$n.txt \
        "case=$case" "fs=$fs" "group=$group" "expect=$expect" "exit=$exit" "seconds=$seconds" "outside=$outside" \
        "current=$current" "leftovers=$leftovers" "started=$started" "pulled=$pulled"
    note_line="exit $exit, $(grep -o '"state":"[a-z]*"' $CONTENT/status.json 2>/dev/null || echo 'no status'), started by $started, pulled $pulled, current $current"
    echo "guest: $case ($fs): $note_line"
done < "$OUT/sticks.tsv"
steps_done
GUEST

# The xHCI controller the sticks plug into (as Tests/vm/usb-stick.sh).
mkdir -p "$out/qemu"
printf '#!/bin/sh\nexec %s "$@" -device qemu-xhci,id=xhci\n' "$(command -v qemu-system-x86_64)" > "$out/qemu/qemu-system-x86_64"
chmod +x "$out/qemu/qemu-system-x86_64"
python3 "$top/Tests/vm/lib/usb-host.py" "$out" 7200 > "$out/usb-host.log" 2>&1 &
host_pid=$!
PATH="$out/qemu:$PATH" "$KIOSK_VM" --size 800x480 --rw "$out" --out "$out" --mem 2048 --timeout "${VM_TIMEOUT:-5400}" -- bash "$out/guest.sh"
rc=$?
touch "$out/usb-req/STOP"; wait $host_pid
exit $rc
