// libinput and libevdev opened with dlopen instead of by the loader before `main`
// (docs/start-up.md, "The drawing libraries behind the start"): the input devices open after the
// first frame (docs/input.md, "When they open"), and with libinput come libwacom, libgudev and
// libmtdev. The sources open them before their first call (`InputLibraries`);
// input_libs_loader.c defines the functions Input calls, each jumping to the library's own.
#ifndef KIOSK_INPUT_LIBS_LOADER_H
#define KIOSK_INPUT_LIBS_LOADER_H
#include <stddef.h>

/// Opens libinput and libevdev and finds every function (once; later calls, from any thread,
/// wait for the first and give its answer). 0 on success; -1 with the loader's words in `error`.
int kc_input_libs_load(char *error, size_t size);

/// The sonames of the set, space-separated, for messages.
const char *kc_input_libs_sonames(void);

#endif
