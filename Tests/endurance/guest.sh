# The guest side of the endurance run (scripts/endurance.sh; docs/reliability.md, "Endurance"):
# in kiosk-vm, the shipped kiosk unit and USB import unit under real systemd
# (Tests/vm/lib/systemd-ns.bash, as Tests/vm/kiosk-systemd.sh and usb-stick.sh run them), then
# the sampler (sample.py) and the synthetic use (use.py) inside systemd's namespaces for SECONDS,
# then `systemctl stop`: a clean exit.
#   bash guest.sh OUT TOP BIN SECONDS SAMPLE_SECONDS SEED
# OUT (shared read-write with the host) holds what the host made (kiosk.toml, media/, clip.mp4,
# fill-screen, stick-a.img, stick-b.img) and receives everything the run writes: samples.jsonl
# and .csv, use.jsonl, kiosk.log (the unit's output), usb-unit.log, systemd.log.
set -u
OUT=$1 TOP=$2 BIN=$3 SECONDS_TO_RUN=$4 SAMPLE=$5 SEED=$6
source "$TOP/Tests/vm/lib/steps.bash"
source "$TOP/Tests/vm/lib/systemd-ns.bash"
STEP_ON_FAIL='dump_kiosk_unit 40; tail -n 20 "$OUT/use.err" "$OUT/sample.err" 2>/dev/null'

step "setup"
modprobe -a xhci_pci usb_storage sd_mod vfat nls_cp437 nls_iso8859_1 nls_utf8 || step_fail "modprobe"
mkdir -p /etc/udev/rules.d
cp "$TOP/systemd/udev/72-kiosk-carousel-usb.rules" /etc/udev/rules.d/
udevadm control --reload
# What the package puts in place: the content's files where the sandboxed unit can read them
# (its /tmp and /var/tmp are private), the foreground program, the USB content folder
# (systemd/kiosk-carousel.tmpfiles), the USB unit as shipped.
mkdir -p /usr/share/kiosk-endurance /var/lib/kiosk-carousel/usb
cp -r "$OUT/media" "$OUT/clip.mp4" /usr/share/kiosk-endurance/
install -m 0755 "$OUT/fill-screen" /usr/local/bin/endurance-fill-screen
install_kiosk_unit "$BIN" "$TOP/systemd/kiosk-carousel.service" "$OUT/kiosk.toml" || step_fail "installing the kiosk unit"
# The package's users and groups, from its own sysusers file: besides the kiosk user, the group
# the USB import's mtools sandbox reads FAT sticks in (without it every import ended at "no group
# kiosk-carousel-stick": found by a 4-hour run, 0 of 7 imports).
systemd-sysusers "$TOP/debian/kiosk-carousel.sysusers" || step_fail "systemd-sysusers"
getent group kiosk-carousel-stick > /dev/null || step_fail "no group kiosk-carousel-stick after systemd-sysusers"
# The unit's output goes to the host (OUT) as it comes: it is there if the run is stopped. The
# shipped command line plus --events into the unit's RuntimeDirectory (the sampler copies the
# new lines to OUT/events.jsonl at every sample: the sandbox cannot write OUT).
printf '[Service]\nStandardOutput=append:%s/kiosk.log\nStandardError=append:%s/kiosk.log\nEnvironment=LIBDISPATCH_LOG=stderr\n' \
    "$OUT" "$OUT" > /etc/systemd/system/kiosk-carousel.service.d/endurance-output.conf
# The unit's own limits are time limits like the tests' own: scaled by KIOSK_VM_SLOWDOWN. Under
# TCG on a loaded host a debug build runs 20-50 times slower than natively: its start outlasted
# the shipped TimeoutStartSec=60, and the adoption of a reloaded file (~0.3 s on the loop
# natively in a debug build with this file's 480 windows) the shipped WatchdogSec=10. A restart
# still fails the run.
printf '[Service]\nWatchdogSec=%s\nTimeoutStartSec=%s\n' "$(scaled 10)" "$(scaled 60)" \
    > /etc/systemd/system/kiosk-carousel.service.d/endurance-limits.conf
exec_start=$(sed -n 's/^ExecStart=//p' "$TOP/systemd/kiosk-carousel.service")
printf '[Service]\nExecStart=\nExecStart=%s --events /run/kiosk-carousel/events.jsonl\n' "$exec_start" \
    > /etc/systemd/system/kiosk-carousel.service.d/endurance-events.conf
mkdir -p /etc/systemd/system/kiosk-carousel-usb@.service.d
sed -e 's|^\[Unit\]$|[Unit]\nDefaultDependencies=no|' "$TOP/systemd/kiosk-carousel-usb@.service" \
    > /etc/systemd/system/kiosk-carousel-usb@.service
printf '[Service]\nStandardOutput=append:%s/usb-unit.log\nStandardError=append:%s/usb-unit.log\n' "$OUT" "$OUT" \
    > /etc/systemd/system/kiosk-carousel-usb@.service.d/endurance-output.conf

step "the kiosk unit active"
start_systemd kiosk-carousel.service || step_fail "systemd did not start"
wait_until 120 '[ "$(unit_prop kiosk-carousel ActiveState)" = active ]'
echo "active: MainPID=$(unit_prop kiosk-carousel MainPID) StatusText='$(unit_prop kiosk-carousel StatusText)'"
wait_until 60 'inside test -s /run/kiosk-carousel/metrics.prom'

step "use and samples for $SECONDS_TO_RUN s"
# Raw nsenter (not `inside`, which has a 120 s limit): these run for the whole duration.
nsenter --target "$sdpid" --mount --pid /usr/bin/python3 "$TOP/Tests/endurance/sample.py" "$OUT" "$TOP" "$SAMPLE" \
    > "$OUT/sample.err" 2>&1 &
sampler=$!
nsenter --target "$sdpid" --mount --pid /usr/bin/python3 "$TOP/Tests/endurance/use.py" "$OUT" "$TOP" "$SECONDS_TO_RUN" "$SEED" \
    > "$OUT/use.err" 2>&1 &
user=$!
t0=$SECONDS
next_report=$((t0 + 600))
while kill -0 "$user" 2>/dev/null; do
    kill -0 "$sampler" 2>/dev/null || step_fail "the sampler ended early: $(tail -n 5 "$OUT/sample.err")"
    if [ "$SECONDS" -ge "$next_report" ]; then
        echo "$((SECONDS - t0)) s: $(tail -n 1 "$OUT/samples.csv")"
        next_report=$((next_report + 600))
    fi
    sleep 5
done
wait "$user" || step_fail "the use generator failed: $(tail -n 5 "$OUT/use.err")"
touch "$OUT/sampler.stop"
wait_until 120 '! kill -0 "$sampler" 2>/dev/null'
dmesg | grep -E "systemd\[1\]|kiosk-carousel" > "$OUT/systemd.log"
state=$(sc show kiosk-carousel -p ActiveState -p NRestarts -p MainPID 2>/dev/null | tr '\n' ' ')
echo "after the run: $state"

stop_kiosk_unit
steps_done
