#!/usr/bin/env bash
# `kiosk-carousel run` with the DRM backend (virtio-gpu 800x480, bochs 1024x768): the carousel on
# screen (once the card faces have arrived and faded in) equals the `simulate` frame and stays so,
# and SIGTERM gives the console back. Then `[display] rotation = 90` from the config file: the screen
# equals the portrait frame turned clockwise, with the first card where it should be.
source "$(dirname "$0")/display/lib.sh"
for run in virtio:800x480 bochs:1024x768; do
    display=${run%%:*} size=${run#*:}
    say "== run on $display $size"
    "$BIN" simulate --config "$CONFIG" --until 0.1 --size "$size" --shot "0=$OUT/ref.png" >/dev/null
    if vm "$display" "$size" bash "$here/guest-run.sh" "$BIN" "$CONFIG"; then say "ok: run exited 0 after SIGTERM"; else fail "run exited $?"; fi
    check "$display: the screen showed the simulate frame" same "$OUT/ref.png" "$OUT/on-screen.png"
    check "$display: the settled screen did not change any more (nothing redrawn differently)" same "$OUT/on-screen-5.png" "$OUT/on-screen-6.png"
    check "$display: the CRTC was restored" grep -q "restored CRTC" "$OUT/vm.log"
    check "$display: the console is back" same "$OUT/console-before.png" "$OUT/after-exit.png" --max-mean 1 --max-over4 0.002
done
say "== run with rotation = 90 on virtio 800x480"
ROT=$here/carousel-rot90.toml
"$BIN" simulate --config "$ROT" --until 0.1 --size 480x800 --shot "0=$OUT/ref.png" >/dev/null
if vm virtio 800x480 bash "$here/guest-run.sh" "$BIN" "$ROT"; then say "ok: run exited 0 after SIGTERM"; else fail "run exited $?"; fi
check "rotation 90: the screen is the portrait frame turned clockwise" same "$OUT/ref.png" "$OUT/on-screen.png" --rotate 90
# As in display-rotation.sh: scene (130,260) inside the first card -> panel (539,130); the next
# card at scene (400,300) -> panel (499,400); background above and to the left of the first card.
check "rotation 90: the first card is where it should be" python3 "$here/compare.py" "$OUT/on-screen.png" \
    --color-at "539,130=48,58,70" --color-at "499,400=48,58,70" --not-color-at "559,240=48,58,70" --not-color-at "399,110=48,58,70"
finish
