#!/usr/bin/env bash
# dpkg-shlibdeps for an arm64 binary, run where arm64's libraries and dpkg database are: inside
# the installed trixie arm64 root, under qemu-user (docs/arm64.md). dh_shlibdeps calls it
# as dpkg-shlibdeps (scripts/arm64/deb.sh puts a `dpkg-shlibdeps` that runs it first on PATH):
# same arguments, same working directory.
#
# On the host, dpkg-shlibdeps finds neither the arm64 libraries nor the packages that ship them
# (it has no sysroot option, and --admindir alone does not help when the library paths carry the
# root's prefix); inside the root it runs as on a board. The working directory and the folders of
# the files named in the arguments are bind-mounted at the same paths, for the time of the call.
#
#   ARM64_ROOT   the root (default $ARM64_CACHE/trixie-arm64, made by scripts/arm64/roots.sh)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
ROOT=${ARM64_ROOT:-$ARM64_CACHE/trixie-arm64}
[ -x "$ROOT/usr/bin/dpkg-shlibdeps" ] || { echo "shlibdeps-in-root: no dpkg-shlibdeps in $ROOT (scripts/arm64/roots.sh trixie-arm64)" >&2; exit 1; }
dirs=("$PWD")
for arg in "$@"; do [ -e "$arg" ] && dirs+=("$(cd "$(dirname "$arg")" && pwd)"); done
mounted=()
cleanup() { local m; for m in "${mounted[@]}"; do umount "$m" 2>/dev/null || true; done; }
trap cleanup EXIT
for d in $(printf '%s\n' "${dirs[@]}" | sort -u); do
    if ! mountpoint -q "$ROOT$d"; then mkdir -p "$ROOT$d"; mount --bind "$d" "$ROOT$d"; mounted=("$ROOT$d" "${mounted[@]}"); fi
done
mountpoint -q "$ROOT/proc" || { mount -t proc proc "$ROOT/proc"; mounted=("$ROOT/proc" "${mounted[@]}"); }
printf -v quoted ' %q' "$@"
chroot "$ROOT" env -i PATH=/usr/bin:/bin LANG=C.UTF-8 bash -c "cd $(printf %q "$PWD") && dpkg-shlibdeps$quoted"
