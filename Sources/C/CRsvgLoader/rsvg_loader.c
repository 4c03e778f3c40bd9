// librsvg opened on demand (include/rsvg_loader.h; the loading itself is CLibraryLoader's).
// The functions are defined with the declarations Cards calls them by, CCardLibs' rsvg_api.h
// (librsvg's own, repeated there: <librsvg/rsvg.h> needs gdk-pixbuf's include path, which
// pkg-config "pangocairo" does not give): the compiler checks every definition against them.
#include "rsvg_loader.h"

#include "library_loader_functions.h"

#pragma GCC visibility push(hidden)
#include "../CCardLibs/rsvg_api.h"

enum { RSVG, LIBRARIES };
// librsvg's soname has been librsvg-2.so.2 since librsvg 2.0 (2002).
static const char *const sonames[LIBRARIES] = { "librsvg-2.so.2" };

#define KC_RSVG_FUNCTIONS(F, V) \
    F(RSVG, RsvgHandle *, rsvg_handle_new_from_stream_sync, (GInputStream *input_stream, GFile *base_file, \
        RsvgHandleFlags flags, GCancellable *cancellable, GError **error), \
        (input_stream, base_file, flags, cancellable, error)) \
    F(RSVG, gboolean, rsvg_handle_get_intrinsic_size_in_pixels, (RsvgHandle *handle, gdouble *out_width, \
        gdouble *out_height), (handle, out_width, out_height)) \
    F(RSVG, gboolean, rsvg_handle_render_document, (RsvgHandle *handle, cairo_t *cr, \
        const RsvgRectangle *viewport, GError **error), (handle, cr, viewport, error)) \
    V(RSVG, rsvg_handle_get_intrinsic_dimensions, (RsvgHandle *handle, gboolean *out_has_width, \
        RsvgLength *out_width, gboolean *out_has_height, RsvgLength *out_height, gboolean *out_has_viewbox, \
        RsvgRectangle *out_viewbox), \
        (handle, out_has_width, out_width, out_has_height, out_height, out_has_viewbox, out_viewbox)) \
    V(RSVG, rsvg_handle_set_dpi, (RsvgHandle *handle, double dpi), (handle, dpi))

KC_LOADER(KC_RSVG_FUNCTIONS, "librsvg", sonames)

int kc_rsvg_load(char *error, size_t size) { return kc_library_set_load(&kc_loader_set, error, size); }

const char *kc_rsvg_sonames(void) { return sonames[RSVG]; }
#pragma GCC visibility pop
