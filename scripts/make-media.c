/* Makes the example carousel's media (config/media/): photo-like scenes drawn with cairo and
 * saved as JPEG (libjpeg-turbo, one with an EXIF orientation tag), PNG and WebP, plus SVG
 * icons written as text. Deterministic: the same libraries give the same files.
 * Build and run with scripts/make-media.sh. */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>
#include <webp/encode.h>

static unsigned int seed = 12345;
static double rnd(void) { seed = seed * 1103515245u + 12345u; return ((seed >> 8) & 0xFFFF) / 65535.0; }

static void stop(cairo_pattern_t *p, double o, unsigned int rgb, double a) {
    cairo_pattern_add_color_stop_rgba(p, o, ((rgb >> 16) & 255) / 255.0, ((rgb >> 8) & 255) / 255.0, (rgb & 255) / 255.0, a);
}
static void rgb(cairo_t *cr, unsigned int c, double a) {
    cairo_set_source_rgba(cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0, (c & 255) / 255.0, a);
}
static void vgrad(cairo_t *cr, double y0, double y1, unsigned int top, unsigned int bottom) {
    cairo_pattern_t *g = cairo_pattern_create_linear(0, y0, 0, y1);
    stop(g, 0, top, 1); stop(g, 1, bottom, 1);
    cairo_set_source(cr, g); cairo_pattern_destroy(g);
}
static void glow(cairo_t *cr, double x, double y, double r, unsigned int c, double a) {
    cairo_pattern_t *g = cairo_pattern_create_radial(x, y, 0, x, y, r);
    stop(g, 0, c, a); stop(g, 1, c, 0);
    cairo_set_source(cr, g); cairo_arc(cr, x, y, r, 0, 2 * M_PI); cairo_fill(cr); cairo_pattern_destroy(g);
}
/* A ridge line from x=0 to w: base height plus a few sines, filled down to the bottom. */
static void ridge(cairo_t *cr, double w, double h, double base, double amp, double f, double ph, unsigned int top, unsigned int bottom) {
    cairo_move_to(cr, 0, h);
    for (double x = 0; x <= w; x += 4) {
        double y = base - amp * (0.6 * sin(x * f + ph) + 0.3 * sin(x * f * 2.3 + ph * 1.7) + 0.15 * fabs(sin(x * f * 5.1 + ph)));
        cairo_line_to(cr, x, y);
    }
    cairo_line_to(cr, w, h); cairo_close_path(cr);
    vgrad(cr, base - amp, h, top, bottom); cairo_fill(cr);
}

static void mountain_dawn(cairo_t *cr, double w, double h) {
    cairo_pattern_t *sky = cairo_pattern_create_linear(0, 0, 0, h * 0.7);
    stop(sky, 0, 0x2b3a67, 1); stop(sky, 0.45, 0xe86f68, 1); stop(sky, 1, 0xffc981, 1);
    cairo_set_source(cr, sky); cairo_paint(cr); cairo_pattern_destroy(sky);
    glow(cr, w * 0.62, h * 0.52, h * 0.45, 0xfff1c1, 0.8);
    rgb(cr, 0xfff6dc, 1); cairo_arc(cr, w * 0.62, h * 0.52, h * 0.06, 0, 2 * M_PI); cairo_fill(cr);
    ridge(cr, w, h, h * 0.58, h * 0.16, 0.011, 0.5, 0x9d6b8a, 0xc98e8a);
    ridge(cr, w, h, h * 0.68, h * 0.14, 0.016, 2.0, 0x5e3f63, 0x7a5670);
    ridge(cr, w, h, h * 0.80, h * 0.10, 0.022, 4.0, 0x2e2440, 0x3b2e4f);
    ridge(cr, w, h, h * 0.92, h * 0.06, 0.03, 1.0, 0x16121f, 0x1c1626);
}

