#!/usr/bin/env bash
# fault-display: the display connector unplugged and plugged back under `kiosk-carousel run` on a
# real kernel (kiosk-vm; virtio-gpu 800x480 and bochs 640x480; FAULT_DISPLAYS="virtio:WxH …" to choose). The guest forces the connector
# off and on through sysfs (`/sys/class/drm/card0-*/status` + a udev change event, the path a real
# cable takes in the kernel) while the carousel scrolls (control socket), then again while it is
# still (FAULT_HOTPLUG_CYCLES in all, default 2), then swipes on a uinput touchscreen
# (Tests/vm/display/guest-run-hotplug.sh). The kiosk must stay up, log one line per unplug and per
# replug, show the carousel exactly as `simulate` draws it after the replugs, take touch input
# afterwards, and exit 0 on SIGTERM. `make test` runs virtio only (under TCG each display costs
# ~1.5 min); `make reliability` both, 10 cycles.
source "$(dirname "$0")/display/lib.sh"
cfg=$OUT/hotplug.toml
{ cat "$CONFIG"; printf '\n[control]\nsocket = "/tmp/kiosk.sock"\n'; } >"$cfg"
cycles=${FAULT_HOTPLUG_CYCLES:-2}
# Under TCG on a loaded machine one run can pass the usual 110 s.
export VM_TIMEOUT=${VM_TIMEOUT:-240}
for run in ${FAULT_DISPLAYS:-virtio:800x480}; do
    display=${run%%:*} size=${run#*:}
    say "== unplug/replug on $display $size"
    rm -f "$OUT"/{alive,run.rc,state-*.json,run.out,events.jsonl,play.out}
    "$BIN" simulate --config "$cfg" --until 0.1 --size "$size" --shot "0=$OUT/ref.png" >/dev/null
    if vm "$display" "$size" bash "$here/guest-run-hotplug.sh" "$BIN" "$cfg" "$top" "$cycles"; then say "ok: the guest script finished"; else fail "guest script exited $?"; fi
    [ -f "$OUT/run.out" ] && sed 's/^/    kiosk: /' "$OUT/run.out"
    check "$display: the kiosk stayed up through $cycles unplugs" test -f "$OUT/alive"
    check "$display: exit status 0 after SIGTERM" grep -qx 0 "$OUT/run.rc"
    check "$display: one log line per unplug ($cycles)" test "$(grep -c 'unplugged' "$OUT/run.out")" -eq "$cycles"
    check "$display: one log line per replug ($cycles)" test "$(grep -c "now $size@.*; laying out $size" "$OUT/run.out")" -eq "$cycles"
    check "$display: no other line about the display size" bash -c "! grep -E 'display is now|0x0' '$OUT/run.out'"
    check "$display: nothing else logged at warning or above" bash -c "! grep -E '^<[0-4]>' '$OUT/run.out'"
    check "$display: the control socket answered while unplugged (0x0)" grep -q '"width":0,"height":0' "$OUT/state-unplugged.json"
    check "$display: the carousel showed before the fault" same "$OUT/ref.png" "$OUT/before.png"
    # bochs-display shows its VRAM whatever the CRTC does: its screendump cannot show the blank.
    [ "$display" = virtio ] && check "$display: nothing of the carousel while unplugged" different "$OUT/ref.png" "$OUT/unplugged-1.png"
    check "$display: the carousel is back after replug 1 (equal to simulate)" same "$OUT/ref.png" "$OUT/replugged-1.png"
    check "$display: the carousel is back after replug $cycles (equal to simulate)" same "$OUT/ref.png" "$OUT/replugged-last.png"
    check "$display: on item 0 before the swipe" grep -q '"index":0,' "$OUT/state-before-swipe.json"
    check "$display: a swipe after the replugs turned the carousel (touch mapped to the new mode)" grep -qE '"index":[1-9]' "$OUT/state-end.json"
    check "$display: the swipe's drag_began and drag_ended were recorded" bash -c "grep -q drag_began '$OUT/events.jsonl' && [ \$(grep -c drag_began '$OUT/events.jsonl') -eq \$(grep -c drag_ended '$OUT/events.jsonl') ]"
done
finish
