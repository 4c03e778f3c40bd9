#!/usr/bin/env bash
# make image: a raw disk image that boots (UEFI, x86-64 or arm64) straight into the carousel.
#
#   out/kiosk-carousel-<version>-amd64.img     write it with dd (docs/image.md)
#   out/kiosk-carousel-<version>-arm64.img     ARCH=arm64: UEFI arm64 (qemu -M virt, SBSA/EBBR boards)
#   out/kiosk-carousel-<version>-rpi-arm64.img BOARD=rpi: Raspberry Pi 4 (the Pi's firmware, MBR;
#                                              scripts/image/rpi.sh, docs/raspberry-pi.md)
#
#   out/kiosk-carousel-<version>-<arch>.rootfs.ext4   slot A's root filesystem on its own: what
#                                              `make update-bundle` ships (scripts/make-update-bundle.sh)
#
#   GPT  1  ESP     FAT32  systemd-boot as \EFI\BOOT\BOOTX64.EFI (arm64: BOOTAA64.EFI), the loader
#                          entries, each slot's kernel and initrd in \a\ and \b\
#        2  root-a  ext4   slot A: Debian 12 (bookworm; arm64: Debian 13 trixie), mounted read-only
#        3  root-b  ext4   slot B: empty at build (RAUC writes it; docs/updates.md)
#        4  KIOSK   FAT32  config.toml + media/ (the package's example), edited on a laptop
#        5  data    ext4   journalled, read-write at /data: /var/lib/kiosk-carousel, RAUC's status
#
# The A/B layout, the updater (RAUC) and the boot counting: docs/updates.md.
#
# Debian 12 because the .deb is built on this bookworm machine against bookworm's libraries
# (docs/image.md); the arm64 .deb (make arm64-deb, docs/arm64.md) targets Debian 13 trixie. A
# foreign ARCH runs the packages' maintainer scripts under qemu-user (binfmt): slow, but works.
# The packages downloaded are kept in $CACHE (one folder per suite and architecture) so that a
# second build downloads only the archive's index files.
#
# Variables: ARCH (amd64 or arm64, default amd64), BOARD (uefi or rpi, default uefi), SUITE (default bookworm for amd64, trixie for
# arm64), DEB (default: the newest out/kiosk-carousel_*_$ARCH.deb), OUT (default out/),
# CACHE (default /var/cache/kiosk-carousel/image), MIRROR and SECURITY_MIRROR (default: the
# mirrors this machine's apt uses for its own release, scripts/apt-mirrors.sh), KIOSK_MB (size of the KIOSK partition, default 256), EXTRA_PACKAGES (say
# firmware for a real machine's GPU: "firmware-amd-graphics"; needs non-free-firmware in
# COMPONENTS), COMPONENTS (default "main"), WORK (scratch folder, default out/image-work),
# IMAGE_VERSION (os-release's IMAGE_VERSION and the file names; default the package's version),
# ROOT_SLOT_MB (each root slot, default 1280: an update's root filesystem must fit it),
# DATA_MB (the data partition, default 1024: it takes a downloaded or copied update bundle, ~0.3 GiB, beside the content), UPDATE_KEYRING (the CA certificate the image trusts
# for update bundles; default the development CA of out/update-keys/, made when missing:
# scripts/update-keys.sh).
# Needs root (mmdebstrap in root mode, files owned by root in the ext4 image). No loop devices.
set -euo pipefail
# A command that ends the script under set -e says where (such an end was silent: an empty log).
trap 'echo "make-image: stopped at line $LINENO: $BASH_COMMAND (exit $?)" >&2' ERR

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
OUT=${OUT:-$top/out}
WORK=${WORK:-$OUT/image-work}
CACHE=${CACHE:-/var/cache/kiosk-carousel/image}
# The mirrors this machine's apt uses for its own release and its security updates
# (scripts/apt-mirrors.sh: a one-line sources.list or deb822 .sources alike).
source "$top/scripts/apt-mirrors.sh"
MIRROR=${MIRROR:-$(debian_mirror)}
SECURITY_MIRROR=${SECURITY_MIRROR:-$(debian_security_mirror)}
COMPONENTS=${COMPONENTS:-main}
KIOSK_MB=${KIOSK_MB:-256}
ESP_MB=256
ROOT_SLOT_MB=${ROOT_SLOT_MB:-1280}
DATA_MB=${DATA_MB:-1024}
ARCH=${ARCH:-amd64}
# BOARD: uefi (default: the disk above) or rpi (a Raspberry Pi's own boot chain, arm64: the
# partitions and boot files of scripts/image/rpi.sh, docs/raspberry-pi.md).
BOARD=${BOARD:-uefi}
case $BOARD in
    uefi) ;;
    rpi) source "$top/scripts/image/rpi.sh"; rpi_defaults ;;
    *) echo "make-image: BOARD=$BOARD: uefi or rpi" >&2; exit 1 ;;
