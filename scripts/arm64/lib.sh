#!/usr/bin/env bash
# Shared by the scripts in scripts/arm64/ (sourced, not run): where the cache lives, how a step
# is announced and timed, how the Debian roots are made and entered. See docs/arm64.md.
#
# Everything downloaded lives outside the tree, in $ARM64_CACHE (default
# /var/cache/kiosk-carousel/arm64). A root is made once and reused while its recipe (suite,
# architecture, variant, package list) is unchanged: its stamp file records the recipe, and is
# written last, so a root without one is unfinished (its mmdebstrap failed or was stopped) and is
# made again from the start.

ARM64_CACHE=${ARM64_CACHE:-/var/cache/kiosk-carousel/arm64}
# The Debian mirror this machine already uses (its apt sources: scripts/apt-mirrors.sh).
source "$(dirname "${BASH_SOURCE[0]}")/../apt-mirrors.sh"
MIRROR=${MIRROR:-$(debian_mirror)}

# The packages come from debian/control's Build-Depends (scripts/build-deps.sh), the one list:
#   ARM64_DEV_PACKAGES   what the build links (profile nocheck), without git (roots.sh names it
#                        with the toolchain)
#   ARM64_FONT_PACKAGES  the fonts the cards and tests use (the tests' packages named fonts-*)
#   ARM64_TEST_PACKAGES  the tests' other packages: ffmpeg makes the VideoTests' clips, openssl,
#                        curl and python3 serve and sign the updater tests' bundles
# (the tests' packages: profile pkg.kiosk-carousel.novm, less the build's; the VM and package
# checks run on this machine, not in the roots). A root's stamp is its list: keep the order.
_arm64_build_deps=$(dirname "${BASH_SOURCE[0]}")/../build-deps.sh
_arm64_build=$("$_arm64_build_deps" nocheck) || { echo "arm64: scripts/build-deps.sh failed" >&2; exit 1; }
_arm64_tests=$("$_arm64_build_deps" pkg.kiosk-carousel.novm | grep -vxF "$_arm64_build")
ARM64_DEV_PACKAGES=$(grep -vx git <<< "$_arm64_build" | paste -sd,)
ARM64_FONT_PACKAGES=$(grep '^fonts-' <<< "$_arm64_tests" | paste -sd,)
ARM64_TEST_PACKAGES=$(grep -v '^fonts-' <<< "$_arm64_tests" | paste -sd,)

# The clock starts in the first script; scripts it runs count from the same start.
export _arm64_t0=${_arm64_t0:-$(date +%s)}
_arm64_step_t=$_arm64_t0
_arm64_step_name=""

# step NAME: announces a step, and how long the previous one took.
step() {
    local now; now=$(date +%s)
    [ -z "$_arm64_step_name" ] || echo "== ${_arm64_step_name}: done in $(( now - _arm64_step_t )) s"
    _arm64_step_name=$1; _arm64_step_t=$now
    echo "== [$(( now - _arm64_t0 )) s] $1"
}
# step_end: closes the last step.
step_end() { step "finished"; _arm64_step_name=""; }

# die MESSAGE: stops with the step it failed in.
die() { echo "arm64: FAILED in step '${_arm64_step_name}': $*" >&2; exit 1; }

# nice_to_10: the increment that brings this process's niceness to 10 (0 when it is 10 or more).
# The long steps (a root's mmdebstrap, the cross build) run at niceness 10, not 10 more than
# the caller's: under `nice make` that was 19, the lowest, and the trixie root's dpkg under
# qemu-user got ~2 % of a core beside a `nice swift build` of the same session. (With the
# kernel's autogroups, nice orders only the processes of one session: other sessions' builds
# take their share whatever it says.)
nice_to_10() { local n; n=$(nice); echo $(( n < 10 ? 10 - n : 0 )); }

need_root() {
    [ "$(id -u)" -eq 0 ] || die "needs root (chroot, mount, mmdebstrap --mode=root)"
    arm64_job_lock
}

# One arm64 job at a time: the roots' mounts (/src, /proc, /dev, the package mirror) are shared
# by every job on the machine, and each job's exit unmounts them — a `make arm64-release` started
# beside CI's background arm64 build unmounted its /src and broke it (stop 53). The first script
# of a job takes the lock ($ARM64_CACHE/.job.lock, waiting while another job holds it, and
# saying so); the scripts it starts inherit it (ARM64_JOB_LOCK_HELD) and the open descriptor.
arm64_job_lock() {
    [ -n "${ARM64_JOB_LOCK_HELD:-}" ] && return 0
    mkdir -p "$ARM64_CACHE"
    exec 8>"$ARM64_CACHE/.job.lock"
    if ! flock -n 8; then
        echo "arm64: another arm64 job holds $ARM64_CACHE/.job.lock (the roots' mounts are shared): waiting for it" >&2
        flock 8
    fi
    export ARM64_JOB_LOCK_HELD=1
}

# host_packages PKG...: installs the host's missing Debian packages (apt-get, no recommends).
# The lists are read first when apt knows none of them, and again when the install fails: apt's
# binary cache (pkgcache.bin) can still list packages whose lists are gone, and then the install
# fails with "has no installation candidate" though `apt-cache show` found them.
host_packages() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "arm64: installing on the host: ${missing[*]}"
    apt-cache show "${missing[@]}" >/dev/null 2>&1 || apt-get update -q >/dev/null || die "apt-get update"
    local install=(env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}")
    "${install[@]}" >/dev/null 2>&1 || { apt-get update -q >/dev/null || die "apt-get update"; "${install[@]}" >/dev/null; } \
        || die "apt-get install ${missing[*]}"
}

