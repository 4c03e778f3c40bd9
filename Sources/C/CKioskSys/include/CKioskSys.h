// CKioskSys: non-variadic wrappers for the Linux calls Swift cannot reach directly
// (ioctl is variadic in C; the request numbers are function-like macros Swift does not import).
// One wrapper per request; each returns 0 or -errno, never touches errno's meaning.
#ifndef CKIOSKSYS_H
#define CKIOSKSYS_H

#include <stdint.h>
#include <linux/fb.h>

/// ioctl(fd, FBIOGET_VSCREENINFO, info). Returns 0 or -errno.
int kiosk_fb_get_vscreeninfo(int fd, struct fb_var_screeninfo *info);
/// ioctl(fd, FBIOGET_FSCREENINFO, info). Returns 0 or -errno.
int kiosk_fb_get_fscreeninfo(int fd, struct fb_fix_screeninfo *info);
/// ioctl(fd, FBIOPUT_VSCREENINFO, info). Returns 0 or -errno.
int kiosk_fb_put_vscreeninfo(int fd, struct fb_var_screeninfo *info);
/// ioctl(fd, FBIOPAN_DISPLAY, info). Returns 0 or -errno.
int kiosk_fb_pan_display(int fd, struct fb_var_screeninfo *info);
/// ioctl(fd, FBIO_WAITFORVSYNC, &screen). Returns 0 or -errno (-ENOTTY/-EINVAL: unsupported).
int kiosk_fb_wait_for_vsync(int fd, uint32_t screen);
/// ioctl(fd, FBIOBLANK, level). Returns 0 or -errno.
int kiosk_fb_blank(int fd, int level);

/// ioctl(fd, KDSETMODE, graphics ? KD_GRAPHICS : KD_TEXT) on a virtual terminal. 0 or -errno.
int kiosk_kd_set_mode(int fd, int graphics);

/// The drm page-flip handler drmHandleEvent calls; kiosk_drm_handle_events collects them.
typedef struct kiosk_flip_event {
    unsigned int sequence;
    unsigned int tv_sec;
    unsigned int tv_usec;
    unsigned int crtc_id;
    uint64_t user_data;
} kiosk_flip_event;

/// Reads the pending DRM events of `fd` with drmHandleEvent (version 3 context) and writes up
/// to `capacity` page-flip completions into `out`. Returns their number, or -errno when
/// drmHandleEvent failed.
int kiosk_drm_handle_events(int fd, kiosk_flip_event *out, int capacity);

#endif
