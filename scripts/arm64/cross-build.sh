#!/usr/bin/env bash
# Cross-builds KioskCarousel for aarch64-linux-gnu on this x86-64 Debian host (docs/arm64.md).
#
#   scripts/arm64/cross-build.sh debug            # binary + XCTest bundle, sid sysroot
#   scripts/arm64/cross-build.sh release          # static Swift runtime, trixie sysroot (shippable)
#   scripts/arm64/cross-build.sh host-same-libs   # x86-64 debug binary in the amd64 sid root
#   scripts/arm64/cross-build.sh release-sid      # optimised binary for the sid root (runs under
#                                                 # qemu-user there: instruction counts, insn-count.sh)
#
# The compiler is Debian sid's swiftlang (6.2.3; the host's Swift 6.3.1 has no aarch64
# libraries), amd64 build, run in an amd64 sid root ("toolchain"). Its target's Swift modules and
# runtime come from an arm64 sid root with swiftlang; the C headers and libraries from that root
# (debug: the same root runs the tests under qemu-user) or from a trixie arm64 root (release:
# the libraries a Debian 13 / Raspberry Pi OS board has, and its glibc). Output, in the tree
# (ignored by .gitignore): .build-arm64 (debug), .build-arm64-release, .build-x86-sid,
# .build-arm64-opt (release-sid).
# The roots live in $ARM64_CACHE, made once (scripts/arm64/roots.sh).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
. "$HERE/lib.sh"
MODE=${1:-debug}
need_root

TOOLCHAIN=$ARM64_CACHE/sid-amd64
SID_ARM64=$ARM64_CACHE/sid-arm64
TRIXIE_ARM64=$ARM64_CACHE/trixie-arm64
case $MODE in
    debug)          SYSROOT=$SID_ARM64;    SCRATCH=.build-arm64 ;;
    release)        SYSROOT=$TRIXIE_ARM64; SCRATCH=.build-arm64-release ;;
    host-same-libs) SYSROOT=;              SCRATCH=.build-x86-sid ;;
    release-sid)    SYSROOT=$SID_ARM64;    SCRATCH=.build-arm64-opt ;;
    *) echo "usage: $0 debug|release|host-same-libs|release-sid" >&2; exit 2 ;;
esac

step "cross-build $MODE: roots"
"$HERE/roots.sh" toolchain sid-arm64 $([ "$MODE" = release ] && echo trixie-arm64)

step "cross-build $MODE: mounts"
unmount_on_exit "$TOOLCHAIN"
enter_root "$TOOLCHAIN"
bind_once "$SRC" "$TOOLCHAIN/src"
bind_once "$SID_ARM64" "$TOOLCHAIN/sid-arm64"
if [ "$MODE" = release ]; then
    bind_once "$TRIXIE_ARM64" "$TOOLCHAIN/trixie-arm64"
    # The driver takes swiftrt.o for a static link from SDK/usr/lib/swift_static, whatever
    # -resource-dir says: give the trixie sysroot that path, to sid's arm64 static runtime
    # (a symbolic link that resolves inside the toolchain root).
    ln -sfn /sid-arm64/usr/libexec/swift/lib/swift_static "$TRIXIE_ARM64/usr/lib/swift_static"
fi

