#!/usr/bin/env bash
# SIGTERM while the carousel runs: display-test closes the DRM backend, which restores the CRTC,
# framebuffer and mode that were there before (the console). Checked two ways: the CRTC state read
# through a second file before start and after close is identical, and the screen after close
# shows the console again (not the carousel). On both virtual GPUs (virtio needs DirtyFB on the
# restored framebuffer to show it).
source "$(dirname "$0")/display/lib.sh"
for display in virtio bochs; do
    say "== $display"
    if vm "$display" 800x480 bash "$here/guest-sigterm.sh" "$BIN" "$CONFIG" "$SCRIPT"; then
        say "ok: display-test exited 0 after SIGTERM"
    else
        fail "$display: display-test exited $? after SIGTERM"
    fi
    check "$display: the signal was handled (signal=15)" grep -q "signal=15" "$OUT/vm.log"
    check "$display: CRTC state after close equals the state before start" grep -q "restore verified" "$OUT/vm.log"
    check "$display: the carousel was on screen" different "$OUT/console-before.png" "$OUT/running.png"
    # The console's cursor blinks, so allow a few pixels.
    check "$display: the restored screen is the console again" same "$OUT/console-before.png" "$OUT/restored.png" --max-mean 1 --max-over4 0.002
    check "$display: after exit the console stays" same "$OUT/console-before.png" "$OUT/after-exit.png" --max-mean 1 --max-over4 0.002
done
finish