esac
# Per architecture: the Debian release the .deb was built for, the kernel package, the name UEFI
# gives the architecture (systemd-boot<efi>.efi -> \EFI\BOOT\BOOT<EFI>.EFI), how long systemd
# waits for the KIOSK and data partitions (arm64 under QEMU TCG: udev's coldplug alone takes
# ~25 s, the disk's partitions appear ~40 s after systemd starts; an SD card on a board is slow
# too; amd64 under TCG with two VMs on a busy 2-core host: 20 s ran out, docs/image.md).
case $ARCH in
    amd64) SUITE=${SUITE:-bookworm}; efi=x64;  kernel_pkg=linux-image-amd64; kiosk_wait=90s ;;
    arm64) SUITE=${SUITE:-trixie};   efi=aa64; kernel_pkg=linux-image-arm64; kiosk_wait=90s ;;
    *) echo "make-image: ARCH=$ARCH: amd64 or arm64" >&2; exit 1 ;;
esac
case $SUITE in bookworm) debian="Debian 12" ;; trixie) debian="Debian 13" ;; *) debian="Debian $SUITE" ;; esac
EFI_LOADER=systemd-boot$efi.efi
EFI_BOOT=BOOT$(echo "$efi" | tr a-z A-Z).EFI

t0=$(date +%s.%N)
tstep=$t0
step() {
    local now; now=$(date +%s.%N)
    printf 'make-image: [%6.1f s] %s\n' "$(echo "$now - $t0" | bc)" "$*"
    tstep=$now
}
die() { echo "make-image: $*" >&2; exit 1; }

[ -n "$MIRROR" ] && [ -n "$SECURITY_MIRROR" ] \
    || die "set MIRROR= and SECURITY_MIRROR= (Debian's archive and its security archive): apt on this machine names no repository for '$(apt_host_codename)' and '$(apt_host_codename)-security' (apt-get indextargets)"
[ "$(id -u)" -eq 0 ] || die "needs root (mmdebstrap in root mode; the root filesystem's files are owned by root)"

# --- prerequisites (Debian package names) ---------------------------------------------------
need=()
for pair in mmdebstrap:mmdebstrap mkfs.ext4:e2fsprogs mkfs.vfat:dosfstools mcopy:mtools \
            sfdisk:fdisk bc:bc uuidgen:uuid-runtime openssl:openssl python3:python3; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
done
# The host's systemd-boot for the host's architecture; a foreign ARCH's comes from the image root
# (systemd-boot-efi installed there, below).
native=$(dpkg --print-architecture)
[ "$ARCH" != "$native" ] || [ -f /usr/lib/systemd/boot/efi/$EFI_LOADER ] || need+=(systemd-boot-efi)
# A foreign ARCH: mmdebstrap runs the root's maintainer scripts under qemu-user, and checks that it
# can with arch-test (only a Recommends of mmdebstrap: "E: install arch-test for foreign
# architecture support" without it).
if [ "$ARCH" != "$native" ]; then
    for pair in arch-test:arch-test qemu-aarch64-static:qemu-user-static update-binfmts:binfmt-support; do
        command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
    done
