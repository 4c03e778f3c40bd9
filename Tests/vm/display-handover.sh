#!/usr/bin/env bash
# release()/reacquire() on a real kernel (virtio-gpu, 800x480): the carousel gives the screen to
# another full-screen DRM program (a second display-test showing the carousel upside down), which
# becomes DRM master and shows its picture; when it exits the carousel takes the screen back and
# shows its frame again.
source "$(dirname "$0")/display/lib.sh"
"$BIN" simulate --config "$CONFIG" --until 0.1 --size 800x480 --shot "0=$OUT/ref.png" >/dev/null
other="$BIN display-test --config $CONFIG --rotation 180 --seconds 1.5 --shot 0.5=other"
if vm virtio 800x480 "$BIN" display-test --config "$CONFIG" --seconds 3 --shot 0.5=before \
        --handover "1=$other" --shot 2=after; then
    say "ok: display-test ran"
else
    fail "display-test exited $?"
fi
check "the display was released" grep -q "display released" "$OUT/vm.log"
check "the other program drew while it had the screen" same "$OUT/ref.png" "$OUT/other.png" --rotate 180
check "the carousel was there before" same "$OUT/ref.png" "$OUT/before.png"
check "the display was taken back" grep -q "display taken back (the program exited with 0); wants a frame: true" "$OUT/vm.log"
check "a frame was drawn for the display's sake (nothing moved)" grep -q "frame presented after the display changed (800x480)" "$OUT/vm.log"
check "the carousel is back after the handover" same "$OUT/ref.png" "$OUT/after.png"
finish
