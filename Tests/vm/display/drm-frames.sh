# Sourced by display-drm-bochs.sh and display-drm-virtio.sh: the carousel through DRM page flips
# at two panel sizes; screenshots mid-scroll and at rest must match `simulate` frames of the same
# virtual time; nothing may be drawn while idle; the saved CRTC is restored on exit.
drm_frames() {
    local display=$1 size
    for size in 1024x768 800x480; do
        say "== $display $size"
        simulate "$size" "1.25=$OUT/ref-mid.png" "3.5=$OUT/ref-rest.png"
        if vm "$display" "$size" "$BIN" display-test --config "$CONFIG" --input "$SCRIPT" --seconds 4.5 \
                --shot 1.25=mid --shot 3.5=rest --verify-restore; then
            say "ok: display-test ran"
        else
            fail "display-test exited $? on $display $size"; continue
        fi
        check "$display $size: mid-scroll frame matches simulate" same "$OUT/ref-mid.png" "$OUT/mid.png"
        check "$display $size: resting frame matches simulate" same "$OUT/ref-rest.png" "$OUT/rest.png"
        check "$display $size: the two frames differ (the comparison can fail)" different "$OUT/ref-mid.png" "$OUT/rest.png"
        check "$display $size: page flips happened" test "$(stat flips)" -gt 0
        check "$display $size: no frame drawn while idle" test "$(stat idle_frames)" -eq 0
        check "$display $size: the saved CRTC was restored" grep -q "restore verified" "$OUT/vm.log"
    done
}
