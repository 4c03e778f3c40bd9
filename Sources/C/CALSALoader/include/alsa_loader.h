// ALSA's libasound opened with dlopen when the kiosk first plays a sound, not by the loader
// before `main` (docs/start-up.md, "The drawing libraries behind the start"). alsa_loader.c
// defines the functions Audio calls, each jumping to the library's own.
#ifndef KIOSK_ALSA_LOADER_H
#define KIOSK_ALSA_LOADER_H
#include <stddef.h>

/// Opens libasound and finds every function (once; later calls give the first answer). 0 on
/// success; -1 with the loader's words in `error`.
int kc_alsa_load(char *error, size_t size);

/// The soname opened, `libasound.so.2`, for messages.
const char *kc_alsa_soname(void);

#endif
