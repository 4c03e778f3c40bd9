#include "CKioskSys.h"

#include <errno.h>
#include <linux/kd.h>
#include <sys/ioctl.h>
#include <xf86drm.h>

static int kiosk_ioctl(int fd, unsigned long request, void *arg) {
    int r;
    do { r = ioctl(fd, request, arg); } while (r == -1 && errno == EINTR);
    return r == -1 ? -errno : 0;
}

int kiosk_fb_get_vscreeninfo(int fd, struct fb_var_screeninfo *info) { return kiosk_ioctl(fd, FBIOGET_VSCREENINFO, info); }
int kiosk_fb_get_fscreeninfo(int fd, struct fb_fix_screeninfo *info) { return kiosk_ioctl(fd, FBIOGET_FSCREENINFO, info); }
int kiosk_fb_put_vscreeninfo(int fd, struct fb_var_screeninfo *info) { return kiosk_ioctl(fd, FBIOPUT_VSCREENINFO, info); }
int kiosk_fb_pan_display(int fd, struct fb_var_screeninfo *info) { return kiosk_ioctl(fd, FBIOPAN_DISPLAY, info); }
int kiosk_fb_wait_for_vsync(int fd, uint32_t screen) { return kiosk_ioctl(fd, FBIO_WAITFORVSYNC, &screen); }
int kiosk_fb_blank(int fd, int level) {
    int r;
    do { r = ioctl(fd, FBIOBLANK, (unsigned long)level); } while (r == -1 && errno == EINTR);
    return r == -1 ? -errno : 0;
}

int kiosk_kd_set_mode(int fd, int graphics) {
    int r;
    do { r = ioctl(fd, KDSETMODE, (unsigned long)(graphics ? KD_GRAPHICS : KD_TEXT)); } while (r == -1 && errno == EINTR);
    return r == -1 ? -errno : 0;
}

struct collector { kiosk_flip_event *out; int capacity; int count; };

// drmHandleEvent has no user pointer of its own: the collector is passed through a static,
// which is fine because the main loop reads events on one thread.
static struct collector *kiosk_current_collector;

static void on_flip(int fd, unsigned int sequence, unsigned int tv_sec, unsigned int tv_usec,
                    unsigned int crtc_id, void *user_data) {
    (void)fd;
    struct collector *c = kiosk_current_collector;
    if (!c || c->count >= c->capacity) return;
    c->out[c->count++] = (kiosk_flip_event){ sequence, tv_sec, tv_usec, crtc_id, (uint64_t)(uintptr_t)user_data };
}

int kiosk_drm_handle_events(int fd, kiosk_flip_event *out, int capacity) {
    struct collector c = { out, capacity, 0 };
    drmEventContext ctx = { 0 };
    ctx.version = 3;
    ctx.page_flip_handler2 = on_flip;
    kiosk_current_collector = &c;
    int r = drmHandleEvent(fd, &ctx);
    kiosk_current_collector = 0;
    if (r != 0) {
        if (errno == EAGAIN || errno == EINTR) return c.count;  // nothing (more) to read: non-blocking fd
        return errno ? -errno : -EIO;
    }
    return c.count;
}
