// The C libraries that draw card faces, in one module so that cairo.h is seen once.
// pkg-config "pangocairo" supplies the include paths (cairo, pango, harfbuzz, glib); the others
// are in the default include path. Nothing here is linked for its functions: CCardLibsLoader
// defines those of cairo, pango, fontconfig, GLib, GObject, GIO and the picture decoders (opened
// with dlopen by `run`'s fonts' thread or at the first call), CRsvgLoader librsvg's (at the
// first SVG; declared here, rsvg_api.h).
#include <cairo.h>
#include <pango/pangocairo.h>
#include <fontconfig/fontconfig.h>
#include <gio/gio.h>
#include <turbojpeg.h>
#include <png.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include "rsvg_api.h"
#include <malloc.h>
