// The C libraries that draw card faces, in one module so that cairo.h is seen once.
// pkg-config "pangocairo" supplies the include paths (cairo, pango, harfbuzz, glib);
// module.modulemap adds the link lines for the rest.
#include <cairo.h>
#include <pango/pangocairo.h>
#include <gio/gio.h>
#include <turbojpeg.h>
#include <png.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include "rsvg_api.h"
// Linux interfaces Glibc's Swift module leaves out: the workers' eventfd, inotify on media.
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <malloc.h>