fi
if [ ${#need[@]} -gt 0 ]; then
    echo "make-image: installing ${need[*]}"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
fi

# --- the package ---------------------------------------------------------------------------
if [ -z "${DEB:-}" ]; then
    DEB=$(ls -t "$OUT"/kiosk-carousel_*_"$ARCH".deb 2>/dev/null | head -1 || true)
    [ -n "$DEB" ] || die "no $OUT/kiosk-carousel_*_$ARCH.deb: run make deb first, or set DEB="
fi
DEB=$(realpath "$DEB")
pkgversion=$(dpkg-deb -f "$DEB" Version)
version=${IMAGE_VERSION:-${pkgversion%-*}}   # the program's version, without a Debian revision
IMG=$OUT/kiosk-carousel-$version-${IMG_NAME_ARCH:-$ARCH}.img
ROOTFS=$OUT/kiosk-carousel-$version-${IMG_NAME_ARCH:-$ARCH}.rootfs.ext4
step "package $DEB (version $pkgversion) -> $IMG"

# A build that stopped half-way can leave mounts below $WORK (mmdebstrap bind-mounts the .deb, and
# in root mode the host's /dev nodes, into the root): undo them, deepest first, before deleting
# anything, and never cross into another filesystem while deleting.
source "$top/scripts/umount-below.sh"
umount_below "$WORK"
rm -rf --one-file-system "$WORK"
trap 'umount_below "$WORK"' EXIT
# The package cache, one per suite and architecture; bookworm amd64 keeps the folder it always had
# (other checkouts on the same machine share it).
PKGCACHE=$CACHE/$SUITE-$ARCH/archives
[ "$SUITE-$ARCH" != bookworm-amd64 ] || PKGCACHE=$CACHE/archives
mkdir -p "$WORK" "$PKGCACHE" "$OUT"
ROOT=$WORK/root

# --- 1. the root filesystem ----------------------------------------------------------------
# minbase + what boots and runs the kiosk. Recommends are off: every package is named here or
# pulled in by a Depends. The package goes in through apt (so its Depends are resolved from
# the archive) from the local file, which file-mirror-automount makes visible inside.
# fontconfig: its trigger writes the font cache into /var/cache/fontconfig at build time; without
# it every start scans the fonts again and complains that no cache folder is writable.
# fonts-noto-color-emoji: the package only recommends it (Recommends are off here); emoji in
# card titles are drawn in colour from it, not as hex boxes (docs/cards.md).
# rauc, rauc-service: the updater (its command line talks to its D-Bus service); systemd-boot:
# systemd-bless-boot and its generator (boot counting; its hooks do nothing without a mounted ESP).
# curl, ca-certificates, openssl: the package's Recommends for [update] url and [content] url
# (downloads, TLS against the system's CAs, content bundles' signatures); systemd-resolved and
# systemd-timesyncd: names and the clock for them (a board without a battery-backed clock starts
# in the past, and TLS checks certificates' dates). The wired network: image/rootfs's .network
# file, systemd-networkd enabled below (image/customize.sh).
packages=($kernel_pkg initramfs-tools zstd systemd systemd-sysv udev dosfstools fontconfig fonts-noto-color-emoji
          e2fsprogs rauc rauc-service systemd-boot
          curl ca-certificates openssl systemd-resolved systemd-timesyncd)
[ "$ARCH" = "$native" ] || packages+=(systemd-boot-efi)    # only its $EFI_LOADER is used, on the ESP
# shellcheck disable=SC2206
packages+=(${EXTRA_PACKAGES:-})
# The host's package lists before the build: it must leave them as they were (a hook that acts on
# the host instead of the target once emptied them; image/customize.sh).
host_lists() { find /var/lib/apt/lists -maxdepth 1 -type f -printf '%f %s %T@\n' 2>/dev/null | sort; }
lists_before=$(host_lists)
step "mmdebstrap $SUITE ($ARCH, minbase): ${packages[*]} + $(basename "$DEB")"
mmdebstrap --mode=root --variant=minbase --architectures="$ARCH" --format=directory \
    --aptopt='APT::Install-Recommends "false"' \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --include="$(IFS=,; echo "${packages[*]}")" \
    --include="$DEB" \
    --hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
    --skip=download/empty --skip=essential/unlink \
    --setup-hook="mkdir -p \"\$1\"/var/cache/apt/archives/" \
    --setup-hook="sync-in '$PKGCACHE' /var/cache/apt/archives/" \
    --customize-hook="sync-out /var/cache/apt/archives '$PKGCACHE'" \
    --customize-hook="'$top/image/customize.sh' \"\$1\"" \
    "$SUITE" "$ROOT" \
    "deb $MIRROR $SUITE ${COMPONENTS//,/ }" \
    "deb $MIRROR $SUITE-updates ${COMPONENTS//,/ }" \
    "deb $SECURITY_MIRROR $SUITE-security ${COMPONENTS//,/ }"
[ "$(host_lists)" = "$lists_before" ] || {
    # (diff exits 1 here: under set -e and pipefail it must not end the script before die speaks)
    diff <(echo "$lists_before") <(host_lists) | sed 's/^/    /' >&2 || true
    die "the build changed this machine's apt lists in /var/lib/apt/lists (above: < before, > after); it must only touch $ROOT"
}
step "root filesystem ready: $(du -sh --apparent-size "$ROOT" | cut -f1) ($(ls "$PKGCACHE" | grep -c '\.deb$') packages in $PKGCACHE)"

kernel=$(ls "$ROOT"/boot/vmlinuz-* | sort -V | tail -1)
kver=${kernel##*/vmlinuz-}
initrd=$ROOT/boot/initrd.img-$kver
[ -f "$initrd" ] || die "no initrd for $kver"
example=$ROOT/usr/share/kiosk-carousel/example
[ -f "$example/config.toml" ] || die "the package has no $example/config.toml (the example config the KIOSK partition starts with)"

# --- 2. identity, slots, partitions --------------------------------------------------------
# The partitions' GPT UUIDs are derived from the architecture and each partition's role, the same
# in every build: a root filesystem built later (an update, make update-bundle) names the
# partitions of the disk it lands on (fstab, RAUC's slots, the loader entries its slot writes).
puuid() { uuidgen --sha1 --namespace @url --name "https://kiosk-carousel.invalid/image/$ARCH/$1"; }
esp_partuuid=$(puuid esp)
root_a_partuuid=$(puuid root-a)
root_b_partuuid=$(puuid root-b)
kiosk_partuuid=$(puuid kiosk)
data_partuuid=$(puuid data)
[ "$BOARD" != rpi ] || rpi_partuuids

# os-release: which image this is (systemd's IMAGE_ID, IMAGE_VERSION; /etc/os-release links here).
sed -i '/^IMAGE_ID=/d; /^IMAGE_VERSION=/d' "$ROOT/usr/lib/os-release"
printf 'IMAGE_ID=kiosk-carousel\nIMAGE_VERSION=%s\n' "$version" >>"$ROOT/usr/lib/os-release"

# Kernel command line of every slot; each slot adds root=PARTUUID=<its partition> ro rauc.slot=<A|B>
# panic=10 (usr/lib/kiosk-image/rauc-bootloader writes the entries).
cmdline_common="quiet loglevel=3 systemd.show_status=false rd.udev.log_level=3 vt.global_cursor_default=0"
cat >"$ROOT/usr/lib/kiosk-image/slots" <<EOF
# The A/B slots of this image (scripts/make-image.sh; docs/updates.md). Read by the RAUC
# bootloader backend (rauc-bootloader), the bundle's slot hook and boot-state.
ESP=/efi
ROOT_A_PARTUUID=$root_a_partuuid
ROOT_B_PARTUUID=$root_b_partuuid
CMDLINE="$cmdline_common"
TRIES=3
EOF
# RAUC: the slots, the custom bootloader backend, the version check, the keyring.
mkdir -p "$ROOT/etc/rauc"
cat >"$ROOT/etc/rauc/system.conf" <<EOF
# KioskCarousel image (scripts/make-image.sh, docs/updates.md): two root slots, the boot
# loader entries on the ESP managed by rauc-bootloader (systemd-boot with boot counting).
[system]
compatible=KioskCarousel-$ARCH
bootloader=custom
# The root is read-only: RAUC mounts bundles and slots below /run.
mountprefix=/run/rauc
statusfile=/data/rauc/central.raucs
data-directory=/data/rauc
# Only dm-verity bundles: every block is checked as it is read, not once before.
bundle-formats=-plain

[keyring]
path=/etc/rauc/keyring.pem
check-purpose=codesign

[handlers]
pre-install=/usr/lib/kiosk-image/rauc-pre-install
bootloader-custom-backend=/usr/lib/kiosk-image/rauc-bootloader

[slot.rootfs.0]
device=/dev/disk/by-partuuid/$root_a_partuuid
type=ext4
bootname=A

[slot.rootfs.1]
device=/dev/disk/by-partuuid/$root_b_partuuid
type=ext4
bootname=B
EOF
# The keyring: the CA certificate bundles must be signed under (UPDATE_KEYRING=, else the
# development CA of out/update-keys/, made when missing).
source "$top/scripts/update-keys.sh"
update_keys "$OUT/update-keys"
cp "$UPDATE_KEYRING" "$ROOT/etc/rauc/keyring.pem"
chmod 0644 "$ROOT/etc/rauc/keyring.pem"

# fstab. The root is mounted read-only by the kernel (root=… ro from the slot's loader entry);
# everything written at run time goes to RAM, except /data. The KIOSK partition holds config.toml
# and media/. The ESP is mounted only while something uses it (the boot counter's blessing, an
# update writing its slot's kernel), then unmounted: FAT has no journal.
cat >"$ROOT/etc/fstab" <<EOF
# KioskCarousel image (scripts/make-image.sh, docs/image.md, docs/updates.md).
PARTUUID=$esp_partuuid  /efi  vfat  nofail,x-systemd.automount,x-systemd.idle-timeout=20,umask=0077,flush,nosuid,nodev,noexec  0 0
LABEL=KIOSK   /srv/kiosk         vfat   ro,nofail,umask=022,iocharset=utf8,nosuid,nodev,noexec,x-systemd.device-timeout=$kiosk_wait  0 2
PARTUUID=$data_partuuid  /data  ext4  rw,nofail,nosuid,nodev,noatime,x-systemd.device-timeout=$kiosk_wait  0 2
/data/kiosk-carousel  /var/lib/kiosk-carousel  none  bind,nofail,x-systemd.requires-mounts-for=/data  0 0
tmpfs         /tmp               tmpfs  mode=1777,nosuid,nodev,size=25%  0 0
tmpfs         /var/tmp           tmpfs  mode=1777,nosuid,nodev,size=10%  0 0
tmpfs         /var/log           tmpfs  mode=0755,nosuid,nodev,noexec,size=10%  0 0
tmpfs         /var/lib/systemd   tmpfs  mode=0755,nosuid,nodev,size=16M  0 0
EOF
mkdir -p "$ROOT/srv/kiosk" "$ROOT/efi" "$ROOT/data" "$ROOT/var/lib/kiosk-carousel"
# systemd-remount-fs.service applies fstab's options to /, /usr and the kernel's API file
# systems; this fstab names none of them (the root is mounted read-only from the kernel's command
# line), so it would have nothing to do. Masked: under QEMU TCG that process start was on the
# kiosk's way to its partitions — systemd-tmpfiles-setup-dev waits for systemd-sysusers, which is
# ordered after it (and then skipped: /etc is read-only), and local-fs-pre.target, the partitions'
# checks and mounts wait for tmpfiles-setup-dev (docs/start-up.md).
if grep -qE '^[^#[:space:]]+[[:space:]]+(/|/usr|/proc|/sys|/dev|/run)[[:space:]]' "$ROOT/etc/fstab"; then
    die "the image's fstab names the root, /usr or an API file system: systemd-remount-fs must stay"
fi
ln -sf /dev/null "$ROOT/etc/systemd/system/systemd-remount-fs.service"

# The data partition's first contents: the folders the package's tmpfiles.d creates below
# /var/lib/kiosk-carousel (with their modes and owners, users looked up in the image), the
# updater's, RAUC's.
DATA=$WORK/data
mkdir -p "$DATA"
uid_of() { case $1 in -|root) echo 0 ;; *) awk -F: -v u="$1" '$1 == u { print $3 }' "$ROOT/etc/passwd" ;; esac; }
gid_of() { case $1 in -|root) echo 0 ;; *) awk -F: -v g="$1" '$1 == g { print $3 }' "$ROOT/etc/group" ;; esac; }
cat "$ROOT"/usr/lib/tmpfiles.d/kiosk-carousel*.conf 2>/dev/null \
  | awk '$1 ~ /^[dD]$/ && $2 ~ "^/var/lib/kiosk-carousel(/|$)" { print $2, $3, $4, $5 }' \
  | while read -r path mode user group; do
        dir=$DATA/kiosk-carousel${path#/var/lib/kiosk-carousel}
        mkdir -p "$dir"
        [ "$mode" = - ] || chmod "$mode" "$dir"
        u=$(uid_of "$user"); g=$(gid_of "$group")
        [ -n "$u" ] && [ -n "$g" ] || die "tmpfiles.d names $user:$group for $path, which the image does not have"
        chown "$u:$g" "$dir"
    done
[ -d "$DATA/kiosk-carousel" ] || die "the package's tmpfiles.d makes no /var/lib/kiosk-carousel"
mkdir -p -m 0755 "$DATA/kiosk-carousel/update"
mkdir -p -m 0700 "$DATA/rauc"

[ "$BOARD" != rpi ] || rpi_root

# --- 3. slot A's root filesystem, on its own (the update bundle ships it) ----------------
# What the files use + 15 % + 64 MiB for the filesystem's own metadata (it is read-only: nothing
# grows); it must fit a root slot.
used_mb=$(du -sm --apparent-size "$ROOT" | cut -f1)
ROOT_MB=$(( used_mb * 115 / 100 + 64 ))
[ "$ROOT_MB" -le "$ROOT_SLOT_MB" ] || die "the root filesystem needs ${ROOT_MB} MiB, the slots have ${ROOT_SLOT_MB} (ROOT_SLOT_MB=)"
step "root filesystem: ext4 ${ROOT_MB} MiB from ${used_mb} MiB of files -> $(basename "$ROOTFS")"
kernel_esp=$WORK/vmlinuz initrd_esp=$WORK/initrd.img
cp "$kernel" "$kernel_esp"; cp "$initrd" "$initrd_esp"
rm -f "$ROOTFS.tmp"
mkfs.ext4 -q -L kiosk-root -d "$ROOT" -E root_owner=0:0 "$ROOTFS.tmp" "${ROOT_MB}M"
mv "$ROOTFS.tmp" "$ROOTFS"

# mkfs_fat32 LABEL START_MIB SIZE_MIB: FAT32 in place. With --offset mkfs.vfat sizes its clusters
# for the whole file, which leaves too few clusters for FAT32 (mtools then finds "No directory
# slots"): pick the largest cluster (<= 32 KiB) that still gives >= 65,525 clusters, and record
# the partition's start as the hidden sectors (what Windows expects of a partition).
mkfs_fat32() {
    local sectors=$(($3 * 2048)) spc=64
    while [ "$spc" -gt 1 ] && [ $((sectors / spc)) -lt 66000 ]; do spc=$((spc / 2)); done
    mkfs.vfat -F 32 -S 512 -s "$spc" -h $(($2 * 2048)) -n "$1" --offset $(($2 * 2048)) \
        "$tmpimg" $(($3 * 1024)) >/dev/null 2>&1 || die "mkfs.vfat of $1 failed"
}

# kiosk_partition_files FAT: the KIOSK partition's files (mtools' IMAGE@@OFFSET), on every board.
kiosk_partition_files() {
    # The example config, plus the control socket when it names none: an installed update waits
    # for a quiet moment before it reboots, and the updater asks the kiosk over this socket whether
    # anybody is using it (docs/updates.md); without one it cannot ask and never reboots.
    cp "$example/config.toml" "$WORK/config.toml"
    if ! grep -q '^\[control\]' "$WORK/config.toml"; then
        cat >>"$WORK/config.toml" <<'EOF'

# The image: the updater asks the kiosk over this socket whether anybody is using it before it
# reboots into an installed update (docs/updates.md). Keep it when you replace this file.
[control]
socket = "/run/kiosk-carousel/control.sock"
EOF
    fi
    mcopy -i "$1" "$WORK/config.toml" ::/config.toml
    mcopy -s -i "$1" "$example/media" ::/media
    cat >"$WORK/README.txt" <<'EOF'
KioskCarousel: this partition is the kiosk's content.

  config.toml   the carousel: items, pictures, theme (docs/configuration.md)
  media/        the pictures; paths in config.toml like "media/01.jpg" are relative to this folder

Edit them on any computer, eject the stick or card properly, put it back and power the kiosk on.
The kiosk reads this partition only; it never writes to it.
EOF
    sed -i 's/$/\r/' "$WORK/README.txt"
    mcopy -i "$1" "$WORK/README.txt" ::/README.txt
}

# finish_disk DATA_START_MIB TOTAL_MB LAYOUT_LINE...: the data partition (ext4, journalled) in place,
# the image checked and moved to $IMG, and $IMG.layout: what the boot test and a person checking
# the written stick need to know (the lines every board has, then the board's own).
finish_disk() {
    local data_start=$1 total=$2
    shift 2
    mkfs.ext4 -q -L kiosk-data -d "$DATA" -E root_owner=0:0,offset=$((data_start * 1048576)) "$tmpimg" "${DATA_MB}M"
    [ "$(stat -c %s "$tmpimg")" -eq $((total * 1048576)) ] || die "mkfs changed the image's size"
    sfdisk -q --verify "$tmpimg" >/dev/null || die "sfdisk --verify of $tmpimg failed"
    mv "$tmpimg" "$IMG"
    {
        printf '%s\n' "version=$version" "arch=$ARCH" "board=$BOARD" "kernel=$kver" "rootfs=$(basename "$ROOTFS")" \
            "root_slot_mib=$ROOT_SLOT_MB" "kiosk_mib=$KIOSK_MB" "data_mib=$DATA_MB" \
            "root_a_partuuid=$root_a_partuuid" "root_b_partuuid=$root_b_partuuid" "data_partuuid=$data_partuuid"
        printf '%s\n' "$@"
    } >"$IMG.layout"
}

if [ "$BOARD" = rpi ]; then
    rpi_disk
    umount_below "$WORK"
    rm -rf --one-file-system "$WORK"
    step "done: $IMG ($(du -h --apparent-size "$IMG" | cut -f1), $(du -h "$IMG" | cut -f1) allocated), $(basename "$ROOTFS") ($(du -h "$ROOTFS" | cut -f1) allocated)"
    exit 0
fi

# --- 4. the disk: partition table, then each filesystem written in place ------------------
# 1 MiB alignment; sizes in MiB. No loop devices: mkfs.vfat --offset, mke2fs -E offset=, dd
# conv=notrunc and mtools' IMAGE@@OFFSET address the partitions inside the image file directly.
ESP_START=1
ROOT_A_START=$((ESP_START + ESP_MB))
ROOT_B_START=$((ROOT_A_START + ROOT_SLOT_MB))
KIOSK_START=$((ROOT_B_START + ROOT_SLOT_MB))
DATA_START=$((KIOSK_START + KIOSK_MB))
TOTAL_MB=$((DATA_START + DATA_MB + 1))       # + 1 MiB for the backup GPT
step "disk: GPT, ${TOTAL_MB} MiB"
tmpimg=$IMG.tmp
rm -f "$tmpimg"
trap 'rm -f "$tmpimg" "$ROOTFS.tmp"; umount_below "$WORK"' EXIT
truncate -s "${TOTAL_MB}M" "$tmpimg"
linux_root=4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709
[ "$ARCH" = amd64 ] || linux_root=B921B045-1DF0-41C3-AF44-4C6F280D3FAE
sfdisk -q "$tmpimg" <<EOF
label: gpt
unit: sectors
start=$((ESP_START * 2048)), size=$((ESP_MB * 2048)), type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, uuid=$esp_partuuid, name="ESP"
start=$((ROOT_A_START * 2048)), size=$((ROOT_SLOT_MB * 2048)), type=$linux_root, uuid=$root_a_partuuid, name="root-a"
start=$((ROOT_B_START * 2048)), size=$((ROOT_SLOT_MB * 2048)), type=$linux_root, uuid=$root_b_partuuid, name="root-b"
start=$((KIOSK_START * 2048)), size=$((KIOSK_MB * 2048)), type=EBD0A0A2-B9E5-4433-87C0-68B6B72699C7, uuid=$kiosk_partuuid, name="KIOSK"
start=$((DATA_START * 2048)), size=$((DATA_MB * 2048)), type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, uuid=$data_partuuid, name="data"
EOF
export MTOOLS_SKIP_CHECK=1
ESP="$tmpimg@@$((ESP_START * 1048576))"
KFAT="$tmpimg@@$((KIOSK_START * 1048576))"

step "ESP: systemd-boot, slot A: kernel $kver, initrd $(du -h "$initrd" | cut -f1)"
mkfs_fat32 ESP "$ESP_START" "$ESP_MB"
mmd -i "$ESP" ::/EFI ::/EFI/BOOT ::/loader ::/loader/entries ::/a ::/b
sdboot=/usr/lib/systemd/boot/efi/$EFI_LOADER
[ "$ARCH" = "$native" ] || sdboot=$ROOT$sdboot
[ -f "$sdboot" ] || die "no $sdboot"
mcopy -i "$ESP" "$sdboot" "::/EFI/BOOT/$EFI_BOOT"
mcopy -i "$ESP" "$kernel_esp" ::/a/vmlinuz
mcopy -i "$ESP" "$initrd_esp" ::/a/initrd.img
echo "$version" >"$WORK/version"
mcopy -i "$ESP" "$WORK/version" ::/a/version
# sd-boot (252) sorts entries with no tries left last, then by id, newest first (the generation
# number), and boots the first that matches `default`: docs/updates.md.
cat >"$WORK/loader.conf" <<EOF
default kiosk-*
timeout 0
console-mode keep
editor no
EOF
# Slot A's entry ships good (no boot counter): the first boot is not a trial.
cmdline="root=PARTUUID=$root_a_partuuid ro rauc.slot=A panic=10 $cmdline_common"
cat >"$WORK/kiosk-1-a.conf" <<EOF
title   KioskCarousel $version (slot A; $debian, kernel $kver)
version $version
linux   /a/vmlinuz
initrd  /a/initrd.img
options $cmdline
EOF
mcopy -i "$ESP" "$WORK/loader.conf" ::/loader/loader.conf
mcopy -i "$ESP" "$WORK/kiosk-1-a.conf" ::/loader/entries/kiosk-1-a.conf

step "KIOSK: $(basename "$example")/config.toml + media/ ($(du -sh "$example/media" | cut -f1))"
mkfs_fat32 KIOSK "$KIOSK_START" "$KIOSK_MB"
kiosk_partition_files "$KFAT"

step "root-a: the root filesystem (${ROOT_MB} MiB of a ${ROOT_SLOT_MB} MiB slot); root-b: empty"
dd if="$ROOTFS" of="$tmpimg" bs=1M seek="$ROOT_A_START" conv=notrunc,sparse status=none
step "data: ext4 ${DATA_MB} MiB, journalled"
finish_disk "$DATA_START" "$TOTAL_MB" \
    "esp_start_mib=$ESP_START" "esp_mib=$ESP_MB" "root_a_start_mib=$ROOT_A_START" "root_b_start_mib=$ROOT_B_START" \
    "kiosk_start_mib=$KIOSK_START" "data_start_mib=$DATA_START" "cmdline=$cmdline"
umount_below "$WORK"
rm -rf --one-file-system "$WORK"
step "done: $IMG ($(du -h --apparent-size "$IMG" | cut -f1), $(du -h "$IMG" | cut -f1) allocated), $(basename "$ROOTFS") ($(du -h "$ROOTFS" | cut -f1) allocated)"
