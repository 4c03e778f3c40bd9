// The part of librsvg's API (librsvg-2.0 >= 2.52, <librsvg/rsvg.h>) that Cards uses.
// rsvg.h itself includes gdk-pixbuf headers, whose include path pkg-config "pangocairo" does not
// give, so the few declarations are repeated here exactly as librsvg declares them. They have
// been stable since 2.46 (render_document) and 2.52 (get_intrinsic_size_in_pixels).
#ifndef KIOSK_RSVG_API_H
#define KIOSK_RSVG_API_H
#include <glib-object.h>
#include <gio/gio.h>
#include <cairo.h>

typedef struct _RsvgHandle RsvgHandle;

typedef struct {
    double x;
    double y;
    double width;
    double height;
} RsvgRectangle;

/// RsvgHandleFlags: RSVG_HANDLE_FLAGS_NONE = 0, RSVG_HANDLE_FLAG_UNLIMITED = 1 << 0,
/// RSVG_HANDLE_FLAG_KEEP_IMAGE_DATA = 1 << 1. Cards uses NONE (librsvg keeps its size limits).
typedef enum {
    RSVG_HANDLE_FLAGS_NONE = 0,
    RSVG_HANDLE_FLAG_UNLIMITED = 1 << 0,
    RSVG_HANDLE_FLAG_KEEP_IMAGE_DATA = 1 << 1
} RsvgHandleFlags;

/// RsvgUnit and RsvgLength as in <librsvg/rsvg.h>.
typedef enum {
    RSVG_UNIT_PERCENT, RSVG_UNIT_PX, RSVG_UNIT_EM, RSVG_UNIT_EX, RSVG_UNIT_IN, RSVG_UNIT_CM,
    RSVG_UNIT_MM, RSVG_UNIT_PT, RSVG_UNIT_PC
} RsvgUnit;

typedef struct {
    double length;
    RsvgUnit unit;
} RsvgLength;

RsvgHandle *rsvg_handle_new_from_stream_sync(GInputStream *input_stream, GFile *base_file,
                                             RsvgHandleFlags flags, GCancellable *cancellable,
                                             GError **error);
gboolean rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, gdouble *out_width,
                                                  gdouble *out_height);
gboolean rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr,
                                     const RsvgRectangle *viewport, GError **error);
void rsvg_handle_get_intrinsic_dimensions(RsvgHandle *handle, gboolean *out_has_width,
                                          RsvgLength *out_width, gboolean *out_has_height,
                                          RsvgLength *out_height, gboolean *out_has_viewbox,
                                          RsvgRectangle *out_viewbox);
void rsvg_handle_set_dpi(RsvgHandle *handle, double dpi);
#endif