static void lake_evening(cairo_t *cr, double w, double h) {
    double horizon = h * 0.55;
    vgrad(cr, 0, horizon, 0x3a2c6b, 0xf49a5a); cairo_rectangle(cr, 0, 0, w, horizon); cairo_fill(cr);
    glow(cr, w * 0.35, horizon, h * 0.4, 0xffd28a, 0.7);
    rgb(cr, 0xffe3a8, 1); cairo_arc(cr, w * 0.35, horizon, h * 0.07, M_PI, 2 * M_PI); cairo_fill(cr);
    vgrad(cr, horizon, h, 0xd98a5c, 0x241c45); cairo_rectangle(cr, 0, horizon, w, h - horizon); cairo_fill(cr);
    for (int i = 0; i < 26; i++) {             /* sun glitter on the water */
        double y = horizon + 6 + i * i * 0.42, len = w * (0.05 + 0.01 * i) * (0.6 + 0.8 * rnd());
        rgb(cr, 0xffe2b0, 0.55 - i * 0.018); cairo_rectangle(cr, w * 0.35 - len / 2 + (rnd() - 0.5) * 20, y, len, 2 + i * 0.1); cairo_fill(cr);
    }
    rgb(cr, 0x1a1430, 1);                       /* far shore with trees */
    cairo_move_to(cr, 0, horizon);
    for (double x = 0; x <= w; x += 6) cairo_line_to(cr, x, horizon - 8 - 14 * fabs(sin(x * 0.05)) - 10 * rnd() * (x > w * 0.55));
    cairo_line_to(cr, w, horizon + 3); cairo_line_to(cr, 0, horizon + 3); cairo_close_path(cr); cairo_fill(cr);
}

static void city_night(cairo_t *cr, double w, double h) {
    vgrad(cr, 0, h, 0x0b1030, 0x2a1f4f); cairo_paint(cr);
    for (int i = 0; i < 18; i++) {
        double bx = rnd() * w, by = rnd() * h * 0.6, br = 10 + rnd() * 40;
        unsigned int cols[] = {0xffb36b, 0x7fd1ff, 0xff6fa8, 0xfff3a0};
        glow(cr, bx, by, br, cols[i % 4], 0.35);
    }
    double x = -10;
    while (x < w) {
        double bw = 40 + rnd() * 70, bh = h * (0.25 + rnd() * 0.45);
        vgrad(cr, h - bh, h, 0x1b1d3a, 0x0c0d1c); cairo_rectangle(cr, x, h - bh, bw, bh); cairo_fill(cr);
        for (double wy = h - bh + 10; wy < h - 10; wy += 14)
            for (double wx = x + 6; wx < x + bw - 8; wx += 11)
                if (rnd() > 0.55) { rgb(cr, rnd() > 0.3 ? 0xffd98a : 0x9fd8ff, 0.85); cairo_rectangle(cr, wx, wy, 5, 7); cairo_fill(cr); }
        x += bw + 4;
    }
}

static void forest_mist(cairo_t *cr, double w, double h) {
    vgrad(cr, 0, h, 0xb9c9c4, 0xe7ece4); cairo_paint(cr);
    unsigned int layers[] = {0x8fa8a0, 0x6a8a80, 0x466a5e, 0x24443a};
    for (int l = 0; l < 4; l++) {
        double base = h * (0.55 + l * 0.13), size = 40 + l * 28;
        rgb(cr, layers[l], 1);
        for (double x = -20; x < w + 20; x += size * (0.45 + rnd() * 0.3)) {
            double th = size * (1.4 + rnd());
            cairo_move_to(cr, x, base - th); cairo_line_to(cr, x + size * 0.42, base); cairo_line_to(cr, x - size * 0.42, base); cairo_close_path(cr); cairo_fill(cr);
        }
        cairo_rectangle(cr, 0, base - 1, w, h - base + 1); cairo_fill(cr);
        cairo_pattern_t *fog = cairo_pattern_create_linear(0, base - size, 0, base + 10);
        stop(fog, 0, 0xe7ece4, 0); stop(fog, 1, 0xe7ece4, 0.55);
        cairo_set_source(cr, fog); cairo_rectangle(cr, 0, base - size, w, size + 10); cairo_fill(cr); cairo_pattern_destroy(fog);
    }
}

