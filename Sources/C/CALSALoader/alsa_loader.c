// libasound opened on demand (include/alsa_loader.h; the loading itself is CLibraryLoader's).
// Every function of libasound's the program calls, checked by the compiler against ALSA's header.
#include "alsa_loader.h"

#include "library_loader_functions.h"

#pragma GCC visibility push(hidden)
#include <alsa/asoundlib.h>

enum { ALSA, LIBRARIES };
// libasound.so.2 since alsa-lib 0.9 (2002).
static const char *const sonames[LIBRARIES] = { "libasound.so.2" };

#define KC_ALSA_FUNCTIONS(F, V) \
    F(ALSA, int, snd_lib_error_set_handler, (snd_lib_error_handler_t a0), (a0)) \
    F(ALSA, int, snd_pcm_close, (snd_pcm_t *a0), (a0)) \
    F(ALSA, int, snd_pcm_delay, (snd_pcm_t *a0, snd_pcm_sframes_t *a1), (a0, a1)) \
    F(ALSA, int, snd_pcm_drop, (snd_pcm_t *a0), (a0)) \
    F(ALSA, int, snd_pcm_get_params, (snd_pcm_t *a0, snd_pcm_uframes_t *a1, snd_pcm_uframes_t *a2), (a0, a1, a2)) \
    F(ALSA, int, snd_pcm_nonblock, (snd_pcm_t *a0, int a1), (a0, a1)) \
    F(ALSA, int, snd_pcm_open, (snd_pcm_t **a0, const char *a1, snd_pcm_stream_t a2, int a3), (a0, a1, a2, a3)) \
    F(ALSA, int, snd_pcm_recover, (snd_pcm_t *a0, int a1, int a2), (a0, a1, a2)) \
    F(ALSA, int, snd_pcm_set_params, (snd_pcm_t *a0, snd_pcm_format_t a1, snd_pcm_access_t a2, unsigned int a3, unsigned int a4, int a5, unsigned int a6), (a0, a1, a2, a3, a4, a5, a6)) \
    F(ALSA, snd_pcm_sframes_t, snd_pcm_writei, (snd_pcm_t *a0, const void *a1, snd_pcm_uframes_t a2), (a0, a1, a2))

KC_LOADER(KC_ALSA_FUNCTIONS, "ALSA", sonames)

int kc_alsa_load(char *error, size_t size) { return kc_library_set_load(&kc_loader_set, error, size); }

const char *kc_alsa_soname(void) { return sonames[ALSA]; }
#pragma GCC visibility pop
