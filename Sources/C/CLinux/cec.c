// The HDMI-CEC calls of kiosk_cec.h over linux/cec.h's ioctls.
#include "kiosk_cec.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/cec.h>

static int result(int rc) { return rc < 0 ? -errno : 0; }

int kiosk_cec_open(const char *path) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int kiosk_cec_describe(int fd, struct kiosk_cec_adapter *out) {
    struct cec_caps caps;
    struct cec_log_addrs las;
    __u16 pa = CEC_PHYS_ADDR_INVALID;
    memset(out, 0, sizeof *out);
    memset(&caps, 0, sizeof caps);
    memset(&las, 0, sizeof las);
    if (ioctl(fd, CEC_ADAP_G_CAPS, &caps) < 0) return -errno;
    if (ioctl(fd, CEC_ADAP_G_PHYS_ADDR, &pa) < 0) return -errno;
    if (ioctl(fd, CEC_ADAP_G_LOG_ADDRS, &las) < 0) return -errno;
    memcpy(out->driver, caps.driver, sizeof out->driver);
    out->driver[sizeof out->driver - 1] = 0;
    memcpy(out->name, caps.name, sizeof out->name);
    out->name[sizeof out->name - 1] = 0;
    out->capabilities = caps.capabilities;
    out->physical_address = pa;
    out->logical_address_mask = las.log_addr_mask;
    out->configured_count = las.num_log_addrs;
    return 0;
}

int kiosk_cec_claim_playback(int fd, const char *osd_name) {
    struct cec_log_addrs las;
    memset(&las, 0, sizeof las);
    las.cec_version = CEC_OP_CEC_VERSION_1_4;
    las.num_log_addrs = 1;
    las.vendor_id = CEC_VENDOR_ID_NONE;
    las.flags = CEC_LOG_ADDRS_FL_ALLOW_UNREG_FALLBACK;
    strncpy(las.osd_name, osd_name, sizeof las.osd_name - 1);
    las.primary_device_type[0] = CEC_OP_PRIM_DEVTYPE_PLAYBACK;
    las.log_addr_type[0] = CEC_LOG_ADDR_TYPE_PLAYBACK;
    las.all_device_types[0] = CEC_OP_ALL_DEVTYPE_PLAYBACK;
    return result(ioctl(fd, CEC_ADAP_S_LOG_ADDRS, &las));
}

int kiosk_cec_transmit(int fd, const uint8_t *bytes, uint8_t len, uint8_t reply, uint32_t *sequence) {
    struct cec_msg msg;
    if (len < 1 || len > CEC_MAX_MSG_SIZE) return -EINVAL;
    memset(&msg, 0, sizeof msg);
    msg.len = len;
    memcpy(msg.msg, bytes, len);
    msg.reply = reply;
    msg.timeout = reply ? 1000 : 0;
    if (ioctl(fd, CEC_TRANSMIT, &msg) < 0) return -errno;
    *sequence = msg.sequence;
    return 0;
}

int kiosk_cec_receive(int fd, struct kiosk_cec_message *out) {
    struct cec_msg msg;
    memset(&msg, 0, sizeof msg);
    memset(out, 0, sizeof *out);
    if (ioctl(fd, CEC_RECEIVE, &msg) < 0) return -errno;
    out->sequence = msg.sequence;
    out->tx_status = msg.tx_status;
    out->rx_status = msg.rx_status;
    out->len = msg.len > CEC_MAX_MSG_SIZE ? CEC_MAX_MSG_SIZE : (uint8_t)msg.len;
    memcpy(out->bytes, msg.msg, out->len);
    return 0;
}

int kiosk_cec_event(int fd, struct kiosk_cec_event *out) {
    struct cec_event ev;
    memset(&ev, 0, sizeof ev);
    memset(out, 0, sizeof *out);
    if (ioctl(fd, CEC_DQEVENT, &ev) < 0) return -errno;
    out->kind = ev.event;
    out->flags = ev.flags;
    if (ev.event == CEC_EVENT_STATE_CHANGE) {
        out->physical_address = ev.state_change.phys_addr;
        out->logical_address_mask = ev.state_change.log_addr_mask;
    } else if (ev.event == CEC_EVENT_LOST_MSGS) {
        out->lost = ev.lost_msgs.lost_msgs;
    }
    return 0;
}