/* Drawn in a portrait frame (w < h). */
static void harbour_portrait(cairo_t *cr, double w, double h) {
    double sea = h * 0.62;
    vgrad(cr, 0, sea, 0x6fb7e8, 0xd8eef8); cairo_rectangle(cr, 0, 0, w, sea); cairo_fill(cr);
    for (int i = 0; i < 5; i++) { double cx = rnd() * w, cy = h * (0.1 + rnd() * 0.25);
        rgb(cr, 0xffffff, 0.85); for (int k = 0; k < 4; k++) { cairo_arc(cr, cx + k * 22, cy + (k % 2) * 6, 18 + k * 3, 0, 2 * M_PI); cairo_fill(cr); } }
    vgrad(cr, sea, h, 0x2f7fb6, 0x0f3d62); cairo_rectangle(cr, 0, sea, w, h - sea); cairo_fill(cr);
    rgb(cr, 0x5b4a3a, 1);                       /* cliff */
    cairo_move_to(cr, w * 0.35, h); cairo_curve_to(cr, w * 0.45, sea - 20, w * 0.6, sea - 60, w, sea - 70); cairo_line_to(cr, w, h); cairo_close_path(cr); cairo_fill(cr);
    double lx = w * 0.72, ly = sea - 66, lw = 40, lh = h * 0.3;   /* lighthouse */
    for (int s = 0; s < 5; s++) { rgb(cr, s % 2 ? 0xd83b3b : 0xf7f4ee, 1); cairo_rectangle(cr, lx - lw / 2 + s * 1.5, ly - lh * (s + 1) / 5, lw - s * 3, lh / 5); cairo_fill(cr); }
    rgb(cr, 0x2d2d2d, 1); cairo_rectangle(cr, lx - 16, ly - lh - 34, 32, 34); cairo_fill(cr);
    glow(cr, lx, ly - lh - 17, 60, 0xfff2a8, 0.9);
    for (int b = 0; b < 3; b++) {              /* boats */
        double bx = w * (0.12 + b * 0.16), by = sea + 40 + b * 60;
        rgb(cr, 0xf2efe8, 1); cairo_move_to(cr, bx - 30, by); cairo_line_to(cr, bx + 30, by); cairo_line_to(cr, bx + 20, by + 12); cairo_line_to(cr, bx - 20, by + 12); cairo_close_path(cr); cairo_fill(cr);
        rgb(cr, b == 1 ? 0xf4b942 : 0xffffff, 1); cairo_move_to(cr, bx, by - 4); cairo_line_to(cr, bx, by - 60); cairo_line_to(cr, bx + 26, by - 8); cairo_close_path(cr); cairo_fill(cr);
    }
}

static void desert_dunes(cairo_t *cr, double w, double h) {
    vgrad(cr, 0, h * 0.6, 0x4aa3df, 0xf3d9b1); cairo_paint(cr);
    glow(cr, w * 0.8, h * 0.18, h * 0.25, 0xfff7e0, 0.9);
    unsigned int tops[] = {0xe9b27a, 0xd9935a, 0xc47640, 0xa85b2e};
    for (int l = 0; l < 4; l++) {
        double base = h * (0.5 + l * 0.13);
        cairo_move_to(cr, 0, h);
        for (double x = 0; x <= w; x += 4) cairo_line_to(cr, x, base - 40 * sin(x * (0.008 + l * 0.003) + l * 1.3) - 12 * sin(x * 0.031 + l));
        cairo_line_to(cr, w, h); cairo_close_path(cr);
        vgrad(cr, base - 50, h, tops[l], 0x6b3a1e); cairo_fill(cr);
    }
}

