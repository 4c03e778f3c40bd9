// Linux interfaces Swift's Glibc module does not expose (epoll, timerfd, signalfd, inotify,
// eventfd), plus non-variadic wrappers for variadic calls Swift cannot make, and mount(2)/umount2(2)
// for a USB stick (defined in mount.c), and the HDMI-CEC calls of kiosk_cec.h (cec.c).
#ifndef KIOSK_CLINUX_H
#define KIOSK_CLINUX_H

#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <fcntl.h>
#include <signal.h>
#include <linux/kd.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "kiosk_cec.h"

/// ioctl(2) with a pointer argument.
static inline int kiosk_ioctl_ptr(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
/// ioctl(2) with an integer argument.
static inline int kiosk_ioctl_int(int fd, unsigned long request, unsigned long arg) { return ioctl(fd, request, arg); }
/// open(2) with a mode (for O_CREAT).
static inline int kiosk_open(const char *path, int flags, unsigned int mode) { return open(path, flags, mode); }
/// fcntl(2) with an integer argument.
static inline int kiosk_fcntl_int(int fd, int cmd, int arg) { return fcntl(fd, cmd, arg); }
/// gettid(2): the calling thread's id (`setpriority` takes it for one thread).
static inline int kiosk_gettid(void) { return (int)syscall(SYS_gettid); }
/// The calling thread's page faults (getrusage(RUSAGE_THREAD)): those that read from the disk
/// (`ru_majflt`) into `*major`, the others (`ru_minflt`: a page mapped from the page cache or a
/// zeroed one) into `*minor`. Returns 0, or -1 with errno.
/// (RUSAGE_THREAD is 1 in <linux/resource.h>; glibc declares it under _GNU_SOURCE only.)
static inline int kiosk_thread_page_faults(long *major, long *minor) {
    struct rusage usage;
    if (getrusage((__rusage_who_t)1, &usage) != 0) return -1;
    *major = usage.ru_majflt;
    *minor = usage.ru_minflt;
    return 0;
}
/// prctl(PR_SET_NAME): the calling thread's name as the kernel shows it (`/proc/PID/task/TID/comm`,
/// `top -H`, `perf`); up to 15 bytes are kept. Returns 0 or -1 with errno.
static inline int kiosk_set_thread_name(const char *name) { return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0); }


/// Whether the kernel says the system clock is synchronised (NTP): 1 yes, 0 no, -1 when
/// `adjtimex` failed. `adjtimex` with no modes only reads; unsynchronised is the state
/// `TIME_ERROR` or the `STA_UNSYNC` status bit (as `timedatectl`'s "System clock synchronized").
static inline int kiosk_clock_synchronised(void) {
    struct timex t = {0};
    int state = adjtimex(&t);
    if (state < 0) return -1;
    return (state != TIME_ERROR && !(t.status & STA_UNSYNC)) ? 1 : 0;
}

/// mount(source, target, fstype, MS_RDONLY|MS_NOSUID|MS_NODEV|MS_NOEXEC|MS_NOATIME, data):
/// a USB stick mounted read-only, no programs, no devices. Returns 0 or -errno.
int kiosk_mount_readonly(const char *source, const char *target, const char *fstype, const char *data);
/// umount2(target, detach ? MNT_DETACH : 0). Returns 0 or -errno.
int kiosk_umount(const char *target, int detach);

#endif
