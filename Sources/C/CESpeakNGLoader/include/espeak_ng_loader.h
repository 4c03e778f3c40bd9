// espeak-ng opened when the kiosk first speaks, not at the program's start (docs/start-up.md,
// "Libraries opened on demand"): with it come PulseAudio's client libraries, libsndfile and its
// codecs, D-Bus and libsystemd, which a kiosk without speech would load at every start. The
// program does not link libespeak-ng: espeak_ng_loader.c defines the espeak-ng functions Speech
// calls, each jumping to the library's own.
#ifndef KIOSK_ESPEAK_NG_LOADER_H
#define KIOSK_ESPEAK_NG_LOADER_H
#include <stddef.h>

/// Opens espeak-ng and finds every function (once; later calls give the first answer). 0 on
/// success; -1 with the loader's words in `error`.
int kc_espeak_ng_load(char *error, size_t size);

/// The soname opened, `libespeak-ng.so.1`, for messages.
const char *kc_espeak_ng_sonames(void);

#endif