static void aurora(cairo_t *cr, double w, double h) {
    vgrad(cr, 0, h, 0x030a1a, 0x0e2a3a); cairo_paint(cr);
    for (int i = 0; i < 160; i++) { rgb(cr, 0xffffff, 0.3 + 0.7 * rnd()); cairo_arc(cr, rnd() * w, rnd() * h * 0.7, 0.5 + rnd() * 1.2, 0, 2 * M_PI); cairo_fill(cr); }
    for (int band = 0; band < 3; band++) {
        for (int k = 0; k < 40; k++) {
            double off = k * 2.2;
            cairo_move_to(cr, 0, h * (0.3 + band * 0.1) + off);
            for (double x = 0; x <= w; x += 8) cairo_line_to(cr, x, h * (0.3 + band * 0.1) + off + 40 * sin(x * 0.01 + band * 2) + 20 * sin(x * 0.027 + band));
            rgb(cr, band == 1 ? 0x7cf2c0 : 0x3ddc97, 0.05 * (1 - k / 40.0));
            cairo_set_line_width(cr, 6); cairo_stroke(cr);
        }
    }
    ridge(cr, w, h, h * 0.9, h * 0.08, 0.02, 0.3, 0x050a12, 0x02050a);
}

static void ocean_waves(cairo_t *cr, double w, double h) {
    vgrad(cr, 0, h * 0.4, 0xfbd3e9, 0xbbd2ff); cairo_paint(cr);
    unsigned int cols[] = {0x8ab6e8, 0x5d93d6, 0x3b72bf, 0x2458a1, 0x123d7a};
    for (int l = 0; l < 5; l++) {
        double base = h * (0.4 + l * 0.13);
        cairo_move_to(cr, 0, h);
        for (double x = 0; x <= w; x += 3) cairo_line_to(cr, x, base + 12 * sin(x * 0.03 + l * 1.1) + 6 * sin(x * 0.07 + l));
        cairo_line_to(cr, w, h); cairo_close_path(cr);
        vgrad(cr, base - 12, h, cols[l], 0x0a2550); cairo_fill(cr);
        cairo_move_to(cr, 0, base + 12 * sin(l * 1.1) + 6 * sin(l));
        for (double x = 0; x <= w; x += 3) cairo_line_to(cr, x, base + 12 * sin(x * 0.03 + l * 1.1) + 6 * sin(x * 0.07 + l));
        rgb(cr, 0xffffff, 0.35); cairo_set_line_width(cr, 2); cairo_stroke(cr);
    }
}

static void bokeh(cairo_t *cr, double w, double h) {
    cairo_pattern_t *g = cairo_pattern_create_linear(0, 0, w, h);
    stop(g, 0, 0x3b1c4a, 1); stop(g, 1, 0x0d2b45, 1); cairo_set_source(cr, g); cairo_paint(cr); cairo_pattern_destroy(g);
    unsigned int cols[] = {0xff9f68, 0xffd36e, 0x8ce1ff, 0xf78fb3, 0xb8f29b};
    for (int i = 0; i < 42; i++) {
        double x = rnd() * w, y = rnd() * h, r = 12 + rnd() * 46;
        rgb(cr, cols[i % 5], 0.18 + 0.25 * rnd()); cairo_arc(cr, x, y, r, 0, 2 * M_PI); cairo_fill_preserve(cr);
        rgb(cr, cols[i % 5], 0.35); cairo_set_line_width(cr, 1.5); cairo_stroke(cr);
    }
}

static void sunset_stripes(cairo_t *cr, double w, double h) {
    vgrad(cr, 0, h, 0x2d1b4e, 0xff6f61); cairo_paint(cr);
    double cx = w / 2, cy = h * 0.62, r = h * 0.32;
    cairo_save(cr);
    cairo_arc(cr, cx, cy, r, 0, 2 * M_PI); cairo_clip(cr);
    vgrad(cr, cy - r, cy + r, 0xffe66d, 0xff4f79); cairo_paint(cr);
    rgb(cr, 0x2d1b4e, 1);
    for (int i = 0; i < 7; i++) { double y = cy + i * r * 0.13, t = 2 + i * 1.6; cairo_rectangle(cr, cx - r, y, 2 * r, t); cairo_fill(cr); }
    cairo_restore(cr);
    ridge(cr, w, h, h * 0.88, h * 0.05, 0.02, 0.0, 0x1a0f30, 0x0f0820);
}

typedef void (*scene_fn)(cairo_t *, double, double);

