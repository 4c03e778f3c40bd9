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
# pkg-config reads the .pc files the environment names (PKG_CONFIG_LIBDIR/PKG_CONFIG_PATH: a
# cross build's root). PKG_CONFIG_SYSROOT_DIR is not applied here: SwiftPM adds the sysroot to
# these files' paths as it does to the system's own.
set -euo pipefail
out=${1:?usage: scripts/headers-only-pc.sh OUT}
mkdir -p "$out"
for pc in pangocairo libinput libevdev alsa; do
    cflags=$(env -u PKG_CONFIG_SYSROOT_DIR pkg-config --cflags "$pc") || {
        echo "headers-only-pc: pkg-config has no $pc (its -dev package: debian/control's Build-Depends)" >&2; exit 1; }
    version=$(env -u PKG_CONFIG_SYSROOT_DIR pkg-config --modversion "$pc")
    printf '%s\n' "# Written by scripts/headers-only-pc.sh: $pc's headers, not its libraries." \
        "Name: $pc" "Description: $pc's headers (kiosk-carousel opens the library with dlopen)" \
        "Version: $version" "Cflags: $cflags" > "$out/$pc.pc.new"
    mv "$out/$pc.pc.new" "$out/$pc.pc"
done
echo "headers-only-pc: $out: pangocairo libinput libevdev alsa"
