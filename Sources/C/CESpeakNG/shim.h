// espeak-ng's C API (Debian's libespeak-ng-dev): text to 16-bit PCM in the caller's callback.
#include <espeak-ng/speak_lib.h>
