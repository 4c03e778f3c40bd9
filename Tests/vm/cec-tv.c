// cec-tv: a TV on an HDMI-CEC adapter, for Tests/vm/display-cec.sh. Claims logical address 0
// (TV) on the adapter whose physical address is 0.0.0.0 (vivid's HDMI input), follows every
// message, and writes one line per message received to LOG:
//   SECONDS FROM>TO OPCODE [OPERANDS...]     (monotonic seconds, hex bytes)
// It answers <Give Device Power Status> with its power status: standby at start, "in
// transition standby to on" for one second after <Image View On>, then on; standby after
// <Standby>. Writes "ready" to LOG.ready once it has its address. On SIGTERM it gives the
// address up (the adapter then acknowledges nothing: a bus without a TV) and exits 0.
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/cec.h>
#include <linux/cec-funcs.h>

static volatile sig_atomic_t stopping;
static void on_term(int sig) { (void)sig; stopping = 1; }

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int open_tv_side(void) {
    char path[32];
    for (int i = 0; i < 16; i++) {
        snprintf(path, sizeof path, "/dev/cec%d", i);
        int fd = open(path, O_RDWR);
        if (fd < 0) continue;
        __u16 pa = CEC_PHYS_ADDR_INVALID;
        if (ioctl(fd, CEC_ADAP_G_PHYS_ADDR, &pa) == 0 && pa == 0) {
            fprintf(stderr, "cec-tv: %s is the TV side\n", path);
            return fd;
        }
        close(fd);
    }
    return -1;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: cec-tv LOG\n"); return 2; }
    FILE *log = fopen(argv[1], "w");
    if (!log) { perror(argv[1]); return 1; }
    int fd = open_tv_side();
    if (fd < 0) { fprintf(stderr, "cec-tv: no adapter with physical address 0.0.0.0\n"); return 1; }

    struct cec_log_addrs las;
    memset(&las, 0, sizeof las);
    las.cec_version = CEC_OP_CEC_VERSION_1_4;
    las.num_log_addrs = 1;
    las.vendor_id = CEC_VENDOR_ID_NONE;
    strcpy(las.osd_name, "TestTV");
    las.primary_device_type[0] = CEC_OP_PRIM_DEVTYPE_TV;
    las.log_addr_type[0] = CEC_LOG_ADDR_TYPE_TV;
    las.all_device_types[0] = CEC_OP_ALL_DEVTYPE_TV;
    // Blocking: returns once the address is claimed.
    if (ioctl(fd, CEC_ADAP_S_LOG_ADDRS, &las) < 0) { perror("CEC_ADAP_S_LOG_ADDRS"); return 1; }
    if (ioctl(fd, CEC_ADAP_G_LOG_ADDRS, &las) < 0 || !(las.log_addr_mask & 1)) {
        fprintf(stderr, "cec-tv: did not get logical address 0 (mask 0x%x)\n", las.log_addr_mask);
        return 1;
    }
    __u32 mode = CEC_MODE_INITIATOR | CEC_MODE_FOLLOWER;
    if (ioctl(fd, CEC_S_MODE, &mode) < 0) { perror("CEC_S_MODE"); return 1; }

    char ready[4096];
    snprintf(ready, sizeof ready, "%s.ready", argv[1]);
    FILE *r = fopen(ready, "w");
    if (r) { fputs("ready\n", r); fclose(r); }

    signal(SIGTERM, on_term);
    int power = CEC_OP_POWER_STATUS_STANDBY;
    double on_at = 0;  // when a transition to on ends
    while (!stopping) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (poll(&p, 1, 100) < 0 && errno != EINTR) { perror("poll"); return 1; }
        if (power == CEC_OP_POWER_STATUS_TO_ON && now() >= on_at) power = CEC_OP_POWER_STATUS_ON;
        if (!(p.revents & POLLIN)) continue;
        struct cec_msg msg;
        memset(&msg, 0, sizeof msg);
        if (ioctl(fd, CEC_RECEIVE, &msg) < 0) { if (errno == EAGAIN || errno == EINTR) continue; perror("CEC_RECEIVE"); return 1; }
        fprintf(log, "%.3f %x>%x", now(), cec_msg_initiator(&msg), cec_msg_destination(&msg));
        for (unsigned i = 1; i < msg.len; i++) fprintf(log, " %02x", msg.msg[i]);
        fputc('\n', log);
        fflush(log);
        switch (cec_msg_opcode(&msg)) {
        case CEC_MSG_IMAGE_VIEW_ON:
            if (power != CEC_OP_POWER_STATUS_ON) { power = CEC_OP_POWER_STATUS_TO_ON; on_at = now() + 1; }
            break;
        case CEC_MSG_STANDBY:
            power = CEC_OP_POWER_STATUS_STANDBY;
            break;
        case CEC_MSG_GIVE_DEVICE_POWER_STATUS: {
            struct cec_msg reply;
            cec_msg_init(&reply, 0, cec_msg_initiator(&msg));
            cec_msg_report_power_status(&reply, power);
            if (ioctl(fd, CEC_TRANSMIT, &reply) < 0) perror("CEC_TRANSMIT");
            break;
        }
        }
    }
    memset(&las, 0, sizeof las);
    if (ioctl(fd, CEC_ADAP_S_LOG_ADDRS, &las) < 0) { perror("CEC_ADAP_S_LOG_ADDRS (unconfigure)"); return 1; }
    fprintf(log, "%.3f gone\n", now());
    fclose(log);
    return 0;
}
