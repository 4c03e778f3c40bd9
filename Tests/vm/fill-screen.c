// fill-screen: a stand-in for a full-screen program a foreground exec action starts.
// Opens the DRM card (it must get DRM master: the kiosk has to have dropped it), sets the
// first connected connector's preferred mode with a dumb buffer filled with one colour,
// optionally asks kiosk-vm for a screendump, holds, exits with the given status.
//
// build: cc -O2 -Wall -o fill-screen fill-screen.c $(pkg-config --cflags --libs libdrm)
// usage: fill-screen RRGGBB HOLD_SECONDS [SHOT_NAME [EXIT_STATUS]]
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

static void die(const char *m) { fprintf(stderr, "fill-screen: %s: %s\n", m, strerror(errno)); exit(90); }

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s RRGGBB HOLD [SHOT [STATUS]]\n", argv[0]); return 2; }
    uint32_t colour = (uint32_t)strtoul(argv[1], NULL, 16);
    double hold = atof(argv[2]);
    const char *shot = argc > 3 ? argv[3] : NULL;
    int status = argc > 4 ? atoi(argv[4]) : 0;

    int fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
    if (fd < 0) die("open /dev/dri/card0");
    if (drmSetMaster(fd) != 0) die("drmSetMaster (does the kiosk still hold the screen?)");
    drmModeRes *res = drmModeGetResources(fd);
    if (!res) die("drmModeGetResources");
    drmModeConnector *conn = NULL;
    for (int i = 0; i < res->count_connectors && !conn; i++) {
        drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
        if (c && c->connection == DRM_MODE_CONNECTED && c->count_modes > 0) conn = c; else drmModeFreeConnector(c);
    }
    if (!conn) { errno = ENODEV; die("no connected connector"); }
    drmModeModeInfo mode = conn->modes[0];
    for (int i = 0; i < conn->count_modes; i++)
        if (conn->modes[i].type & DRM_MODE_TYPE_PREFERRED) { mode = conn->modes[i]; break; }
    uint32_t crtc = res->crtcs[0];
    if (conn->encoder_id) {
        drmModeEncoder *e = drmModeGetEncoder(fd, conn->encoder_id);
        if (e && e->crtc_id) crtc = e->crtc_id;
        drmModeFreeEncoder(e);
    }
    struct drm_mode_create_dumb c = { .width = mode.hdisplay, .height = mode.vdisplay, .bpp = 32 };
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c)) die("CREATE_DUMB");
    struct drm_mode_map_dumb m = { .handle = c.handle };
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &m)) die("MAP_DUMB");
    uint32_t *map = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, m.offset);
    if (map == MAP_FAILED) die("mmap");
    for (uint32_t y = 0; y < c.height; y++) {
        uint32_t *row = (uint32_t *)((uint8_t *)map + (size_t)y * c.pitch);
        for (uint32_t x = 0; x < c.width; x++) row[x] = colour;
    }
    uint32_t fb;
    if (drmModeAddFB(fd, c.width, c.height, 24, 32, c.pitch, c.handle, &fb)) die("drmModeAddFB");
    if (drmModeSetCrtc(fd, crtc, fb, 0, 0, &conn->connector_id, 1, &mode)) die("drmModeSetCrtc");
    drmModeDirtyFB(fd, fb, NULL, 0);
    fprintf(stderr, "fill-screen: %ux%u filled with %06x\n", c.width, c.height, colour);
    if (shot) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "kiosk-vm-shot '%s' >/dev/null", shot);
        if (system(cmd) != 0) fprintf(stderr, "fill-screen: screenshot %s failed\n", shot);
    }
    usleep((useconds_t)(hold * 1e6));
    drmModeRmFB(fd, fb);
    close(fd);
    return status;
}
