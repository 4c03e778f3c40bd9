# Host side of the VM tests that run the shipped unit under real systemd in the guest
# (kiosk-systemd.sh, kiosk-watchdog-screen.sh), sourced by them. Sets `here` (Tests/vm) and
# `tmp` (a fresh folder, removed on exit; the test writes its config.toml there) and checks
# that KIOSK_VM and BIN are set.
#
#   systemd_guest_script   writes $tmp/guest.sh: a preamble, then the commands read from stdin.
#                          In the guest: `bin`, `unit` (the shipped unit file), `dir` ($tmp),
#                          `ctl` (control-client.py), lib/systemd-ns.bash and lib/steps.bash
#                          sourced, `install_kiosk_unit "$bin" "$unit" "$dir/config.toml"` done
#                          as the step "setup" (a failure dumps the unit: STEP_ON_FAIL).
#   control_config         writes $tmp/config.toml: the control socket at
#                          /run/kiosk-carousel/control.sock (in the unit's runtime folder) and
#                          three items, one, two, three.
#   run_systemd_guest S    boots kiosk-vm with --timeout S (a backstop: the sum of the steps'
#                          limits plus the boot) running it; returns its exit status.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${KIOSK_VM:?}" "${BIN:?}"
tmp=$(mktemp -d "/tmp/$(basename "$0" .sh).XXXXXX")
trap 'rm -rf "$tmp"' EXIT

systemd_guest_script() {
    {
        cat <<'PREAMBLE'
set -u
bin=$1; unit=$2; dir=$3; ctl=$4
source "$5"; source "$6"
STEP_ON_FAIL='dump_kiosk_unit 30'
step setup
install_kiosk_unit "$bin" "$unit" "$dir/config.toml" || step_fail "installing the unit"
PREAMBLE
        cat
    } > "$tmp/guest.sh"
}

control_config() {
    {
        printf '[control]\nsocket = "/run/kiosk-carousel/control.sock"\n'
        for id in one two three; do printf '\n[[item]]\nid = "%s"\ntitle = "Item %s"\n' "$id" "$id"; done
    } > "$tmp/config.toml"
}

run_systemd_guest() {
    "$KIOSK_VM" --timeout "$1" -- bash "$tmp/guest.sh" "$BIN" "$here/../../systemd/kiosk-carousel.service" "$tmp" \
        "$here/control-client.py" "$here/lib/systemd-ns.bash" "$here/lib/steps.bash"
}
