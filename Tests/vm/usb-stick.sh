#!/usr/bin/env bash
# usb-stick: content from a USB stick (docs/usb.md) on a real kernel: virtual USB mass-storage
# devices plugged into an xHCI controller through QMP (`device_add usb-storage`; the host side is
# lib/usb-host.py), the kernel's usb-storage and sd drivers, mtools in the import's sandbox
# (the default, [usb] fat_without_mount; the last step mounts the stick with vfat instead), udevd with the shipped rule,
# systemd (Debian 12's, PID 1 of a namespace: lib/systemd-ns.bash) with the shipped unit, and a
# running kiosk on bochs-drm. Nothing starts the import but udev and systemd.
#   1. a good stick: the shipped rule gives the add event SYSTEMD_WANTS=kiosk-carousel-usb@sda.service
#      (after Debian's blkid rules), systemd starts the unit, which exits 0: status `done`, a
#      `current` link to a new generation, the kiosk's `usb_import` (done) and `reloaded` events,
#      the confirmation card on the screen (`state` card), then the stick's items after the
#      card's time; the unit's log says the stick was read by mtools (not mounted).
#   2. a stick whose config.toml has problems: the unit exits 1, status `failed` naming the file
#      and line as on the stick, the problem card, `current` unchanged.
#   3. a stick pulled out half-way through its read (its reads throttled by QEMU to 1 MB/s, pulled
#      while the status says `reading`, mcopy reading it off with 1 MiB or more read): the unit
#      exits 1, status `failed`, `current` unchanged,
#      no half copy (`.incoming-*`, `.stick-*`) left, no mount left (in either namespace).
#   4. the good stick again with `[usb] fat_without_mount = false`: mounted read-only by the
#      kernel's vfat, imported (a new generation), unmounted in both namespaces.
# Needs: $KIOSK_VM, $BIN (debug kiosk-carousel), mkfs.vfat and mcopy (dosfstools, mtools).
set -u
source "$(dirname "$0")/lib/input-host.sh"
here=$(cd "$(dirname "$0")" && pwd)
work_folder usb-stick

# stick NAME MIB: a FAT file system image OUT/NAME.img of MIB MiB holding OUT/NAME/ (mtools: no root).
stick() {
    mkfs.vfat -C -n "${1^^}" "$out/$1.img" $(($2 * 1024)) > /dev/null || exit 1
    mcopy -s -i "$out/$1.img" "$out/$1/kiosk-carousel" ::/ || exit 1
}
media=$top/config/media
for s in good bad big; do mkdir -p "$out/$s/kiosk-carousel/pictures"; done
cp "$media/01-mountain-dawn.jpg" "$media/06-desert-dunes.png" "$out/good/kiosk-carousel/pictures/"
cat > "$out/good/kiosk-carousel/config.toml" <<'TOML'
[carousel]
type = "linear"
item_size = [240, 180]

[[item]]
id = "dawn"
title = "Dawn from the stick"
image = "pictures/01-mountain-dawn.jpg"

[[item]]
id = "dunes"
title = "Dunes from the stick"
image = "pictures/06-desert-dunes.png"

[[item]]
id = "plain"
title = "A card without a picture"
TOML
cp "$media/02-lake-evening.jpg" "$out/bad/kiosk-carousel/pictures/"
cat > "$out/bad/kiosk-carousel/config.toml" <<'TOML'
[[item]]
id = "lake"
image = "pictures/02-lake-evening.jpg"

[[item]]
id = "gone"
image = "pictures/not-on-the-stick.jpg"
TOML
cp -r "$out/good/kiosk-carousel/." "$out/big/kiosk-carousel/"
mkdir -p "$out/big/kiosk-carousel/extra"
head -c $((24 << 20)) /dev/urandom > "$out/big/kiosk-carousel/extra/film.bin"
stick good 8; stick bad 8; stick big 40
cp "$out/good.img" "$out/good2.img"     # the good stick again (QEMU's node names are per plug)
rm -rf "$out/good" "$out/bad" "$out/big"

# The cards stay 10 s on a quiet host; times KIOSK_VM_SLOWDOWN here, since the guest's checks of
# them (a state poll after the unit's end) are slower on a busy one.
notice=$(awk -v f="${KIOSK_VM_SLOWDOWN:-1}" 'BEGIN { if (f < 1) f = 1; v = 10 * f; i = int(v); if (i < v) i++; print i }')
cat > "$out/kiosk.toml" <<TOML
[display]
backend = "drm"
[carousel]
type = "linear"
item_size = [240, 180]
[control]
socket = "/run/kiosk-usb.sock"
[usb]
import = true
content = "/var/lib/kiosk-carousel/usb"
notice_seconds = $notice

