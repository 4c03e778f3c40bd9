#!/usr/bin/env bash
# The package's maintainer scripts under a running systemd (252, Debian 12) in the VM: dpkg
# installs out/kiosk-carousel_<version>_amd64.deb while systemd runs as PID 1 of a namespace
# (Tests/vm/lib/systemd-ns.bash), on a real DRM driver (bochs). Checks:
#   1. install: the `kiosk` user exists, the unit is enabled and not started (a first install
#      does not take the screen); `systemctl start` brings it up as that user (READY=1 after
#      the first frame);
#   2. upgrade (the same package with a higher version) while it runs: the kiosk restarts
#      exactly once, the running process is the new binary, the config the builder edited is
#      kept;
#   3. remove: the kiosk stops cleanly (exit status 0), the config stays;
#   4. purge: the config folder and the enablement are gone.
# A test-only drop-in sets DefaultDependencies=no (so systemd starts this one unit, not the
# host image's boot), sends the output to a file and counts starts (ExecStartPre).
#
#   DEB=out/kiosk-carousel_0.1.0_amd64.deb KIOSK_VM=../shared/vm/kiosk-vm Tests/package/lifecycle.sh
# Time limits: each wait is for one systemd state change, on a quiet machine's scale;
# KIOSK_VM_SLOWDOWN (default 1; measured by scripts/run-package-tests.sh) multiplies them all.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
KIOSK_VM=${KIOSK_VM:-$top/../shared/vm/kiosk-vm}
DEB=${DEB:-$(ls -t "$top"/out/kiosk-carousel_*_amd64.deb 2>/dev/null | head -1)}
[ -f "${DEB:-}" ] || { echo "lifecycle: no .deb (make deb first, or set DEB=)"; exit 1; }
slow=${KIOSK_VM_SLOWDOWN:-1}
tmp=$(mktemp -d /tmp/kiosk-lifecycle.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
version=$(dpkg-deb -f "$DEB" Version)
cp "$DEB" "$tmp/install.deb"
dpkg-deb -R "$DEB" "$tmp/up"
sed -i "s/^Version: .*/Version: $version+upgrade1/" "$tmp/up/DEBIAN/control"
dpkg-deb --root-owner-group -Zgzip -z1 -b "$tmp/up" "$tmp/upgrade.deb" >/dev/null
rm -rf "$tmp/up"

cat > "$tmp/guest.sh" <<'GUEST'
set -u
dir=$1; slow=$2
source "$3"
boot=$(date +%s); last=$boot; steps=""
step() {  # NAME: marks the start of a step; a failure names the step and the earlier ones' times
    now=$(date +%s); [ -n "${current:-}" ] && steps="$steps $current=$(( now - last ))s"
    current=$1; last=$now; echo "[$(( now - boot )) s] $1"
}
fail() {
    echo "FAIL in step '$current' ($(( $(date +%s) - last )) s into it; earlier:$steps): $*"
    dump_kiosk_unit 20
    exit 1
}
wait_for() {  # BASE_SECONDS DESCRIPTION COMMAND...: polls once a second, limit BASE x slowdown
    local limit what=$2; limit=$(awk -v b="$1" -v f="$slow" 'BEGIN { printf "%d", b * f + 0.5 }'); shift 2
    for _ in $(seq 1 "$limit"); do "$@" && return 0; sleep 1; done
    fail "$what: not within $limit s"
}
prop() { unit_prop kiosk-carousel "$1"; }
is_state() { [ "$(prop ActiveState)" = "$1" ]; }
active_with_new_pid() { local p; [ "$(prop ActiveState)" = active ] && p=$(prop MainPID) && [ "$p" != "$old" ] && [ "$p" != 0 ]; }
stopped() { local st; st=$(prop ActiveState); [ "$st" = inactive ] || [ "$st" = failed ]; }
starts() { wc -l < /run/kiosk-starts 2>/dev/null || echo 0; }

step "systemd"
cat > /run/kiosk-test.target <<'UNIT'
[Unit]
Description=Test target: systemd up, nothing else
DefaultDependencies=no
UNIT
cp /run/kiosk-test.target /etc/systemd/system/kiosk-test.target
mkdir -p /etc/systemd/system/kiosk-carousel.service.d
printf '%s\n' '[Unit]' 'DefaultDependencies=no' '[Service]' \
    'StandardOutput=append:/run/kiosk-test.log' 'StandardError=append:/run/kiosk-test.log' \
    "ExecStartPre=+/bin/sh -c 'echo start >> /run/kiosk-starts'" \
    > /etc/systemd/system/kiosk-carousel.service.d/test.conf
# The package starts its update timer at install (and the timer its service later): their
# default dependencies would pull in sysinit.target, whose systemd-tmpfiles-setup.service empties
# /tmp (Debian's tmp.conf: D /tmp) — this test's own folder with upgrade.deb in it. On a real
# system that ran once at boot; here systemd starts with nothing, as for the kiosk's unit above.
for u in kiosk-carousel-update.timer kiosk-carousel-update.service kiosk-carousel-update-reboot.path \
         kiosk-carousel-update-reboot.service; do
    mkdir -p "/etc/systemd/system/$u.d"
    printf '%s\n' '[Unit]' 'DefaultDependencies=no' > "/etc/systemd/system/$u.d/test.conf"
done
start_systemd kiosk-test.target || fail "systemd did not start"
wait_for 30 "systemd answering" sc is-system-running

step "install"
# man-db's trigger would re-index every manual page of the host's image (minutes under TCG).
rm -f /var/lib/man-db/auto-update
# This machine's image forbids maintainer scripts to start services (policy-rc.d exits 101, as
# container images do); a Debian system has no such file, and the guest's root is a throw-away
# overlay of the host's.
rm -f /usr/sbin/policy-rc.d
inside dpkg -i "$dir/install.deb" || fail "dpkg -i failed"
id kiosk >/dev/null 2>&1 || fail "no kiosk user after install"
[ "$(sc is-enabled kiosk-carousel 2>/dev/null)" = enabled ] || fail "not enabled after install: $(sc is-enabled kiosk-carousel 2>&1)"
is_state inactive || fail "a first install started the kiosk ($(prop ActiveState))"
echo "  installed: user $(id kiosk); enabled; not started"

step "start"
sc --no-block start kiosk-carousel || fail "systemctl start failed"
wait_for 60 "active (READY=1 after the first frame)" is_state active
old=$(prop MainPID)
grep -q "^Uid:[[:space:]]*$(id -u kiosk)[[:space:]]" "/proc/$old/status" 2>/dev/null \
    || inside grep -q "^Uid:[[:space:]]*$(id -u kiosk)[[:space:]]" "/proc/$old/status" \
    || fail "main process $old is not running as kiosk"
echo "  active, main pid $old as kiosk; starts so far: $(starts)"

step "upgrade"
echo "# edited by the kiosk builder" >> /etc/kiosk-carousel/config.toml
sum=$(md5sum < /etc/kiosk-carousel/config.toml)
inside dpkg -i "$dir/upgrade.deb" || fail "dpkg -i of the upgrade failed"
wait_for 60 "active with a new main pid" active_with_new_pid
new=$(prop MainPID)
[ "$(starts)" = 2 ] || fail "the kiosk started $(starts) times in all, expected 2 (the first start and one restart)"
exe=$(inside readlink "/proc/$new/exe")
[ "$exe" = /usr/bin/kiosk-carousel ] || fail "the running binary is '$exe', not the upgraded /usr/bin/kiosk-carousel"
[ "$(md5sum < /etc/kiosk-carousel/config.toml)" = "$sum" ] || fail "the upgrade changed the edited config"
[ -z "$(ls /etc/kiosk-carousel | grep dpkg)" ] || fail "dpkg left $(ls /etc/kiosk-carousel | grep dpkg)"
echo "  upgraded to $(dpkg-query -W -f='${Version}' kiosk-carousel): restarted once (pid $old -> $new, $(starts) starts in all), running $exe, edited config kept"

step "remove"
inside dpkg -r kiosk-carousel || fail "dpkg -r failed"
wait_for 30 "stopped after remove" stopped
st=$(prop ActiveState); code=$(prop ExecMainStatus)
[ "$st" = inactive ] && [ "$code" = 0 ] || fail "after remove: $st, exit status $code (expected inactive, 0)"
[ -f /etc/kiosk-carousel/config.toml ] || fail "remove deleted the config"
[ ! -e /usr/bin/kiosk-carousel ] || fail "remove left the binary"
echo "  removed: stopped with exit status 0; config kept"

step "purge"
inside dpkg -P kiosk-carousel || fail "dpkg -P failed"
[ ! -e /etc/kiosk-carousel ] || fail "purge left /etc/kiosk-carousel: $(ls -A /etc/kiosk-carousel)"
[ ! -e /etc/systemd/system/multi-user.target.wants/kiosk-carousel.service ] || fail "purge left the enablement symlink"
step "done"
echo "PASS (steps:$steps)"
GUEST
# KIOSK_VM is Tests/vm/lib/kiosk-vm-scaled when run by scripts/run-package-tests.sh: the
# --timeout below is what a quiet machine needs, scaled there.
"$KIOSK_VM" --display bochs --size 1024x600 --timeout 400 -- \
    bash "$tmp/guest.sh" "$tmp" "$slow" "$top/Tests/vm/lib/systemd-ns.bash"
