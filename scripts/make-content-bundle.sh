#!/usr/bin/env bash
# make content-bundle: a signed content bundle of a folder, for [content] url (docs/updates.md,
# "Content bundles").
#
#   out/kiosk-carousel-content-<name>-<version>.kcb
#
# CONTENT is what a USB stick's kiosk-carousel/ folder holds (config.toml, pictures, clips); it
# is packed as kiosk-carousel/ in a tar archive inside a CMS signed-data envelope (DER), the
# format ContentBundle (Sources/Kiosk/Update/ContentBundle.swift) reads. Before anything is
# signed, the archive is unpacked as the kiosk unpacks it and its folder checked with the
# program's own check, `kiosk-carousel usb-import --folder` (the content rules, every picture
# decoded and every clip opened, [usb] max_mb), against a scratch kiosk config: a folder that
# fails is refused with the program's reasons and nothing is written. Its update/ folder is left
# out (a kiosk never takes one from content). The bundle is then checked against the keyring as a
# kiosk checks it (openssl cms -verify).
#
# Variables: CONTENT (the folder; required), NAME (default the folder's name), VERSION (default
# the UTC time, 20261129T021500Z), OUT (default out/), BUNDLE (the output file, default as above),
# UPDATE_KEY + UPDATE_CERT + UPDATE_KEYRING (the signing key, its certificate and the CA the
# kiosks trust; default the development ones of out/update-keys/, made when missing:
# scripts/update-keys.sh, shared with make update-bundle), KIOSK_BIN (the kiosk-carousel that
# checks the folder; default .build/debug/kiosk-carousel, else the one on PATH), MAX_MB and
# ALLOW_EXEC=1 (the kiosk's [usb] max_mb and allow_exec, for the check).
# Needs openssl and GNU tar.
set -euo pipefail
trap 'echo "make-content-bundle: stopped at line $LINENO: $BASH_COMMAND (exit $?)" >&2' ERR
top=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "make-content-bundle: $*" >&2; exit 1; }

[ -n "${CONTENT:-}" ] || die "give CONTENT=FOLDER: the folder a USB stick's kiosk-carousel/ folder would hold (config.toml, pictures)"
[ -d "$CONTENT" ] || die "CONTENT=$CONTENT: no such folder"
CONTENT=$(cd "$CONTENT" && pwd)
[ -f "$CONTENT/config.toml" ] || die "$CONTENT has no config.toml (docs/usb.md says what the folder needs)"
OUT=${OUT:-$top/out}
name=${NAME:-$(basename "$CONTENT")}
version=${VERSION:-$(date -u +%Y%m%dT%H%M%SZ)}
for part in "$name" "$version"; do
    [[ $part =~ ^[A-Za-z0-9][A-Za-z0-9._+~-]*$ ]] \
        || die "'$part' cannot be part of the file name: letters, digits and . _ + ~ - only (set NAME= or VERSION=)"
done
BUNDLE=${BUNDLE:-$OUT/kiosk-carousel-content-$name-$version.kcb}
if [ -z "${KIOSK_BIN:-}" ]; then
    KIOSK_BIN=$top/.build/debug/kiosk-carousel
    [ -x "$KIOSK_BIN" ] || KIOSK_BIN=$(command -v kiosk-carousel || true)
fi
[ -n "$KIOSK_BIN" ] && [ -x "$KIOSK_BIN" ] || die "no kiosk-carousel to check the folder with: run make build, or set KIOSK_BIN="
command -v openssl >/dev/null || die "missing: openssl (apt-get install openssl)"

source "$top/scripts/update-keys.sh"
update_keys "$OUT/update-keys"

work=$(mktemp -d "${TMPDIR:-/var/tmp}/kiosk-content-bundle.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The archive: CONTENT as kiosk-carousel/, in name order, owned by root (the kiosk unpacks without
# owners anyway). Symbolic link targets are kept as they are (S).
[ ! -e "$CONTENT/update" ] || echo "make-content-bundle: $CONTENT/update/ is left out (a kiosk never takes update/ from content)" >&2
tar --create --file "$work/content.tar" --directory "$CONTENT" --exclude=./update \
    --sort=name --owner=0 --group=0 --numeric-owner --transform 's,^\.,kiosk-carousel,S' .

# The check: unpacked as ContentBundle.verifyAndUnpack unpacks it, then taken as a kiosk takes a
# bundle's folder (ContentImporter, through usb-import --folder) into a scratch content folder.
mkdir "$work/unpacked" "$work/content"
tar --extract --file "$work/content.tar" --directory "$work/unpacked" --no-same-owner \
    --no-same-permissions --no-overwrite-dir --delay-directory-restore
{
    echo "[usb]"
    echo "import = true"
    echo "content = \"$work/content\""
    [ -z "${MAX_MB:-}" ] || echo "max_mb = $MAX_MB"
    [ "${ALLOW_EXEC:-0}" != 1 ] || echo "allow_exec = true"
} >"$work/kiosk.toml"
if ! "$KIOSK_BIN" usb-import --config "$work/kiosk.toml" --folder "$work/unpacked" \
        --state-dir "$work/update" --rauc /bin/false 2>"$work/check.log"; then
    echo "make-content-bundle: $CONTENT is refused by the kiosk's own check ($KIOSK_BIN usb-import --folder); nothing written:" >&2
    # The program's lines without the log prefix, the stick's kiosk-carousel/ named as CONTENT.
    sed -E -e 's/^(<[0-7]>|[A-Z]+ )kiosk-carousel\.usb: //' -e "s|^$work/unpacked: ||" \
        -e "s|$work/unpacked/kiosk-carousel/|$CONTENT/|g" -e "s|kiosk-carousel/|$CONTENT/|g" "$work/check.log" >&2
    exit 1
fi
items=$(sed -n 's/.*"items":\([0-9]*\).*/\1/p' "$work/content/status.json")

# Signed (the signer's certificate inside), written under a temporary name, checked against the
# keyring the kiosks trust with the command the kiosk runs, then renamed into place.
mkdir -p "$(dirname "$BUNDLE")"
openssl cms -sign -nodetach -binary -outform DER -in "$work/content.tar" \
    -signer "$UPDATE_CERT" -inkey "$UPDATE_KEY" -out "$BUNDLE.part"
openssl cms -verify -binary -inform DER -in "$BUNDLE.part" -CAfile "$UPDATE_KEYRING" -purpose any \
    -out /dev/null 2>"$work/verify.log" \
    || { rm -f "$BUNDLE.part"; cat "$work/verify.log" >&2; die "the bundle does not verify against $UPDATE_KEYRING (UPDATE_KEYRING)"; }
mv "$BUNDLE.part" "$BUNDLE"
echo "make-content-bundle: $BUNDLE ($(du -h "$BUNDLE" | cut -f1); ${items:-?} items from $CONTENT; signed by $(openssl x509 -in "$UPDATE_CERT" -noout -subject | sed 's/^subject= *//'), trusted by $UPDATE_KEYRING)"
