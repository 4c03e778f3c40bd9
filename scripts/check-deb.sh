#!/usr/bin/env bash
# make deb-check: installs out/kiosk-carousel_<version>_<arch>.deb with apt into a clean Debian 12
# root (mmdebstrap --variant=apt) and checks what a kiosk builder relies on:
#   - apt pulls in every library the binary needs and nothing from the build (no -dev
#     packages, no Swift, no compiler); the binary runs: --version, check-config of the
#     installed config, a simulate shot drawn with the installed fonts;
#   - the postinst made the `kiosk` user (groups video, input) and enabled the unit;
#   - an upgrade keeps a config the kiosk builder edited (the conffile) and leaves no
#     .dpkg-dist/.dpkg-old beside it;
#   - remove keeps the config, purge removes it and the unit's enablement.
# The unit under a running systemd (start, restart once on upgrade, stop on remove) is the VM
# test Tests/package/lifecycle.sh. Downloaded packages are cached in $CACHE (a second run
# fetches only the archive's index files).
#
#   scripts/check-deb.sh [DEB]     (default: the newest out/kiosk-carousel_*_amd64.deb)
set -euo pipefail
# A command that ends the script under set -e says where (such an end was silent: an empty log).
trap 'echo "check-deb: stopped at line $LINENO: $BASH_COMMAND (exit $?)" >&2' ERR
top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${CACHE:-/var/cache/kiosk-carousel/deb-check}
SUITE=${SUITE:-bookworm}
# The Debian mirror this machine's apt uses (scripts/apt-mirrors.sh: sources.list or .sources).
source "$top/scripts/apt-mirrors.sh"
MIRROR=${MIRROR:-$(debian_mirror)}
[ -n "$MIRROR" ] || { echo "check-deb: set MIRROR= to a Debian mirror (apt on this machine names none for $(apt_host_codename))" >&2; exit 1; }
deb=${1:-$(ls -t "$top"/out/kiosk-carousel_*_"$(dpkg --print-architecture)".deb 2>/dev/null | head -1)}
[ -f "${deb:-}" ] || { echo "check-deb: no .deb (run make deb first)" >&2; exit 1; }
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
command -v mmdebstrap >/dev/null || { echo "check-deb: mmdebstrap not found (apt-get install mmdebstrap)" >&2; exit 1; }
t0=$(date +%s)
step() { echo "check-deb: [$(( $(date +%s) - t0 )) s] $*"; }

work=$(mktemp -d /tmp/kiosk-carousel-check-deb.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
mkdir -p "$CACHE/archives" "$work/in"
version=$(dpkg-deb -f "$deb" Version)
# An "upgrade": the same package with a higher version.
dpkg-deb -R "$deb" "$work/up"
sed -i "s/^Version: .*/Version: $version+upgrade1/" "$work/up/DEBIAN/control"
dpkg-deb --root-owner-group -Zgzip -z1 -b "$work/up" "$work/in/upgrade.deb" >/dev/null
rm -rf "$work/up"

cat > "$work/in/checks.sh" <<'CHECKS'
#!/bin/sh
# Runs inside the new root (chroot), after `apt install ./kiosk-carousel_*.deb`.
set -u
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "  ok   $*"; }
bad() { fail=$((fail + 1)); echo "  FAIL $*"; }
check() { desc=$1; shift; if "$@" >/tmp/check.out 2>&1; then ok "$desc"; else bad "$desc"; sed 's/^/       /' /tmp/check.out; fi; }
version=$1

build_only=$(dpkg-query -W -f='${Package}\n' | grep -E -- '-dev$|^swift|^libswift|^gcc(-[0-9]+)?$|^g\+\+|^clang|^llvm|^pkgconf|^pkg-config|^cpp' || true)
if [ -z "$build_only" ]; then ok "nothing from the build installed (no -dev, Swift, compiler)"; else bad "build-only packages installed: $build_only"; fi
check "kiosk-carousel --version is $version" sh -c "[ \"\$(kiosk-carousel --version | sed -n 1p)\" = '$version' ]"
check "--version says the installed FFmpeg decodes H.264" sh -c "kiosk-carousel --version | grep -q '^h264: software h264'"
check "every library resolves (ldd)" sh -c "! ldd /usr/bin/kiosk-carousel | grep -q 'not found'"
# Opened with dlopen instead (docs/start-up.md, "The drawing libraries behind the start"): the
# loader maps none of them before main; simulate below opens cairo, pango and fontconfig.
check "the loader maps none of the libraries opened with dlopen (ldd: no cairo, pango, fontconfig, GLib, libinput, libasound, decoders)" \
    sh -c "! ldd /usr/bin/kiosk-carousel | grep -E 'lib(cairo|pango|fontconfig|glib|gobject|gio|input|evdev|asound|turbojpeg|png16|webp)'"
