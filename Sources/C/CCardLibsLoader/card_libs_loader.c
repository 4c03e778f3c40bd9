// cairo, pango, GLib, GObject and GIO opened on demand (include/card_libs_loader.h; the loading
// itself is CLibraryLoader's). The definitions are checked by the compiler against the
// libraries' own headers. The list is every function of theirs the program calls (the
// executable's undefined symbols, `nm -D --undefined-only`): a function missing here fails the
// package's link, which names none of these libraries (debian/rules).
#include "card_libs_loader.h"

#include "library_loader_functions.h"

#pragma GCC visibility push(hidden)
#include <cairo.h>
#include <gio/gio.h>
#include <pango/pangocairo.h>
// GLib 2.78 and later may make g_free a macro (g_free_sized when the size is known, with a C
// compiler): the function itself is what the program calls and what is defined here.
#undef g_free

enum { GLIB, GOBJECT, GIO, CAIRO, PANGO, PANGOCAIRO, LIBRARIES };
// Each a library before those that link it. The sonames have been these since GLib 2.0 and
// pango 1.0 (2002) and cairo 1.0 (2005).
static const char *const sonames[LIBRARIES] = {
    "libglib-2.0.so.0", "libgobject-2.0.so.0", "libgio-2.0.so.0", "libcairo.so.2", "libpango-1.0.so.0",
    "libpangocairo-1.0.so.0",
};

