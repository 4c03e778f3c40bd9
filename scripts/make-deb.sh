#!/usr/bin/env bash
# make deb: builds out/kiosk-carousel_<version>_<arch>.deb from a release binary whose Swift
# runtime is linked in statically (docs/packaging.md says what is in it and why).
#
#   BIN       the binary to package (default .build/release/kiosk-carousel)
#   ARCH      its Debian architecture (default: this machine's)
#   HOST_BIN  a build of the same source that runs here: asked for --version, the man page and
#             the shell completions (default BIN; a cross build sets it to the host's binary)
#   SHLIBDEPS how to run dpkg-shlibdeps for ARCH (default: dpkg-shlibdeps on this machine;
#             a cross build names a command that runs it where ARCH's libraries are)
#   OUT       where the .deb goes (default out/)
#   LINTIAN   0 skips the lintian run (default 1: errors fail the build)
#   STRIP     the strip program for ARCH (default strip)
#   SCRATCH   the SwiftPM build folder that made BIN, whose swift-argument-parser checkout
#             builds the manual generator (default .build; make deb sets .build-deb)
#
# Depends is computed (dpkg-shlibdeps on the binary) plus fonts-dejavu-core (the default
# theme's font), fontconfig (the system font cache) and systemd (the unit, sysusers).
# The version comes from the binary itself: one source of truth (Sources/Kiosk/KioskVersion.swift).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$top/.build/release/kiosk-carousel}
ARCH=${ARCH:-$(dpkg --print-architecture)}
HOST_BIN=${HOST_BIN:-$BIN}
SHLIBDEPS=${SHLIBDEPS:-dpkg-shlibdeps}
OUT=${OUT:-$top/out}
LINTIAN=${LINTIAN:-1}
STRIP=${STRIP:-strip}
pkgsrc=$top/packaging/deb

die() { echo "make-deb: $*" >&2; exit 1; }
step() { echo "make-deb: $*"; }
[ -x "$BIN" ] || die "$BIN: no such executable (make deb builds it; or set BIN=)"
[ -x "$HOST_BIN" ] || die "$HOST_BIN: no such executable"
for tool in dpkg-deb dpkg-shlibdeps gzip; do
    command -v "$tool" >/dev/null || die "$tool not found (apt-get install dpkg-dev)"
done

# The first line is the version; the lines after it say what the machine decodes.
version=$("$HOST_BIN" --version | sed -n 1p)
[[ $version =~ ^[0-9][A-Za-z0-9.+~-]*$ ]] || die "'$version' from $HOST_BIN --version is not a Debian version"
# Reproducible: every date and mtime in the package is the last commit's.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)}

