// The definitions a loader makes from its list of functions (library_loader.h). A loader
// writes its list as a macro `LIST(F, V)`, one entry per function:
//   F(LIBRARY, return type, name, (parameters), (arguments))   a function that returns a value
//   V(LIBRARY, name, (parameters), (arguments))                one that returns nothing
// where LIBRARY is the index of its library in the set's sonames, and then writes
//   KC_LOADER(LIST, "name for messages", sonames)
// once: the pointers the load fills, the `struct kc_symbol` array, the set itself (a file-static
// `kc_loader_set`, for the loader's own load function) and the functions, each checked by the
// compiler against the library header's declaration, each loading the set when it is not loaded
// and jumping to the library's own. (scripts/dlopen-probe.sh reads the same lists for the
// package's Depends.)
#ifndef KIOSK_LIBRARY_LOADER_FUNCTIONS_H
#define KIOSK_LIBRARY_LOADER_FUNCTIONS_H
#include "library_loader.h"

#define KC_LOADER_POINTER(lib, ret, name, params, args) static ret (*kc_ptr_##name) params;
#define KC_LOADER_POINTER_V(lib, name, params, args) static void (*kc_ptr_##name) params;
#define KC_LOADER_SYMBOL(lib, ret, name, params, args) { lib, #name, (void **)&kc_ptr_##name },
#define KC_LOADER_SYMBOL_V(lib, name, params, args) { lib, #name, (void **)&kc_ptr_##name },
#define KC_LOADER_DEFINE(lib, ret, name, params, args) \
    ret name params { kc_library_set_ready(&kc_loader_set, #name); return kc_ptr_##name args; }
#define KC_LOADER_DEFINE_V(lib, name, params, args) \
    void name params { kc_library_set_ready(&kc_loader_set, #name); kc_ptr_##name args; }

#define KC_LOADER(LIST, what, soname_array) \
    LIST(KC_LOADER_POINTER, KC_LOADER_POINTER_V) \
    static const struct kc_symbol kc_loader_symbols[] = { LIST(KC_LOADER_SYMBOL, KC_LOADER_SYMBOL_V) }; \
    static struct kc_library_set kc_loader_set = KC_LIBRARY_SET(what, soname_array, kc_loader_symbols); \
    LIST(KC_LOADER_DEFINE, KC_LOADER_DEFINE_V)

#endif
