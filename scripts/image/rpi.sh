# The Raspberry Pi board of scripts/make-image.sh (BOARD=rpi; docs/raspberry-pi.md). Sourced by it;
# its functions run at four points of the build and use its variables (ROOT, WORK, OUT, IMG,
# ROOTFS, version, kver, kernel, initrd, example, DATA, sizes) and helpers (step, die, mkfs_fat32,
# kiosk_partition_files, finish_disk).
#
# The Pi does not boot UEFI: its firmware (the GPU's boot loader, `raspi-firmware` from Debian's
# non-free-firmware) reads a FAT partition of an MBR disk, config.txt there names the kernel, the
# initramfs and the device tree, cmdline.txt the kernel's command line. The disk, MBR:
#
#   1  autoboot  FAT16   autoboot.txt: which boot partition the firmware uses (tryboot_a_b=1,
#                        boot_partition=2; [tryboot] boot_partition=3: Raspberry Pi's A/B scheme)
#   2  boot-a    FAT32   slot A's boot files: firmware, config.txt, cmdline.txt (root= slot A's
#                        partition), kernel, initrd, the DTBs
#   3  boot-b    FAT32   slot B's: empty at build
#   4  (extended)
#   5  root-a    ext4    slot A's root, read-only          \
#   6  root-b    ext4    slot B's root, empty at build      | the same filesystems as the UEFI
#   7  KIOSK     FAT32   config.toml + media/               | image's
#   8  data      ext4    /data, read-write                 /
#
# PARTUUIDs of an MBR disk are <disk identifier>-<partition number, 2 hex digits>; the disk
# identifier is derived from the board's name (the same in every build), as the UEFI image's GPT
# UUIDs are, so that a root filesystem built later names the partitions of the disk it lands on.

RPI_AUTOBOOT_MB=16
RPI_BOOT_MB=256

# Before anything is installed: the Pi's architecture, release and firmware package.
rpi_defaults() {
    [ "${ARCH:-arm64}" = arm64 ] || die "BOARD=rpi is arm64 (ARCH=$ARCH)"
    ARCH=arm64
    SUITE=${SUITE:-trixie}
    COMPONENTS="${COMPONENTS:-main} non-free-firmware"
    EXTRA_PACKAGES="${EXTRA_PACKAGES:-} raspi-firmware"
    IMG_NAME_ARCH=rpi-arm64
}

# The partitions' identities (replacing the GPT UUIDs of the UEFI image).
rpi_partuuids() {
    rpi_disk_id=$(uuidgen --sha1 --namespace @url --name "https://kiosk-carousel.invalid/image/rpi/disk" | cut -c1-8)
    esp_partuuid=$rpi_disk_id-01        # autoboot: the partition the boot choice lives on
    root_a_partuuid=$rpi_disk_id-05
    root_b_partuuid=$rpi_disk_id-06
    kiosk_partuuid=$rpi_disk_id-07
    data_partuuid=$rpi_disk_id-08
    rpi_boot_a_partuuid=$rpi_disk_id-02
    rpi_boot_b_partuuid=$rpi_disk_id-03
}

# The root filesystem, before it is written: the Pi's RAUC backend instead of systemd-boot's, the
# boot partitions in RAUC's slots, and nothing of the firmware's in /boot/firmware (Debian's
# raspi-firmware hook copied the kernel, initrd and DTBs there for a Pi that mounts its boot
# partition at /boot/firmware; this image writes the boot partitions itself).
rpi_root() {
    rm -rf "${ROOT:?}/boot/firmware"
    mkdir -p "$ROOT/boot/firmware"
    # A Pi's bundle is not a UEFI arm64 machine's: another boot chain, other partitions.
    sed -i -e 's|^compatible=.*|compatible=KioskCarousel-rpi-arm64|' \
        -e 's|^bootloader-custom-backend=.*|bootloader-custom-backend=/usr/lib/kiosk-image/rauc-bootloader-rpi|' \
        "$ROOT/etc/rauc/system.conf"
    cat >>"$ROOT/etc/rauc/system.conf" <<EOF

# The Pi's boot partitions, one per root slot (scripts/image/rpi.sh, docs/raspberry-pi.md).
[slot.boot.0]
device=/dev/disk/by-partuuid/$rpi_boot_a_partuuid
type=vfat
parent=rootfs.0

[slot.boot.1]
device=/dev/disk/by-partuuid/$rpi_boot_b_partuuid
type=vfat
parent=rootfs.1
EOF
    cat >>"$ROOT/usr/lib/kiosk-image/slots" <<EOF
# The Raspberry Pi image: the partition with autoboot.txt is mounted at \$ESP.
BOARD=rpi
EOF
    install -m 0755 "$top/image/rpi/rauc-bootloader-rpi" "$ROOT/usr/lib/kiosk-image/rauc-bootloader-rpi"
}