work=$(mktemp -d /tmp/kiosk-carousel-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
root=$work/root
doc=$root/usr/share/doc/kiosk-carousel
share=$root/usr/share/kiosk-carousel
install -d -m 0755 "$root/DEBIAN" "$root/usr/bin" "$root/lib/systemd/system" "$root/lib/udev/rules.d" \
    "$root/usr/lib/sysusers.d" "$root/usr/lib/tmpfiles.d" "$root/etc/kiosk-carousel" "$doc/examples/udev" "$doc/docs" \
    "$share/example" "$root/usr/share/man/man1" "$root/usr/share/bash-completion/completions" \
    "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d"

step "binary ($ARCH, stripped)"
install -m 0755 "$BIN" "$root/usr/bin/kiosk-carousel"
"$STRIP" --remove-section=.comment --remove-section=.note --strip-unneeded "$root/usr/bin/kiosk-carousel"

step "systemd unit, sysusers entry, udev rule"
# The unit as the repository has it, with the packaged paths.
sed -e 's|/usr/local/bin/kiosk-carousel|/usr/bin/kiosk-carousel|g' \
    -e 's|^Documentation=.*|Documentation=man:kiosk-carousel(1) file:///usr/share/doc/kiosk-carousel/docs/systemd.md|' \
    -e 's|^# Install: .*|# Installed by the kiosk-carousel package; the `kiosk` user comes from sysusers.d.|' \
    -e '/^# docs\/systemd.md. Exposure/s|.*|# Exposure (systemd-analyze security --offline=yes): see docs/systemd.md.|' \
    -e 's|^# see systemd/kiosk-carousel.service.d/|# see /usr/share/doc/kiosk-carousel/examples/kiosk-carousel.service.d/|' \
    "$top/systemd/kiosk-carousel.service" > "$root/lib/systemd/system/kiosk-carousel.service"
grep -q '^ExecStart=/usr/bin/kiosk-carousel ' "$root/lib/systemd/system/kiosk-carousel.service" \
    || die "the unit's ExecStart was not rewritten to /usr/bin"
install -m 0644 "$pkgsrc/kiosk-carousel.sysusers" "$root/usr/lib/sysusers.d/kiosk-carousel.conf"
# USB sticks (docs/usb.md): the import unit, the rule that starts it, the content folder.
sed -e 's|/usr/local/bin/kiosk-carousel|/usr/bin/kiosk-carousel|g' \
    -e 's|file:///usr/local/share/doc/kiosk-carousel/usb.md|file:///usr/share/doc/kiosk-carousel/docs/usb.md|' \
    "$top/systemd/kiosk-carousel-usb@.service" > "$root/lib/systemd/system/kiosk-carousel-usb@.service"
grep -q '^ExecStart=/usr/bin/kiosk-carousel ' "$root/lib/systemd/system/kiosk-carousel-usb@.service" \
    || die "the USB unit's ExecStart was not rewritten to /usr/bin"
install -m 0644 "$top/systemd/udev/72-kiosk-carousel-usb.rules" "$root/lib/udev/rules.d/"
# Updates and content from servers (docs/updates.md): the check's unit and its timer.
sed -e 's|/usr/local/bin/kiosk-carousel|/usr/bin/kiosk-carousel|g' \
    -e 's|file:///usr/local/share/doc/kiosk-carousel/updates.md|file:///usr/share/doc/kiosk-carousel/docs/updates.md|' \
    "$top/systemd/kiosk-carousel-update.service" > "$root/lib/systemd/system/kiosk-carousel-update.service"
grep -q '^ExecStart=-/usr/bin/kiosk-carousel ' "$root/lib/systemd/system/kiosk-carousel-update.service" \
    || die "the update unit's ExecStart was not rewritten to /usr/bin"
sed -e 's|file:///usr/local/share/doc/kiosk-carousel/updates.md|file:///usr/share/doc/kiosk-carousel/docs/updates.md|' \
    "$top/systemd/kiosk-carousel-update.timer" > "$root/lib/systemd/system/kiosk-carousel-update.timer"
install -m 0644 "$top/systemd/kiosk-carousel.tmpfiles" "$root/usr/lib/tmpfiles.d/kiosk-carousel.conf"
# The rotary-encoder rule matches the kernel driver's own device names (rotary@*): active.
install -m 0644 "$top/systemd/udev/70-kiosk-rotary.rules" "$root/lib/udev/rules.d/"
# The calibration rule names an example panel: an example to copy to /etc/udev/rules.d/.
install -m 0644 "$top/systemd/udev/80-kiosk-touch-calibration.rules" "$doc/examples/udev/"
install -d -m 0755 "$doc/examples/kiosk-carousel.service.d"
install -m 0644 "$top/systemd/kiosk-carousel.service.d/foreground-program.conf.example" \
    "$doc/examples/kiosk-carousel.service.d/"
install -m 0644 "$top/systemd/kiosk-carousel.service.d/metrics.conf.example" \
    "$doc/examples/kiosk-carousel.service.d/"

step "config (conffile) and example media"
install -m 0644 "$top/config/example.toml" "$share/example/config.toml"
cp -R "$top/config/media" "$share/example/media"
find "$share/example/media" -type d -exec chmod 0755 {} + ; find "$share/example/media" -type f -exec chmod 0644 {} +
# /etc's copy points at the shared pictures, so the conffile is the only thing in /etc.
sed -e 's|^\(image *= *"\)media/|\1/usr/share/kiosk-carousel/example/media/|' \
    -e 's|check-config config/example.toml|check-config /etc/kiosk-carousel/config.toml|' \
    -e 's|^# Relative paths (the pictures in media/) are relative to this file.s folder.|# The example pictures are in /usr/share/kiosk-carousel/example/media/; relative paths are relative to this file'"'"'s folder.|' \
    "$top/config/example.toml" > "$root/etc/kiosk-carousel/config.toml"
chmod 0644 "$root/etc/kiosk-carousel/config.toml"
if grep -q '^image *= *"media/' "$root/etc/kiosk-carousel/config.toml"; then die "a relative media path was left in the conffile"; fi
# The example as shipped must pass check-config (its pictures are beside it in the staging tree).
"$HOST_BIN" check-config "$share/example/config.toml" >/dev/null || die "the example config does not pass check-config"

step "man page and shell completions (from the command line definitions)"
"$top/scripts/make-manual.sh" "$HOST_BIN" "$work/man"
gzip -9n < "$work/man/kiosk-carousel.1" > "$root/usr/share/man/man1/kiosk-carousel.1.gz"
# bash-completion sources the file: no #! line.
"$HOST_BIN" --generate-completion-script bash | sed '1{/^#!/d}' > "$root/usr/share/bash-completion/completions/kiosk-carousel"
"$HOST_BIN" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_kiosk-carousel"
"$HOST_BIN" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/kiosk-carousel.fish"

step "documentation"
install -m 0644 "$top/README.md" "$doc/README.md"
install -m 0644 "$top"/docs/*.md "$doc/docs/"
install -m 0644 "$pkgsrc/copyright" "$doc/copyright"
changes_date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
commit=$(git -C "$top" log -1 --format=%h 2>/dev/null || echo unknown)
printf 'kiosk-carousel (%s) unstable; urgency=medium\n\n  * Built from commit %s; the history is the project'"'"'s git log.\n\n -- KioskCarousel developers <kiosk-carousel@users.noreply.github.com>  %s\n' \
    "$version" "$commit" "$changes_date" | gzip -9n > "$doc/changelog.gz"

step "maintainer scripts, conffiles"
install -m 0755 "$pkgsrc/postinst" "$pkgsrc/prerm" "$pkgsrc/postrm" "$root/DEBIAN/"
echo /etc/kiosk-carousel/config.toml > "$root/DEBIAN/conffiles"

step "Depends (dpkg-shlibdeps)"
mkdir -p "$work/shlibs/debian"
printf 'Source: kiosk-carousel\n\nPackage: kiosk-carousel\nArchitecture: %s\n' "$ARCH" > "$work/shlibs/debian/control"
shlibs=$(cd "$work/shlibs" && $SHLIBDEPS -O "$root/usr/bin/kiosk-carousel" | sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || die "dpkg-shlibdeps found no libraries for the binary"
echo "  $shlibs"

step "control, md5sums, build"
installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$ARCH|" -e "s|@INSTALLED_SIZE@|$installed_size|" \
    -e "s|@SHLIBS_DEPENDS@|$shlibs|" "$pkgsrc/control.in" > "$root/DEBIAN/control"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z \
    | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums" "$root/DEBIAN/conffiles"
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$OUT"
deb=$OUT/kiosk-carousel_${version}_${ARCH}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "make-deb: $deb ($(du -h "$deb" | cut -f1))"

if [ "$LINTIAN" = 1 ]; then
    command -v lintian >/dev/null || die "lintian not found (apt-get install lintian, or LINTIAN=0)"
    step "lintian"
    report=$(lintian --display-info "$deb" 2>&1 || true)
    echo "$report" | sed 's/^/  /'
    if echo "$report" | grep -q '^E: '; then die "lintian reported errors"; fi
fi
