// librsvg opened when the first SVG is drawn or checked, not at the program's start
// (docs/start-up.md, "Libraries opened on demand"): with it come libxml2, ICU, gdk-pixbuf and
// some twenty more libraries that a carousel without SVG would load and relocate at every start.
// The program does not link librsvg-2: rsvg_loader.c defines the librsvg functions Cards calls
// (their declarations: Sources/C/CCardLibs/rsvg_api.h), each jumping to the library's own.
#ifndef KIOSK_RSVG_LOADER_H
#define KIOSK_RSVG_LOADER_H
#include <stddef.h>

/// Opens librsvg and finds every function (once; later calls give the first answer). 0 on
/// success; -1 with the loader's words in `error`.
int kc_rsvg_load(char *error, size_t size);

/// The soname opened, `librsvg-2.so.2`, for messages.
const char *kc_rsvg_sonames(void);

#endif
