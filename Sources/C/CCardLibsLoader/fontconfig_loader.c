// fontconfig opened on demand (include/card_libs_loader.h; the loading itself is
// CLibraryLoader's), a set of its own: `run`'s fonts' thread opens it and loads fontconfig's
// configuration and caches (`FcInit`, the longest part) before it opens cairo and pango, so that
// the fonts are ready as soon as the first text is drawn (`FontStartup`). Every function of
// fontconfig's the program calls, checked by the compiler against its header.
#include "card_libs_loader.h"

#include "library_loader_functions.h"

#pragma GCC visibility push(hidden)
#include <fontconfig/fontconfig.h>

enum { FONTCONFIG, LIBRARIES };
// libfontconfig.so.1 since fontconfig 2.0 (2002).
static const char *const sonames[LIBRARIES] = { "libfontconfig.so.1" };

#define KC_FONTCONFIG_FUNCTIONS(F, V) \
    F(FONTCONFIG, FcBool, FcInit, (void), ()) \
    F(FONTCONFIG, FcBool, FcConfigSubstitute, (FcConfig *a0, FcPattern *a1, FcMatchKind a2), (a0, a1, a2)) \
    V(FONTCONFIG, FcDefaultSubstitute, (FcPattern *a0), (a0)) \
    F(FONTCONFIG, FcPattern *, FcFontMatch, (FcConfig *a0, FcPattern *a1, FcResult *a2), (a0, a1, a2)) \
    F(FONTCONFIG, FcBool, FcPatternAddString, (FcPattern *a0, const char *a1, const FcChar8 *a2), (a0, a1, a2)) \
    F(FONTCONFIG, FcPattern *, FcPatternCreate, (void), ()) \
    V(FONTCONFIG, FcPatternDestroy, (FcPattern *a0), (a0)) \
    F(FONTCONFIG, FcResult, FcPatternGetString, (const FcPattern *a0, const char *a1, int a2, FcChar8 **a3), (a0, a1, a2, a3)) \
    F(FONTCONFIG, FcObjectSet *, FcObjectSetCreate, (void), ()) \
    F(FONTCONFIG, FcBool, FcObjectSetAdd, (FcObjectSet *a0, const char *a1), (a0, a1)) \
    V(FONTCONFIG, FcObjectSetDestroy, (FcObjectSet *a0), (a0)) \
    F(FONTCONFIG, FcFontSet *, FcFontList, (FcConfig *a0, FcPattern *a1, FcObjectSet *a2), (a0, a1, a2)) \
    V(FONTCONFIG, FcFontSetDestroy, (FcFontSet *a0), (a0))

KC_LOADER(KC_FONTCONFIG_FUNCTIONS, "fontconfig", sonames)

int kc_fontconfig_load(char *error, size_t size) { return kc_library_set_load(&kc_loader_set, error, size); }

const char *kc_fontconfig_soname(void) { return sonames[FONTCONFIG]; }
#pragma GCC visibility pop