#define KC_CARD_LIBS_FUNCTIONS(F, V) \
    V(CAIRO, cairo_arc, (cairo_t *a0, double a1, double a2, double a3, double a4, double a5), (a0, a1, a2, a3, a4, a5)) \
    V(CAIRO, cairo_clip, (cairo_t *a0), (a0)) \
    V(CAIRO, cairo_close_path, (cairo_t *a0), (a0)) \
    F(CAIRO, cairo_t *, cairo_create, (cairo_surface_t *a0), (a0)) \
    V(CAIRO, cairo_destroy, (cairo_t *a0), (a0)) \
    V(CAIRO, cairo_fill, (cairo_t *a0), (a0)) \
    F(CAIRO, cairo_font_options_t *, cairo_font_options_create, (void), ()) \
    V(CAIRO, cairo_font_options_destroy, (cairo_font_options_t *a0), (a0)) \
    V(CAIRO, cairo_font_options_set_antialias, (cairo_font_options_t *a0, cairo_antialias_t a1), (a0, a1)) \
    V(CAIRO, cairo_font_options_set_hint_metrics, (cairo_font_options_t *a0, cairo_hint_metrics_t a1), (a0, a1)) \
    V(CAIRO, cairo_font_options_set_hint_style, (cairo_font_options_t *a0, cairo_hint_style_t a1), (a0, a1)) \
    F(CAIRO, cairo_pattern_t *, cairo_get_source, (cairo_t *a0), (a0)) \
    F(CAIRO, cairo_surface_t *, cairo_image_surface_create_for_data, (unsigned char *a0, cairo_format_t a1, int a2, int a3, int a4), (a0, a1, a2, a3, a4)) \
    F(CAIRO, cairo_surface_t *, cairo_image_surface_create_from_png, (const char *a0), (a0)) \
    F(CAIRO, int, cairo_image_surface_get_height, (cairo_surface_t *a0), (a0)) \
    F(CAIRO, int, cairo_image_surface_get_width, (cairo_surface_t *a0), (a0)) \
    V(CAIRO, cairo_line_to, (cairo_t *a0, double a1, double a2), (a0, a1, a2)) \
    V(CAIRO, cairo_move_to, (cairo_t *a0, double a1, double a2), (a0, a1, a2)) \
    V(CAIRO, cairo_new_path, (cairo_t *a0), (a0)) \
    V(CAIRO, cairo_new_sub_path, (cairo_t *a0), (a0)) \
    V(CAIRO, cairo_paint, (cairo_t *a0), (a0)) \
    V(CAIRO, cairo_pattern_add_color_stop_rgba, (cairo_pattern_t *a0, double a1, double a2, double a3, double a4, double a5), (a0, a1, a2, a3, a4, a5)) \
    F(CAIRO, cairo_pattern_t *, cairo_pattern_create_linear, (double a0, double a1, double a2, double a3), (a0, a1, a2, a3)) \
    V(CAIRO, cairo_pattern_destroy, (cairo_pattern_t *a0), (a0)) \
    V(CAIRO, cairo_pattern_set_extend, (cairo_pattern_t *a0, cairo_extend_t a1), (a0, a1)) \
    V(CAIRO, cairo_pattern_set_filter, (cairo_pattern_t *a0, cairo_filter_t a1), (a0, a1)) \
    V(CAIRO, cairo_rectangle, (cairo_t *a0, double a1, double a2, double a3, double a4), (a0, a1, a2, a3, a4)) \
    V(CAIRO, cairo_reset_clip, (cairo_t *a0), (a0)) \
    V(CAIRO, cairo_restore, (cairo_t *a0), (a0)) \
    V(CAIRO, cairo_save, (cairo_t *a0), (a0)) \
    V(CAIRO, cairo_scale, (cairo_t *a0, double a1, double a2), (a0, a1, a2)) \
    V(CAIRO, cairo_set_dash, (cairo_t *a0, const double *a1, int a2, double a3), (a0, a1, a2, a3)) \
    V(CAIRO, cairo_set_fill_rule, (cairo_t *a0, cairo_fill_rule_t a1), (a0, a1)) \
    V(CAIRO, cairo_set_line_width, (cairo_t *a0, double a1), (a0, a1)) \
    V(CAIRO, cairo_set_operator, (cairo_t *a0, cairo_operator_t a1), (a0, a1)) \
    V(CAIRO, cairo_set_source, (cairo_t *a0, cairo_pattern_t *a1), (a0, a1)) \
    V(CAIRO, cairo_set_source_rgba, (cairo_t *a0, double a1, double a2, double a3, double a4), (a0, a1, a2, a3, a4)) \
    V(CAIRO, cairo_set_source_surface, (cairo_t *a0, cairo_surface_t *a1, double a2, double a3), (a0, a1, a2, a3)) \
    F(CAIRO, const char *, cairo_status_to_string, (cairo_status_t a0), (a0)) \
    V(CAIRO, cairo_stroke, (cairo_t *a0), (a0)) \
    F(CAIRO, cairo_surface_t *, cairo_surface_create_observer, (cairo_surface_t *a0, cairo_surface_observer_mode_t a1), (a0, a1)) \
    V(CAIRO, cairo_surface_destroy, (cairo_surface_t *a0), (a0)) \
    V(CAIRO, cairo_surface_flush, (cairo_surface_t *a0), (a0)) \
    V(CAIRO, cairo_surface_mark_dirty, (cairo_surface_t *a0), (a0)) \
    F(CAIRO, cairo_status_t, cairo_surface_observer_add_fill_callback, (cairo_surface_t *a0, cairo_surface_observer_callback_t a1, void *a2), (a0, a1, a2)) \
    F(CAIRO, cairo_status_t, cairo_surface_observer_add_glyphs_callback, (cairo_surface_t *a0, cairo_surface_observer_callback_t a1, void *a2), (a0, a1, a2)) \
    F(CAIRO, cairo_status_t, cairo_surface_observer_add_mask_callback, (cairo_surface_t *a0, cairo_surface_observer_callback_t a1, void *a2), (a0, a1, a2)) \
    F(CAIRO, cairo_status_t, cairo_surface_observer_add_paint_callback, (cairo_surface_t *a0, cairo_surface_observer_callback_t a1, void *a2), (a0, a1, a2)) \
    F(CAIRO, cairo_status_t, cairo_surface_observer_add_stroke_callback, (cairo_surface_t *a0, cairo_surface_observer_callback_t a1, void *a2), (a0, a1, a2)) \
    F(CAIRO, cairo_status_t, cairo_surface_status, (cairo_surface_t *a0), (a0)) \
    F(CAIRO, cairo_status_t, cairo_surface_write_to_png, (cairo_surface_t *a0, const char *a1), (a0, a1)) \
    V(CAIRO, cairo_translate, (cairo_t *a0, double a1, double a2), (a0, a1, a2)) \
    V(PANGO, pango_font_description_free, (PangoFontDescription *a0), (a0)) \
    F(PANGO, PangoFontDescription *, pango_font_description_from_string, (const char *a0), (a0)) \
    F(PANGO, const char *, pango_font_description_get_family, (const PangoFontDescription *a0), (a0)) \
    F(PANGO, PangoWeight, pango_font_description_get_weight, (const PangoFontDescription *a0), (a0)) \
    V(PANGO, pango_font_description_set_absolute_size, (PangoFontDescription *a0, double a1), (a0, a1)) \
    V(PANGO, pango_font_description_set_weight, (PangoFontDescription *a0, PangoWeight a1), (a0, a1)) \
    F(PANGO, const char *, pango_font_family_get_name, (PangoFontFamily *a0), (a0)) \
    V(PANGO, pango_font_map_list_families, (PangoFontMap *a0, PangoFontFamily ***a1, int *a2), (a0, a1, a2)) \
    V(PANGO, pango_layout_context_changed, (PangoLayout *a0), (a0)) \
    F(PANGO, PangoContext *, pango_layout_get_context, (PangoLayout *a0), (a0)) \
    V(PANGO, pango_layout_get_pixel_size, (PangoLayout *a0, int *a1, int *a2), (a0, a1, a2)) \
    V(PANGO, pango_layout_set_alignment, (PangoLayout *a0, PangoAlignment a1), (a0, a1)) \
    V(PANGO, pango_layout_set_ellipsize, (PangoLayout *a0, PangoEllipsizeMode a1), (a0, a1)) \
    V(PANGO, pango_layout_set_font_description, (PangoLayout *a0, const PangoFontDescription *a1), (a0, a1)) \
    V(PANGO, pango_layout_set_height, (PangoLayout *a0, int a1), (a0, a1)) \
    V(PANGO, pango_layout_set_text, (PangoLayout *a0, const char *a1, int a2), (a0, a1, a2)) \
    V(PANGO, pango_layout_set_width, (PangoLayout *a0, int a1), (a0, a1)) \
    V(PANGO, pango_layout_set_wrap, (PangoLayout *a0, PangoWrapMode a1), (a0, a1)) \
    V(PANGOCAIRO, pango_cairo_context_set_font_options, (PangoContext *a0, const cairo_font_options_t *a1), (a0, a1)) \
    F(PANGOCAIRO, PangoLayout *, pango_cairo_create_layout, (cairo_t *a0), (a0)) \
    F(PANGOCAIRO, PangoFontMap *, pango_cairo_font_map_get_default, (void), ()) \
    V(PANGOCAIRO, pango_cairo_show_layout, (cairo_t *a0, PangoLayout *a1), (a0, a1)) \
    V(GLIB, g_error_free, (GError *a0), (a0)) \
    V(GLIB, g_free, (gpointer a0), (a0)) \
    F(GLIB, gpointer, g_memdup2, (gconstpointer a0, gsize a1), (a0, a1)) \
    V(GOBJECT, g_object_unref, (gpointer a0), (a0)) \
    F(GIO, GInputStream *, g_memory_input_stream_new_from_data, (const void *a0, gssize a1, GDestroyNotify a2), (a0, a1, a2))

KC_LOADER(KC_CARD_LIBS_FUNCTIONS, "cairo and pango", sonames)

int kc_card_libs_load(char *error, size_t size) { return kc_library_set_load(&kc_loader_set, error, size); }

const char *kc_card_libs_sonames(void) { return kc_library_set_joined_sonames(&kc_loader_set); }
#pragma GCC visibility pop
