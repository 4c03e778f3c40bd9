// The definitions a loader makes from its list of functions (library_loader.h). A loader
// writes its list as a macro `LIST(F, V)`, one entry per function:
//   F(LIBRARY, return type, name, (parameters), (arguments))   a function that returns a value
//   V(LIBRARY, name, (parameters), (arguments))                one that returns nothing
// where LIBRARY is the index of its library in the set's sonames, then:
//   KC_LOADER_POINTERS(LIST)   the pointers the load fills
//   KC_LOADER_SYMBOLS(LIST)    the entries of its `struct kc_symbol` array
//   KC_LOADER_FUNCTIONS(LIST, set)   the functions, each checked by the compiler against the
//                              library header's declaration, each jumping to the library's own
// (scripts/dlopen-probe.sh reads the same lists for the package's Depends.)
#ifndef KIOSK_LIBRARY_LOADER_FUNCTIONS_H
#define KIOSK_LIBRARY_LOADER_FUNCTIONS_H
#include "library_loader.h"

#define KC_LOADER_POINTER(lib, ret, name, params, args) static ret (*kc_ptr_##name) params;
#define KC_LOADER_POINTER_V(lib, name, params, args) static void (*kc_ptr_##name) params;
#define KC_LOADER_POINTERS(LIST) LIST(KC_LOADER_POINTER, KC_LOADER_POINTER_V)

#define KC_LOADER_SYMBOL(lib, ret, name, params, args) { lib, #name, (void **)&kc_ptr_##name },
#define KC_LOADER_SYMBOL_V(lib, name, params, args) { lib, #name, (void **)&kc_ptr_##name },
#define KC_LOADER_SYMBOLS(LIST) LIST(KC_LOADER_SYMBOL, KC_LOADER_SYMBOL_V)

// The set is named by the macro KC_LOADER_SET, defined by the loader before it uses
// KC_LOADER_FUNCTIONS.
#define KC_LOADER_DEFINE(lib, ret, name, params, args) \
    ret name params { kc_library_set_ready(&KC_LOADER_SET, #name); return kc_ptr_##name args; }
#define KC_LOADER_DEFINE_V(lib, name, params, args) \
    void name params { kc_library_set_ready(&KC_LOADER_SET, #name); kc_ptr_##name args; }
#define KC_LOADER_FUNCTIONS(LIST) LIST(KC_LOADER_DEFINE, KC_LOADER_DEFINE_V)

#endif