static cairo_surface_t *draw(scene_fn f, int w, int h, int orientation6) {
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, orientation6 ? h : w, orientation6 ? w : h);
    cairo_t *cr = cairo_create(s);
    if (orientation6) {     /* store the portrait picture turned 90° counter-clockwise */
        cairo_matrix_t m; cairo_matrix_init(&m, 0, -1, 1, 0, 0, w); cairo_set_matrix(cr, &m);
    }
    f(cr, w, h);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

static void write_file(const char *path, const unsigned char *data, size_t n) {
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(data, 1, n, fp) != n) { perror(path); exit(1); }
    fclose(fp);
    printf("%s (%zu bytes)\n", path, n);
}

static void save_jpeg(cairo_surface_t *s, const char *path, int orientation) {
    tjhandle tj = tjInitCompress();
    unsigned char *out = NULL; unsigned long size = 0;
    if (tjCompress2(tj, cairo_image_surface_get_data(s), cairo_image_surface_get_width(s), cairo_image_surface_get_stride(s),
                    cairo_image_surface_get_height(s), TJPF_BGRA, &out, &size, TJSAMP_420, 84, TJFLAG_ACCURATEDCT) != 0) {
        fprintf(stderr, "%s: %s\n", path, tjGetErrorStr2(tj)); exit(1);
    }
    if (orientation > 1) {  /* APP1 Exif: little-endian TIFF, IFD0 with Orientation (0x0112) */
        unsigned char app1[] = {0xFF, 0xE1, 0, 34, 'E', 'x', 'i', 'f', 0, 0, 'I', 'I', 42, 0, 8, 0, 0, 0,
                                1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, (unsigned char)orientation, 0, 0, 0, 0, 0, 0, 0};
        unsigned char *tagged = malloc(size + sizeof app1);
        memcpy(tagged, out, 2); memcpy(tagged + 2, app1, sizeof app1); memcpy(tagged + 2 + sizeof app1, out + 2, size - 2);
        write_file(path, tagged, size + sizeof app1);
        free(tagged);
    } else {
        write_file(path, out, size);
    }
    tjFree(out); tjDestroy(tj);
}

static void save_png(cairo_surface_t *s, const char *path) {
    if (cairo_surface_write_to_png(s, path) != CAIRO_STATUS_SUCCESS) { fprintf(stderr, "%s: cannot write\n", path); exit(1); }
    printf("%s\n", path);
}

static void save_webp(cairo_surface_t *s, const char *path) {
    uint8_t *out = NULL;
    size_t n = WebPEncodeBGRA(cairo_image_surface_get_data(s), cairo_image_surface_get_width(s), cairo_image_surface_get_height(s),
                              cairo_image_surface_get_stride(s), 80, &out);
    if (!n) { fprintf(stderr, "%s: cannot encode\n", path); exit(1); }
    write_file(path, out, n);
    WebPFree(out);
}

