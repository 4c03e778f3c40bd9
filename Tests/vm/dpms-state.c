// dpms-state: prints the DPMS level of every connected connector of a DRM card, read from a
// second file descriptor while another program (the kiosk) is DRM master. Reading properties
// needs no master; this program never asks for it (and drops it in case it got it because
// nobody held it), so it can run next to the kiosk without disturbing it.
//
// build: cc -O2 -Wall -o dpms-state dpms-state.c $(pkg-config --cflags --libs libdrm)
// usage: dpms-state [CARD]     (default /dev/dri/card0)
// output, one line per connected connector: NAME dpms=On|Standby|Suspend|Off crtc=ID|none
// exit: 0, 1 when the card cannot be read, 2 when a connected connector has no DPMS property.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

static const char *level_name(uint64_t v) {
    switch (v) {
    case DRM_MODE_DPMS_ON: return "On";
    case DRM_MODE_DPMS_STANDBY: return "Standby";
    case DRM_MODE_DPMS_SUSPEND: return "Suspend";
    case DRM_MODE_DPMS_OFF: return "Off";
    default: return "unknown";
    }
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "/dev/dri/card0";
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) { fprintf(stderr, "dpms-state: open %s: %s\n", path, strerror(errno)); return 1; }
    drmDropMaster(fd);  // fails (EINVAL/EACCES) when we are not master: the normal case
    drmModeRes *res = drmModeGetResources(fd);
    if (!res) { fprintf(stderr, "dpms-state: drmModeGetResources: %s\n", strerror(errno)); return 1; }
    int status = 0;
    for (int i = 0; i < res->count_connectors; i++) {
        drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
        if (!c) continue;
        if (c->connection != DRM_MODE_CONNECTED) { drmModeFreeConnector(c); continue; }
        const char *type = drmModeGetConnectorTypeName(c->connector_type);
        uint32_t crtc = 0;
        if (c->encoder_id) {
            drmModeEncoder *e = drmModeGetEncoder(fd, c->encoder_id);
            if (e) { crtc = e->crtc_id; drmModeFreeEncoder(e); }
        }
        const char *level = NULL;
        drmModeObjectProperties *props = drmModeObjectGetProperties(fd, c->connector_id, DRM_MODE_OBJECT_CONNECTOR);
        for (uint32_t p = 0; props && p < props->count_props && !level; p++) {
            drmModePropertyRes *prop = drmModeGetProperty(fd, props->props[p]);
            if (prop && strcmp(prop->name, "DPMS") == 0) level = level_name(props->prop_values[p]);
            drmModeFreeProperty(prop);
        }
        drmModeFreeObjectProperties(props);
        if (!level) { level = "none"; status = 2; }
        if (crtc) printf("%s-%u dpms=%s crtc=%u\n", type ? type : "Unknown", c->connector_type_id, level, crtc);
        else printf("%s-%u dpms=%s crtc=none\n", type ? type : "Unknown", c->connector_type_id, level);
        drmModeFreeConnector(c);
    }
    drmModeFreeResources(res);
    close(fd);
    return status;
}