[[item]]
id = "machine"
title = "The machine's own item"
TOML
"$BIN" check-config "$out/kiosk.toml" || exit 1


guest_script <<GUEST
source "\$TOP/Tests/vm/lib/dpms-guest.sh"
STEP_ON_FAIL='tail -n 30 "\$OUT/run.err"; cat "\$OUT/events.jsonl"; cat /var/lib/kiosk-carousel/usb/status.json'
CONTENT=/var/lib/kiosk-carousel/usb
# usb NAME LINE: asks the host to plug or pull stick NAME; waits for its answer.
usb() {
    mkdir -p "\$OUT/usb-req"
    echo "\$2" > "\$OUT/usb-req/\$1.tmp" && mv "\$OUT/usb-req/\$1.tmp" "\$OUT/usb-req/\$1.req"
    wait_until 30 "[ -e '\$OUT/usb-req/\$1.done' ] || [ -e '\$OUT/usb-req/\$1.err' ]"
    [ -e "\$OUT/usb-req/\$1.err" ] && step_fail "usb-host: \$(cat "\$OUT/usb-req/\$1.err")"
    rm -f "\$OUT/usb-req/\$1.done"
}
state() { /usr/bin/python3 "\$TOP/Tests/vm/control-client.py" /run/kiosk-usb.sock '{"cmd":"state"}' > "\$OUT/state.json" 2>&1; }
card_is() { state && grep -q "\"card\":\$1" "\$OUT/state.json"; }
status_is() { grep -q "\"state\":\"\$1\"" \$CONTENT/status.json 2>/dev/null; }
current() { readlink \$CONTENT/current; }

step "drivers and udev rule"
modprobe -a xhci_pci usb_storage sd_mod vfat nls_cp437 nls_iso8859_1 nls_utf8 || step_fail "modprobe"
mkdir -p /etc/udev/rules.d
cp "\$TOP/systemd/udev/72-kiosk-carousel-usb.rules" /etc/udev/rules.d/
udevadm control --reload

step "start the kiosk"
"\$BIN" run --config "\$OUT/kiosk.toml" --events "\$OUT/events.jsonl" > "\$OUT/run.err" 2>&1 &
RUN=\$!
wait_for "\$OUT/run.err" "first frame on screen" 60 || { kiosk_state \$RUN; exit 1; }
[ -d \$CONTENT ] || step_fail "the kiosk did not make \$CONTENT"

step "systemd with the shipped USB unit"
# systemd (Debian 12's) as PID 1 of a PID and mount namespace (lib/systemd-ns.bash), with the
# shipped unit where the package puts it (DefaultDependencies=no: only what the test starts) and
# its output in a file; udevd's events reach it as on a kiosk.
source "\$TOP/Tests/vm/lib/systemd-ns.bash"
install -D -m 0755 "\$BIN" /usr/bin/kiosk-carousel
install -D -m 0644 "\$OUT/kiosk.toml" /etc/kiosk-carousel/config.toml
mkdir -p /etc/systemd/system/kiosk-carousel-usb@.service.d
sed -e 's|^\[Unit\]\$|[Unit]\nDefaultDependencies=no|' "\$TOP/systemd/kiosk-carousel-usb@.service" > /etc/systemd/system/kiosk-carousel-usb@.service
printf '[Service]\nStandardOutput=append:/run/usb-unit.log\nStandardError=append:/run/usb-unit.log\n' \
    > /etc/systemd/system/kiosk-carousel-usb@.service.d/test-output.conf
