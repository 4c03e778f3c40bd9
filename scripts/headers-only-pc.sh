#!/usr/bin/env bash
# Headers-only pkg-config files for the libraries the program opens with dlopen instead of
# linking them (docs/start-up.md, "The drawing libraries behind the start"): cairo and pango
# (pangocairo.pc, whose Cflags cover GLib, harfbuzz, fontconfig and the rest), libinput,
# libevdev and ALSA. Each has the system file's Cflags and no Libs and no Requires, so a swift
# build that finds these first (PKG_CONFIG_PATH) compiles against the libraries' headers and
# links none of them: the loaders under Sources/C/*Loader/ define every function the program
# calls, and lld fails the link on any they miss. debian/rules and the arm64 release build use
# them; a plain `swift build` links the libraries as before.
#
#   scripts/headers-only-pc.sh OUT
#
# pkg-config reads the .pc files the environment names and puts PKG_CONFIG_SYSROOT_DIR before
# their paths (a cross build's root, scripts/arm64/cross-build.sh): SwiftPM takes the paths of
# these files as written.
set -euo pipefail
out=${1:?usage: scripts/headers-only-pc.sh OUT}
mkdir -p "$out"
for pc in pangocairo libinput libevdev alsa; do
    cflags=$(pkg-config --cflags "$pc") || {
        echo "headers-only-pc: pkg-config has no $pc (its -dev package: debian/control's Build-Depends)" >&2; exit 1; }
    version=$(pkg-config --modversion "$pc")
    printf '%s\n' "# Written by scripts/headers-only-pc.sh: $pc's headers, not its libraries." \
        "Name: $pc" "Description: $pc's headers (kiosk-carousel opens the library with dlopen)" \
        "Version: $version" "Cflags: $cflags" > "$out/$pc.pc.new"
    mv "$out/$pc.pc.new" "$out/$pc.pc"
done
echo "headers-only-pc: $out: pangocairo libinput libevdev alsa"
