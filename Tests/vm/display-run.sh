#!/usr/bin/env bash
# `kiosk-carousel run` with the DRM backend (virtio-gpu 800x480, bochs 1024x768): the carousel on
# screen equals the `simulate` frame, exactly one frame is presented while it sits still, and
# SIGTERM gives the console back.
source "$(dirname "$0")/display/lib.sh"
for run in virtio:800x480 bochs:1024x768; do
    display=${run%%:*} size=${run#*:}
    say "== run on $display $size"
    "$BIN" simulate --config "$CONFIG" --until 0.1 --size "$size" --shot "0=$OUT/ref.png" >/dev/null
    if vm "$display" "$size" bash "$here/guest-run.sh" "$BIN" "$CONFIG"; then say "ok: run exited 0 after SIGTERM"; else fail "run exited $?"; fi
    check "$display: the screen showed the simulate frame" same "$OUT/ref.png" "$OUT/on-screen.png"
    check "$display: one frame presented in all (none while idle)" grep -q "stopping after .* s: 1 frames presented" "$OUT/vm.log"
    check "$display: the CRTC was restored" grep -q "restored CRTC" "$OUT/vm.log"
    check "$display: the console is back" same "$OUT/console-before.png" "$OUT/after-exit.png" --max-mean 1 --max-over4 0.002
done
finish
