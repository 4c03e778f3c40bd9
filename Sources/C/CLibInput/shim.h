#include "libinput.h"
#include <stdarg.h>
#include <stdio.h>

/// Receives one libinput log message, formatted: its priority and the text (no `va_list`).
typedef void (*kiosk_libinput_log_sink)(enum libinput_log_priority priority, const char *message);

/// libinput's log handler: formats the message here, in C, and passes the text to the sink kept
/// in the context's user data. Swift cannot take the `va_list` itself on every target: a Swift
/// closure with a `va_list` parameter crashes the compiler for aarch64 (docs/arm64.md).
static inline void kiosk_libinput_log_format(struct libinput *li, enum libinput_log_priority priority,
                                             const char *format, va_list args) {
    kiosk_libinput_log_sink sink = (kiosk_libinput_log_sink)libinput_get_user_data(li);
    char message[512];
    if (sink == NULL || format == NULL) return;
    vsnprintf(message, sizeof message, format, args);
    sink(priority, message);
}

/// libinput_log_set_handler(3) with a sink that takes the formatted text. Uses the context's
/// user data (libinput_set_user_data(3)) to hold the sink: nothing else may set it.
static inline void kiosk_libinput_set_log_sink(struct libinput *li, kiosk_libinput_log_sink sink) {
    libinput_set_user_data(li, (void *)sink);
    libinput_log_set_handler(li, kiosk_libinput_log_format);
}
