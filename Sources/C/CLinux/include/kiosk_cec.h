// The kernel's HDMI-CEC API (linux/cec.h) in calls Swift can make: the ioctls' request numbers
// are function-like macros and the message payload a fixed array, so each call is a small
// function here (defined in cec.c). Every call returns 0 or -errno and never blocks: the
// descriptor is opened O_NONBLOCK, a transmit's result and a reply come back as a received
// message (`kiosk_cec_receive`), the adapter's state changes as events (`kiosk_cec_event`).
#ifndef KIOSK_CEC_H
#define KIOSK_CEC_H

#include <stdint.h>

/// What the kiosk reads of an adapter (CEC_ADAP_G_CAPS, CEC_ADAP_G_PHYS_ADDR, CEC_ADAP_G_LOG_ADDRS).
struct kiosk_cec_adapter {
    char driver[32];
    char name[32];
    uint32_t capabilities;
    /// 0xffff: no physical address (no hot-plug detect: nothing plugged in, or the TV is off
    /// on hardware that needs HPD).
    uint16_t physical_address;
    /// The logical addresses claimed (bit N: address N); 0: unconfigured.
    uint16_t logical_address_mask;
    /// Logical addresses configured (claimed or being claimed); 0: none asked for.
    uint8_t configured_count;
};

/// A message read back: the result of one of our transmits (`sequence` != 0; `tx_status`,
/// and with a reply asked for `rx_status` and the reply in `bytes`), or a message received.
struct kiosk_cec_message {
    uint32_t sequence;
    uint8_t tx_status;
    uint8_t rx_status;
    uint8_t len;
    uint8_t bytes[16];
};

/// An adapter event (CEC_DQEVENT): `kind` 1 state change (`physical_address`,
/// `logical_address_mask`), 2 messages lost (`lost`).
struct kiosk_cec_event {
    uint32_t kind;
    uint32_t flags;
    uint16_t physical_address;
    uint16_t logical_address_mask;
    uint32_t lost;
};

/// Opens `path` read-write, non-blocking, close-on-exec. Returns the descriptor or -errno.
int kiosk_cec_open(const char *path);
/// Fills `out` from the adapter. Returns 0 or -errno.
int kiosk_cec_describe(int fd, struct kiosk_cec_adapter *out);
/// Asks the adapter to claim one logical address of the Playback type (4, 8, 11, else 15
/// unregistered), CEC 1.4, with `osd_name` (at most 14 bytes used). Non-blocking: the claim
/// completes later (a state change event), or once a physical address is set. -EBUSY: the
/// adapter is configured already.
int kiosk_cec_claim_playback(int fd, const char *osd_name);
/// Queues `len` bytes (header first) for sending; `reply` != 0: wait up to 1 s for a message
/// with that opcode, delivered with the result. Sets `*sequence`. Returns 0 or -errno (-ENONET:
/// the adapter has no logical address).
int kiosk_cec_transmit(int fd, const uint8_t *bytes, uint8_t len, uint8_t reply, uint32_t *sequence);
/// Takes one queued message. Returns 0, -EAGAIN when none is queued, or -errno.
int kiosk_cec_receive(int fd, struct kiosk_cec_message *out);
/// Takes one queued event. Returns 0, -EAGAIN when none is queued, or -errno.
int kiosk_cec_event(int fd, struct kiosk_cec_event *out);

#endif