printf '[Unit]\nDefaultDependencies=no\n' > /etc/systemd/system/kiosk-test-idle.target
# The group FAT sticks are read in (the package's sysusers makes it).
getent group kiosk-carousel-stick >/dev/null || groupadd --system kiosk-carousel-stick || step_fail "groupadd"
start_systemd kiosk-test-idle.target || step_fail "systemd did not start"
UNIT=kiosk-carousel-usb@sda.service
STEP_ON_FAIL="\$STEP_ON_FAIL; cat /run/usb-unit.log; sc status \$UNIT --no-pager; sc show dev-sda.device -p Wants,ActiveState,SysFSPath,Following; sc list-units --all --type=device --no-pager; inside ls -la /run/udev | head; inside cat /proc/self/mountinfo | grep -E ' /sys | /run '"
# started_since T: systemd started the unit after monotonic time T (its last start moved).
started_since() { local t; t=\$(unit_prop \$UNIT ExecMainStartTimestampMonotonic); [ -n "\$t" ] && [ "\$t" != 0 ] && [ "\$t" != "\$1" ]; }
# plug_and_run NAME [BPS]: plugs stick NAME; waits until systemd, asked by udev, has started the
# unit for it. Sets BEFORE for finished().
plug_and_run() {
    BEFORE=\$(unit_prop \$UNIT ExecMainStartTimestampMonotonic)
    usb \$1 "plug \$OUT/\$1.img \${2:-}"
    wait_until 30 '[ -b /dev/sda ]'
    wait_until 60 "started_since '\$BEFORE'"
    note "\$1: systemd started \$UNIT (udev's SYSTEMD_WANTS)"
}
# finished RC: waits for the unit's end; its exit status must be RC.
finished() {
    wait_until 120 '[ "\$(unit_prop \$UNIT ActiveState)" != activating ]'
    [ "\$(unit_prop \$UNIT ExecMainStatus)" = "\$1" ] || step_fail "\$UNIT exit status \$(unit_prop \$UNIT ExecMainStatus), expected \$1"
}
# pull NAME: pulls the stick; waits until the kernel has let it go.
pull() { usb \$1 pull; wait_until 30 '[ ! -b /dev/sda ]'; }

step "good stick: udev asks for the unit, systemd runs it"
# What systemd is told at the add event (the database keeps only the last event's properties).
udevadm monitor --udev --property --subsystem-match=block > "\$OUT/udev-good.txt" 2>&1 &
MONITOR=\$!
sleep 0.5
plug_and_run good
udevadm settle --timeout=30
kill \$MONITOR
awk '/^UDEV .*add/ { add = 1 } /^\$/ { add = 0 } add' "\$OUT/udev-good.txt" > "\$OUT/udev-good-add.txt"
grep -q "^SYSTEMD_WANTS=.*\$UNIT" "\$OUT/udev-good-add.txt" \
    || step_fail "the rule did not ask for the unit at add: \$(cat "\$OUT/udev-good.txt")"
note "udev add: \$(grep -E '^(ID_BUS|ID_FS_TYPE|ID_FS_USAGE|SYSTEMD_WANTS)=' "\$OUT/udev-good-add.txt" | tr '\n' ' ')"
finished 0
status_is done || step_fail "status: \$(cat \$CONTENT/status.json)"
# FAT: read by mtools in a sandbox, not mounted: the default ([usb] fat_without_mount, docs/usb.md;
# the kernel mount is the last step's).
grep -q 'FAT, read with mtools' /run/usb-unit.log \
    || step_fail "the FAT stick was not read by mtools: \$(tail -5 /run/usb-unit.log)"
grep -q 'mounted read-only' /run/usb-unit.log && step_fail "the FAT stick was mounted although fat_without_mount is on by default"
note "read by mtools: \$(grep -m1 'FAT, read with mtools' /run/usb-unit.log)"
wait_until 30 "grep -q '\"usb_import\".*\"state\":\"done\"' \"\$OUT/events.jsonl\""
wait_until 20 'card_is "\"New content from the USB stick\""'
kiosk-vm-shot usb-done > /dev/null
GOOD=\$(current)
note "current -> \$GOOD; \$(cut -c1-160 "\$OUT/state.json")"
grep -q kiosk-carousel-usb /proc/mounts && step_fail "the stick is still mounted"

step "good stick: the card ends, the stick's items show"
wait_until 30 'card_is null'
grep -q '"item_count":3' "\$OUT/state.json" || step_fail "not the stick's 3 items: \$(cat "\$OUT/state.json")"
kiosk-vm-shot usb-items > /dev/null
pull good

step "bad stick"
plug_and_run bad
finished 1
status_is failed || step_fail "status: \$(cat \$CONTENT/status.json)"
cp \$CONTENT/status.json "\$OUT/status-bad.json"
wait_until 20 'card_is "\"This USB stick was not used\""'
kiosk-vm-shot usb-bad > /dev/null
[ "\$(current)" = "\$GOOD" ] || step_fail "current changed to \$(current)"
pull bad

