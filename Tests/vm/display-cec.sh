#!/usr/bin/env bash
# display-cec: `[display] power` and `cec_on_start` over the kernel's HDMI-CEC API, on a real
# kernel: the guest loads `vivid` with one HDMI input and one HDMI output, each with a CEC
# adapter on the same emulated bus; Tests/vm/cec-tv.c is the TV on the input's adapter
# (logical address 0, physical address 0.0.0.0), logging every message it receives, and the
# kiosk picks the output's adapter itself (physical address 1.0.0.0). One kiosk run, reloaded:
#   1. power = "both", cec_on_start = true: at start the TV gets <Image View On> and <Active
#      Source> 1.0.0.0; `state` follows its <Report Power Status> (standby_to_on, then on);
#   2. blank_after = 1: the blank is DPMS (the connector reads Off) and <Standby>; state: standby;
#   3. a reload wakes it: <Image View On> and <Active Source> again; state: on;
#   4. power = "dpms": a blank and a wake send nothing over CEC (state: no tv);
#   5. the TV leaves the bus (cec-tv gives its address up), power = "cec": one log line that the
#      TV does not answer, the blank is a black frame, the kiosk keeps drawing (frames counted
#      by the metrics go on after the wake) and counts the failed messages.
# The waits read the `[metrics]` file; the control socket's `state` is read once (at start).
# Needs: $KIOSK_VM, $BIN (debug kiosk-carousel). One VM.
set -u
source "$(dirname "$0")/lib/input-host.sh"
here=$(cd "$(dirname "$0")" && pwd)
start=$SECONDS

work_folder display-cec
cc -O2 -Wall -o "$out/cec-tv" "$here/cec-tv.c" || exit 1
cc -O2 -Wall -o "$out/dpms-state" "$here/dpms-state.c" $(pkg-config --cflags --libs libdrm) || exit 1

guest_script <<'GUEST'
source "$TOP/Tests/vm/lib/dpms-guest.sh"
SOCK=/run/kiosk-cec.sock
PROM=/run/kiosk-cec.prom
# config POWER BLANK_AFTER [CEC_ON_START]: the kiosk's file, replaced whole (the kiosk reloads it).
config() {
    cat > "$OUT/kiosk.toml.new" <<TOML
[display]
backend = "drm"
power = "$1"
cec_on_start = ${3:-true}
[idle]
blank_after = $2
# No "Do you need more time?" card before the one-second blanks.
warn_before = 0
[control]
socket = "$SOCK"
[metrics]
file = "$PROM"
interval = 1
[[item]]
id = "one"
title = "One"
[[item]]
id = "two"
title = "Two"
TOML
    mv "$OUT/kiosk.toml.new" "$OUT/kiosk.toml"
}
# The waits read the metrics file (written within a second of a change): a Python client per
# poll costs seconds on a loaded machine. The control socket's state is read once.
# metric NAME: its value in the metrics file (empty when absent).
metric() { awk -v n="kiosk_carousel_$1" '$1 == n { print $2 }' "$PROM" 2>/dev/null; }
# wait_metric TEST SECONDS: until `TEST` (a shell test on the file) holds.
wait_metric() {
    local limit deadline
    limit=$(scaled "$2"); deadline=$((SECONDS + limit))
    while ((SECONDS < deadline)); do eval "$1" && return 0; sleep 0.2; done
    step_fail_message "the metrics file never satisfied '$1' within $limit s"
    cat "$PROM" >&2
    return 1
}
tv_is() { grep -q "^kiosk_carousel_tv_power_info{state=\"$1\"} 1" "$PROM" 2>/dev/null; }
# snapshot NAME: the metrics file now, for the host's checks.
snapshot() { cp "$PROM" "$OUT/metrics-$1.prom"; }
# tv_lines NAME: how many messages the TV received so far, into $OUT/lines-NAME.
tv_lines() { grep -c '>' "$OUT/tv.log" > "$OUT/lines-$1"; }

step "vivid and the TV"
modprobe vivid n_devs=1 num_inputs=1 input_types=0x3 num_outputs=1 output_types=0x1 || exit 1
# The name the unit's DeviceAllow=char-cec refers to.
grep -w cec /proc/devices > "$OUT/proc-devices"
stat -c '%G %a' /dev/cec1 > "$OUT/cec-mode"
"$OUT/cec-tv" "$OUT/tv.log" 2> "$OUT/cec-tv.err" &
TV=$!
wait_for "$OUT/tv.log.ready" ready 20 || exit 1

step "start: power both, cec_on_start"
config both 600
"$BIN" run --config "$OUT/kiosk.toml" --events "$OUT/events.jsonl" > "$OUT/run.err" 2>&1 &
RUN=$!
wait_for "$OUT/run.err" "first frame on screen" 60 || { kiosk_state $RUN; exit 1; }
wait_for "$OUT/tv.log" " 82 10 00" 20 || exit 1
wait_metric "tv_is on" 20 || exit 1
/usr/bin/python3 "$TOP/Tests/vm/control-client.py" "$SOCK" '{"cmd":"state"}' > "$OUT/state-start.json" || exit 1
tv_lines start

step "blank: DPMS and <Standby>"
config both 1
wait_event screen_blanked 1 30 || exit 1
wait_for "$OUT/tv.log" " 36$" 20 || exit 1
wait_metric "tv_is standby" 20 || exit 1
dpms blanked
tv_lines blank

step "wake: <Image View On>, <Active Source>"
config both 600
wait_event screen_woke 1 30 || exit 1
wait_metric "tv_is on" 20 || exit 1
dpms woken
tv_lines wake

