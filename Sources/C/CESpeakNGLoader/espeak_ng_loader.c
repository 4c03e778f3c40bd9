// espeak-ng opened on demand (include/espeak_ng_loader.h; the loading itself is
// CLibraryLoader's). Each function is defined with the prototype of espeak-ng's own header: the
// compiler checks every definition against its declaration.
#include "espeak_ng_loader.h"

#include "library_loader_functions.h"

#pragma GCC visibility push(hidden)
#include <espeak-ng/speak_lib.h>

enum { ESPEAK, LIBRARIES };
// libespeak-ng's soname (libespeak-ng1 in Debian 12 and 13).
static const char *const sonames[LIBRARIES] = { "libespeak-ng.so.1" };

#define KC_ESPEAK_NG_FUNCTIONS(F, V) \
    F(ESPEAK, int, espeak_Initialize, (espeak_AUDIO_OUTPUT output, int buflength, const char *path, int options), \
        (output, buflength, path, options)) \
    V(ESPEAK, espeak_SetSynthCallback, (t_espeak_callback *SynthCallback), (SynthCallback)) \
    F(ESPEAK, espeak_ERROR, espeak_SetParameter, (espeak_PARAMETER parameter, int value, int relative), \
        (parameter, value, relative)) \
    F(ESPEAK, const espeak_VOICE **, espeak_ListVoices, (espeak_VOICE *voice_spec), (voice_spec)) \
    F(ESPEAK, espeak_ERROR, espeak_SetVoiceByProperties, (espeak_VOICE *voice_spec), (voice_spec)) \
    F(ESPEAK, espeak_ERROR, espeak_Synth, (const void *text, size_t size, unsigned int position, \
        espeak_POSITION_TYPE position_type, unsigned int end_position, unsigned int flags, \
        unsigned int *unique_identifier, void *user_data), \
        (text, size, position, position_type, end_position, flags, unique_identifier, user_data)) \
    F(ESPEAK, espeak_ERROR, espeak_Terminate, (void), ())

KC_LOADER(KC_ESPEAK_NG_FUNCTIONS, "espeak-ng", sonames)

int kc_espeak_ng_load(char *error, size_t size) { return kc_library_set_load(&kc_loader_set, error, size); }

const char *kc_espeak_ng_sonames(void) { return sonames[ESPEAK]; }
#pragma GCC visibility pop
