// ALSA's PCM API (Debian: libasound2-dev; pkg-config "alsa"), for the kiosk's sound output
// (Sources/Audio, docs/accessibility.md "Sound").
#ifndef KIOSK_CALSA_SHIM_H
#define KIOSK_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#endif
