# Sourced by guest scripts that need real systemd (Debian 12's) in the kiosk-vm guest: systemd
# runs as PID 1 of a PID namespace (the guest's own PID 1 is kiosk-vm's init), with no
# generators, logging to kmsg. Only the unit named is started, so units that should not pull in
# the host image's whole boot need `DefaultDependencies=no` (a drop-in can say it).
#
#   start_systemd UNIT     sets $sdpid; returns non-zero if systemd did not come up in 5 s
#                          (x $KIOSK_VM_SLOWDOWN)
#   sc ARGS...             systemctl inside (10 s limit per call, x $KIOSK_VM_SLOWDOWN; KILL 2 s
#                          after the TERM if it is still there)
#   inside CMD...          any command inside systemd's mount and PID namespaces (120 s limit,
#                          x $KIOSK_VM_SLOWDOWN, then TERM and KILL 2 s later: exit status 124
#                          or 137, which the caller's check reports in its step)
#   unit_prop UNIT PROP    one property's value
#   dump_kiosk_unit LINES  the kiosk unit's status, output and systemd's lines, for a failure
#   install_kiosk_unit BIN UNIT CONFIG
#                          the `kiosk` user, the binary where the shipped unit expects it, the
#                          unit with DefaultDependencies=no and CONFIG as the system config;
#                          returns non-zero if any of it failed (drop-ins are the test's own)
#   stop_kiosk_unit        the step "systemctl stop": inactive within 30 s (x the slowdown) and
#                          exit status 0 (needs lib/steps.bash)

start_systemd() {
    mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup
    mkdir -p /run/no-generators
    unshare --pid --fork --mount-proc env container=kiosk-vm SYSTEMD_GENERATOR_PATH=/run/no-generators \
        /lib/systemd/systemd --system \
        --unit="$1" --log-target=kmsg --log-level=notice >/dev/null 2>&1 &
    sdpid=
    local tries
    tries=$(awk -v f="${KIOSK_VM_SLOWDOWN:-1}" 'BEGIN { printf "%d", 50 * (f < 1 ? 1 : f) + 0.5 }')
    for _ in $(seq 1 "$tries"); do
        sdpid=$(pgrep -f "^/lib/systemd/systemd --system" | head -1)
        [ -n "$sdpid" ] && return 0
        sleep 0.1
    done
    return 1
}
_sc_limit=$(awk -v f="${KIOSK_VM_SLOWDOWN:-1}" 'BEGIN { printf "%d", 10 * (f < 1 ? 1 : f) + 0.5 }')
sc() { timeout -k 2 "$_sc_limit" nsenter --target "$sdpid" --mount --pid systemctl "$@"; }
_inside_limit=$(awk -v f="${KIOSK_VM_SLOWDOWN:-1}" 'BEGIN { printf "%d", 120 * (f < 1 ? 1 : f) + 0.5 }')
inside() { timeout -k 2 "$_inside_limit" nsenter --target "$sdpid" --mount --pid "$@"; }
unit_prop() { sc show "$1" -p "$2" --value 2>/dev/null; }
# What a failing test shows of the kiosk unit: its status, its output (the tests send it to
# /run/kiosk-test.log) and systemd's log lines, LINES of each.
dump_kiosk_unit() {
    echo "--- systemctl status"; sc status kiosk-carousel --no-pager 2>&1 | head -"$1"
    echo "--- kiosk output"; tail -"$1" /run/kiosk-test.log 2>/dev/null
    echo "--- systemd (kmsg)"; dmesg | grep -i "systemd\[1\]\|kiosk" | tail -"$1"
}

install_kiosk_unit() {
    local bin=$1 unit=$2 config=$3
    useradd --system --no-create-home --shell /usr/sbin/nologin --user-group -G video,input kiosk || return 1
    mkdir -p /etc/kiosk-carousel /etc/systemd/system/kiosk-carousel.service.d || return 1
    cp "$config" /etc/kiosk-carousel/config.toml || return 1
    # The binary goes where the shipped unit expects it (the guest's root is a writable overlay):
    # a build folder under /tmp would be hidden from the sandboxed service by PrivateTmp.
    install -D -m 0755 "$bin" /usr/bin/kiosk-carousel || return 1
    sed -e 's|^\[Unit\]$|[Unit]\nDefaultDependencies=no|' "$unit" > /etc/systemd/system/kiosk-carousel.service
}

stop_kiosk_unit() {
    step "systemctl stop"
    sc --no-block stop kiosk-carousel || step_fail "systemctl stop failed"
    wait_until 30 '[ "$(unit_prop kiosk-carousel ActiveState)" = inactive ]'
    [ "$(unit_prop kiosk-carousel ExecMainStatus)" = 0 ] || step_fail "exit status $(unit_prop kiosk-carousel ExecMainStatus) after stop"
    echo "stop: inactive, exit status 0"
}
