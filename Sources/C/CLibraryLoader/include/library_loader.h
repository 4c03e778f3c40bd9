// Shared libraries opened with dlopen when the program first needs them, not when it starts
// (docs/start-up.md, "Libraries opened on demand" and "The drawing libraries behind the
// start"): FFmpeg (CFFmpegLoader), librsvg (CRsvgLoader), espeak-ng (CESpeakNGLoader), cairo,
// pango, fontconfig and the picture decoders (CCardLibsLoader), libinput and libevdev
// (CInputLibsLoader), libasound (CALSALoader). Each loader defines the library functions the
// program calls, with the prototypes of the library's own header, each jumping through a
// pointer that `kc_library_set_load` fills (library_loader_functions.h writes those
// definitions from one list per loader). A set is loaded once, by whichever thread asks first;
// later calls give the first answer.
#ifndef KIOSK_LIBRARY_LOADER_H
#define KIOSK_LIBRARY_LOADER_H
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

/// One function of a set: the index of its library in the set's sonames, its name, and where
/// its address goes.
struct kc_symbol {
    int library;
    const char *name;
    void **slot;
};

/// Libraries opened together, in order (a library before those that link it), and the
/// functions found in them.
struct kc_library_set {
    /// What the messages call them: "FFmpeg", "librsvg", "espeak-ng".
    const char *name;
    const char *const *sonames;
    int library_count;
    const struct kc_symbol *symbols;
    size_t symbol_count;
    pthread_mutex_t lock;
    /// 0: not tried, 1: loaded, -1: failed (`failure` says why).
    atomic_int state;
    char failure[512];
    /// The sonames joined by spaces, made at the first `kc_library_set_joined_sonames`.
    char joined[256];
};

/// A set's initial value, from arrays of sonames and symbols.
#define KC_LIBRARY_SET(what, soname_array, symbol_array) { \
    .name = what, .sonames = soname_array, \
    .library_count = (int)(sizeof soname_array / sizeof soname_array[0]), \
    .symbols = symbol_array, .symbol_count = sizeof symbol_array / sizeof symbol_array[0], \
    .lock = PTHREAD_MUTEX_INITIALIZER, .state = 0, .failure = "", .joined = "" }

/// Opens the set's libraries (RTLD_NOW | RTLD_LOCAL: the program's own symbols stay its own)
/// and finds every function, once. 0 on success; -1 with the loader's words (the library or the
/// function that is missing) in `error`.
int kc_library_set_load(struct kc_library_set *set, char *error, size_t size);

/// The set's sonames joined by spaces, `libavutil.so.57 libswresample.so.4 …`, for messages:
/// made once (under the set's lock, so it waits for a load under way) and kept in the set.
const char *kc_library_set_joined_sonames(struct kc_library_set *set);

/// For a function called before its set was loaded: loads it, or ends the program with the
/// loader's words (callers load first and turn a failure into an error of their own, so a
/// kiosk never gets here).
void kc_library_set_need(struct kc_library_set *set, const char *function);

/// Whether the set is loaded; loads it (or ends the program) when not.
static inline void kc_library_set_ready(struct kc_library_set *set, const char *function) {
    if (__builtin_expect(atomic_load_explicit(&set->state, memory_order_acquire) != 1, 0))
        kc_library_set_need(set, function);
}

#endif
