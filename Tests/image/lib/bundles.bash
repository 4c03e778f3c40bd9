# Sourced by Tests/image/update-test.sh and update-proof.sh: the update bundles a test makes
# (docs/updates.md, "Proof"). Needs $top (the checkout) and scripts/make-update-bundle.sh's tools.
#
#   tiny_bundle SCRATCH VERSION OUT [VAR=VALUE ...]
#       a bundle of an 8 MiB root filesystem whose os-release says IMAGE_VERSION=VERSION, made in
#       the folder SCRATCH, signed with $UPDATE_KEY/$UPDATE_CERT unless VAR=VALUE (passed to
#       make-update-bundle.sh: UPDATE_KEY=, COMPATIBLE=, …) says otherwise. For the bundles that
#       must be refused: they never reach a slot, so they need not hold a system.
#   other_keys DIR
#       a second development CA and signing key in DIR (a key the image does not trust).
#   tamper FILE
#       one byte of FILE's payload changed (the squashfs at its start; the signature at the end
#       stays intact).
tiny_bundle() {
    local scratch=$1 v=$2 out=$3; shift 3
    rm -rf "$scratch/tiny"; mkdir -p "$scratch/tiny/usr/lib"
    printf 'ID=debian\nIMAGE_ID=kiosk-carousel\nIMAGE_VERSION=%s\n' "$v" >"$scratch/tiny/usr/lib/os-release"
    head -c 65536 /dev/urandom >"$scratch/tiny/filler"     # RAUC wants a squashfs larger than 4 KiB
    rm -f "$scratch/tiny.ext4"; mkfs.ext4 -q -d "$scratch/tiny" "$scratch/tiny.ext4" 8M >/dev/null
    env ROOTFS="$scratch/tiny.ext4" BUNDLE="$out" "$@" "$top/scripts/make-update-bundle.sh" >/dev/null
}
other_keys() {
    ( unset UPDATE_KEY UPDATE_CERT UPDATE_KEYRING; source "$top/scripts/update-keys.sh"; update_keys "$1" >/dev/null 2>&1 )
}
tamper() {
    printf '\xff' | dd of="$1" bs=1 seek=5000 conv=notrunc status=none
}
