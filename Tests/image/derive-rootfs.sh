#!/usr/bin/env bash
# Test only (docs/updates.md, "Testing"): a root filesystem for an update test made from one that
# `make image` wrote, without a second mmdebstrap: a copy with another IMAGE_VERSION in
# /usr/lib/os-release and, optionally, extra files (a drop-in that breaks the kiosk, say).
#
#   Tests/image/derive-rootfs.sh IN.rootfs.ext4 OUT.rootfs.ext4 VERSION [LOCAL_FILE:/PATH/IN/ROOT ...]
#
# The files are written with debugfs (no mount, no loop device), owned by root, mode 0644; their
# folders must exist in the root, or are made (one level).
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 IN.ext4 OUT.ext4 VERSION [LOCAL:/PATH ...]" >&2; exit 2; }
in=$1 out=$2 version=$3
shift 3
die() { echo "derive-rootfs: $*" >&2; exit 1; }
[ -f "$in" ] || die "$in: no such file"
work=$(mktemp -d "${TMPDIR:-/var/tmp}/derive-rootfs.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp --sparse=always "$in" "$out.tmp"
debugfs -R 'cat /usr/lib/os-release' "$in" 2>/dev/null >"$work/os-release"
grep -q '^IMAGE_VERSION=' "$work/os-release" || die "$in has no IMAGE_VERSION in /usr/lib/os-release"
sed -i "s/^IMAGE_VERSION=.*/IMAGE_VERSION=$version/" "$work/os-release"
{
    echo "rm /usr/lib/os-release"
    echo "write $work/os-release /usr/lib/os-release"
    echo "sif /usr/lib/os-release mode 0100644"
    for pair in "$@"; do
        src=${pair%%:*} dest=${pair#*:}
        [ -f "$src" ] || die "$src: no such file"
        echo "mkdir ${dest%/*}"
        echo "rm $dest"
        echo "write $src $dest"
        echo "sif $dest mode 0100644"
        echo "sif $dest uid 0"
        echo "sif $dest gid 0"
    done
} >"$work/cmds"
debugfs -w -f "$work/cmds" "$out.tmp" >"$work/debugfs.log" 2>&1 || { cat "$work/debugfs.log" >&2; die "debugfs failed"; }
e2fsck -fn "$out.tmp" >"$work/fsck.log" 2>&1 || { cat "$work/fsck.log" >&2; die "the derived file system is not clean"; }
[ "$(debugfs -R 'cat /usr/lib/os-release' "$out.tmp" 2>/dev/null | sed -n 's/^IMAGE_VERSION=//p')" = "$version" ] \
    || die "IMAGE_VERSION of $out is not $version after the edit"
mv "$out.tmp" "$out"
echo "derive-rootfs: $out (IMAGE_VERSION=$version${*:+; added: $*})"
