// The picture decoders opened on demand (include/card_libs_loader.h; the loading itself is
// CLibraryLoader's): libjpeg-turbo's TurboJPEG API, libpng's simplified API, libwebp. Every
// function of theirs the program calls, checked by the compiler against their headers.
#include "card_libs_loader.h"

#include "library_loader_functions.h"

#pragma GCC visibility push(hidden)
#include <png.h>
#include <turbojpeg.h>
#include <webp/decode.h>

enum { TURBOJPEG, PNG, WEBP, LIBRARIES };
// libturbojpeg.so.0 since libjpeg-turbo 1.2 (2012), libpng16.so.16 since libpng 1.6 (2013),
// libwebp.so.7 since libwebp 0.6 (2017).
static const char *const sonames[LIBRARIES] = { "libturbojpeg.so.0", "libpng16.so.16", "libwebp.so.7" };

#define KC_IMAGE_DECODER_FUNCTIONS(F, V) \
    F(TURBOJPEG, int, tjCompress2, (tjhandle a0, const unsigned char *a1, int a2, int a3, int a4, int a5, unsigned char **a6, long unsigned int *a7, int a8, int a9, int a10), (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)) \
    F(TURBOJPEG, int, tjDecompress2, (tjhandle a0, const unsigned char *a1, long unsigned int a2, unsigned char *a3, int a4, int a5, int a6, int a7, int a8), (a0, a1, a2, a3, a4, a5, a6, a7, a8)) \
    F(TURBOJPEG, int, tjDecompressHeader3, (tjhandle a0, const unsigned char *a1, long unsigned int a2, int *a3, int *a4, int *a5, int *a6), (a0, a1, a2, a3, a4, a5, a6)) \
    F(TURBOJPEG, int, tjDestroy, (tjhandle a0), (a0)) \
    V(TURBOJPEG, tjFree, (unsigned char *a0), (a0)) \
    F(TURBOJPEG, char *, tjGetErrorStr2, (tjhandle a0), (a0)) \
    F(TURBOJPEG, tjscalingfactor *, tjGetScalingFactors, (int *a0), (a0)) \
    F(TURBOJPEG, tjhandle, tjInitCompress, (void), ()) \
    F(TURBOJPEG, tjhandle, tjInitDecompress, (void), ()) \
    F(PNG, int, png_image_begin_read_from_memory, (png_imagep a0, png_const_voidp a1, size_t a2), (a0, a1, a2)) \
    F(PNG, int, png_image_finish_read, (png_imagep a0, png_const_colorp a1, void *a2, png_int_32 a3, void *a4), (a0, a1, a2, a3, a4)) \
    V(PNG, png_image_free, (png_imagep a0), (a0)) \
    F(WEBP, VP8StatusCode, WebPDecode, (const uint8_t *a0, size_t a1, WebPDecoderConfig *a2), (a0, a1, a2)) \
    V(WEBP, WebPFreeDecBuffer, (WebPDecBuffer *a0), (a0)) \
    F(WEBP, VP8StatusCode, WebPGetFeaturesInternal, (const uint8_t *a0, size_t a1, WebPBitstreamFeatures *a2, int a3), (a0, a1, a2, a3)) \
    F(WEBP, int, WebPInitDecoderConfigInternal, (WebPDecoderConfig *a0, int a1), (a0, a1))

KC_LOADER(KC_IMAGE_DECODER_FUNCTIONS, "the picture decoders", sonames)

int kc_image_decoders_load(char *error, size_t size) { return kc_library_set_load(&kc_loader_set, error, size); }

const char *kc_image_decoders_sonames(void) { return kc_library_set_joined_sonames(&kc_loader_set); }
#pragma GCC visibility pop