step "power dpms: nothing over CEC"
config dpms 1 false
wait_event screen_blanked 2 30 || exit 1
sleep 0.5
config dpms 600 false
wait_event screen_woke 2 30 || exit 1
wait_metric '! grep -q tv_power "$PROM"' 20 || exit 1
sleep 0.5
snapshot dpms
tv_lines dpms

step "no TV: power cec"
kill -TERM $TV; wait $TV
echo $? > "$OUT/cec-tv.rc"
config cec 1
wait_event screen_blanked 3 30 || exit 1
wait_for "$OUT/run.err" "the TV did not answer" 20 || exit 1
wait_metric '[ "$(metric cec_messages_failed_total)" -ge 2 ] 2>/dev/null' 20 || exit 1
snapshot blanked-no-tv
frames=$(metric frames_presented_total)
config cec 600
wait_event screen_woke 3 30 || exit 1
wait_metric '[ "$(metric frames_presented_total)" -gt "$frames" ]' 20 || exit 1
snapshot woken-no-tv
kill -0 $RUN || { echo "guest: the kiosk is gone" >&2; exit 1; }
stop_kiosk $RUN
steps_done
GUEST
run_guest "$out" --display bochs --timeout 240
sed 's/^/    tv: /' "$out/tv.log"
TOP=$top check_events "$out" <<'PY'
import json, os
top = os.environ['TOP']
log = open(d + '/run.err').read()
tv = [l.split() for l in open(d + '/tv.log') if '>' in l]
def n(name): return int(open('%s/lines-%s' % (d, name)).read())
def metrics(name):
    out = {}
    for l in open('%s/metrics-%s.prom' % (d, name)):
        if not l.startswith('#') and l.strip():
            k, v = l.rsplit(' ', 1)
            out[k] = float(v)
    return out
def seen(lines, head, *payload):
    return any(l[1] == head and l[2:] == list(payload) for l in lines)
start, blank, wake, dpms_end = n('start'), n('blank'), n('wake'), n('dpms')
first, blanking, waking, dpms_part = tv[:start], tv[start:blank], tv[blank:wake], tv[wake:dpms_end]
check(seen(first, '4>0', '04'), 'cec_on_start: the TV got <Image View On> from Playback 1 (4): %s' % first)
check(seen(first, '4>f', '82', '10', '00'), 'cec_on_start: <Active Source> 1.0.0.0 broadcast: %s' % first)
check(seen(first, '4>0', '8f'), 'the kiosk asked the TV for its power status: %s' % first)
check('cec: the TV reports power standby_to_on' in log and 'cec: the TV reports power on' in log,
      'the kiosk followed the TV from standby_to_on to on (log)')
s = json.loads(open(d + '/state-start.json').read())
check(s['tv_power'] == 'on' and s['tv_power_time'] and s['cec_sent'] >= 3 and s['cec_failed'] == 0,
      'the state reply at start: TV on, its time, messages sent: %s' % {k: s.get(k) for k in ('tv_power', 'tv_power_time', 'cec_sent', 'cec_failed')})
check(seen(blanking, '4>0', '36'), 'the blank sent <Standby>: %s' % blanking)
check('screen blanked (dpms)' in log, 'power = "both": the blank also used DPMS (log)')
check('dpms=Off' in open(d + '/dpms-blanked.txt').read(), 'power = "both": DPMS Off when blanked: %s' % open(d + '/dpms-blanked.txt').read().strip())
check(seen(waking, '4>0', '04') and seen(waking, '4>f', '82', '10', '00'), 'the wake sent <Image View On> and <Active Source>: %s' % waking)
check('dpms=On' in open(d + '/dpms-woken.txt').read(), 'DPMS On after the wake')
check(dpms_part == [], 'power = "dpms": nothing sent over CEC while blanking and waking: %s' % dpms_part)
check(not any('tv_power' in k for k in metrics('dpms')), 'power = "dpms": no TV metrics')
check(open(d + '/cec-tv.rc').read().strip() == '0', 'the TV left the bus')
check(log.count('the TV did not answer') == 1, 'no TV: one log line (%d)' % log.count('the TV did not answer'))
check('screen blanked (cec; black frame)' in log, 'power = "cec": the blank is a black frame plus <Standby> (log)')
b, w = metrics('blanked-no-tv'), metrics('woken-no-tv')
check(w['kiosk_carousel_cec_messages_failed_total'] >= 3, 'no TV: the failed messages are counted: %s' % w['kiosk_carousel_cec_messages_failed_total'])
check(w['kiosk_carousel_frames_presented_total'] > b['kiosk_carousel_frames_presented_total'],
      'no TV: the kiosk draws after the wake (frames %d -> %d)' % (b['kiosk_carousel_frames_presented_total'], w['kiosk_carousel_frames_presented_total']))
check(open(d + '/run.rc').read().strip() == '0', 'SIGTERM: exit 0')
unit = open(top + '/systemd/kiosk-carousel.service').read()
majors = open(d + '/proc-devices').read().split()
check('DeviceAllow=char-cec rw' in unit and majors[1:2] == ['cec'],
      'the unit allows the device class the kernel names for /dev/cecN: %s' % majors)
check(open(d + '/cec-mode').read().split() == ['video', '660'] and 'video' in unit.split('SupplementaryGroups=')[1].split('\n')[0],
      'the kiosk user reaches /dev/cecN through the video group: %s' % open(d + '/cec-mode').read().strip())
PY
rc=$?
echo "display-cec: $((SECONDS - start)) s"
[ $rc = 0 ] && rm -rf "$out"
exit $rc
