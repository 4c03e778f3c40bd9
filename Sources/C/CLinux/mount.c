// mount(2) and umount2(2) for a USB stick (Sources/Kiosk/USB/StickMount.swift). In a .c file, not
// the header, so <sys/mount.h> stays out of the Swift module: Swift calls only these two.
#include "CLinux.h"

#include <errno.h>
#include <sys/mount.h>

int kiosk_mount_readonly(const char *source, const char *target, const char *fstype, const char *data) {
    unsigned long flags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME;
    return mount(source, target, fstype, flags, data) == 0 ? 0 : -errno;
}

int kiosk_umount(const char *target, int detach) {
    return umount2(target, detach ? MNT_DETACH : 0) == 0 ? 0 : -errno;
}
