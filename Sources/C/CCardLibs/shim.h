// The C libraries that draw card faces, in one module so that cairo.h is seen once.
// pkg-config "pangocairo" supplies the include paths (cairo, pango, harfbuzz, glib);
// module.modulemap adds the link lines for the rest (fontconfig: `FontCheck`'s fc-match).
// librsvg is declared here (rsvg_api.h) but not linked: CRsvgLoader opens it at the first SVG.
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