static const char *icons[][2] = {
    {"icon-play.svg",
     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"128\" height=\"128\" viewBox=\"0 0 128 128\">\n"
     "  <defs><linearGradient id=\"g\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\"><stop offset=\"0\" stop-color=\"#5ec8ff\"/><stop offset=\"1\" stop-color=\"#2a5bd7\"/></linearGradient></defs>\n"
     "  <rect x=\"8\" y=\"8\" width=\"112\" height=\"112\" rx=\"28\" fill=\"url(#g)\"/>\n"
     "  <path d=\"M52 38 L92 64 L52 90 Z\" fill=\"#fff\" stroke=\"#fff\" stroke-width=\"6\" stroke-linejoin=\"round\"/>\n</svg>\n"},
    {"icon-info.svg",
     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"128\" height=\"128\" viewBox=\"0 0 128 128\">\n"
     "  <defs><radialGradient id=\"g\" cx=\"0.35\" cy=\"0.3\" r=\"0.8\"><stop offset=\"0\" stop-color=\"#7ee8a9\"/><stop offset=\"1\" stop-color=\"#14996b\"/></radialGradient></defs>\n"
     "  <circle cx=\"64\" cy=\"64\" r=\"56\" fill=\"url(#g)\"/>\n"
     "  <circle cx=\"64\" cy=\"38\" r=\"8\" fill=\"#fff\"/><rect x=\"56\" y=\"54\" width=\"16\" height=\"44\" rx=\"8\" fill=\"#fff\"/>\n</svg>\n"},
    {"icon-map.svg",
     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"128\" height=\"128\" viewBox=\"0 0 128 128\">\n"
     "  <path d=\"M12 28 L44 16 L84 30 L116 18 L116 100 L84 112 L44 98 L12 110 Z\" fill=\"#f6e7c1\" stroke=\"#c9a66b\" stroke-width=\"4\" stroke-linejoin=\"round\"/>\n"
     "  <path d=\"M44 16 L44 98 M84 30 L84 112\" stroke=\"#c9a66b\" stroke-width=\"3\"/>\n"
     "  <path d=\"M64 36 C50 36 42 46 42 57 C42 72 64 92 64 92 C64 92 86 72 86 57 C86 46 78 36 64 36 Z\" fill=\"#e5484d\"/>\n"
     "  <circle cx=\"64\" cy=\"57\" r=\"8\" fill=\"#fff\"/>\n</svg>\n"},
    {"icon-settings.svg",
     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"128\" height=\"128\" viewBox=\"0 0 128 128\">\n"
     "  <defs><linearGradient id=\"g\" x1=\"0\" y1=\"0\" x2=\"1\" y2=\"1\"><stop offset=\"0\" stop-color=\"#c3c8d4\"/><stop offset=\"1\" stop-color=\"#6b7385\"/></linearGradient></defs>\n"
     "  <g transform=\"translate(64 64)\" fill=\"url(#g)\">\n"
     "    <rect x=\"-10\" y=\"-56\" width=\"20\" height=\"112\" rx=\"5\"/><rect x=\"-10\" y=\"-56\" width=\"20\" height=\"112\" rx=\"5\" transform=\"rotate(45)\"/>\n"
     "    <rect x=\"-10\" y=\"-56\" width=\"20\" height=\"112\" rx=\"5\" transform=\"rotate(90)\"/><rect x=\"-10\" y=\"-56\" width=\"20\" height=\"112\" rx=\"5\" transform=\"rotate(135)\"/>\n"
     "    <circle r=\"40\"/></g>\n  <circle cx=\"64\" cy=\"64\" r=\"16\" fill=\"#f4f5f8\"/>\n</svg>\n"},
};

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "config/media";
    char path[512];
    struct { const char *name; scene_fn f; int w, h; int kind; } scenes[] = {  /* kind: 0 jpeg, 1 png, 2 webp, 6 jpeg+exif6 */
        {"01-mountain-dawn.jpg", mountain_dawn, 800, 600, 0},
        {"02-lake-evening.jpg", lake_evening, 800, 600, 0},
        {"03-city-night.jpg", city_night, 800, 600, 0},
        {"04-forest-mist.jpg", forest_mist, 800, 600, 0},
        {"05-harbour-portrait-exif6.jpg", harbour_portrait, 600, 800, 6},
        {"06-desert-dunes.png", desert_dunes, 480, 360, 1},
        {"07-aurora.png", aurora, 480, 360, 1},
        {"08-ocean-waves.png", ocean_waves, 480, 360, 1},
        {"09-bokeh-lights.png", bokeh, 480, 360, 1},
        {"10-sunset-stripes.webp", sunset_stripes, 800, 600, 2},
    };
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, scenes[i].name);
        cairo_surface_t *s = draw(scenes[i].f, scenes[i].w, scenes[i].h, scenes[i].kind == 6);
        if (scenes[i].kind == 1) save_png(s, path);
        else if (scenes[i].kind == 2) save_webp(s, path);
        else save_jpeg(s, path, scenes[i].kind);
        cairo_surface_destroy(s);
    }
    for (size_t i = 0; i < sizeof icons / sizeof icons[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, icons[i][0]);
        write_file(path, (const unsigned char *)icons[i][1], strlen(icons[i][1]));
    }
    return 0;
}
