// cairo, pango and what they draw with (fontconfig, GLib, GObject, GIO), and the picture
// decoders (libjpeg-turbo, libpng, libwebp), opened with dlopen instead of by the loader before
// `main` (docs/start-up.md, "The drawing libraries behind the start"): with cairo and pango come
// some thirty libraries (harfbuzz, freetype, pixman, X11's, libmount …) whose mapping,
// relocation and constructors the kiosk's main thread paid before its first line. `run` opens
// fontconfig, cairo and pango on a thread of its own while it reads its arguments and its config;
// the decoders open at the first picture. card_libs_loader.c, fontconfig_loader.c and
// image_decoders_loader.c define the functions Cards calls, each jumping to the library's own.
// The package's binary does not name these libraries (debian/rules: headers-only pkg-config
// files); a plain `swift build` links them as before, and the loads then find them loaded.
#ifndef KIOSK_CARD_LIBS_LOADER_H
#define KIOSK_CARD_LIBS_LOADER_H
#include <stddef.h>

/// Opens cairo, pango, pangocairo, GLib, GObject and GIO and finds every function (once; later
/// calls, from any thread, wait for the first and give its answer). 0 on success; -1 with the
/// loader's words in `error`.
int kc_card_libs_load(char *error, size_t size);

/// The sonames of that set, space-separated, for messages.
const char *kc_card_libs_sonames(void);

/// Opens fontconfig likewise (a set of its own: `run` opens it first and loads fontconfig's
/// configuration before opening cairo and pango).
int kc_fontconfig_load(char *error, size_t size);

/// The soname of fontconfig's set, `libfontconfig.so.1`, for messages.
const char *kc_fontconfig_soname(void);

/// Opens libjpeg-turbo, libpng and libwebp likewise.
int kc_image_decoders_load(char *error, size_t size);

/// The sonames of the decoders' set, space-separated, for messages.
const char *kc_image_decoders_sonames(void);

#endif
