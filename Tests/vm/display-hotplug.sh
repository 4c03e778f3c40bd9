#!/usr/bin/env bash
# Connector unplugged and plugged back while running (virtio-gpu, 800x480): the backend keeps
# running without a screen, then sets the mode again and the scene is laid out anew (two size
# changes); the screen after replug shows the carousel exactly as simulate draws it.
source "$(dirname "$0")/display/lib.sh"
"$BIN" simulate --config "$CONFIG" --until 0.1 --size 800x480 --shot "0=$OUT/ref.png" >/dev/null
if vm virtio 800x480 bash "$here/guest-hotplug.sh" "$BIN" "$CONFIG"; then say "ok: display-test exited 0"; else fail "display-test exited $?"; fi
check "unplug noticed" grep -q "unplugged; running without a screen" "$OUT/vm.log"
check "replug noticed and relaid out" grep -q "now 800x480@75; laying out 800x480" "$OUT/vm.log"
check "two size changes reported to the loop" test "$(stat resizes)" -eq 2
check "nothing of the carousel shown while unplugged" different "$OUT/ref.png" "$OUT/unplugged.png"
check "carousel back after replug" same "$OUT/ref.png" "$OUT/replugged.png"
finish