step "big stick: pulled while it is read"
plug_and_run big 1000000
# Through mtools the stick is read off whole first (status "reading", the bytes so far);
# "copying" comes after, from the read copy, when the stick is no longer needed.
wait_until 60 'status_is reading && grep -qE "\"bytes\":[0-9]{7,}" \$CONTENT/status.json'
note "reading: \$(cat \$CONTENT/status.json)"
pull big
finished 1
status_is failed || step_fail "status: \$(cat \$CONTENT/status.json)"
cp \$CONTENT/status.json "\$OUT/status-big.json"
[ "\$(current)" = "\$GOOD" ] || step_fail "current changed to \$(current)"
ls -a \$CONTENT > "\$OUT/content-after.txt"
grep -qE '^\.(incoming|stick)-' "\$OUT/content-after.txt" && step_fail "a half copy is left: \$(cat "\$OUT/content-after.txt")"
grep -q kiosk-carousel-usb /proc/mounts && step_fail "the pulled stick is still mounted"
inside grep kiosk-carousel-usb /proc/mounts && step_fail "the pulled stick is still mounted in systemd's namespace"
wait_until 20 'card_is "\"This USB stick was not used\""'
state; grep -q '"item_count":3' "\$OUT/state.json" || step_fail "the kiosk lost the stick's items: \$(cat "\$OUT/state.json")"

step "good stick again, [usb] fat_without_mount = false: mounted read-only by the kernel"
sed -i 's/^import = true\$/import = true\nfat_without_mount = false/' /etc/kiosk-carousel/config.toml
grep -q '^fat_without_mount = false' /etc/kiosk-carousel/config.toml || step_fail "could not set fat_without_mount"
: > /run/usb-unit.log
plug_and_run good2
finished 0
status_is done || step_fail "status: \$(cat \$CONTENT/status.json)"
grep -q 'mounted read-only' /run/usb-unit.log \
    || step_fail "the FAT stick was not mounted read-only: \$(tail -5 /run/usb-unit.log)"
grep -q 'FAT, read with mtools' /run/usb-unit.log && step_fail "the FAT stick went through mtools although fat_without_mount is false"
note "read through the kernel mount: \$(grep -m1 'mounted read-only' /run/usb-unit.log)"
[ "\$(current)" != "\$GOOD" ] || step_fail "no new generation: current is still \$GOOD"
grep -q kiosk-carousel-usb /proc/mounts && step_fail "the stick is still mounted"
inside grep kiosk-carousel-usb /proc/mounts && step_fail "the stick is still mounted in systemd's namespace"
cp /run/usb-unit.log "\$OUT/usb-unit.err"
stop_kiosk \$RUN
steps_done
GUEST

# The xHCI controller the sticks plug into: kiosk-vm has no option for extra devices, so qemu is
# found through PATH first as a wrapper that adds it.
mkdir -p "$out/qemu"
printf '#!/bin/sh\nexec %s "$@" -device qemu-xhci,id=xhci\n' "$(command -v qemu-system-x86_64)" > "$out/qemu/qemu-system-x86_64"
chmod +x "$out/qemu/qemu-system-x86_64"
python3 "$here/lib/usb-host.py" "$out" 1800 > "$out/usb-host.log" 2>&1 &
host_pid=$!
PATH="$out/qemu:$PATH" run_guest "$out" --out "$out" --display bochs --timeout 300
touch "$out/usb-req/STOP"; wait $host_pid
sed 's/^/    /' "$out/usb-host.log"
# The cards on the screen are what the state said: the confirmation and the problem card differ
# from the carousel of the stick's items and from each other.
for a in "usb-done usb-items" "usb-bad usb-items" "usb-done usb-bad"; do
    set -- $a
    cmp -s "$out/$1.png" "$out/$2.png" && { echo "FAIL: the screen shows the same in $1 and $2"; exit 1; }
done
{ cat <<'PY'; } | check_events "$out"
import json
def status(name):
    return json.load(open('%s/status-%s.json' % (d, name)))
bad = status('bad')
check(any(p.startswith('kiosk-carousel/config.toml:7:9:') and 'not-on-the-stick.jpg' in p for p in bad['problems']),
      'bad stick: the problem names kiosk-carousel/config.toml:7:9 and the file: %s' % bad['problems'])
big = status('big')
check(big['state'] == 'failed' and 'pulled out' in big['message'], 'pulled stick: failed, says it was pulled: %s' % big)
ev = [json.loads(l) for l in open(d + '/events.jsonl') if l.strip()]
usb = [e for e in ev if e['event'] == 'usb_import']
states = [e['state'] for e in usb]
check('done' in states and all(s in ('checking', 'reading', 'copying') for s in states[:states.index('done')]),
      'good stick: usb_import checking/reading/copying, then done: %s' % states)
check(states.count('failed') == 2, 'two usb_import failed (bad, pulled): %s' % states)
check(states.count('done') == 2 and states[-1] == 'done', 'two usb_import done (good through mtools, then mounted): %s' % states)
reloads = [e for e in ev if e['event'] == 'reloaded']
check(len(reloads) == 2 and all(r.get('ok') is True for r in reloads), 'two reloads, one for each good import: %s' % reloads)
PY
