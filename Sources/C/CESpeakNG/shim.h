// espeak-ng's C API (Debian's libespeak-ng-dev): text to 16-bit PCM in the caller's callback.
// Declarations only: the program does not link the library (CESpeakNGLoader opens it).
#include <espeak-ng/speak_lib.h>