# The autoboot partition: FAT16, 4-sector clusters (8,192 of them: FAT16 wants 4,085-65,524;
# mkfs.vfat with --offset would size its clusters for the whole image file).
rpi_autoboot_fat() {
    mkfs.vfat -F 16 -S 512 -s 4 -h $(($1 * 2048)) -n AUTOBOOT --offset $(($1 * 2048)) \
        "$tmpimg" $((RPI_AUTOBOOT_MB * 1024)) >/dev/null 2>&1 || die "mkfs.vfat of AUTOBOOT failed"
}
# The boot files of slot A, in $1: what the firmware reads.
rpi_boot_files() {
    local dir=$1 fw=$ROOT/usr/lib/raspi-firmware dtbs=$ROOT/usr/lib/linux-image-$kver/broadcom
    mkdir -p "$dir"
    [ -f "$fw/start4.elf" ] || die "no $fw/start4.elf: is raspi-firmware (non-free-firmware) installed?"
    # The Pi 4 family's firmware (start4*.elf, fixup4*.dat) and the older boards' (bootcode.bin,
    # start*.elf); the Pi 5 boots from its EEPROM and reads only config.txt, the kernel, the DTB.
    cp "$fw"/*.elf "$fw"/*.dat "$fw"/bootcode.bin "$dir/"
    cp "$dtbs"/bcm27*.dtb "$dir/"
    mkdir -p "$dir/overlays"
    cp "$fw"/overlays/*.dtbo "$dir/overlays/"
    cp "$kernel" "$dir/vmlinuz"
    cp "$initrd" "$dir/initrd.img"
    echo "$version" >"$dir/version"
    sed -e "s/@VERSION@/$version/; s/@KVER@/$kver/" "$top/image/rpi/config.txt" >"$dir/config.txt"
    # The firmware reads one line.
    echo "console=tty1 root=PARTUUID=$root_a_partuuid ro rootwait rauc.slot=A panic=10 $cmdline_common" >"$dir/cmdline.txt"
}

# The disk (instead of the UEFI image's GPT): partitions, then each filesystem in place.
rpi_disk() {
    local AUTO_START=1
    local BOOT_A_START=$((AUTO_START + RPI_AUTOBOOT_MB))
    local BOOT_B_START=$((BOOT_A_START + RPI_BOOT_MB))
    local EXT_START=$((BOOT_B_START + RPI_BOOT_MB))
    # Each logical partition starts 1 MiB after its extended boot record.
    local ROOT_A_START=$((EXT_START + 1))
    local ROOT_B_START=$((ROOT_A_START + ROOT_SLOT_MB + 1))
    local KIOSK_START=$((ROOT_B_START + ROOT_SLOT_MB + 1))
    local DATA_START=$((KIOSK_START + KIOSK_MB + 1))
    local TOTAL_MB=$((DATA_START + DATA_MB))
    step "disk: MBR (Raspberry Pi), ${TOTAL_MB} MiB, disk identifier 0x$rpi_disk_id"
    tmpimg=$IMG.tmp
    rm -f "$tmpimg"
    trap 'rm -f "$tmpimg" "$ROOTFS.tmp"; umount_below "$WORK"' EXIT
    truncate -s "${TOTAL_MB}M" "$tmpimg"
    sfdisk -q "$tmpimg" <<EOF
label: dos
label-id: 0x$rpi_disk_id
unit: sectors
start=$((AUTO_START * 2048)), size=$((RPI_AUTOBOOT_MB * 2048)), type=e
start=$((BOOT_A_START * 2048)), size=$((RPI_BOOT_MB * 2048)), type=c, bootable
start=$((BOOT_B_START * 2048)), size=$((RPI_BOOT_MB * 2048)), type=c
start=$((EXT_START * 2048)), type=f
start=$((ROOT_A_START * 2048)), size=$((ROOT_SLOT_MB * 2048)), type=83
start=$((ROOT_B_START * 2048)), size=$((ROOT_SLOT_MB * 2048)), type=83
start=$((KIOSK_START * 2048)), size=$((KIOSK_MB * 2048)), type=c
start=$((DATA_START * 2048)), size=$((DATA_MB * 2048)), type=83
EOF
    export MTOOLS_SKIP_CHECK=1
    local AUTO="$tmpimg@@$((AUTO_START * 1048576))" BOOTA="$tmpimg@@$((BOOT_A_START * 1048576))"
    local KFAT="$tmpimg@@$((KIOSK_START * 1048576))"

    step "autoboot: autoboot.txt (boot partition 2, tryboot 3)"
    rpi_autoboot_fat "$AUTO_START"
    mcopy -i "$AUTO" "$top/image/rpi/autoboot.txt" ::/autoboot.txt

    step "boot-a: firmware, config.txt, cmdline.txt, kernel $kver, initrd $(du -h "$initrd" | cut -f1), DTBs; boot-b: empty"
    mkfs_fat32 BOOT-A "$BOOT_A_START" "$RPI_BOOT_MB"
    mkfs_fat32 BOOT-B "$BOOT_B_START" "$RPI_BOOT_MB"
    rpi_boot_files "$WORK/boot-a"
    mcopy -s -i "$BOOTA" "$WORK/boot-a"/* ::/

    step "KIOSK: $(basename "$example")/config.toml + media/"
    mkfs_fat32 KIOSK "$KIOSK_START" "$KIOSK_MB"
    kiosk_partition_files "$KFAT"

    step "root-a: the root filesystem (${ROOT_MB} MiB of a ${ROOT_SLOT_MB} MiB slot); root-b: empty; data: ext4 ${DATA_MB} MiB, journalled"
    dd if="$ROOTFS" of="$tmpimg" bs=1M seek="$ROOT_A_START" conv=notrunc,sparse status=none
    finish_disk "$DATA_START" "$TOTAL_MB" \
        "disk_id=$rpi_disk_id" "autoboot_start_mib=$AUTO_START" "boot_a_start_mib=$BOOT_A_START" \
        "boot_b_start_mib=$BOOT_B_START" "boot_mib=$RPI_BOOT_MB" "root_a_start_mib=$ROOT_A_START" \
        "root_b_start_mib=$ROOT_B_START" "kiosk_start_mib=$KIOSK_START" "data_start_mib=$DATA_START" \
        "cmdline=$(cat "$WORK/boot-a/cmdline.txt")"
}
