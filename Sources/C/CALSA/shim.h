// ALSA's PCM API (Debian: libasound2-dev; pkg-config "alsa"), for the kiosk's sound output
// (Sources/Audio, docs/accessibility.md "Sound").
#ifndef KIOSK_CALSA_SHIM_H
#define KIOSK_CALSA_SHIM_H
#include <alsa/asoundlib.h>

/// alsa-lib prints its own errors to stderr ("ALSA lib confmisc.c:…: Cannot get card index"),
/// again at every try of a missing device; the output reports them itself, once, with errno.
static void kc_alsa_ignore_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
/// Silences alsa-lib's own error printing for the process.
static inline void kc_alsa_silence_errors(void) { snd_lib_error_set_handler(kc_alsa_ignore_error); }
#endif
