#!/bin/sh
# make install: installs KioskCarousel the way a kiosk runs it, without a package.
#
#   binary   $PREFIX/bin/kiosk-carousel                     (PREFIX default /usr/local)
#   units    $UNITDIR/kiosk-carousel.service, kiosk-carousel-usb@.service, … as in systemd/
#            (UNITDIR default /etc/systemd/system), each with a drop-in for PREFIX (below)
#   config   /etc/kiosk-carousel/config.toml (+ media/)      only when absent: never overwritten
#   docs     $PREFIX/share/doc/kiosk-carousel/docs/          (and README.md, udev rules and drop-in examples)
#
# The units in systemd/ name the Debian package's paths (/usr/bin/kiosk-carousel,
# /usr/share/doc/kiosk-carousel); they are installed as they are. For another PREFIX each unit
# that runs the program gets a drop-in, $UNITDIR/<unit>.d/install-prefix.conf, which replaces its
# ExecStart= (the same arguments, $PREFIX/bin/kiosk-carousel) and Documentation=: systemd's own
# way to change a unit without editing it (docs/systemd.md). Everything goes under $DESTDIR when
# set. Variables: BIN (the binary to install, default .build/release/kiosk-carousel), CONFIG
# (default config/example.toml), PREFIX, DESTDIR, UNITDIR. It does not create the `kiosk` user,
# enable the unit or install udev rules: docs/systemd.md says how (those are decisions for the
# kiosk's builder; the Debian package, make deb, does all three).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
UNITDIR=${UNITDIR:-/etc/systemd/system}
BIN=${BIN:-$top/.build/release/kiosk-carousel}
CONFIG=${CONFIG:-$top/config/example.toml}

die() { echo "install.sh: $*" >&2; exit 1; }
[ -x "$BIN" ] || die "$BIN: no such executable; build it first (make release) or set BIN="
[ -f "$CONFIG" ] || die "$CONFIG: no such config file; set CONFIG="
case "$PREFIX" in /*) ;; *) die "PREFIX must be absolute, not '$PREFIX'" ;; esac

bindir=$DESTDIR$PREFIX/bin
docdir=$DESTDIR$PREFIX/share/doc/kiosk-carousel
confdir=$DESTDIR/etc/kiosk-carousel
unitdir=$DESTDIR$UNITDIR

install -d -m 0755 "$bindir" "$docdir" "$docdir/docs" "$docdir/udev" "$unitdir"
install -m 0755 "$BIN" "$bindir/kiosk-carousel"
echo "installed $bindir/kiosk-carousel"

# The units as they are in systemd/; a drop-in for another prefix on each one that runs the program.
for unit in "$top"/systemd/*.service "$top"/systemd/*.timer "$top"/systemd/*.socket "$top"/systemd/*.path "$top"/systemd/*.target; do
    [ -f "$unit" ] || continue
    name=$(basename "$unit")
    install -m 0644 "$unit" "$unitdir/$name"
    echo "installed $unitdir/$name"
    [ "$PREFIX" != /usr ] || continue
    # Every ExecStart= that runs the program, with its prefix characters (-, @, +, !, :) kept.
    execs=$(sed -n "s|^ExecStart=\([-@+!:]*\)/usr/bin/kiosk-carousel |ExecStart=\1$PREFIX/bin/kiosk-carousel |p" "$unit")
    [ -n "$execs" ] || continue
    docs=""
    for d in $(sed -n 's|^Documentation=||p' "$unit"); do
        case $d in
            file:///usr/share/doc/kiosk-carousel/*) d=file://$PREFIX/share/doc/kiosk-carousel/${d#file:///usr/share/doc/kiosk-carousel/} ;;
        esac
        docs="$docs $d"
    done
    install -d -m 0755 "$unitdir/$name.d"
    {
        echo "# Written by scripts/install.sh: the program is in $PREFIX/bin (the unit names the package's /usr/bin)."
        echo "[Unit]"
        echo "Documentation="
        [ -z "$docs" ] || echo "Documentation=${docs# }"
        echo "[Service]"
        echo "ExecStart="
        printf '%s\n' "$execs"
    } > "$unitdir/$name.d/install-prefix.conf"
    chmod 0644 "$unitdir/$name.d/install-prefix.conf"
    echo "installed $unitdir/$name.d/install-prefix.conf"
done

if [ -e "$confdir/config.toml" ]; then
    echo "kept the existing $confdir/config.toml"
else
    install -d -m 0755 "$confdir"
    install -m 0644 "$CONFIG" "$confdir/config.toml"
    media=$(dirname "$CONFIG")/media
    if [ -d "$media" ] && [ ! -e "$confdir/media" ]; then
        cp -R "$media" "$confdir/media"
        chmod -R u=rwX,go=rX "$confdir/media"
    fi
    echo "installed $confdir/config.toml"
fi

install -m 0644 "$top/README.md" "$docdir/"
install -m 0644 "$top"/docs/*.md "$docdir/docs/"
for f in "$top"/systemd/udev/*.rules; do
    [ -f "$f" ] && install -m 0644 "$f" "$docdir/udev/"
done
install -m 0644 "$top/systemd/kiosk-carousel.service.d/foreground-program.conf.example" "$docdir/"
install -m 0644 "$top/systemd/kiosk-carousel.service.d/metrics.conf.example" "$docdir/"
install -m 0644 "$top/systemd/kiosk-carousel.tmpfiles" "$docdir/"
echo "installed documentation and examples in $docdir"

cat <<NEXT

Next steps (as root; see $PREFIX/share/doc/kiosk-carousel/docs/systemd.md):
  useradd --system --home-dir /nonexistent --shell /usr/sbin/nologin --user-group kiosk
  groupadd --system kiosk-carousel-stick     # FAT sticks are read in a sandbox of this group (docs/usb.md)
  systemctl daemon-reload
  systemctl enable --now kiosk-carousel.service
NEXT
