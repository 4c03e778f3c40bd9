#!/bin/sh
# mmdebstrap customize hook of scripts/make-image.sh: turns the installed Debian into the kiosk
# image. $1 is the root folder (outside view). Runs after every package is installed.
set -eu
root=$1
here=$(cd "$(dirname "$0")" && pwd)

# Our files: the unit drop-ins (config on the KIOSK partition), journald/logind settings,
# the boot report unit (serial port, diagnostics only), the updater's pieces (RAUC's bootloader
# backend and pre-install handler, the health gate of a trial boot, boot.json: docs/updates.md).
cp -a "$here/rootfs/." "$root/"
chmod 0755 "$root"/usr/lib/kiosk-image/*

# The package enabled the kiosk unit in its postinst; check, do not assume.
[ -L "$root/etc/systemd/system/multi-user.target.wants/kiosk-carousel.service" ] || {
    echo "customize: kiosk-carousel.service is not enabled by the package's postinst" >&2; exit 1; }
getent() { grep -q "^$2:" "$root/etc/$1"; }
getent passwd kiosk || { echo "customize: the package did not create the user kiosk" >&2; exit 1; }

systemctl --root="$root" enable kiosk-boot-report.service kiosk-boot-state.service kiosk-carousel-healthy.service
# The wired network for [update] url and [content] url (etc/systemd/network/80-kiosk-wired.network);
# nothing waits for it at boot. Enabling networkd also enables systemd-networkd-wait-online, which
# network-online.target then waits for: masked, so that the update check's network-online.target
# (its timer fires 2 min after boot) never holds the boot up, nor fails it after 2 min without a
# link (a kiosk without a cable; QEMU with -nodefaults). A check without a network fails and
# runs again at the next timer (docs/systemd.md, docs/start-up.md).
systemctl --root="$root" enable systemd-networkd.service
systemctl --root="$root" mask systemd-networkd-wait-online.service
# Boot counting needs systemd-bless-boot and its generator (Debian's systemd-boot package).
[ -x "$root/lib/systemd/system-generators/systemd-bless-boot-generator" ] || [ -x "$root/usr/lib/systemd/system-generators/systemd-bless-boot-generator" ] || {
    echo "customize: no systemd-bless-boot-generator in the image (package systemd-boot)" >&2; exit 1; }
# No login anywhere: not on the kiosk's screen (tty1), not on other VTs, not on the serial port.
# Nothing that writes to the (read-only) root on a timer or expects a network.
systemctl --root="$root" mask \
    getty@tty1.service serial-getty@ttyS0.service serial-getty@ttyAMA0.service autovt@.service getty-static.service \
    systemd-firstboot.service \
    apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer e2scrub_all.timer \
    e2scrub_reap.service fstrim.timer \
    systemd-rfkill.service systemd-rfkill.socket
# Ctrl-Alt-Del from a keyboard plugged into the kiosk does not reboot it (docs/security.md;
# system.conf.d/kiosk-image.conf turns off the burst action too).
systemctl --root="$root" mask ctrl-alt-del.target
# Units that would start at every boot for nothing on this image, each a process start — under
# QEMU TCG 0.3–0.5 s of CPU at the moment the kiosk and its partitions' checks start
# (docs/start-up.md, "Nothing started for nothing", stop 57):
# - systemd-pstore with modprobe@efi_pstore: it would move the kernel's crash records out of the
#   pstore into /var/lib/systemd, a tmpfs, where the next boot has lost them (masked, efi_pstore
#   is not loaded and a panic writes nothing into the firmware's variables). Not
#   systemd-random-seed, although its seed file is on that tmpfs too: on a machine without a CPU
#   random number instruction (QEMU's default CPU; a Raspberry Pi until its hwrng driver is
#   loaded) it is the first to wait for the kernel's random number generator, which the kiosk's
#   Swift runtime needs before main (its hashing seed) — masked, the kiosk waited 1.3 s for it;
# - systemd-repart: no repart.d, so its condition skips it, but its Wants= start modprobe@loop and
#   modprobe@dm_mod anyway (RAUC's loop devices load their module on demand, /dev/loop-control);
# - the kernel's optional file systems nothing on the image uses — FUSE, configfs, debugfs,
#   tracefs, hugetlbfs — and their modprobe@ units (mount one by hand to debug);
# - systemd-update-utmp: the boot's record in /var/log/wtmp, a tmpfs, and nobody logs in;
# - modprobe@drm, which logind wants: the DRM core comes with the GPU's driver (early KMS);
# - systemd-fsckd, with its socket (stop 59): every systemd-fsck connects to it for the checks'
#   progress, which starts it in the middle of the KIOSK and data partitions' checks, on the
#   kiosk's way to its first frame; it would show that progress on the console and offer
#   "Press Ctrl+C to cancel all filesystem checks in progress" to a keyboard at the kiosk. The
#   checks run the same without it (systemd-fsck gives fsck no progress descriptor then);
# - systemd-network-generator (stop 59): .network files from ip=, nameserver= and the like on the
#   kernel command line, which the image's loader entries do not have (the network is
#   /etc/systemd/network's); udev's daemon waits for it. Unmask it to configure the network from
#   the command line;
# - the automount of /proc/sys/fs/binfmt_misc (no foreign binaries run here) and the host's POSIX
#   message queue file system at /dev/mqueue (nothing here uses one; the kiosk's PrivateIPC= mounts
#   its own), stop 69: each is a line of the mount table that systemd's child for the kiosk reads
#   again and again while it builds the kiosk's sandbox (twice for every line before its move:
#   docs/start-up.md, "What the sandbox's time is").
systemctl --root="$root" mask \
    systemd-pstore.service modprobe@efi_pstore.service \
    systemd-repart.service modprobe@loop.service modprobe@dm_mod.service \
    sys-fs-fuse-connections.mount modprobe@fuse.service sys-kernel-config.mount modprobe@configfs.service \
    sys-kernel-debug.mount sys-kernel-tracing.mount dev-hugepages.mount \
    systemd-update-utmp.service modprobe@drm.service \
    systemd-fsckd.socket systemd-fsckd.service systemd-network-generator.service \
    proc-sys-fs-binfmt_misc.automount dev-mqueue.mount

# The ESP is never mounted (the firmware and the boot loader read it). systemd's GPT generator
# would set up an automount for it at /efi, which fails on the read-only root (trixie's systemd
# 257: efi.automount failed, the system "degraded"); root= names the root partition anyway.
mkdir -p "$root/etc/systemd/system-generators"
ln -sf /dev/null "$root/etc/systemd/system-generators/systemd-gpt-auto-generator"
# Generators for what the image has none of, masked the same way (systemd.generator(7)): systemd
# runs every generator before it starts a unit, and under QEMU TCG each is a process start that
# the whole boot waits for (docs/start-up.md, "Early KMS, and ten boots"). No /etc/crypttab,
# integritytab or veritytab (no dm-verity on the slots: docs/updates.md, "dm-verity on the root
# slots"), no swap to resume from, no /etc/rc.local, no System V init script without a native
# unit (dbus, hwclock.sh, kmod, udev all have one), no offline-update symlink (RAUC writes the
# other slot), no logins (the gettys are masked above). Kept: fstab, bless-boot (boot counting),
# debug and run (systemd.mask=, systemd.debug_shell, systemd.run= on the kernel command line, for
# a person at the kiosk).
for g in cryptsetup integritysetup veritysetup hibernate-resume rc-local sysv system-update getty; do
    ln -sf /dev/null "$root/etc/systemd/system-generators/systemd-$g-generator"
done

# Fewer process starts before the local file systems the kiosk waits for (systemd-tmpfiles-setup-dev
# → local-fs-pre.target → the KIOSK and data partitions' checks and mounts; each start is a
# fraction of a second under QEMU TCG, docs/start-up.md):
# - The static device nodes (modules.devname: /dev/loop-control for RAUC's bundles, /dev/fuse,
#   /dev/uinput, /dev/snd/seq …) are listed once here, for the image's only kernel, instead of by
#   kmod-static-nodes.service at every boot (0.4–0.6 s, beside systemd-remount-fs, which was the
#   link tmpfiles-setup-dev really waited for). The root is read-only and its
#   kernel changes only with an update of the whole slot, which has its own list. kmod reads
#   /lib/modules/$(uname -r): the build host's release is pointed at the image's kernel for the
#   moment it runs.
# - systemd-remount-fs.service is masked by scripts/make-image.sh, next to the fstab it writes.
kernels=$(ls "$root/lib/modules")
[ "$(echo "$kernels" | wc -l)" = 1 ] || { echo "customize: expected one kernel in /lib/modules, found: $kernels" >&2; exit 1; }
host_release=$(uname -r)
linked=
if [ ! -e "$root/lib/modules/$host_release" ]; then ln -s "$kernels" "$root/lib/modules/$host_release"; linked=1; fi
chroot "$root" kmod static-nodes --format=tmpfiles --output=/usr/lib/tmpfiles.d/kiosk-static-nodes.conf
[ -z "$linked" ] || rm "$root/lib/modules/$host_release"
grep -q '^c' "$root/usr/lib/tmpfiles.d/kiosk-static-nodes.conf" || {
    echo "customize: kmod static-nodes listed no device node for $kernels" >&2; exit 1; }
systemctl --root="$root" mask kmod-static-nodes.service

# /etc/machine-id empty: systemd makes a transient one in RAM at every boot (read-only /etc).
: >"$root/etc/machine-id"
rm -f "$root/var/lib/dbus/machine-id"
# A host name for the journal and the prompt nobody sees.
echo kiosk >"$root/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\tkiosk\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"

# Font cache: fontconfig checks a cache against its folder's mtime to the nanosecond, and
# mke2fs -d keeps whole seconds only, so the caches written by fontconfig's trigger would look
# stale in the image: every start would scan the fonts again and log "Fontconfig error: No
# writable cache directories". Whole-second folder times, then the caches again.
now=$(date +%s)
find "$root/usr/share/fonts" "$root/usr/local/share/fonts" -type d -exec touch -h -d "@$now" {} + 2>/dev/null || true
chroot "$root" fc-cache -s -f

# The kiosk binary's read-ahead list (image/preload-ranges.py: its code, headers and relocated
# data, as dd block ranges), which the initramfs reads into the page cache before the switch to
# the real root (hooks/kiosk-preload, scripts/init-bottom/kiosk-preload; docs/start-up.md, stop 67).
python3 "$here/preload-ranges.py" "$root" /usr/bin/kiosk-carousel >"$root/usr/lib/kiosk-image/preload.list"

# The initramfs again, with the image's settings (etc/initramfs-tools: MODULES=list, the storage
# drivers of a kiosk's disks; udev tagging block devices for systemd): the one built when the
# kernel was installed had Debian's default, MODULES=most (docs/start-up.md, "The initramfs").
chroot "$root" update-initramfs -u -k all

# Nothing to keep from the build. The downloaded packages were synced out to the cache by the
# hook before this one; --skip=download/empty keeps them in the tree, so delete them here
# (~170 MB that would otherwise ship in the image).
# Not the root's /tmp, nor its apt lists: mmdebstrap empties both itself after this hook
# (cleanup/apt/lists, cleanup/tmp), and its own apt configuration lives in the root's /tmp until
# then. Deleting it here made mmdebstrap's last `apt-get update` (the one that empties the lists)
# run with apt's defaults, that is on the build host: `make image` emptied the host's
# /var/lib/apt/lists (scripts/make-image.sh now checks that they are left as they were).
rm -rf "$root"/var/cache/apt/*.bin "$root"/var/log/* \
       "$root"/var/cache/apt/archives/*.deb \
       "$root"/var/tmp/*
