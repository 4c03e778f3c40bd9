#!/bin/sh
# make install: installs KioskCarousel the way a kiosk runs it.
#
#   binary   $PREFIX/bin/kiosk-carousel                     (PREFIX default /usr/local)
#   unit     $UNITDIR/kiosk-carousel.service                 (UNITDIR default /etc/systemd/system)
#   config   /etc/kiosk-carousel/config.toml (+ media/)      only when absent: never overwritten
#   docs     $PREFIX/share/doc/kiosk-carousel/               (docs, udev rule and drop-in examples)
#
# Everything goes under $DESTDIR when set (packaging). Variables: BIN (the binary to install,
# default .build/release/kiosk-carousel), CONFIG (default config/example.toml), PREFIX, DESTDIR,
# UNITDIR, SYSCONFDIR (default /etc). It does not create the `kiosk` user, enable the unit or
# install udev rules: docs/systemd.md says how (those are decisions for the kiosk's builder).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
UNITDIR=${UNITDIR:-/etc/systemd/system}
SYSCONFDIR=${SYSCONFDIR:-/etc}
BIN=${BIN:-$top/.build/release/kiosk-carousel}
CONFIG=${CONFIG:-$top/config/example.toml}

die() { echo "install.sh: $*" >&2; exit 1; }
[ -x "$BIN" ] || die "$BIN: no such executable; build it first (make release) or set BIN="
[ -f "$CONFIG" ] || die "$CONFIG: no such config file; set CONFIG="
case "$PREFIX" in /*) ;; *) die "PREFIX must be absolute, not '$PREFIX'" ;; esac

bindir=$DESTDIR$PREFIX/bin
docdir=$DESTDIR$PREFIX/share/doc/kiosk-carousel
confdir=$DESTDIR$SYSCONFDIR/kiosk-carousel
unitdir=$DESTDIR$UNITDIR

install -d -m 0755 "$bindir" "$docdir" "$docdir/udev" "$unitdir"
install -m 0755 "$BIN" "$bindir/kiosk-carousel"
echo "installed $bindir/kiosk-carousel"

# The unit names the installed paths.
sed -e "s|/usr/local/bin/kiosk-carousel|$PREFIX/bin/kiosk-carousel|g" \
    -e "s|/etc/kiosk-carousel/|$SYSCONFDIR/kiosk-carousel/|g" \
    -e "s|/usr/local/share/doc/kiosk-carousel/|$PREFIX/share/doc/kiosk-carousel/|g" \
    "$top/systemd/kiosk-carousel.service" > "$unitdir/kiosk-carousel.service.tmp"
chmod 0644 "$unitdir/kiosk-carousel.service.tmp"
mv "$unitdir/kiosk-carousel.service.tmp" "$unitdir/kiosk-carousel.service"
echo "installed $unitdir/kiosk-carousel.service"
# The USB import unit (started by the udev rule, which docs/usb.md says how to install), and the
# update check's unit and timer (docs/updates.md; `systemctl enable --now kiosk-carousel-update.timer`).
for unit in kiosk-carousel-usb@.service kiosk-carousel-update.service kiosk-carousel-update.timer; do
    sed -e "s|/usr/local/bin/kiosk-carousel|$PREFIX/bin/kiosk-carousel|g" \
        -e "s|/etc/kiosk-carousel/|$SYSCONFDIR/kiosk-carousel/|g" \
        -e "s|/usr/local/share/doc/kiosk-carousel/|$PREFIX/share/doc/kiosk-carousel/|g" \
        "$top/systemd/$unit" > "$unitdir/$unit.tmp"
    chmod 0644 "$unitdir/$unit.tmp"
    mv "$unitdir/$unit.tmp" "$unitdir/$unit"
    echo "installed $unitdir/$unit"
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

for f in "$top"/docs/*.md "$top/README.md"; do
    [ -f "$f" ] && install -m 0644 "$f" "$docdir/"
done
for f in "$top"/systemd/udev/*.rules; do
    [ -f "$f" ] && install -m 0644 "$f" "$docdir/udev/"
done
install -m 0644 "$top/systemd/kiosk-carousel.service.d/foreground-program.conf.example" "$docdir/"
install -m 0644 "$top/systemd/kiosk-carousel.service.d/metrics.conf.example" "$docdir/"
install -m 0644 "$top/systemd/kiosk-carousel.tmpfiles" "$docdir/"
echo "installed documentation and examples in $docdir"

cat <<NEXT

Next steps (as root; see $PREFIX/share/doc/kiosk-carousel/systemd.md):
  useradd --system --home-dir /nonexistent --shell /usr/sbin/nologin --user-group kiosk
  systemctl daemon-reload
  systemctl enable --now kiosk-carousel.service
NEXT