# What the host needs to make and enter aarch64 roots: qemu-user-static runs aarch64 programs,
# binfmt-support registers it, mmdebstrap makes the roots, and arch-test, which mmdebstrap runs to
# see that the host can execute a foreign architecture ("E: install arch-test for foreign
# architecture support" without it). arch-test is only a Recommends of mmdebstrap, so
# scripts/install-deps.sh's --no-install-recommends leaves it out: name it here.
ARM64_HOST_PACKAGES=(qemu-user-static binfmt-support mmdebstrap arch-test)

# binfmt_ready: qemu-user runs aarch64 programs (inside chroots, too: the F flag of
# qemu-user-static's binfmt entry opens the interpreter when it is registered).
binfmt_ready() {
    host_packages "${ARM64_HOST_PACKAGES[@]}"
    mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    update-binfmts --enable qemu-aarch64 2>/dev/null || true
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || die "qemu-aarch64 binfmt entry missing"
}

# make_root SUITE ARCH VARIANT DIR PACKAGES: a Debian root from the mirror, made once.
# VARIANT extract only unpacks (natively, no dpkg under emulation: fast; no dpkg database);
# apt installs properly (maintainer scripts run under qemu-user for a foreign ARCH; slower).
make_root() {
    local suite=$1 arch=$2 variant=$3 dir=$4 pkgs=$5
    local recipe="$suite $arch $variant $pkgs"
    if [ -f "$dir/.kiosk-root-stamp" ] && [ "$(cat "$dir/.kiosk-root-stamp")" = "$recipe" ]; then
        echo "arm64: $dir is up to date (cached)"
        return 0
    fi
    [ -n "$MIRROR" ] || die "no Debian mirror: set MIRROR"
    if [ -f "$dir/.kiosk-root-stamp" ]; then echo "arm64: $dir: its recipe changed, making it again"
    elif [ -e "$dir" ]; then echo "arm64: $dir has no stamp (unfinished: log $dir.log), making it again"
    else echo "arm64: making $dir"; fi
    umount_root "$dir"
    # --one-file-system: a mount that outlived umount_root (the host's /dev, a bind-mounted tree)
    # stops rm instead of being emptied.
    rm -rf --one-file-system "$dir"; mkdir -p "$(dirname "$dir")"
    local include=(--include="$pkgs")
    [ "$variant" = extract ] && include=(--include='?essential' --include="$pkgs")
    # sid's Release file on this mirror is past its Valid-Until date; the archive key still checks it.
    nice -n "$(nice_to_10)" mmdebstrap --mode=root --arch="$arch" --variant="$variant" \
        --aptopt='APT::Install-Recommends "false"' --aptopt='Acquire::Check-Valid-Until "false"' \
        "${include[@]}" "$suite" "$dir" "$MIRROR" > "$dir.log" 2>&1 \
        || { tail -20 "$dir.log" >&2; die "mmdebstrap $suite $arch (log: $dir.log)"; }
    if [ "$variant" = extract ]; then
        # Unpacked only: give it the users, groups and library cache a configured system has.
        cp "$dir/usr/share/base-passwd/passwd.master" "$dir/etc/passwd"
        cp "$dir/usr/share/base-passwd/group.master" "$dir/etc/group"
        # No alternatives are set up unpacked: `swift` on PATH, as update-alternatives would.
        [ -x "$dir/usr/libexec/swift/bin/swift" ] && ln -sf /usr/libexec/swift/bin/swift "$dir/usr/bin/swift"
        chroot "$dir" /sbin/ldconfig
        [ -x "$dir/usr/bin/fc-cache" ] && chroot "$dir" fc-cache -s >/dev/null 2>&1 || true
    fi
    echo "$recipe" > "$dir/.kiosk-root-stamp"
}

# bind_once SRC DST: a bind mount, unless DST is already a mount point.
bind_once() { mountpoint -q "$2" || { mkdir -p "$2"; mount --bind "$1" "$2"; }; }

# enter_root DIR: /proc, /dev and the Swift package mirror mounted, git told to read github.com
# from /opt/swift-packages (the only source of Swift packages here).
enter_root() {
    local r=$1
    mountpoint -q "$r/proc" || mount -t proc proc "$r/proc"
    mountpoint -q "$r/dev" || { mkdir -p "$r/dev"; mount --rbind /dev "$r/dev"; mount --make-rslave "$r/dev"; }
    if [ -d /opt/swift-packages ]; then
        bind_once /opt/swift-packages "$r/opt/swift-packages"
        mkdir -p "$r/root"
        printf '[url "/opt/swift-packages/"]\n\tinsteadOf = https://github.com/\n[safe]\n\tdirectory = *\n' > "$r/root/.gitconfig"
    fi
}

# umount_root DIR: undoes every mount below DIR (deepest first; scripts/umount-below.sh).
source "$(dirname "${BASH_SOURCE[0]}")/../umount-below.sh"
umount_root() { umount_below "$1"; }

# unmount_on_exit DIR...: when the script ends, however it ends, the roots' mounts go (a root
# left with /dev bind-mounted in it must never be deleted with rm -rf).
unmount_on_exit() {
    _arm64_mounted_roots=("$@")
    trap 'for r in "${_arm64_mounted_roots[@]}"; do umount_root "$r"; done' EXIT
}

# in_root DIR COMMAND: runs a shell command in DIR with a clean environment.
in_root() {
    local r=$1; shift
    chroot "$r" env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 "${@:1:$#-1}" bash -c "${@: -1}"
}
