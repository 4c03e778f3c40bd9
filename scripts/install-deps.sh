#!/usr/bin/env bash
# make deps: installs what debian/control's Build-Depends names and this machine lacks: the
# build's libraries, the tests' fonts and tools, the VM and package tests' QEMU, kernel,
# mmdebstrap… (docs/packaging.md; the field is the project's one list of Debian packages).
# dpkg-checkbuilddeps says what is missing (about a second when nothing is); apt-get build-dep
# installs it, as for any Debian source tree. Needs root or sudo for that.
#   DEB_BUILD_PROFILES="nocheck"   only what the build needs (dpkg's build profiles)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
profiles=${DEB_BUILD_PROFILES:-}

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    sudo=(false)
fi
apt_get() {
    if [ "${sudo[0]:-}" = false ]; then
        echo "install-deps: run as root, or install sudo, or install them yourself:" >&2
        echo "    apt-get $*" >&2
        exit 1
    fi
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get "$@"
}
# dpkg-checkbuilddeps and the parser of scripts/build-deps.sh are dpkg-dev's.
command -v dpkg-checkbuilddeps >/dev/null || { apt_get update -q; apt_get install -y -q --no-install-recommends dpkg-dev; }

if unmet=$(cd "$top" && dpkg-checkbuilddeps ${profiles:+-P "$profiles"} 2>&1); then
    echo "install-deps: all $("$top/scripts/build-deps.sh" $profiles | wc -l) Debian packages of debian/control's Build-Depends present${profiles:+ (profiles: $profiles)}"
    exit 0
fi
echo "install-deps: ${unmet#dpkg-checkbuilddeps: error: }"
apt_get update -q
apt_get build-dep -y -q --no-install-recommends ${profiles:+-P "$profiles"} "$top"
