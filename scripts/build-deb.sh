#!/usr/bin/env bash
# make deb: `dpkg-buildpackage -b` from the tree (debian/), with the .deb, .buildinfo and .changes
# written to OUT instead of the tree's parent folder, then lintian on the .deb: an error fails it
# (docs/packaging.md). Everything about the package itself is in debian/.
#
#   scripts/build-deb.sh OUT
#   ARCH     the package's architecture (default this machine's). Another one is a cross build:
#            `dpkg-buildpackage --host-arch ARCH -d` with the binary debian/rules is given
#            (KIOSK_BIN, KIOSK_HOST_BIN, KIOSK_SCRATCH: scripts/arm64/deb.sh); -d because ARCH's
#            libraries are in a sysroot, not in this machine's dpkg database
#   LINTIAN  0 skips lintian (default 1)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: scripts/build-deb.sh OUT" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
ARCH=${ARCH:-$(dpkg --print-architecture)}
LINTIAN=${LINTIAN:-1}
die() { echo "build-deb: $*" >&2; exit 1; }
command -v dpkg-buildpackage >/dev/null || die "dpkg-buildpackage not found (make deps installs debian/control's Build-Depends)"
command -v dh >/dev/null || die "debhelper not found (make deps installs debian/control's Build-Depends)"

version=$(cd "$top" && dpkg-parsechangelog -S Version)
name=kiosk-carousel_${version}_$ARCH
cross=()
[ "$ARCH" = "$(dpkg --print-architecture)" ] || cross=(--host-arch "$ARCH" -d)
rm -f "$out/$name.deb" "$out/$name.buildinfo" "$out/$name.changes"
(cd "$top" && KIOSK_DEB_DESTDIR=$out nice dpkg-buildpackage -b -us -uc "${cross[@]}" \
    --buildinfo-option=-u"$out" --buildinfo-file="$out/$name.buildinfo" \
    --changes-option=-u"$out" --changes-file="$out/$name.changes")
[ -f "$out/$name.deb" ] || die "dpkg-buildpackage made no $out/$name.deb"
echo "build-deb: $out/$name.deb ($(du -h "$out/$name.deb" | cut -f1))"

if [ "$LINTIAN" = 1 ]; then
    command -v lintian >/dev/null || die "lintian not found (apt-get install lintian, or LINTIAN=0)"
    echo "build-deb: lintian (docs/packaging.md says why each tag left is there)"
    lintian --display-info --fail-on error "$out/$name.deb" 2>&1 | sed 's/^/  /'
    [ "${PIPESTATUS[0]}" -eq 0 ] || die "lintian reported errors"
fi