# The SwiftPM destination: the target, the sysroot for C headers and libraries, and the arm64
# Swift resources (modules, runtime) of the sid root. lld links (the toolchain's own linker).
# A static link reads its libraries from the static resource folder (swift_static).
SWIFT_RES=/sid-arm64/usr/libexec/swift/lib/swift
[ "$MODE" = release ] && SWIFT_RES=/sid-arm64/usr/libexec/swift/lib/swift_static
write_destination() { # SDK FILE
    cat > "$2" <<JSON
{ "version": 1, "sdk": "$1", "toolchain-bin-dir": "/usr/libexec/swift/bin",
  "target": "aarch64-unknown-linux-gnu", "dynamic-library-extension": "so",
  "extra-cc-flags": ["-fPIC"],
  "extra-swiftc-flags": ["-sdk", "$1", "-resource-dir", "$SWIFT_RES", "-use-ld=lld"],
  "extra-cpp-flags": ["-lstdc++"] }
JSON
}
ARGS=(-j 2 --scratch-path "$SCRATCH")
ENVS=(LANG=C.UTF-8)
case $MODE in
    debug)
        write_destination /sid-arm64 "$TOOLCHAIN/root/aarch64-sid.json"
        ARGS+=(--build-tests --destination /root/aarch64-sid.json
               # Debian ships no lib_Testing_Foundation.so: do not link the cross-import overlay.
               -Xswiftc -Xfrontend -Xswiftc -disable-cross-import-overlays
               # The binary and tests run in the sid root, where the Swift runtime lives here.
               -Xlinker -rpath -Xlinker /usr/libexec/swift/lib/swift/linux)
        PC=/sid-arm64 ;;
    release-sid)
        # The release configuration against the sid root's libraries and its Swift runtime
        # (not linked in): the same code as `release` for the compositor, runnable in that root.
        write_destination /sid-arm64 "$TOOLCHAIN/root/aarch64-sid.json"
        ARGS+=(-c release --product kiosk-carousel --destination /root/aarch64-sid.json
               -Xswiftc -Xfrontend -Xswiftc -disable-cross-import-overlays
               -Xlinker -rpath -Xlinker /usr/libexec/swift/lib/swift/linux)
        PC=/sid-arm64 ;;
    release)
        write_destination /trixie-arm64 "$TOOLCHAIN/root/aarch64-trixie.json"
        # The same flags as `make deb` on x86-64 (debian/rules' SWIFT_FLAGS): no toolchain
        # RUNPATH, full RELRO, the relative relocations packed (DT_RELR; lld links here already,
        # trixie's glibc 2.41 loads them), concrete types' metadata by direct accessors.
        ARGS+=(-c release --static-swift-stdlib --product kiosk-carousel --destination /root/aarch64-trixie.json
               -Xswiftc -no-toolchain-stdlib-rpath -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now
               -Xlinker -z -Xlinker pack-relative-relocs
               -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
        PC=/trixie-arm64 ;;
    host-same-libs)
        ARGS+=(--product kiosk-carousel)
        PC= ;;
esac
if [ -n "$PC" ]; then
    # SwiftPM reads .pc files itself: PKG_CONFIG_PATH comes before its default (host, amd64)
    # folders; PKG_CONFIG_LIBDIR is for anything that runs pkg-config.
    PCDIRS=$PC/usr/lib/aarch64-linux-gnu/pkgconfig:$PC/usr/share/pkgconfig
    SWIFTPM_PC=$PCDIRS
    if [ "$MODE" = release ]; then
        # As debian/rules builds the amd64 package: the libraries opened with dlopen (cairo,
        # pango, libinput, libasound …) are not linked; SwiftPM finds headers-only .pc files
        # first (scripts/headers-only-pc.sh; docs/start-up.md, "The drawing libraries behind the
        # start").
        in_root "$TOOLCHAIN" LANG=C.UTF-8 PKG_CONFIG_SYSROOT_DIR=$PC PKG_CONFIG_LIBDIR=$PCDIRS \
            "cd /src && scripts/headers-only-pc.sh $SCRATCH/headers-only-pc" \
            || die "headers-only .pc files"
        SWIFTPM_PC=/src/$SCRATCH/headers-only-pc:$PCDIRS
    fi
    ENVS+=(KIOSK_TARGET_ARCH=aarch64 PKG_CONFIG_SYSROOT_DIR=$PC PKG_CONFIG_PATH=$SWIFTPM_PC PKG_CONFIG_LIBDIR=$PCDIRS)
fi

step "cross-build $MODE: swift build ${ARGS[*]}"
# "prohibited flag" warnings: SwiftPM's notice that the destination passes -sdk/-resource-dir.
in_root "$TOOLCHAIN" "${ENVS[@]}" "cd /src && nice -n $(nice_to_10) swift build ${ARGS[*]} 2>&1 | grep -v 'prohibited flag'; exit \${PIPESTATUS[0]}" \
    || die "swift build failed"
step_end
