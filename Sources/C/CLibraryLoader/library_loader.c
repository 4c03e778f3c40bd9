// Opening a set of libraries on demand (include/library_loader.h).
#include "library_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void load_locked(struct kc_library_set *set) {
    void *handles[8] = { 0 };
    if (set->library_count > (int)(sizeof handles / sizeof handles[0])) {
        snprintf(set->failure, sizeof set->failure, "%s: %d libraries, more than the loader holds", set->name, set->library_count);
        atomic_store_explicit(&set->state, -1, memory_order_release);
        return;
    }
    for (int i = 0; i < set->library_count; i++) {
        handles[i] = dlopen(set->sonames[i], RTLD_NOW | RTLD_LOCAL);
        if (!handles[i]) {
            const char *why = dlerror();
            snprintf(set->failure, sizeof set->failure, "%s", why ? why : set->sonames[i]);
            atomic_store_explicit(&set->state, -1, memory_order_release);
            return;   // the ones opened stay open: nothing else would use them, and they are few
        }
    }
    for (size_t i = 0; i < set->symbol_count; i++) {
        const struct kc_symbol *symbol = &set->symbols[i];
        dlerror();
        void *f = dlsym(handles[symbol->library], symbol->name);
        if (!f) {
            snprintf(set->failure, sizeof set->failure, "%s has no %s", set->sonames[symbol->library], symbol->name);
            atomic_store_explicit(&set->state, -1, memory_order_release);
            return;
        }
        *symbol->slot = f;
    }
    atomic_store_explicit(&set->state, 1, memory_order_release);
}

int kc_library_set_load(struct kc_library_set *set, char *error, size_t size) {
    if (atomic_load_explicit(&set->state, memory_order_acquire) == 0) {
        pthread_mutex_lock(&set->lock);
        if (atomic_load_explicit(&set->state, memory_order_relaxed) == 0) load_locked(set);
        pthread_mutex_unlock(&set->lock);
    }
    if (atomic_load_explicit(&set->state, memory_order_acquire) == 1) return 0;
    if (error && size) snprintf(error, size, "%s", set->failure);
    return -1;
}

const char *kc_library_set_joined_sonames(struct kc_library_set *set) {
    pthread_mutex_lock(&set->lock);
    if (!set->joined[0]) {
        size_t used = 0;
        for (int i = 0; i < set->library_count && used < sizeof set->joined; i++) {
            int n = snprintf(set->joined + used, sizeof set->joined - used, "%s%s", i ? " " : "", set->sonames[i]);
            if (n < 0) break;
            used += (size_t)n;
        }
    }
    pthread_mutex_unlock(&set->lock);
    return set->joined;
}

void kc_library_set_need(struct kc_library_set *set, const char *function) {
    char why[512];
    if (kc_library_set_load(set, why, sizeof why) == 0) return;
    fprintf(stderr, "kiosk-carousel: %s's %s was called, but %s could not be loaded: %s\n", set->name, function, set->name, why);
    abort();
}
