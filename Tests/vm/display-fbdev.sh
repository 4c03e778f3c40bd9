#!/usr/bin/env bash
# fbdev backend on /dev/fb0 (bochs at 1024x768, virtio-gpu at 800x480): frames mid-scroll and at
# rest match simulate; after exit the console's picture is back.
source "$(dirname "$0")/display/lib.sh"
for run in bochs:1024x768 virtio:800x480; do
    display=${run%%:*} size=${run#*:}
    say "== fbdev on $display $size"
    simulate "$size" "1.25=$OUT/ref-mid.png" "3.5=$OUT/ref-rest.png"
    if vm "$display" "$size" bash "$here/guest-fbdev.sh" "$BIN" "$CONFIG" "$SCRIPT"; then say "ok: display-test ran"; else fail "display-test exited $?"; continue; fi
    check "$display: fbdev backend in use" grep -q "fbdev /dev/fb0 ${size} 32 bpp" "$OUT/vm.log"
    check "$display $size: mid-scroll frame matches simulate" same "$OUT/ref-mid.png" "$OUT/mid.png"
    check "$display $size: resting frame matches simulate" same "$OUT/ref-rest.png" "$OUT/rest.png"
    check "$display $size: the two frames differ" different "$OUT/ref-mid.png" "$OUT/rest.png"
    check "$display $size: no frame drawn while idle" test "$(stat idle_frames)" -eq 0
    check "$display $size: the console's picture is back" same "$OUT/console-before.png" "$OUT/console-after.png" --max-mean 1 --max-over4 0.002
done
finish
