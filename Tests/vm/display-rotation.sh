#!/usr/bin/env bash
# Software rotation on a real DRM device (virtio-gpu, 800x480 panel): with rotation 90 the scene
# is laid out at 480x800 and must appear turned a quarter clockwise: the screenshot equals the
# 480x800 simulate frame rotated 90° clockwise, and does not equal it rotated 270°. Then the
# same for 270. The first card's place is printed (BBOX) and checked against the expected box.
source "$(dirname "$0")/display/lib.sh"
"$BIN" simulate --config "$CONFIG" --until 0.1 --size 480x800 --shot "0=$OUT/ref-portrait.png" >/dev/null
guest="for r in 90 270; do $BIN display-test --config $CONFIG --rotation \$r --seconds 2 --shot 0.5=rot\$r || exit \$?; done"
if vm virtio 800x480 bash -c "$guest"; then say "ok: display-test ran with rotation 90 and 270"; else fail "display-test exited $?"; fi
check "rotation 90: screen = portrait frame turned 90° clockwise" same "$OUT/ref-portrait.png" "$OUT/rot90.png" --rotate 90
check "rotation 90: screen != portrait frame turned 270° (the check can fail)" \
    python3 "$here/compare.py" "$OUT/ref-portrait.png" "$OUT/rot90.png" --rotate 270 --expect-different
check "rotation 270: screen = portrait frame turned 270° clockwise" same "$OUT/ref-portrait.png" "$OUT/rot270.png" --rotate 270
# Where the cards are on the panel. In the portrait scene (480x800) the first card is centred
# (x 120..359, y 250..549) with the next one to its right and nothing to its left or above it;
# turned 90° clockwise a scene point (x, y) is panel pixel (799 - y, x).
card=48,58,70
check "rotation 90: the first card is where it should be (scene 130,260 -> panel 539,130), the next one below it (scene 400,300 -> 499,400), background above and to the left" \
    python3 "$here/compare.py" "$OUT/rot90.png" --color-at "539,130=$card" --color-at "499,400=$card" \
        --not-color-at "559,240=$card" --not-color-at "399,110=$card"
finish
