#!/usr/bin/env bash
# Makes the Debian roots the arm64 build and checks use, once, in $ARM64_CACHE (docs/arm64.md).
# A root whose recipe is unchanged is reused: a second run downloads nothing.
#
#   scripts/arm64/roots.sh NAME...     NAME: toolchain | sid-arm64 | trixie-arm64 | trixie-arm64-clean
#
# toolchain           amd64 sid, swiftlang (the cross compiler) and the amd64 -dev libraries
#                     (an x86-64 build with the same library versions as sid-arm64: the PNG reference)
# sid-arm64           arm64 sid, swiftlang, the -dev libraries (and ffmpeg, which makes the VideoTests'
#                     clips): the Swift modules and runtime for
#                     aarch64, the debug sysroot, and where the tests run under qemu-user
# trixie-arm64        arm64 trixie (Debian 13), installed with dpkg (under qemu-user): the release
#                     sysroot (C libraries, glibc 2.41), dpkg-shlibdeps' database, the smoke test
# trixie-arm64-clean  arm64 trixie with apt only: a copy of it is where the .deb is installed
# Unpacked-only roots (variant extract) are made natively in minutes; the installed ones run
# maintainer scripts under emulation.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
need_root
binfmt_ready
SWIFT_PACKAGES="swiftlang,libstdc++-16-dev,git"   # swiftlang lacks the C++ headers TOMLKit needs
for name in "$@"; do
    case $name in
        toolchain)
            make_root sid amd64 extract "$ARM64_CACHE/sid-amd64" "$SWIFT_PACKAGES,$ARM64_DEV_PACKAGES,$ARM64_FONT_PACKAGES" ;;
        sid-arm64)
            make_root sid arm64 extract "$ARM64_CACHE/sid-arm64" "$SWIFT_PACKAGES,$ARM64_DEV_PACKAGES,$ARM64_FONT_PACKAGES,$ARM64_TEST_PACKAGES" ;;
        trixie-arm64)
            make_root trixie arm64 apt "$ARM64_CACHE/trixie-arm64" "libstdc++-14-dev,dpkg-dev,$ARM64_DEV_PACKAGES,$ARM64_FONT_PACKAGES" ;;
        trixie-arm64-clean)
            make_root trixie arm64 apt "$ARM64_CACHE/trixie-arm64-clean" "ca-certificates" ;;
        *) die "unknown root '$name'" ;;
    esac
done