check "it depends on a glibc that loads packed relocations (libc6 >= 2.36)" \
    sh -c "dpkg-query -W -f '\${Depends}' kiosk-carousel | grep -q 'libc6 (>= 2.36)'"
check "check-config accepts /etc/kiosk-carousel/config.toml" kiosk-carousel check-config /etc/kiosk-carousel/config.toml
check "simulate draws the installed config with the installed fonts" \
    kiosk-carousel simulate --config /etc/kiosk-carousel/config.toml --size 640x360 --until 1 --shot 1=/tmp/shot.png
check "the shot is a PNG" sh -c "head -c 8 /tmp/shot.png | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a'"
check "user kiosk exists, in groups video and input" sh -c "id -nG kiosk | tr ' ' '\n' | grep -qx video && id -nG kiosk | tr ' ' '\n' | grep -qx input"
check "kiosk has no login shell" sh -c "getent passwd kiosk | grep -q ':/usr/sbin/nologin$'"
check "the unit is enabled" test -L /etc/systemd/system/multi-user.target.wants/kiosk-carousel.service
check "man page" test -s /usr/share/man/man1/kiosk-carousel.1.gz
check "bash completion" test -s /usr/share/bash-completion/completions/kiosk-carousel

echo "# edited by the kiosk builder" >> /etc/kiosk-carousel/config.toml
sum=$(md5sum < /etc/kiosk-carousel/config.toml)
check "upgrade to $version+upgrade1 installs" dpkg -i /tmp/kiosk-deb-check/upgrade.deb
check "the upgrade kept the edited config" sh -c "[ \"\$(md5sum < /etc/kiosk-carousel/config.toml)\" = '$sum' ]"
check "no .dpkg-dist/.dpkg-old beside it" sh -c "! ls /etc/kiosk-carousel/ | grep -q dpkg"
check "still enabled after the upgrade" test -L /etc/systemd/system/multi-user.target.wants/kiosk-carousel.service
check "remove" dpkg -r kiosk-carousel
check "remove kept the config" test -f /etc/kiosk-carousel/config.toml
check "remove took the binary" test ! -e /usr/bin/kiosk-carousel
check "purge" dpkg -P kiosk-carousel
check "purge removed /etc/kiosk-carousel" test ! -e /etc/kiosk-carousel
check "purge removed the enablement" test ! -e /etc/systemd/system/multi-user.target.wants/kiosk-carousel.service
echo "deb-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
CHECKS
chmod 0755 "$work/in/checks.sh"

step "installing $(basename "$deb") with apt into a clean $SUITE root (mmdebstrap --variant=apt; cache $CACHE)"
# essential-hook: the package list before our package; customize-hooks: what apt added, then
# the checks; the downloaded .debs go back to the cache (sync-out).
mmdebstrap --mode=root --variant=apt --skip=essential/unlink \
    --aptopt='APT::Install-Recommends "false"' \
    --setup-hook="mkdir -p \"\$1/var/cache/apt/archives\" && cp -a $CACHE/archives/. \"\$1/var/cache/apt/archives/\"" \
    --hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
    --essential-hook="chroot \"\$1\" dpkg-query -W -f='\${Package}\n' | sort > $work/before" \
    --include="$deb" \
    --customize-hook="chroot \"\$1\" dpkg-query -W -f='\${Package}\n' | sort > $work/after" \
    --customize-hook="sync-out /var/cache/apt/archives $CACHE/archives" \
    --customize-hook="mkdir -p \"\$1/tmp/kiosk-deb-check\" && cp $work/in/* \"\$1/tmp/kiosk-deb-check/\"" \
    --customize-hook="chroot \"\$1\" /tmp/kiosk-deb-check/checks.sh $version | tee $work/checks.log" \
    "$SUITE" /dev/null "$MIRROR" >"$work/mmdebstrap.log" 2>&1 || true
rm -f "$CACHE/archives/kiosk-carousel_"*.deb
added=$(comm -13 "$work/before" "$work/after" | grep -vx -e kiosk-carousel -e apt -e libapt-pkg6.0 -e debian-archive-keyring -e gpgv -e libseccomp2 -e adduser || true)
step "apt added $(echo "$added" | grep -c .) packages beside kiosk-carousel: $(echo $added)"
if [ ! -s "$work/checks.log" ]; then
    echo "check-deb: the install did not reach the checks; mmdebstrap said:" >&2
    tail -30 "$work/mmdebstrap.log" >&2
    echo "deb-check: 0 passed, 1 failed"
    exit 1
fi
cat "$work/checks.log"
grep -q "^deb-check: [0-9]* passed, 0 failed" "$work/checks.log"
